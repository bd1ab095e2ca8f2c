/* record-time regexes see the names the views match (issue 28, items 1
 * and 2): a function template in a namespace returning void, whose full
 * demangled name begins with its return type, "bar2(int)" for a regex
 * anchored at the end of the name without its parameters, and a
 * std::thread, whose calls all start in std::thread's _M_run */
#include <thread>

#include "ct_test.h"

namespace ns {
template <class T> NOINLINE void twice(T v)
{
	sink += (int)v;
	sink += (int)v;
}
} // namespace ns

NOINLINE int bar2(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void work(int i)
{
	ns::twice<int>(i);
	ns::twice<long>(i);
	leaf(bar2(i));
}

NOINLINE void job(int n)
{
	for (int i = 0; i < n; i++)
		work(i);
}

int main()
{
	std::thread t(job, 2);
	t.join();
	job(3);
	return 0;
}
