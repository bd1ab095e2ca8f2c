/* plugprog: the program the plugin_* cases load plugins into (record
 * --plugin, doc/plugins.md): a leaf called 65 times, a slow call, a
 * thread, arguments and return values; "signal" raises SIGUSR2 midway,
 * "fork" forks a child that calls mid(2) */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink += x;
	return x * 2 + 1;
}

NOINLINE int mid(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += leaf(i);
	return s;
}

NOINLINE long add3(long a, long b, long c)
{
	sink += 1;
	return a + b + c;
}

NOINLINE double half(double x)
{
	sink += 1;
	return x / 2;
}

NOINLINE void slow(int ms)
{
	struct timespec ts = {0, ms * 1000000L};
	sink += 1;
	nanosleep(&ts, NULL);
}

NOINLINE void outer(void)
{
	slow(30);
	sink += 1;
}

static void *worker(void *arg)
{
	(void)arg;
	mid(50);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int s = mid(10);
	pthread_t th;
	pthread_create(&th, NULL, worker, NULL);
	pthread_join(th, NULL);
	outer();
	fprintf(stderr, "after outer\n");
	if (!strcmp(mode, "signal"))
		raise(SIGUSR2);
	long a = add3(1, 2, 3);
	double h = half(5.0);
	s += mid(5);
	if (!strcmp(mode, "fork")) {
		pid_t p = fork();
		if (p == 0) {
			mid(2);
			exit(0); /* (atexit: the plugin's fini) */
		}
		waitpid(p, NULL, 0);
	}
	printf("done %d %ld %.1f\n", s, a, h);
	return 0;
}
