/* reader: a small threaded program for the reading library's case
 * (tests/e2e/reader.sh): three threads, one named, a recursion with
 * arguments and return values to capture, a mark */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "ct_test.h"
#include "calltrace/calltrace.h"

static volatile int in48 = 48, in18 = 18;

NOINLINE int leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE int gcd(int a, int b)
{
	if (!b)
		return a;
	int r = gcd(b, a % b);
	sink = r;
	return r;
}

NOINLINE void work(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
	sink += gcd(in48, in18);
}

NOINLINE void *worker(void *arg)
{
	if ((intptr_t)arg == 3)
		pthread_setname_np(pthread_self(), "third");
	work((int)(intptr_t)arg);
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(intptr_t)(i + 2)) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	calltrace_mark("joined");
	work(1);
	printf("gcd %d\n", gcd(10, 4));
	return 0;
}
