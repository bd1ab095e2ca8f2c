#define _GNU_SOURCE /* strerrorname_np */
/* inject: the program the inject_* cases inject faults into (record
 * --inject, doc/inject.md).  Each operation has an error-handling path that
 * runs only when the operation fails: store() returning -1 (with errno),
 * lookup() returning 0, a SIGUSR1 at check(), grab() (malloc) returning
 * NULL.  It prints what happened, one line per call. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ct_test.h"

static volatile int fail_value; /* 0: nothing fails untraced */
static volatile sig_atomic_t got_signal;

NOINLINE int store(int key)
{
	sink += key;
	return fail_value; /* 0: stored */
}

NOINLINE long lookup(int key, int flags)
{
	sink += flags;
	return key * 10 + fail_value;
}

NOINLINE void check(int i)
{
	sink += i;
}

NOINLINE void store_failed(int key, int err)
{
	sink += key;
	printf("store(%d) failed: %s\n", key, err ? strerrorname_np(err) : "no errno");
}

NOINLINE void lookup_failed(int key)
{
	sink += key;
	printf("lookup(%d) found nothing\n", key);
}

NOINLINE void out_of_memory(int i)
{
	sink += i;
	printf("grab(%d): out of memory\n", i);
}

NOTRACE static void on_usr1(int sig)
{
	(void)sig;
	got_signal++;
}

NOINLINE void *grab(int i)
{
	sink += i;
	return malloc(16 + (size_t)i);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	signal(SIGUSR1, on_usr1);
	for (int i = 1; i <= n; i++) {
		errno = 0;
		int r = store(i);
		if (r < 0 || errno)
			store_failed(i, errno);
		else
			printf("store(%d) = %d\n", i, r);
		long v = lookup(i, i % 3);
		if (v == 0)
			lookup_failed(i);
		else
			printf("lookup(%d) = %ld\n", i, v);
		got_signal = 0;
		check(i);
		if (got_signal)
			printf("check(%d): signal\n", i);
		void *p = grab(i);
		if (!p)
			out_of_memory(i);
		free(p);
	}
	return 0;
}
