/* srcline: call sites (record --callsite, replay --srcline); the line
 * numbers of this file are in srcline.expected: add lines at the end */
#include <pthread.h>
#include <time.h>

#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE int inner(int x)
{
	int r = leaf(x);
	r += leaf(r);
	return r + 1;
}

NOINLINE int slow(int x)
{
	struct timespec ts = {0, 5000000};
	nanosleep(&ts, NULL);
	int r = leaf(x);
	return r + 1;
}

NOINLINE void *worker(void *arg)
{
	int r = leaf((int)(long)arg);
	sink += r;
	return NULL;
}

int main(int argc, char **argv)
{
	int r = inner(1);
	r += slow(r);
	r += leaf(r);
	void bye(int);
	if (argc > 1 && argv[1][0] == 'x')
		bye(r); /* exits: bye and main are unfinished */
	pthread_t th;
	pthread_create(&th, NULL, worker, (void *)7L);
	pthread_join(th, NULL);
	sink += r;
	return 0;
}

/* (after main: the lines above stay as srcline.expected has them) */
#include <stdlib.h>

NOINLINE void bye(int r)
{
	sink += r;
	exit(0);
}
