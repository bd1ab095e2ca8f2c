/* topnumbers: CPU-bound work in 4 threads (the main thread and 3 more), in
 * two phases, ROUNDS (argv[1]) rounds each: tiny calls in a loop, a
 * function that does real work and a recursion.  Between them the main
 * thread waits on a FIFO (argv[2]) that the test opens only once the view
 * has shown the first phase (a handshake, no timing).  The first phase and
 * the wait make no library call (the FIFO is read with raw system calls):
 * the process's first library call, which writes a "frontend hook" line in
 * a -finstrument-functions build's .proc, comes after the view has read it.
 * The second phase loads a traced library (argv[3], topnumbers_lib.c),
 * whose module and library-call lines come only then, and each round makes
 * a library call (strtol) and calls the library's function, which makes
 * one of its own (strtoul). */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "ct_test.h"

#define NTHREADS 3

static int rounds;
static char number[16] = "12345";
static long (*lib_parse)(const char *);

NOINLINE int tiny(int i)
{
	sink += i;
	return i + 1;
}

NOINLINE void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += i * i;
}

/* (the sum stored after the calls: no compiler turns the recursion into a
 * loop, so that every build makes the same calls) */
NOINLINE int fib(int n)
{
	int r = n < 2 ? n : fib(n - 1) + fib(n - 2);
	sink += r;
	return r;
}

NOINLINE long parse(void)
{
	return strtol(number, NULL, 10); /* strtol@libc.so.6 with --libcall */
}

NOINLINE void one_round(int r, int phase)
{
	for (int i = 0; i < 20; i++)
		tiny(r + i);
	work(3000);
	sink += fib(11);
	if (phase == 2)
		sink += (int)(parse() + lib_parse(number));
}

NOINLINE void *worker(void *arg)
{
	int phase = (int)(long)arg;
	for (int r = 0; r < rounds; r++)
		one_round(r, phase);
	return NULL;
}

/* the phase's threads started (pthread_create is the runtime's: no library
 * call), and the main thread's rounds */
NOINLINE void phase(pthread_t *th, int n)
{
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&th[i], NULL, worker, (void *)(long)n) != 0)
			exit(3);
	worker((void *)(long)n);
}

NOINLINE void join(pthread_t *th)
{
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
}

/* a system call without libc */
NOTRACE static long sys3(long n, long a, long b, long c)
{
	long r;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"(n), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return r;
}

/* a line from the FIFO path: the test writes it once the view has shown
 * the first phase */
NOINLINE int wait_go(const char *path)
{
	char c;
	long fd = sys3(SYS_open, (long)path, O_RDONLY, 0);
	if (fd < 0)
		return -1;
	long got = sys3(SYS_read, fd, (long)&c, 1);
	sys3(SYS_close, fd, 0, 0);
	return got == 1 ? 0 : -1;
}

int main(int argc, char **argv)
{
	pthread_t th[NTHREADS];
	if (argc < 4)
		return 2;
	for (const char *p = argv[1]; *p >= '0' && *p <= '9'; p++)
		rounds = rounds * 10 + (*p - '0');
	phase(th, 1);
	if (wait_go(argv[2]) < 0)
		return 1;
	join(th);
	void *h = dlopen(argv[3], RTLD_NOW);
	if (!h || !(lib_parse = (long (*)(const char *))dlsym(h, "lib_parse"))) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	phase(th, 2);
	join(th);
	printf("topnumbers %d\n", rounds);
	return 0;
}
