/* SPDX-License-Identifier: MIT */
/*
 * record --sample (tests/e2e/sample.sh): known work.  one() and three()
 * run the same loop, three() three times as long, called turn about;
 * each calls nothing traced, so its self time is its loop.
 *   sample            the work in the main thread
 *   sample threads    the work in two threads at once
 *   sample fork       the work in the parent and in a forked child at once
 * (each thread or process does both, turn about: run at the same time, two
 * of them share the CPUs differently while both run and after one ends,
 * and a loop's CPU time per turn changes with that)
 *   sample exec       the work in the image it execs (itself, no mode)
 *   sample nested     the work with the program's own SIGALRM handler
 *                     (a CPU-time timer at 5 kHz) calling traced code
 *   sample own SIG    the program takes the sampling signal SIG (default
 *                     SIGRTMAX-2) for itself (sigaction), raises it 100
 *                     times, and blocks it around part of the work
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

#define UNIT 2000000L /* loop turns of one() per call */
/* rounds of one() and three(): 40, or $SAMPLE_ROUNDS (sample.sh sets more
 * where the samples come from the kernel's tick, fewer of them) */
static int rounds = 40;

NOINLINE void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

/* the loop both run, the same code at the same address (untraced: its
 * time is its caller's own) */
NOTRACE NOINLINE static void loop(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

NOINLINE void one(void)
{
	loop(UNIT);
}

NOINLINE void three(void)
{
	loop(3 * UNIT);
}

NOINLINE void work(int which)
{
	for (int r = 0; r < rounds; r++) {
		if (which & 1)
			one();
		if (which & 2)
			three();
	}
}

static void *thread_main(void *p)
{
	work((int)(long)p);
	return NULL;
}

static volatile int handled;

NOINLINE void in_handler(void)
{
	spin(100);
}

static void on_alarm(int sig)
{
	(void)sig;
	handled++;
	in_handler();
}

static volatile int own_got;

static void on_own(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == SI_TKILL || si->si_code == SI_USER)
		own_got++;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *rs = getenv("SAMPLE_ROUNDS");
	if (rs && atoi(rs) > 0)
		rounds = atoi(rs);
	if (!strcmp(mode, "threads")) {
		pthread_t a, b;
		pthread_create(&a, NULL, thread_main, (void *)3L);
		pthread_create(&b, NULL, thread_main, (void *)3L);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
	} else if (!strcmp(mode, "fork")) {
		pid_t pid = fork();
		if (pid == 0) {
			work(3);
			_exit(0);
		}
		work(3);
		int st;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	} else if (!strcmp(mode, "exec")) {
		execl("/proc/self/exe", argv[0], (char *)NULL);
		return 127;
	} else if (!strcmp(mode, "nested")) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGPROF, &sa, NULL);
		struct itimerval it = {{0, 200}, {0, 200}};
		setitimer(ITIMER_PROF, &it, NULL);
		work(3);
		struct itimerval off = {{0, 0}, {0, 0}};
		setitimer(ITIMER_PROF, &off, NULL);
		printf("handler ran: %s\n", handled > 0 ? "yes" : "no");
	} else if (!strcmp(mode, "own")) {
		int sig = argc > 2 ? atoi(argv[2]) : SIGRTMAX - 2;
		struct sigaction sa, old;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_own;
		sa.sa_flags = SA_SIGINFO;
		sigaction(sig, &sa, NULL);
		sigaction(sig, NULL, &old);
		printf("handler read back: %s\n", old.sa_sigaction == on_own ? "same" : "other");
		for (int i = 0; i < 100; i++)
			raise(sig);
		sigset_t s, prev;
		sigemptyset(&s);
		sigaddset(&s, sig);
		sigprocmask(SIG_BLOCK, &s, &prev);
		work(1);
		sigprocmask(SIG_SETMASK, &prev, NULL);
		work(2);
		printf("own signals: %d\n", own_got);
	} else {
		work(3);
	}
	return 0;
}
