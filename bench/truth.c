/* SPDX-License-Identifier: MIT */
/*
 * truth: functions that do known amounts of work, for the function-level
 * figure of bench/accuracy.sh (doc/overhead.md).  Each spins a loop of a
 * known length in its own frame:
 *
 *   tiny    10 turns, called 20 times by each call of parent
 *   parent  1000 turns of its own, then 20 calls of tiny
 *   small   200 turns
 *   big     20000 turns
 *
 *   truth run    the calls that a traced build records: parent x 50000
 *                (tiny x 1000000), small x 100000, big x 1000
 *   truth time   (the plain build, untraced) each function's own cost per
 *                call, in ns: the median of 7 timings of a batch of its
 *                calls; parent's is its batch less the tiny calls it makes
 *                (timed alone).  Lines "NAME CALLS NS_PER_CALL", CALLS as in
 *                `truth run`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __clang__
#define WORK __attribute__((noinline))
#else
#define WORK __attribute__((noinline, noclone))
#endif

#define PARENTS 50000
#define TINY_PER_PARENT 20
#define SMALLS 100000
#define BIGS 1000

/* n turns of a loop in assembly, the same at every -O level (a macro: an
 * inlined function would be instrumented by -finstrument-functions) */
#define spin(n)                                                     \
	do {                                                        \
		unsigned long n_ = (n);                             \
		__asm__ volatile("1: dec %0\n\tjnz 1b" : "+r"(n_)); \
	} while (0)

WORK void tiny(void)
{
	spin(10);
}

WORK void parent(void)
{
	spin(1000);
	for (int i = 0; i < TINY_PER_PARENT; i++)
		tiny();
}

WORK void small(void)
{
	spin(200);
}

WORK void big(void)
{
	spin(20000);
}

static WORK void run(void)
{
	for (int i = 0; i < PARENTS; i++)
		parent();
	for (int i = 0; i < SMALLS; i++)
		small();
	for (int i = 0; i < BIGS; i++)
		big();
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* ns per call of fn, n calls a batch: the median of 7 batches */
static double per_call(void (*fn)(void), long n)
{
	double v[7];
	for (int r = 0; r < 7; r++) {
		double t0 = now();
		for (long i = 0; i < n; i++)
			fn();
		v[r] = (now() - t0) / (double)n;
	}
	for (int i = 1; i < 7; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return v[3];
}

static void (*volatile tiny_p)(void) = tiny;
static void (*volatile parent_p)(void) = parent;
static void (*volatile small_p)(void) = small;
static void (*volatile big_p)(void) = big;

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "run")) {
		run();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "time")) {
		double t = per_call(tiny_p, (long)PARENTS * TINY_PER_PARENT);
		double p = per_call(parent_p, PARENTS) - TINY_PER_PARENT * t;
		printf("tiny %ld %.3f\n", (long)PARENTS * TINY_PER_PARENT, t);
		printf("parent %d %.3f\n", PARENTS, p);
		printf("small %d %.3f\n", SMALLS, per_call(small_p, SMALLS));
		printf("big %d %.3f\n", BIGS, per_call(big_p, BIGS));
		return 0;
	}
	fprintf(stderr, "usage: truth run|time\n");
	return 2;
}
