// report_diff_cxx: two builds of one C++ program (BUILD 0 and 1) for
// report --diff --demangle: ns::calc(int) and ns::calc(double) are
// overloads; the new build calls calc(double) 3 times instead of once
// and drops ns::Old::run(int) for ns::Fresh::run(int).
#include "ct_test.h"

#ifndef BUILD
#define BUILD 0
#endif

namespace ns {
NOINLINE int calc(int x)
{
	sink += x;
	return x;
}
NOINLINE double calc(double x)
{
	sink += 1;
	return x;
}
#if BUILD
struct Fresh {
	NOINLINE static void run(int x) { sink += x; }
};
#else
struct Old {
	NOINLINE static void run(int x) { sink += x; }
};
#endif
} // namespace ns

int main()
{
	ns::calc(1);
	for (int i = 0; i < (BUILD ? 3 : 1); i++)
		ns::calc(2.0);
#if BUILD
	ns::Fresh::run(3);
#else
	ns::Old::run(3);
#endif
	return 0;
}
