/* SPDX-License-Identifier: MIT */
/* dlswap's second library: usually mapped where the first one was */
#include "ct_test.h"

NOINLINE int bar_b(int x)
{
	sink = x;
	return x - 1;
}

NOINLINE int baz_b(int x)
{
	sink = x;
	return bar_b(x) + 3;
}

int entry_b(int x)
{
	return baz_b(x) * 3;
}
