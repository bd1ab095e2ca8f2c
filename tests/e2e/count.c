/*
 * record --count's case: threads, recursion, a function called from several
 * callers.  No call is a tail call (each is followed by work of its caller),
 * so that every front end, keyed by return addresses or not, sees the
 * callers a full recording sees.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "ct_test.h"

#define NTHREADS 4

NOINLINE int leaf(int i)
{
	sink += i;
	return i & 1;
}

NOINLINE int rec(int n)
{
	if (n <= 0) {
		sink += 1;
		return 0;
	}
	int r = rec(n - 1);
	sink += r;
	r += leaf(n);
	sink += r;
	return r;
}

NOINLINE void work(int i)
{
	int r = rec(2 + i);
	sink += r;
	r = leaf(i);
	sink += r;
}

NOINLINE void *worker(void *arg)
{
	work((int)(intptr_t)arg);
	sink += 1;
	return NULL;
}

int main(void)
{
	pthread_t th[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	work(0);
	sink += 1;
	printf("count %d\n", NTHREADS);
	return 0;
}
