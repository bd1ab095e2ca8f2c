/* many calls: argv[1] of them */
#include <stdlib.h>

#include "ct_test.h"

NOINLINE void tick(int i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	for (int i = 0; i < n; i++)
		tick(i);
	return 0;
}
