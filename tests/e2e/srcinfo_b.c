/* SPDX-License-Identifier: MIT */
/* srcinfo's second file, compiled as "./srcinfo_b.c" from its directory */
#include "ct_test.h"

NOINLINE int helper_b(int x)
{
	sink = x;
	return x + 1;
}
