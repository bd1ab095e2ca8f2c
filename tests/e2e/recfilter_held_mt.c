/*
 * record -t alone (50 ms) in three threads, with library calls: what the
 * trampolines' held paths decide (arch/x86_64/tramp.S HELD_ENTER,
 * .Lret_held), each thread on its own.  Short calls nested four deep
 * (library calls among them) leave nothing; a long library call (usleep)
 * writes the entries held below it; a long call with nothing traced inside
 * is decided at its own return; short held calls inside long ones, before
 * and after their deadline, and one that spans its caller's deadline.  The
 * long calls sleep (never shorter than asked) at least the threshold; the
 * short ones are 45 ms or more from it (a loaded machine may wake a sleeper
 * late).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <sys/syscall.h>
#endif

#include "ct_test.h"

/* ms milliseconds asleep without a traced call, not even a library call
 * (the program's library calls are all hooked: a raw system call) */
NOTRACE static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, ms % 1000 * 1000000L};
#if defined(__x86_64__)
	long r;
	__asm__ volatile("syscall"
			 : "=a"(r)
			 : "a"((long)SYS_nanosleep), "D"(&ts), "S"(0L)
			 : "rcx", "r11", "memory");
	(void)r;
#else
	nanosleep(&ts, NULL);
#endif
}

NOINLINE int leaf(int x)
{
	sink += x;
	return x;
}

/* short, with a library call */
NOINLINE int parse(const char *s)
{
	return atoi(s) + leaf(1);
}

/* short calls held n + 1 deep */
NOINLINE int nested(int n)
{
	if (n == 0)
		return leaf(0);
	return nested(n - 1) + parse("2");
}

/* long: a library call that sleeps */
NOINLINE void nap(void)
{
	usleep(60000);
}

/* long, nothing traced inside: decided at its return */
NOINLINE void quiet_long(void)
{
	sleep_ms(60);
}

/* short (2 ms), and its caller's deadline passes inside it (unless a
 * late wake-up of its caller enters it past the deadline) */
NOINLINE void spans(void)
{
	sleep_ms(2);
	leaf(2);
}

/* long (51 ms): a short call spans its deadline */
NOINLINE void outer2(void)
{
	sleep_ms(49);
	spans();
}

/* long: short held calls inside it, before and after its deadline */
NOINLINE void outer(void)
{
	nested(3);
	nap();
	nested(2);
	quiet_long();
	nested(1);
	outer2();
	nested(1);
}

NOINLINE void work(void)
{
	for (int i = 0; i < 200; i++)
		nested(4);
	outer();
	for (int i = 0; i < 200; i++)
		nested(3);
}

static void *worker(void *arg)
{
	(void)arg;
	work();
	return NULL;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	work();
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
