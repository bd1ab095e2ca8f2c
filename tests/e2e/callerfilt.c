/* callerfilt: the paths that lead to target, in two threads: main calls it
 * at the bottom of a recursion and from via, the thread from via; miss and
 * the leaves around target lead nowhere; target itself calls leaf */
#include <pthread.h>

#include "ct_test.h"

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void target(int x)
{
	leaf(x);
	sink += 1;
}

NOINLINE void via(int x)
{
	leaf(x);
	target(x);
	leaf(x);
}

NOINLINE void miss(int x)
{
	leaf(x);
	sink += 2;
}

NOINLINE void deep(int n)
{
	if (n > 0)
		deep(n - 1);
	else
		via(n);
	sink += 3; /* not a tail call */
}

NOINLINE void *worker(void *arg)
{
	(void)arg;
	miss(1);
	via(2);
	miss(3);
	return 0;
}

int main(void)
{
	pthread_t t;
	miss(0);
	deep(2);
	if (pthread_create(&t, 0, worker, 0) != 0)
		return 1;
	pthread_join(t, 0);
	via(4);
	miss(5);
	return 0;
}
