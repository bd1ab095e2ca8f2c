/* SPDX-License-Identifier: MIT */
/*
 * calib: what a call of an empty traced function costs in this program
 * (tests/e2e/calib.sh): batches of 128 calls of empty(), traced, and
 * of empty_plain(), not, from one loop, turn about; prints the median of
 * 301 rounds of (traced - plain) / 128 in picoseconds per call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ct_test.h"

#define CALLS 128
#define ROUNDS 301

NOINLINE void empty(void)
{
	__asm__ volatile("");
}

NOTRACE NOINLINE void empty_plain(void)
{
	__asm__ volatile("");
}

NOTRACE static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

NOTRACE static int cmp(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* traced, so that empty()'s calls are made inside a traced call, as a
 * program's are (a hooked front end's first frame takes a slow path) */
NOINLINE static int run(void)
{
	static long long diff[ROUNDS];
	for (int r = 0; r <= ROUNDS; r++) {
		long long t0 = now_ns();
		for (int i = 0; i < CALLS; i++)
			empty_plain();
		long long t1 = now_ns();
		for (int i = 0; i < CALLS; i++)
			empty();
		long long t2 = now_ns();
		if (r > 0) /* the first: a warm-up */
			diff[r - 1] = (t2 - t1) - (t1 - t0);
	}
	qsort(diff, ROUNDS, sizeof(diff[0]), cmp);
	printf("%lld\n", diff[ROUNDS / 2] * 1000 / CALLS);
	return sink;
}

NOTRACE int main(void)
{
	return run();
}
