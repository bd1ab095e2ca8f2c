/* SPDX-License-Identifier: MIT */
/*
 * bench/accuracy.sh, part 3: a loop of N calls of an empty function.  Built
 * plain and with -finstrument-functions and run untraced (glibc's empty
 * hooks), the difference per call is what that build costs a function with
 * nothing to keep across the hook calls, which is what the calibration's
 * functions are (doc/overhead.md, "What -finstrument-functions leaves").
 */
#include <stdlib.h>

__attribute__((noinline)) void empty(void)
{
	__asm__ volatile("");
}

__attribute__((no_instrument_function)) int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	for (long i = 0; i < n; i++)
		empty();
	return 0;
}
