/* recursion 100,000 deep, on a thread with a big stack */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "ct_test.h"

#define DEPTH 100000

NOINLINE void bottom(void)
{
	sink += 7;
}

NOINLINE int rec(int n)
{
	sink += 1;
	if (n == 0) {
		bottom();
		return 0;
	}
	int r = rec(n - 1);
	sink += 2;
	return r + 1;
}

NOINLINE void *deep(void *arg)
{
	(void)arg;
	int r = rec(DEPTH);
	return (void *)(long)r;
}

int main(void)
{
	pthread_attr_t a;
	pthread_t th;
	void *ret;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, (size_t)512 << 20);
	if (pthread_create(&th, &a, deep, NULL) != 0) {
		perror("pthread_create");
		return 1;
	}
	pthread_join(th, &ret);
	printf("depth %ld\n", (long)ret);
	return 0;
}
