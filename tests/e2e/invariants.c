/* invariants: programs whose times every view must show alike
 * (tests/check_times.py).  "calls": recursion (fib, and one 100 deep, past
 * graph's bars), a chain of tail calls (real ones at -O2 under the hooked
 * front ends), tiny callees in a loop, a longjmp out of 3 frames, library
 * calls (strlen, memcpy, snprintf, qsort calling back a traced comparator).
 * "procs": a forked child that _exits 3 calls deep, and 2 threads that
 * wait while the main thread makes 2000 calls of some 10 us, and end once
 * it is about to join them: their ends come right before the joins
 * return, so that a timeline on each thread's corrected clock (the main
 * thread's lagging by the cost of its calls, which the case makes far
 * more than measured) would put them after. */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int fib(int n)
{
	sink++;
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINLINE int down(int n)
{
	sink++;
	return n ? down(n - 1) + 1 : 0;
}

NOINLINE void tiny(int i)
{
	sink += i;
}

NOINLINE void tiny_loop(int n)
{
	for (int i = 0; i < n; i++)
		tiny(i);
}

NOINLINE int leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE int tail3(int x)
{
	sink++;
	return leaf(x);
}

NOINLINE int tail2(int x)
{
	sink++;
	return tail3(x + 1);
}

NOINLINE int tail1(int x)
{
	sink++;
	return tail2(x + 1);
}

static jmp_buf jb;

NOINLINE void jump3(int x)
{
	sink += x;
	if (sink) /* always */
		longjmp(jb, 1);
	sink += 3;
}

NOINLINE void jump2(int x)
{
	sink++;
	jump3(x);
	sink++;
}

NOINLINE void jump1(int x)
{
	sink++;
	jump2(x);
	sink++;
}

NOINLINE void jumper(void)
{
	if (!setjmp(jb))
		jump1(3);
	tiny(1);
}

NOINLINE int cmp(const void *a, const void *b)
{
	sink++;
	return *(const int *)a - *(const int *)b;
}

NOINLINE void libcalls(void)
{
	char buf[64];
	int v[32];
	memset(buf, 'a', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = 0;
	sink += (int)strlen(buf);
	for (int i = 0; i < 32; i++)
		v[i] = (i * 7919) % 32;
	qsort(v, 32, sizeof(v[0]), cmp);
	snprintf(buf, sizeof(buf), "%d", v[31]);
	sink += buf[0];
}

NOINLINE void calls(void)
{
	fib(14);
	down(100);
	for (int i = 0; i < 200; i++)
		sink += tail1(i);
	tiny_loop(3000);
	jumper();
	libcalls();
}

NOINLINE void spin(int n)
{
	for (volatile int i = 0; i < n; i++)
		sink++;
}

static int pipefd[2];

/* until the main thread is about to join it: a blocking read */
NOINLINE void *worker(void *arg)
{
	char c;
	spin(100000);
	if (read(pipefd[0], &c, 1) != 1) {
		perror("read");
		exit(1);
	}
	tiny(c);
	return arg;
}

NOINLINE void child_inner(void)
{
	sink++;
	_exit(0);
}

NOINLINE void child_mid(void)
{
	sink++;
	child_inner();
}

NOINLINE void child_outer(void)
{
	tiny(2);
	child_mid();
}

NOINLINE void forker(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid == 0)
		child_outer();
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "child: status %d\n", st);
		exit(1);
	}
}

NOINLINE void procs(void)
{
	pthread_t t[2];
	forker();
	if (pipe(pipefd)) {
		perror("pipe");
		exit(1);
	}
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, NULL)) {
			perror("pthread_create");
			exit(1);
		}
	for (int i = 0; i < 2000; i++)
		spin(30000);
	if (write(pipefd[1], "ab", 2) != 2) {
		perror("write");
		exit(1);
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "procs"))
		procs();
	else
		calls();
	return 0;
}
