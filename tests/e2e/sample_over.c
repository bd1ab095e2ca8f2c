/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample (tests/e2e/sample_count_over.sh): a traced call
 * that is over while its caller runs untraced code.  caller() calls
 * quick(), traced, which returns at once, then loop(), untraced, from the
 * same place in its frame (loop's frame is where quick's was): all that
 * time is caller()'s own.  early(), a traced constructor, ran before main
 * and is over for good.
 *   sample_over [ROUNDS]   (default 40)
 */
#include <stdio.h>
#include <stdlib.h>

#include "ct_test.h"

#define UNIT 2000000L /* loop turns per round */

NOINLINE int quick(int x)
{
	sink++;
	return x + 1;
}

NOTRACE NOINLINE static void loop(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

NOINLINE int caller(int rounds)
{
	int s = 0;
	for (int r = 0; r < rounds; r++) {
		s += quick(r);
		loop(UNIT);
	}
	return s;
}

__attribute__((constructor)) NOINLINE static void early(void)
{
	sink++;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	printf("%d\n", caller(rounds));
	return 0;
}
