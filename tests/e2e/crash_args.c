/*
 * A program that dies (abort()) inside a call whose captured arguments end
 * in a zero word (-A '^f$@arg1/d,arg2/d64': f(0, 5) is 0, 5, 0): that call's
 * ARGS record is the last record its thread wrote.
 */
#include <stdlib.h>

#include "ct_test.h"

NOINLINE void f(int x, long y)
{
	sink += x + (int)y;
	if (!x)
		abort();
}

int main(void)
{
	f(7, 1);
	f(0, 5);
	return 0;
}
