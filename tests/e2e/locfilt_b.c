/* locfilt's second source file (tests/e2e/locfilt.c) */
#include "ct_test.h"

void a_leaf(int x);
void b_work(int x);

NOINLINE void b_work(int x)
{
	a_leaf(x);
	sink += 2;
}
