/* sizefilt: functions of very different sizes for -Z/--size-filter.  The
 * small ones (a store and a call or two) are well under 256 bytes at
 * every level and front end; the big ones (BLOCK's 64 volatile updates)
 * well over 1 KiB.  The case checks both with nm -S. */
#include "ct_test.h"

#define UPD(k) sink = sink * 3 + (k);
#define UPD8(k) UPD(k) UPD(k + 1) UPD(k + 2) UPD(k + 3) UPD(k + 4) UPD(k + 5) UPD(k + 6) UPD(k + 7)
#define BLOCK UPD8(1) UPD8(11) UPD8(21) UPD8(31) UPD8(41) UPD8(51) UPD8(61) UPD8(71)

NOINLINE void big_leaf(void)
{
	BLOCK
}

NOINLINE void small_leaf(void)
{
	sink++;
}

/* small, but what it calls is big: under -Z it goes, big_leaf stays */
NOINLINE void small_wrap(void)
{
	sink++;
	big_leaf();
	small_leaf();
}

NOINLINE void big_outer(int n)
{
	BLOCK
	for (int i = 0; i < n; i++)
		small_wrap();
	small_leaf();
	big_leaf();
}

NOINLINE void big_other(void)
{
	BLOCK
	small_leaf();
}

int main(void)
{
	BLOCK
	big_outer(2);
	small_wrap();
	big_other();
	return 0;
}
