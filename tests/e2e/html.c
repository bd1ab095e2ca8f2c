/* html: a program for the HTML report's test.  compute's most expensive
 * callee is heavy (few, long calls) while cheap has the most calls, so
 * sorting the flat profile by calls and by total gives different orders.
 * recurse calls itself (its callers' times add up to its total once), a
 * thread named "worker" runs tick (the timeline's thread choice), and
 * main marks "computed" between run and recurse (a mark on the timeline).
 * With the argument "paths": a binary tree of calls, 2^13 distinct call
 * paths, more than the report embeds.  With "fork": a child process and
 * its parent each run tick (the timeline's lanes name their command). */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calltrace/calltrace.h"
#include "ct_test.h"

NOINLINE void heavy(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

/* long enough to get a box of its own in the flame graph however the
 * machine is loaded (about 6% of heavy's loop iterations) */
NOINLINE void cheap(int x)
{
	for (int i = 0; i < 200; i++)
		sink += x + i;
}

NOINLINE void compute(void)
{
	for (int i = 0; i < 3; i++)
		heavy(2000000);
	for (int i = 0; i < 2000; i++)
		cheap(i);
}

NOINLINE void parse(void)
{
	for (int i = 0; i < 50; i++)
		cheap(i);
	heavy(200000);
}

NOINLINE void run(void)
{
	parse();
	compute();
}

NOINLINE void recurse(int n)
{
	for (int i = 0; i < 200000; i++)
		sink += i;
	if (n > 0)
		recurse(n - 1);
}

NOINLINE void tick(void)
{
	for (int i = 0; i < 100000; i++)
		sink += i;
}

NOINLINE void *worker(void *arg)
{
	pthread_setname_np(pthread_self(), "worker");
	for (int i = 0; i < 5; i++)
		tick();
	return arg;
}

NOINLINE void left(int d);
NOINLINE void right(int d);

NOINLINE void left(int d)
{
	sink += d;
	if (d > 0) {
		left(d - 1);
		right(d - 1);
	}
}

NOINLINE void right(int d)
{
	sink += d;
	if (d > 0) {
		left(d - 1);
		right(d - 1);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		pid_t p = fork();
		if (p == 0) {
			tick();
			_exit(0);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
		tick();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "paths")) {
		left(12);
		return 0;
	}
	pthread_t t;
	if (pthread_create(&t, NULL, worker, NULL) == 0)
		pthread_join(t, NULL);
	run();
	calltrace_mark("computed");
	recurse(3);
	return 0;
}
