/* SPDX-License-Identifier: MIT */
/*
 * recal: a thread that moves to another CPU after the start-up calibration
 * (tests/e2e/recal.sh).  "recal probe" prints two CPUs this process may run
 * on (or "none"); "recal CPU" moves itself there and makes 400,000 calls
 * (some 20 buffers of records); "recal thread CPU" starts a thread there
 * that makes 100 calls (less than a buffer) while main waits where it is.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink = x;
	return x + 1;
}

NOINLINE void work(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

NOINLINE void *worker(void *arg)
{
	work(100);
	return arg;
}

NOTRACE static int pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

NOTRACE int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (argv[1][0] == 'p') {
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
	if (argv[1][0] == 't' && argc > 2) {
		cpu_set_t s;
		CPU_ZERO(&s);
		CPU_SET(atoi(argv[2]), &s);
		pthread_attr_t a;
		pthread_t th;
		pthread_attr_init(&a);
		if (pthread_attr_setaffinity_np(&a, sizeof(s), &s) != 0 ||
		    pthread_create(&th, &a, worker, NULL) != 0) {
			printf("cannot start a thread on CPU %s\n", argv[2]);
			return 1;
		}
		pthread_join(th, NULL);
		printf("a thread worked on CPU %s\n", argv[2]);
		return 0;
	}
	int cpu = atoi(argv[1]);
	if (pin(cpu) != 0 || sched_getcpu() != cpu) {
		printf("cannot move to CPU %d\n", cpu);
		return 1;
	}
	work(400000);
	printf("worked on CPU %d\n", sched_getcpu());
	return 0;
}
