/* overhead: a hot, tiny leaf called many times from a parent that also does
 * real work of its own; a forked child does the same on a smaller scale */
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink += x;
	return x & 1;
}

/* real work, in the parent's own frame */
static NOTRACE void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

NOINLINE void parent(int calls)
{
	spin(200000);
	for (int i = 0; i < calls; i++)
		leaf(i);
	spin(200000);
}

int main(void)
{
	parent(100000);
	pid_t pid = fork();
	if (pid == 0) {
		parent(1000);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	return 0;
}
