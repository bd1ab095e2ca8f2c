/* locfilt: functions in two source files (locfilt_b.c: b_work); -L picks
 * them by file */
#include "ct_test.h"

void b_work(int x);

NOINLINE void a_leaf(int x)
{
	sink += x;
}

NOINLINE void a_top(int x)
{
	b_work(x);
	sink += 1;
}

int main(void)
{
	a_top(1);
	b_work(2);
	a_leaf(3);
	return 0;
}
