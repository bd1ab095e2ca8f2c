/* SPDX-License-Identifier: MIT */
/* dlswap's first library: unloaded before the second is loaded */
#include "ct_test.h"

NOINLINE int foo_a(int x)
{
	sink = x;
	return x + 1;
}

int entry_a(int x)
{
	return foo_a(x) * 2;
}
