/* drop: a recursion called in a loop, ~2 M calls, for record --drop */
#include <stdio.h>

#include "ct_test.h"

NOINLINE int rec(int n)
{
	sink += 1;
	return n <= 1 ? 1 : rec(n - 1) + rec(n - 2);
}

NOINLINE int round_(int i)
{
	return rec(14 + i % 2);
}

int main(void)
{
	int r = 0;
	for (int i = 0; i < 1000; i++)
		r += round_(i);
	printf("drop %d\n", r);
	return 0;
}
