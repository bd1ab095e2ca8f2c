/* the library of tests/e2e/mixed.c, built with another front end than the
 * program: frames of both kinds interleave on one stack */
#include "ct_test.h"

NOINLINE int lib_leaf(int x)
{
	sink++;
	return x * 2;
}

/* calls back into the program */
NOINLINE int lib_mid(int x, int (*cb)(int))
{
	sink++;
	return lib_leaf(x) + cb(x) + lib_leaf(x + 1);
}
