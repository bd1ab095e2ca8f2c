/* longjmp out of 3 instrumented frames */
#include <setjmp.h>
#include <stdio.h>

#include "ct_test.h"

static jmp_buf jb;

NOINLINE void l3(int x)
{
	sink += x;
	if (sink > 0) /* always */
		longjmp(jb, x);
	sink += 30;
}

NOINLINE void l2(int x)
{
	sink += 2;
	l3(x);
	sink += 20;
}

NOINLINE void l1(int x)
{
	sink += 1;
	l2(x);
	sink += 10;
}

NOINLINE void before(void)
{
	sink += 4;
}

NOINLINE void after_jump(int v)
{
	sink += v;
}

NOINLINE int runner(int x)
{
	volatile int v;
	before();
	v = setjmp(jb);
	if (v == 0) {
		l1(x);
		return 0;
	}
	after_jump(v);
	return v;
}

NOINLINE void last(void)
{
	sink += 6;
}

int main(void)
{
	int a = runner(3);
	int b = runner(5);
	last();
	printf("jumped %d %d\n", a, b);
	return 0;
}
