/* record-time filters (record -F/-N/--hide/-D/-t): a tree with a wrapper
 * to hide, a subtree to leave out, recursion for the depth limit, long and
 * short calls for the time threshold, two threads, a fork, and a longjmp
 * out of a call left out (its filter state must go with it) */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"

static jmp_buf env;

NOTRACE static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void noisy(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

NOINLINE void wrapper(int x)
{
	leaf(x);
	noisy(2);
}

NOINLINE void deep(int n)
{
	leaf(n);
	if (n > 0)
		deep(n - 1);
	sink += n; /* not a tail call */
}

/* long: at least 25 ms (the tests' threshold is 10 ms) */
NOINLINE void slow(void)
{
	long t0 = now_ns();
	leaf(1);
	while (now_ns() - t0 < 25000000L)
		sink++;
	wrapper(2);
}

NOINLINE void jumper(void)
{
	leaf(7);
	longjmp(env, 1);
}

NOINLINE void escape(void)
{
	noisy(1);
	jumper();
}

NOINLINE void work(int id)
{
	wrapper(id);
	noisy(3);
	deep(4);
	slow();
}

NOINLINE void *thread_main(void *arg)
{
	work((int)(long)arg);
	return NULL;
}

int main(void)
{
	pthread_t th;
	pthread_create(&th, NULL, thread_main, (void *)1L);
	pthread_join(th, NULL);
	work(0);
	if (!setjmp(env))
		escape();
	wrapper(5);
	pid_t pid = fork();
	if (pid == 0) {
		deep(2);
		slow();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	printf("done\n");
	return 0;
}
