/* posix_spawn of an instrumented program */
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

extern char **environ;

NOINLINE void before_spawn(void)
{
	sink += 1;
}

NOINLINE void after_wait(int status)
{
	sink += status;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	before_spawn();
	fflush(stdout);
	pid_t pid;
	char *args[] = {argv[1], "from-spawn", NULL};
	int e = posix_spawn(&pid, argv[1], NULL, NULL, args, environ);
	if (e != 0) {
		fprintf(stderr, "posix_spawn failed: %d\n", e);
		return 1;
	}
	int st;
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	after_wait(WEXITSTATUS(st));
	printf("spawn: target exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
