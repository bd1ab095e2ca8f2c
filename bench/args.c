/* SPDX-License-Identifier: MIT */
/* calltrace benchmark: a call with two integer arguments and an integer
 * return value, N times (bench/args.sh). */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) int pair(int a, int b)
{
	sink = a;
	return a ^ b;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int acc = 0;
	for (long i = 0; i < n; i++)
		acc += pair((int)i, acc);
	printf("%d\n", acc);
	return 0;
}
