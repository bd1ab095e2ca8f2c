/* deep: 16,384 nested calls of rec, each calling leaf on its way down, in
 * about 200 KB of stream: the views' output must stay linear in the number
 * of calls (badinput) */
#include <stdio.h>

#include "ct_test.h"

#define DEPTH 16384

NOINLINE void leaf(void)
{
	sink += 1;
}

NOINLINE int rec(int n)
{
	leaf();
	if (n == 0)
		return 0;
	int r = rec(n - 1);
	sink += 2;
	return r + 1;
}

int main(void)
{
	printf("depth %d\n", rec(DEPTH - 1) + 1);
	return 0;
}
