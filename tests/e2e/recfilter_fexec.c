/* fexecve of a program whose file is gone (unlinked after it was opened):
 * record cannot read its functions, and says so */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || unlink(argv[1]) < 0) {
		perror(argv[1]);
		return 1;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char *args[] = {argv[1], "from-fexecve", NULL};
		fexecve(fd, args, environ);
		perror("fexecve");
		_exit(127);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	printf("fexec: target exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
