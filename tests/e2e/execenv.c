/* Images started with an environment of the program's own, which lacks
 * calltrace's variables: posix_spawn and posix_spawnp with an envp of one
 * variable, execve with an empty environment, execle with an LD_PRELOAD of
 * the program's own, execv after clearenv().  Each new image ("./execenv
 * child TAG") makes a traced call and prints the program's variable FOO. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void child_work(int i)
{
	sink += i;
}

NOINLINE void parent_work(int i)
{
	sink += i;
}

NOTRACE static int wait_for(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "child")) {
		child_work(1);
		const char *foo = getenv("FOO");
		printf("child %s: FOO=%s\n", argv[2], foo ? foo : "(unset)");
		return 4;
	}
	const char *self = argv[0];
	char *env_foo[] = {"FOO=bar", NULL};
	char *env_empty[] = {NULL};
	char *env_preload[] = {"FOO=own-preload", "LD_PRELOAD=", NULL};
	pid_t pid;
	parent_work(0);
	fflush(stdout);

	char *a1[] = {(char *)self, "child", "posix_spawn", NULL};
	if (posix_spawn(&pid, self, NULL, NULL, a1, env_foo) != 0)
		return 1;
	printf("posix_spawn: exit %d\n", wait_for(pid));
	fflush(stdout);

	char *a2[] = {(char *)self, "child", "posix_spawnp", NULL};
	if (posix_spawnp(&pid, self, NULL, NULL, a2, env_foo) != 0)
		return 1;
	printf("posix_spawnp: exit %d\n", wait_for(pid));
	fflush(stdout);

	if ((pid = fork()) == 0) {
		char *a[] = {(char *)self, "child", "execve", NULL};
		execve(self, a, env_empty);
		_exit(99);
	}
	printf("execve: exit %d\n", wait_for(pid));
	fflush(stdout);

	if ((pid = fork()) == 0) {
		execle(self, self, "child", "execle", (char *)NULL, env_preload);
		_exit(99);
	}
	printf("execle: exit %d\n", wait_for(pid));
	fflush(stdout);

	if ((pid = fork()) == 0) {
		clearenv();
		setenv("FOO", "after-clearenv", 1);
		char *a[] = {(char *)self, "child", "execv", NULL};
		execv(self, a);
		_exit(99);
	}
	printf("execv: exit %d\n", wait_for(pid));
	parent_work(1);
	return 0;
}
