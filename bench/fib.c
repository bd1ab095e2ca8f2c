/* SPDX-License-Identifier: MIT */
/* calltrace benchmark workload: recursive Fibonacci, one real call per node.
 * fib(n) makes 2*F(n+1)-1 calls; main adds one more. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30;
	printf("fib(%d) = %ld\n", n, fib(n));
	return 0;
}
