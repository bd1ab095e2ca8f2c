/* callsite_fast's library (tests/e2e/callsite_fast.sh): its calls of the
 * program's callback are call sites far from the function (another
 * module): the long form of CT_EXT_CALLSITE */
#include "ct_test.h"

NOINLINE int lib_inner(int x)
{
	sink += x;
	return x * 2;
}

NOINLINE int lib_twice(int x, int (*cb)(int))
{
	int r = cb(x);
	r += lib_inner(r);
	return r + cb(r);
}
