/* record's summary and info's process lines: a function hidden at
 * record time, enough calls for a size in KiB, and a forked child that
 * execs this program again (two processes, three program images) */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int sum_squares(int n)
{
	sink += n * n;
	return sink;
}

NOINLINE void step(int i)
{
	sink += i;
}

NOINLINE void in_exec(void)
{
	sink += 3;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "exec")) {
		in_exec();
		return 0;
	}
	for (int i = 0; i < 15; i++)
		sum_squares(i);
	for (int i = 0; i < 3000; i++)
		step(i);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		execl(argv[0], argv[0], "exec", (char *)NULL);
		perror("execl");
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "recsummary: the child failed\n");
		return 1;
	}
	printf("recsummary: done\n");
	return 0;
}
