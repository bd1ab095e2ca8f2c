/* fork, then exec another instrumented program in the child */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void before_fork(void)
{
	sink += 1;
}

NOINLINE void child_before_exec(void)
{
	sink += 2;
}

NOINLINE void after_wait(int status)
{
	sink += status;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	before_fork();
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		child_before_exec();
		execl(argv[1], argv[1], "from-fork", (char *)NULL);
		perror("execl");
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	after_wait(WEXITSTATUS(st));
	printf("forkexec: target exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
