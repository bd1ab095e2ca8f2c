/* SPDX-License-Identifier: MIT */
/* A function with its own patchable entry in a program built with another
 * front end (-pg, -pg -mfentry, -finstrument-functions): it is entered once,
 * under its own name, never also as "a+0x5". */
#include <stdio.h>

#include "ct_test.h"

NOINLINE __attribute__((patchable_function_entry(5))) int a(int x)
{
	sink = x;
	return x + 1;
}

NOINLINE __attribute__((patchable_function_entry(7, 2))) int a72(int x)
{
	sink = x;
	return x + 2;
}

NOINLINE int b(int x)
{
	sink = x;
	return a(x) * 2 + a72(x);
}

int main(void)
{
	printf("%d\n", b(3) + b(4));
	return 0;
}
