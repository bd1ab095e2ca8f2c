/* not a case: the instrumented program that forkexec and spawn start */
#include <stdio.h>

#include "ct_test.h"

NOINLINE void target_b(void)
{
	sink += 1;
}

NOINLINE void target_a(void)
{
	sink += 2;
	target_b();
}

int main(int argc, char **argv)
{
	target_a();
	printf("target %s\n", argc > 1 ? argv[1] : "(none)");
	return 5;
}
