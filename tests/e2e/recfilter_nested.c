/* -F with -D: the depth restarts at each -F call (issue 28, item 4) */
#include "ct_test.h"

NOINLINE void alloc5(void)
{
	sink++;
}

NOINLINE void alloc4(void)
{
	alloc5();
	sink++;
}

NOINLINE void alloc3(void)
{
	alloc4();
	sink++;
}

NOINLINE void alloc2(void)
{
	alloc3();
	sink++;
}

NOINLINE void alloc1(void)
{
	alloc2();
	alloc5();
	sink++;
}

NOINLINE void other(void)
{
	alloc4();
}

int main(void)
{
	alloc1();
	other();
	alloc3();
	return 0;
}
