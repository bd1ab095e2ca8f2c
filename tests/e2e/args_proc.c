/* SPDX-License-Identifier: MIT */
/* Arguments and return values in threads, a forked child, a signal
 * handler, recursion, and calls left by longjmp. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int work(int id, const char *tag)
{
	sink = id + tag[0];
	return id * 10;
}

NOINLINE int fact(int n)
{
	if (n <= 1)
		return 1;
	int r = n * fact(n - 1);
	sink = r;
	return r;
}

NOINLINE void on_signal(int sig)
{
	work(sig, "signal");
}

NOINLINE int raiser(int n)
{
	raise(SIGUSR1);
	sink = n;
	return n + 1;
}

static jmp_buf env;

NOINLINE int jumper(int depth)
{
	if (depth == 0)
		longjmp(env, 1);
	int r = jumper(depth - 1);
	sink = r;
	return r;
}

NOTRACE static void *thread_main(void *arg)
{
	work((int)(long)arg, "thread");
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)(i + 1));
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("fact %d\n", fact(4));
	signal(SIGUSR1, on_signal);
	raiser(5);
	if (!setjmp(env))
		jumper(2);
	work(3, "after longjmp");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		work(100, "child");
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	work(4, "parent");
	return 0;
}
