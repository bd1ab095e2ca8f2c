/* SPDX-License-Identifier: MIT */
/* Arguments and return values by -A/-R spec: every format. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ct_test.h"

static volatile int in48 = 48, in18 = 18;

NOINLINE int gcd(int a, int b)
{
	if (!b)
		return a;
	int r = gcd(b, a % b);
	sink = r;
	return r;
}

NOINLINE unsigned ints(signed char c8, short s16, long long s64, unsigned u32, unsigned x)
{
	sink = c8 + s16 + (int)s64 + (int)u32 + (int)x;
	return u32 + 1;
}

NOINLINE int chars(char c, char nl, char q)
{
	sink = c + nl + q;
	return c;
}

NOINLINE int callback(int x)
{
	sink = x;
	return x + 1;
}

NOINLINE void *pointers(int (*fn)(int), void *null, void *data)
{
	sink = fn(1) + (null != 0) + (data != 0);
	return (void *)fn;
}

NOINLINE size_t strings(const char *s, const char *empty, const char *bad, const char *null,
			const char *longer)
{
	/* never reads bad */
	sink = (int)strlen(s) + (int)strlen(empty) + (bad != 0) + (null != 0);
	return strlen(longer);
}

NOINLINE const char *name_of(int i)
{
	static const char *const names[] = {"zero", "one", "two"};
	sink = i;
	return names[i];
}

NOINLINE double floats(double d, float f, double neg)
{
	sink = (int)(d + f + neg);
	return d * 2;
}

NOINLINE float halve(float f)
{
	sink = (int)f;
	return f / 2;
}

NOINLINE long many(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,
		   long a9)
{
	sink = (int)(a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9);
	return a7 + a8 + a9;
}

NOINLINE int printf_form(int a, const char *s, unsigned x, double d)
{
	sink = a + (int)x + (int)d + s[0];
	return a;
}

int main(void)
{
	static char data[16];
	printf("gcd %d\n", gcd(in48, in18));
	ints(-5, -1234, -123456789012LL, 4000000000u, 0xdeadbeef);
	chars('a', '\n', '\'');
	pointers(callback, NULL, data);
	strings("hello", "", (const char *)16, NULL, "a string longer than the bound");
	printf("%s\n", name_of(2));
	floats(2.5, 0.25f, -1e300);
	halve(3.0f);
	many(1, 2, 3, 4, 5, 6, 7, 8, 9);
	printf_form(-7, "str", 255, 3.5);
	return 0;
}
