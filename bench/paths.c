/* SPDX-License-Identifier: MIT */
/* calltrace benchmark workload for the HTML report: a complete binary tree
 * of calls, left() and right() each calling both, so that every call has a
 * call path of its own: DEPTH 22 makes 2^23-1 calls and as many distinct
 * paths, the worst case for the flame graph's aggregation. */
#include <stdio.h>
#include <stdlib.h>

static volatile long sink;

__attribute__((noinline)) void right(int d);

__attribute__((noinline)) void left(int d)
{
	sink += d;
	if (d > 0) {
		left(d - 1);
		right(d - 1);
	}
}

__attribute__((noinline)) void right(int d)
{
	sink += d;
	if (d > 0) {
		left(d - 1);
		right(d - 1);
	}
}

int main(int argc, char **argv)
{
	int d = argc > 1 ? atoi(argv[1]) : 20;
	left(d);
	printf("paths(%d): %ld\n", d, sink);
	return 0;
}
