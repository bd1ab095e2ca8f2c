/* live_stream: a first phase of calls, then a wait on a FIFO (argv[1]) that
 * the test writes to only once `calltrace live` has shown that phase, then
 * a second phase */
#include <stdio.h>

#include "ct_test.h"

NOINLINE void phase_one_leaf(int i)
{
	sink += i;
}

NOINLINE void phase_one(void)
{
	for (int i = 0; i < 3; i++)
		phase_one_leaf(i);
}

NOINLINE void phase_two(void)
{
	sink += 2;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	phase_one();
	FILE *f = fopen(argv[1], "r");
	char line[64];
	if (!f || !fgets(line, sizeof(line), f))
		return 1;
	fclose(f);
	phase_two();
	printf("live_stream done\n");
	return 0;
}
