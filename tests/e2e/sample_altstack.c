/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample (tests/e2e/sample_count_altstack.sh): samples
 * in a signal handler that runs on the signal stack (sigaltstack,
 * SA_ONSTACK).  outer() raises SIGUSR1 each round; the handler calls
 * in_handler(), traced, which works on the signal stack; the sample's walk
 * goes from there through the signal frame to outer() and main() on the
 * thread's own stack.
 *   sample_altstack [ROUNDS]   (default 40)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "ct_test.h"

#define UNIT 2000000L /* loop turns per round */

NOTRACE NOINLINE static void loop(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

NOINLINE void in_handler(void)
{
	loop(UNIT);
	sink++;
}

NOINLINE static void on_usr1(int sig)
{
	(void)sig;
	in_handler();
	sink++;
}

NOINLINE int outer(int r)
{
	raise(SIGUSR1);
	return r + sink;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	static char altstack[1 << 16];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack), .ss_flags = 0};
	if (sigaltstack(&ss, NULL)) {
		perror("sigaltstack");
		return 1;
	}
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	int s = 0;
	for (int r = 0; r < rounds; r++)
		s += outer(r);
	printf("%d\n", s > 0);
	return 0;
}
