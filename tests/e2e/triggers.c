/* record-time triggers, --trace=off, --signal, the program's API
 * (calltrace_on/calltrace_off) and the windows (--time-range, --max-size):
 * main calls each function in turn; argv[1] says what else to do
 * ("jump": a longjmp out of outer and jumpy) */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "calltrace/calltrace.h"
#include "ct_test.h"

NOTRACE static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

NOTRACE static void nap(void)
{
	struct timespec ts = {0, 2000000};
	nanosleep(&ts, NULL);
}

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void busy(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

NOINLINE void quiet(void)
{
	leaf(1);
	busy(2);
}

NOINLINE void loud(void)
{
	leaf(2);
	quiet();
	busy(1);
}

NOINLINE void deep(int n)
{
	leaf(n);
	if (n > 0)
		deep(n - 1);
	sink += n; /* not a tail call */
}

/* at least 25 ms */
NOINLINE void slow(void)
{
	long t0 = now_ns();
	while (now_ns() - t0 < 25000000L)
		sink++;
	leaf(3);
}

NOINLINE void timed(void)
{
	busy(2);
	slow();
	leaf(4);
}

static jmp_buf env;

/* left by a longjmp, having called nothing */
NOINLINE void jumpy(void)
{
	sink += 2;
	longjmp(env, 1);
}

NOINLINE void outer(void)
{
	leaf(5);
	jumpy();
	sink += 5; /* not a tail call */
}

NOINLINE void phase(int i)
{
	leaf(i);
}

NOINLINE void last(void)
{
	leaf(9);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	busy(1);
	loud();
	deep(4);
	timed();
	if (!strcmp(mode, "jump") && !setjmp(env))
		outer();
	phase(1);
	if (!strcmp(mode, "sig"))
		raise(SIGUSR1);
	if (!strcmp(mode, "api"))
		calltrace_off();
	phase(2);
	if (!strcmp(mode, "sig"))
		raise(SIGUSR1);
	if (!strcmp(mode, "api"))
		calltrace_on();
	phase(3);
	if (!strcmp(mode, "many")) {
		/* slowly enough for record to see the size reached while
		 * the program runs (a round of its loop: a few ms) */
		for (int i = 0; i < 200000; i++) {
			leaf(i);
			if (i % 5000 == 0)
				nap();
		}
	}
	last();
	busy(1);
	printf("done\n");
	return 0;
}
