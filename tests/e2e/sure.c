/* sure: how sure the times are (doc/overhead.md).  tiny has an empty body:
 * nearly all of its recorded time is the hooks' own, so report, graph and
 * the HTML report mark it as mostly the tracer's cost; work spins in its
 * own frame for milliseconds, hundreds of thousands of times what the
 * hooks cost, and is never marked.  The argument: how many calls of tiny
 * (default 20000). */
#include <stdlib.h>
#include <unistd.h>

#include "ct_test.h"

/* empty: the barrier keeps every compiler from dropping its calls */
NOINLINE void tiny(void)
{
	__asm__ volatile("");
}

static NOTRACE void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

NOINLINE void work(void)
{
	spin(5000000);
}

NOINLINE void calls(int n)
{
	for (int i = 0; i < n; i++)
		tiny();
}

int main(int argc, char **argv)
{
	/* a fresh time slice for the tiny calls: a preemption among them
	 * would land in their times (it is not the tracer's cost) */
	usleep(1000);
	calls(argc > 1 ? atoi(argv[1]) : 20000);
	for (int i = 0; i < 3; i++)
		work();
	return 0;
}
