/* SPDX-License-Identifier: MIT */
/* Conditions on record-time filters (-F/-N 'REGEX@if:argN OP VALUE'):
 * fib(4) calls fib(2) twice; step(k) for k = -2..2. */
#include "ct_test.h"

NOINLINE void leaf(int x)
{
	sink = x;
}

NOINLINE int fib(int n)
{
	leaf(n);
	if (n < 2)
		return n;
	/* (a side effect after each call: no compiler turns them into a loop) */
	int a = fib(n - 1);
	sink = a;
	int b = fib(n - 2);
	sink = b;
	return a + b;
}

NOINLINE void step(long k)
{
	leaf((int)k);
}

int main(void)
{
	fib(4);
	for (long i = -2; i < 3; i++)
		step(i);
	return 0;
}
