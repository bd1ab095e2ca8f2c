/* SPDX-License-Identifier: MIT */
/* A function reads its own return address (__builtin_return_address(0)),
 * as a program that checks its caller does: two call sites must give two
 * addresses.  A tracer that hooks returns by putting its trampoline in the
 * return-address slot makes them equal (record --count --sample does not:
 * sample_count_unwind). */
#include <stdio.h>

static void *seen[2];

__attribute__((noinline)) void where(int i)
{
	seen[i] = __builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	where(0);
	where(1);
	printf("two call sites, two return addresses: %s\n", seen[0] != seen[1] ? "yes" : "no");
	return 0;
}
