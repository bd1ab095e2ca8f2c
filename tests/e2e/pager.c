/* the pager and colour case: one slow call (over 10 ms, coloured), and
 * argv[1] quick ones (a long tree for a pager that quits early) */
#include <stdlib.h>
#include <time.h>

#include "ct_test.h"

NOINLINE void slow(void)
{
	struct timespec ts = {0, 30 * 1000 * 1000};
	nanosleep(&ts, NULL);
	sink++;
}

NOINLINE void quick(int i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;
	slow();
	for (int i = 0; i < n; i++)
		quick(i);
	return 0;
}
