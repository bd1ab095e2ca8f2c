/* callsite_fast: call sites of every encoding (tests/e2e/callsite_fast.sh):
 * near ones before and after the function (the short form), ones in a
 * library calling back into the program and the program calling the
 * library (the long form, and the address's high bits changing), library
 * calls (--libcall).  The line numbers of this file are in
 * callsite_fast.expected: add lines at the end */
#include <stdlib.h>

#include "ct_test.h"

int lib_twice(int x, int (*cb)(int)); /* callsite_fast_lib.c */

NOINLINE int up(int x);

NOINLINE int leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE int near_after(int x)
{
	int r = leaf(x);
	return r + up(r);
}

NOINLINE int up(int x)
{
	sink += x;
	return x + 2;
}

NOINLINE int far_caller(int x)
{
	return lib_twice(x, leaf) + 1;
}

NOINLINE long parse(const char *s)
{
	long v = strtol(s, NULL, 10); /* (not a tail call: it would have no call site) */
	sink += (int)v;
	return v;
}

int main(int argc, char **argv)
{
	int r = near_after(argc);
	r += far_caller(r);
	r += (int)parse("42");
	r += up(r);
	sink += r;
	return 0;
}
