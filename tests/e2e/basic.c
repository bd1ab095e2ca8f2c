/* basic: nested calls, a leaf, a loop */
#include <stdio.h>

#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE int inner(int x)
{
	sink += 2;
	return leaf(x) * 2;
}

NOINLINE int middle(int x)
{
	sink += 3;
	int r = inner(x);
	r += leaf(r);
	return r;
}

NOINLINE void loop(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
	sink += 4;
}

NOINLINE int outer(void)
{
	sink += 5;
	int r = middle(1);
	loop(3);
	return r;
}

#ifdef CT_REBUILT
/* only in the rebuilt binary of the rebuild case: other code, other build-id */
NOINLINE int added(int x)
{
	return x + 7;
}
#endif

int main(void)
{
	int r = outer();
	r = leaf(r);
	printf("basic %d\n", r);
	return 0;
}
