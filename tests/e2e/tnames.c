/* SPDX-License-Identifier: MIT */
/* Thread names: one set by its creator with pthread_setname_np, one by the
 * thread itself with prctl(PR_SET_NAME), one left with the default name
 * (the process's), and the main thread renamed late. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "ct_test.h"

static pthread_barrier_t bar;

NOINLINE int work(int x)
{
	sink = x;
	return x * 2;
}

static void *named_by_creator(void *a)
{
	(void)a;
	pthread_barrier_wait(&bar); /* named by now */
	work(1);
	return NULL;
}

static void *names_itself(void *a)
{
	(void)a;
	prctl(PR_SET_NAME, "by-prctl");
	work(2);
	return NULL;
}

static void *unnamed(void *a)
{
	(void)a;
	work(3);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	pthread_barrier_init(&bar, NULL, 2);
	pthread_create(&t[0], NULL, named_by_creator, NULL);
	pthread_setname_np(t[0], "io-worker");
	pthread_barrier_wait(&bar);
	pthread_join(t[0], NULL);
	pthread_create(&t[1], NULL, names_itself, NULL);
	pthread_join(t[1], NULL);
	pthread_create(&t[2], NULL, unnamed, NULL);
	pthread_join(t[2], NULL);
	work(4);
	printf("done\n");
	return 0;
}
