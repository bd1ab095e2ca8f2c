/* title: a program that rewrites its own title, as redis does (and
 * setproctitle): it clears its argv strings (one block of memory, up to
 * the end of the last) and writes a short title there, so that its
 * /proc/self/cmdline says "title: serving" followed by empty arguments;
 * then it forks a child that makes a call. */
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int work(int x)
{
	sink = x;
	return x + 1;
}

int main(int argc, char **argv)
{
	char *end = argv[argc - 1] + strlen(argv[argc - 1]);
	memset(argv[0], 0, (size_t)(end - argv[0]));
	strcpy(argv[0], "title: serving");
	work(1);
	pid_t p = fork();
	if (p < 0)
		return 1;
	if (p == 0) {
		work(2);
		_exit(0);
	}
	int st;
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 1;
	return work(3) == 4 ? 0 : 1;
}
