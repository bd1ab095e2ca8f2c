/* a traced signal handler on an alternate signal stack interrupts traced
 * recursion (and the tracer's hooks) thousands of times; every 100th call
 * it siglongjmp()s out, abandoning the frames it interrupted */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ct_test.h"

static sigjmp_buf jb;
static volatile int handled, jumps, done;

NOINLINE void h_leaf(int x)
{
	sink += x;
}

NOINLINE void handler(int s)
{
	h_leaf(s);
	handled++;
	if (handled % 100 == 0 && jumps < 20) {
		jumps++;
		siglongjmp(jb, 1);
	}
}

NOINLINE int rec(int n)
{
	if (n == 0) {
		h_leaf(1);
		return 0;
	}
	int r = rec(n - 1);
	sink += r;
	return r + 1;
}

NOTRACE static void *killer(void *arg)
{
	pthread_t main_thread = *(pthread_t *)arg;
	for (long i = 0; i < 10000000 && !done; i++) {
		pthread_kill(main_thread, SIGUSR1);
		usleep(20);
	}
	return NULL;
}

int main(void)
{
	stack_t ss;
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	struct sigaction sa;
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t me = pthread_self(), k;
	pthread_create(&k, NULL, killer, &me);
	volatile int rounds = 0;
	sigsetjmp(jb, 1);
	/* at least 20000 rounds, and on until three jumps were made (however
	 * slowly the signals come on a loaded machine) */
	while (rounds < 20000 || (jumps < 3 && rounds < 50000000)) {
		rounds++;
		rec(20);
	}
	done = 1;
	pthread_join(k, NULL);
	/* the count depends on timing: it goes to stderr, the check compares */
	fprintf(stderr, "handled %d\n", handled);
	printf("finished, %s\n", jumps >= 3 ? "3 jumps or more" : "fewer than 3 jumps");
	return 0;
}
