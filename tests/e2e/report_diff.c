/* report_diff: two builds of one program, BUILD 0 (the base) and BUILD 1
 * (the new one): slow does 40 times the work, counted is called 5 times
 * instead of 2, removed is gone and added is new; steady and main are the
 * same. */
#include "ct_test.h"

#ifndef BUILD
#define BUILD 0
#endif

/* some work of a function's own, so that no self time is corrected down
 * to nothing (a percentage of nothing has no value) */
#define OWN()                                                                  \
	for (int own_ = 0; own_ < 1000; own_++)                               \
		sink += own_

NOINLINE void spin(int units)
{
	for (int i = 0; i < units * 5000; i++)
		sink += i;
}

NOINLINE void slow(void)
{
	OWN();
	spin(BUILD ? 40 : 1);
}

NOINLINE void steady(void)
{
	OWN();
	spin(2);
}

NOINLINE void counted(void)
{
	OWN();
}

#if BUILD
NOINLINE void added(void)
{
	OWN();
	spin(1);
}
#else
NOINLINE void removed(void)
{
	OWN();
	spin(1);
}
#endif

int main(void)
{
	OWN();
	for (int i = 0; i < 3; i++)
		steady();
	for (int i = 0; i < (BUILD ? 5 : 2); i++)
		counted();
	for (int i = 0; i < 20; i++)
		slow();
#if BUILD
	added();
#else
	removed();
#endif
	return 0;
}
