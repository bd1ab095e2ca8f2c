/* SPDX-License-Identifier: MIT */
/* Argument locations in -A/-R specs (doc/args.md, "Locations"): a register
 * by name, the N-th stack slot, a long double on the stack; the reference
 * tool's mixed-argument functions. */
#include <stdio.h>

#include "ct_test.h"

NOINLINE double mixed_add(int a, float b)
{
	sink = a;
	return a + b;
}

NOINLINE long mixed_sub(void *a, unsigned long b)
{
	sink = (int)b;
	return (long)a - (long)b;
}

NOINLINE long long mixed_mul(double a, long long b)
{
	sink = (int)a;
	return (long long)(a * (double)b);
}

NOINLINE long double mixed_div(long long a, long double b, int c)
{
	sink = c;
	return (long double)a / b;
}

NOINLINE const char *mixed_str(const char *a, double b)
{
	static char buf[32];
	sink = (int)b + a[0];
	if (b)
		snprintf(buf, sizeof(buf), "%.2f", b);
	return b ? buf : "return";
}

/* seven integer arguments: the seventh is the first stack slot, and the
 * eighth the second */
NOINLINE long stacked(long a, long b, long c, long d, long e, long f, long g, const char *h)
{
	sink = (int)(a + b + c + d + e + f + g) + h[0];
	return g;
}

/* a 128-bit return value: its upper half is in rdx */
NOINLINE unsigned __int128 wide(unsigned long hi, unsigned long lo)
{
	sink = (int)lo;
	return (unsigned __int128)hi << 64 | lo;
}

int main(void)
{
	mixed_add(-1, 0.2f);
	mixed_sub((void *)0x400000, 2048);
	mixed_mul(-3, 80000000000LL);
	mixed_div(4, -0.000002L, 3);
	mixed_str("argument", 0);
	stacked(1, 2, 3, 4, 5, 6, -7, "eight");
	wide(0x1234, 5);
	return 0;
}
