/* inject_throw_c's C++ library (loaded RTLD_LOCAL): calls back into the C
 * program inside a try block */
#include <new>
#include <stdexcept>

extern "C" __attribute__((visibility("default"))) int cxx_guard(int (*fn)(int), int v)
{
	try {
		return fn(v);
	} catch (const std::bad_alloc &) {
		return -1;
	} catch (const std::exception &) {
		return -2;
	}
}
