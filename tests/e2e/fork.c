/* fork without exec: parent and child each have their own stream */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void before_fork(void)
{
	sink += 1;
}

NOINLINE void child_leaf(void)
{
	sink += 2;
}

NOINLINE void child_work(void)
{
	sink += 3;
	child_leaf();
	child_leaf();
}

NOINLINE void parent_work(int status)
{
	sink += status;
}

int main(void)
{
	before_fork();
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		child_work();
		printf("child done\n");
		exit(7);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	parent_work(WEXITSTATUS(st));
	printf("parent: child exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
