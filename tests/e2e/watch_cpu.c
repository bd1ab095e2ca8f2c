/* SPDX-License-Identifier: MIT */
/*
 * watch_cpu: a thread that moves itself from one CPU to another between
 * two calls (tests/e2e/watch_cpu.sh, record -W cpu).  "watch_cpu probe"
 * prints two CPUs this process may run on (or "none"); "watch_cpu A B"
 * pins itself to A, calls first(), pins itself to B, calls second() and
 * third() (no move between them), starts a thread pinned to A that calls
 * worker(), then pins itself back to A and calls first() again.
 * "watch_cpu spin A B": on A, spin() (20 ms or more of calls of leaf()),
 * then on B a leaf() and spin(), then on A a leaf() and spin() (record
 * -t 10ms keeps the spins and takes back the short calls).  Where
 * each call runs is set by sched_setaffinity alone, never left to the
 * scheduler: the kernel moves a thread off a CPU its mask excludes before
 * the call returns.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink = x;
	return x + 1;
}

NOINLINE int first(int x)
{
	return leaf(x) + 1;
}

NOINLINE int second(int x)
{
	return leaf(x) + 2;
}

NOINLINE int third(int x)
{
	return leaf(x) + 3;
}

/* calls of leaf() for 20 ms or more of CLOCK_MONOTONIC */
NOINLINE void spin(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	int i = 0;
	do {
		leaf(i++);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 20000000L);
}

NOINLINE void *worker(void *arg)
{
	leaf(4);
	return arg;
}

NOTRACE static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s) != 0 || sched_getcpu() != cpu) {
		printf("cannot move to CPU %d\n", cpu);
		exit(1);
	}
}

NOTRACE int main(int argc, char **argv)
{
	if (argc == 2 && argv[1][0] == 'p') {
		cpu_set_t s;
		int a = -1, b = -1;
		if (sched_getaffinity(0, sizeof(s), &s) == 0)
			for (int c = 0; c < CPU_SETSIZE && b < 0; c++)
				if (CPU_ISSET(c, &s)) {
					if (a < 0)
						a = c;
					else
						b = c;
				}
		if (b < 0)
			printf("none\n");
		else
			printf("%d %d\n", a, b);
		return 0;
	}
	if (argc == 4 && argv[1][0] == 's') {
		int a = (int)strtol(argv[2], NULL, 10), b = (int)strtol(argv[3], NULL, 10);
		pin(a);
		spin();
		pin(b);
		leaf(1);
		spin();
		pin(a);
		leaf(2);
		spin();
		printf("spun\n");
		return 0;
	}
	if (argc < 3)
		return 2;
	int a = (int)strtol(argv[1], NULL, 10), b = (int)strtol(argv[2], NULL, 10);
	pin(a);
	first(1);
	pin(b);
	second(2);
	third(3);
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(a, &s);
	pthread_attr_t at;
	pthread_t th;
	pthread_attr_init(&at);
	if (pthread_attr_setaffinity_np(&at, sizeof(s), &s) != 0 ||
	    pthread_create(&th, &at, worker, NULL) != 0) {
		printf("cannot start a thread on CPU %d\n", a);
		return 1;
	}
	pthread_join(th, NULL);
	pin(a);
	first(5);
	printf("done\n");
	return 0;
}
