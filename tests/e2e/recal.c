/* SPDX-License-Identifier: MIT */
/*
 * recal: a thread that moves to another CPU after the start-up calibration
 * (tests/e2e/recal.sh).  "recal probe" prints two CPUs this process may run
 * on (or "none"); "recal CPU" moves itself there and makes 400,000 calls
 * (some 20 buffers of records).
 */
#define _GNU_SOURCE
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
	int cpu = atoi(argv[1]);
	if (pin(cpu) != 0 || sched_getcpu() != cpu) {
		printf("cannot move to CPU %d\n", cpu);
		return 1;
	}
	work(400000);
	printf("worked on CPU %d\n", sched_getcpu());
	return 0;
}
