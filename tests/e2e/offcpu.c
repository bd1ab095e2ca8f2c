/* SPDX-License-Identifier: MIT */
/*
 * record --sched (tests/e2e/offcpu.sh): calls whose thread is switched
 * out.  work() sleeps 50 ms (nanosleep) and then spins until it has had
 * 50 ms of CPU time; lock_wait() blocks on a mutex that another thread's
 * hold() keeps until it sees the main thread blocked (its state S in
 * /proc), then for 30 ms of its own CPU time; a forked child's nap()
 * sleeps 20 ms.  The CPU time each spin had is what the thread's clock
 * says (CLOCK_THREAD_CPUTIME_ID), a lower bound of its time on a CPU.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"

static NOTRACE double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static NOTRACE void spin_cpu(double ms)
{
	double c0 = cpu_ms();
	while (cpu_ms() - c0 < ms)
		for (int i = 0; i < 1000; i++)
			sink += i;
}

static NOTRACE void nap_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};
	while (nanosleep(&ts, &ts))
		;
}

NOINLINE void work(void)
{
	nap_ms(50);
	spin_cpu(50);
	sink++;
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static sem_t held;
static long main_tid;

/* the main thread asleep (after the semaphore woke it: on the mutex) */
static NOTRACE int main_blocked(void)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", main_tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

NOINLINE void hold(void)
{
	pthread_mutex_lock(&mu);
	sem_post(&held);
	/* (polled for at most 1000 s: a hang guard, not a time) */
	for (int i = 0; i < 1000000 && !main_blocked(); i++)
		nap_ms(1);
	spin_cpu(30);
	pthread_mutex_unlock(&mu);
	sink++;
}

static void *holder(void *arg)
{
	(void)arg;
	hold();
	return NULL;
}

NOINLINE void lock_wait(void)
{
	pthread_mutex_lock(&mu);
	pthread_mutex_unlock(&mu);
	sink++;
}

NOINLINE void nap(void)
{
	nap_ms(20);
	sink++;
}

int main(void)
{
	work();
	main_tid = (long)syscall(SYS_gettid);
	sem_init(&held, 0, 0);
	pthread_t t;
	pthread_create(&t, NULL, holder, NULL);
	while (sem_wait(&held))
		;
	lock_wait();
	pthread_join(t, NULL);
	pid_t c = fork();
	if (c == 0) {
		nap();
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	printf("done\n");
	return 0;
}
