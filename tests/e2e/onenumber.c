/* onenumber: the shape of an interpreter (sqlite's VDBE, Lua): many short
 * calls, a few levels deep, where the tracer's own cost is much of the
 * recorded time, so that corrected and raw times differ widely.  main >
 * run > step (20000 times) > {op_load, op_add > op_check, op_store}. */
#include "ct_test.h"

NOINLINE int op_check(int v)
{
	sink += v;
	return v & 1;
}

NOINLINE void op_load(int i)
{
	sink += i;
}

NOINLINE void op_add(int i)
{
	sink += i;
	if (op_check(i))
		sink++;
}

NOINLINE void op_store(int i)
{
	sink -= i;
}

NOINLINE void step(int i)
{
	op_load(i);
	op_add(i);
	op_store(i);
}

NOINLINE void run(void)
{
	for (int i = 0; i < 20000; i++)
		step(i);
}

int main(void)
{
	run();
	return 0;
}
