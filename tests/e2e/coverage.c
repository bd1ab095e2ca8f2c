/* coverage: some functions are called, some never are; the uncalled ones
 * are reachable through a function-pointer table so they are kept. */
#include "ct_test.h"

NOINLINE int used_leaf(int x) { sink = x; return x + 1; }
NOINLINE int used_twice(int x) { sink = x; return used_leaf(x) * 2; }
NOINLINE int never_a(int x) { sink = x; return x - 1; }
NOINLINE int never_b(int x) { sink = x; return x * 3; }
NOINLINE int never_c(int x) { sink = x; return never_a(x) + 7; }

typedef int (*fn_t)(int);
static fn_t table[] = { used_twice, never_a, never_b, never_c };
static volatile int pick;

int main(int argc, char **argv)
{
	(void)argv;
	int r = 0;
	/* pick is 0 at run time, so only table[0] is called */
	r += table[pick + (argc > 100)](1);
	r += table[pick](2);
	r += used_leaf(3);
	return r == 0 ? 1 : 0;
}
