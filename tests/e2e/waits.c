/* SPDX-License-Identifier: MIT */
/* waits: enough calls to fill small buffers at once, so that a thread
 * waits for a drainer held back; the waiting happens inside busy() */
#include <stdio.h>

#include "ct_test.h"

NOINLINE int leaf(int i)
{
	sink += i;
	return i;
}

NOINLINE int busy(int n)
{
	int r = 0;
	for (int i = 0; i < n; i++)
		r += leaf(i);
	return r;
}

int main(void)
{
	printf("waits %d\n", busy(200000) & 1);
	return 0;
}
