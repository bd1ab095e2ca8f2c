/* SPDX-License-Identifier: MIT */
/* aarch64 -pg with one function built with return-address signing
 * (pac-ret): its saved link register is signed, so the runtime must not
 * replace it (autiasp would fault); that function's calls are not traced
 * and are counted as lost, the others are traced as usual (aarch64.sh). */
#include <stdio.h>

#include "ct_test.h"

NOINLINE int leaf(int a)
{
	sink += a;
	return a * 2;
}

NOINLINE __attribute__((target("branch-protection=pac-ret"))) int signed_fn(int x)
{
	int r = leaf(x);
	sink += r;
	return r + 1;
}

NOINLINE int plain(int x)
{
	return signed_fn(x) + leaf(x);
}

int main(void)
{
	int r = plain(3) + signed_fn(4);
	printf("r=%d\n", r);
	return 0;
}
