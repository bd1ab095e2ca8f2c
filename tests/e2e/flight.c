/*
 * The flight recorder (record --flight): a long run of which only the last
 * part is kept.  Modes:
 *   exit    many calls of work() inside outer() > middle(), then the_end()
 *   segv    the same, then a SIGSEGV in crash_here()
 *   kill    prints "ready PID" after a while and spins until SIGKILLed
 *   usr1    asks record (its parent) for a snapshot with SIGUSR1, waits for
 *           DIR/snapshot.1/info (argv[2] = DIR), then after_snapshot()
 *   api     calltrace_snapshot() and calltrace_mark(), then after_snapshot()
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/calltrace.h"
#include "ct_test.h"

NOINLINE void work(int i)
{
	sink += i;
}

NOINLINE void the_end(void)
{
	sink += 1;
}

NOINLINE void crash_here(void)
{
	volatile int *volatile p = NULL;
	*p = 1;
}

NOINLINE void before_snapshot(void)
{
	sink += 2;
}

NOINLINE void after_snapshot(void)
{
	sink += 3;
}

static NOTRACE int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

NOINLINE void middle(const char *mode, const char *dir)
{
	for (int i = 0; i < 300000; i++) {
		work(i);
		if (i == 200000 && !strcmp(mode, "kill")) {
			printf("ready %d\n", (int)getpid());
			fflush(stdout);
			for (;;)
				work(i);
		}
	}
	if (!strcmp(mode, "segv"))
		crash_here();
	if (!strcmp(mode, "usr1")) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/snapshot.1/info", dir);
		before_snapshot();
		kill(getppid(), SIGUSR1);
		/* (up to 1000 s: longer than the tests' hang guard, 900 s;
		 * a busy machine may take its time) */
		for (int i = 0; i < 100000 && !exists(path); i++)
			usleep(10000);
		after_snapshot();
	}
	if (!strcmp(mode, "api")) {
		before_snapshot();
		calltrace_mark("before the snapshot, i=%d", 42);
		calltrace_snapshot("checkpoint");
		after_snapshot();
		calltrace_mark("after it");
	}
	the_end();
}

NOINLINE void outer(const char *mode, const char *dir)
{
	middle(mode, dir);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	outer(argv[1], argc > 2 ? argv[2] : ".");
	return 0;
}
