/* nest: threads joined with pthread_join, then a fork and a waitpid; many
 * short calls, so that slices end within a few ns of their callers.
 * calltrace_mark() says when each happened (tests/e2e/nest_check.py reads
 * them): "joined TID" once pthread_join returned thread TID, "fork" just
 * before fork() and "forked PID" once it returned in the parent, "waited
 * PID" once waitpid() returned. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "calltrace/calltrace.h"
#include "ct_test.h"

#define NTHREADS 3

static volatile pid_t tids[NTHREADS];

NOINLINE void leaf(int i)
{
	sink += i;
}

NOINLINE void mid(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

NOINLINE void top(int n)
{
	for (int i = 0; i < n; i++)
		mid(i % 7);
}

NOINLINE void *worker(void *arg)
{
	int i = (int)(intptr_t)arg;
	tids[i] = (pid_t)syscall(SYS_gettid);
	top(200 + i);
	return NULL;
}

NOTRACE static void start(pthread_t *th, int i)
{
	if (pthread_create(th, NULL, worker, (void *)(intptr_t)i) != 0) {
		perror("pthread_create");
		exit(1);
	}
}

NOTRACE static void join(pthread_t th, int i)
{
	pthread_join(th, NULL);
	calltrace_mark("joined %d", (int)tids[i]);
}

NOINLINE void child_work(void)
{
	top(100);
}

NOINLINE void waited(int st)
{
	sink += st;
}

int main(void)
{
	pthread_t th[NTHREADS];
	for (int i = 0; i < NTHREADS; i++)
		start(&th[i], i);
	top(50);
	for (int i = 0; i < NTHREADS; i++)
		join(th[i], i);
	fflush(stdout);
	calltrace_mark("fork");
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		child_work();
		exit(0);
	}
	calltrace_mark("forked %d", (int)pid);
	int st;
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	calltrace_mark("waited %d", (int)pid);
	waited(WIFEXITED(st) ? WEXITSTATUS(st) : 99);
	printf("nest: %d threads, child exited %d\n", NTHREADS, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
