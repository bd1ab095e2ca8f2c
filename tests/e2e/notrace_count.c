/* notrace_count: hidden() is called 15 times and calls leaf() 200 times
 * each: record -N '^hidden$' leaves out 15 + 3000 calls */
#include "ct_test.h"

NOINLINE int leaf(int x)
{
	sink = x;
	return x + 1;
}

NOINLINE int hidden(int x)
{
	int r = 0;
	for (int i = 0; i < 200; i++)
		r += leaf(i);
	sink = x;
	return r;
}

int main(void)
{
	int r = 0;
	for (int i = 0; i < 15; i++)
		r += hidden(i);
	leaf(1);
	return r == 0;
}
