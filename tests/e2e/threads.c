/* threads: 16 threads created and joined, each runs the same call chain */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "ct_test.h"

#define NTHREADS 16

NOINLINE void t_leaf(int i)
{
	sink += i;
}

NOINLINE void t_mid(int i)
{
	sink += 1;
	t_leaf(i);
	t_leaf(i + 1);
}

NOINLINE void t_top(int i)
{
	sink += 2;
	t_mid(i);
}

NOINLINE void *worker(void *arg)
{
	t_top((int)(intptr_t)arg);
	return NULL;
}

NOINLINE void main_done(void)
{
	sink += 3;
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
	main_done();
	printf("threads %d\n", NTHREADS);
	return 0;
}
