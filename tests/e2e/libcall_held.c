/*
 * record -t alone with library calls: short library calls (atoi) inside
 * calls whose entries are held back, and a long one (usleep, 20 ms) under
 * them.  The short ones must leave no trace at all, and the held entries
 * around them must be written only when their calls prove long, each with
 * its exit: a take-back of a library call's records once erased the held
 * entries written before it, leaving their exits without entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int parse(const char *s)
{
	return atoi(s); /* short: inside held calls */
}

NOINLINE int nested(const char *s)
{
	return parse(s) + 1;
}

NOINLINE void nap(void)
{
	usleep(20000); /* long: its callers' entries are written */
}

NOINLINE int phase(int i)
{
	nap();
	return nested(i & 1 ? "7" : "8");
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++) {
		s += nested("5");
		s += phase(i);
	}
	for (int i = 0; i < 200; i++)
		s += nested("3");
	printf("%d\n", s);
	return 0;
}
