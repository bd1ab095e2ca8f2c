/* A thread that stops tracing for good (a clone(CLONE_VM) child shares its
 * state) with hooked frames open: each of them must still return to its
 * caller.  ./clone_stop [deep]: down() recurses 5 (300) times, clones at the
 * bottom (under qemu-user the clone itself fails: the thread has stopped
 * all the same), then every frame returns. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "ct_test.h"

static int child(void *arg)
{
	(void)arg;
	return 0;
}

NOINLINE int bottom(void)
{
	size_t sz = 1 << 16;
	char *stack = malloc(sz);
	int pid = clone(child, stack + sz, CLONE_VM | SIGCHLD, NULL);
	if (pid > 0) {
		int st;
		waitpid(pid, &st, 0);
	}
	return 1;
}

NOINLINE int down(int n)
{
	int r = n > 0 ? down(n - 1) : bottom();
	sink += r;
	return r + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	int depth = argc > 1 ? 300 : 5;
	printf("%d frames returned\n", down(depth));
	printf("done\n");
	return 0;
}
