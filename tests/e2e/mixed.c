/* A program built with one front end calling a library built with another
 * (tests/e2e/mixed.sh): -finstrument-functions frames and return-hooked
 * frames interleave on one stack, the library calls back into the program,
 * and a longjmp from the innermost frame crosses frames of both kinds. */
#include <setjmp.h>
#include <stdio.h>

#include "ct_test.h"

int lib_mid(int x, int (*cb)(int));

static jmp_buf jb;
static volatile int armed;

NOINLINE int app_cb(int x)
{
	sink++;
	if (armed && x == 7) {
		armed = 0;
		longjmp(jb, 1);
	}
	return x + 1;
}

NOINLINE int app_inner(int x)
{
	sink++;
	return lib_mid(x, app_cb) + 1;
}

NOINLINE int app_outer(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += app_inner(i);
	return s;
}

NOINLINE int app_jump(void)
{
	sink++;
	if (setjmp(jb))
		return -1;
	armed = 1;
	return app_inner(7);
}

int main(void)
{
	printf("%d\n", app_outer(1000));
	printf("%d\n", app_jump());
	printf("%d\n", app_outer(3));
	return 0;
}
