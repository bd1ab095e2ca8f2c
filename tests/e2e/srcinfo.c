/* SPDX-License-Identifier: MIT */
/* Source information from DWARF: main split by gcc -O2 into a hot part
 * and main.cold (its DWARF has DW_AT_ranges and no low pc), and a function
 * of another file compiled by a relative path ("./srcinfo_b.c"). */
#include <stdio.h>
#include <stdlib.h>

#include "ct_test.h"

int helper_b(int x);

NOINLINE int work(int x)
{
	sink = x;
	return x * 3;
}

NOINLINE __attribute__((cold)) void oops(const char *s)
{
	fprintf(stderr, "%s\n", s);
}

int main(int argc, char **argv)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += work(i) + helper_b(i);
	if (argc > 5) {
		oops(argv[1]);
		oops(argv[2]);
		exit(3);
	}
	printf("%d\n", s);
	return 0;
}
