/* a C++ library that throws and catches its own exception: loaded with
 * RTLD_LOCAL by cxx_local.c and by Python through ctypes (cxx_local*.sh) */
#include <stdexcept>

#include "ct_test.h"

NOINLINE static void fail_with(int v)
{
	sink += v;
	if (sink > 0) /* always: keeps the code after the throw reachable */
		throw std::runtime_error("local");
	sink += 10;
}

NOINLINE static int guarded(int v)
{
	try {
		fail_with(v);
	} catch (const std::exception &) {
		return v;
	}
	return -1;
}

extern "C" __attribute__((visibility("default"))) int cxx_work(int v)
{
	return guarded(v);
}
