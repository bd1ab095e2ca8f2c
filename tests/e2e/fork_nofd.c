/*
 * fork when no descriptor is left (RLIMIT_NOFILE reached): the child
 * cannot make its .proc file nor its ring, so it is not traced; it must
 * still run, and return from the traced frames open at the fork.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void child_work(void)
{
	for (int i = 0; i < 100000; i++)
		leaf(i);
}

NOINLINE int fork_without_fds(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		child_work();
		exit(7);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFSIGNALED(st))
		return 1000 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

int main(void)
{
	struct rlimit rl = {64, 64};
	leaf(1);
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0) {
		perror("setrlimit");
		return 2;
	}
	int n = 0;
	while (open("/dev/null", O_RDONLY) >= 0)
		n++;
	int st = fork_without_fds();
	leaf(2);
	printf("child: %s %d\n", st >= 1000 ? "signal" : "exit", st >= 1000 ? st - 1000 : st);
	return 0;
}
