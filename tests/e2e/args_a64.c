/* SPDX-License-Identifier: MIT */
/* Arguments and return values on aarch64 -pg (args_a64.sh): ints,
 * pointers, a string, doubles, a float, a struct by pointer and by value,
 * as the reference tool's argument tests at -O0 have them.  The program
 * prints each value it passes, for the trace to be checked against. */
#include <stdio.h>

#include "ct_test.h"

struct point {
	int x, y;
};

NOINLINE int int_add(int a, int b)
{
	sink = a;
	return a + b;
}

NOINLINE long int_mix(char c, short s, long l, unsigned u)
{
	sink = c + s;
	return l + (long)u + c + s;
}

NOINLINE const char *str_arg(const char *s, int n)
{
	sink = n;
	return s + n;
}

NOINLINE double float_add(double a, double b, float f)
{
	sink = (int)f;
	return a + b + f;
}

NOINLINE int *ptr_arg(int *p, void *q)
{
	sink = q != 0;
	return p + 1;
}

NOINLINE int point_sum(const struct point *p, int scale)
{
	sink = scale;
	return (p->x + p->y) * scale;
}

NOINLINE int point_val(struct point p, double w)
{
	sink = (int)w;
	return p.x - p.y;
}

/* a parameter the function never reads: at aarch64 -O2 it has no place
 * at _mcount (shown as ?), elsewhere its value */
NOINLINE int unused_arg(int ignored, int used)
{
	sink = used;
	return used * 2;
}

NOINLINE double inner(double x, int k)
{
	sink = k;
	return x * k;
}

NOINLINE double outer(int k, double x)
{
	double r = inner(x, k + 1);
	sink = (int)r;
	return r + 1;
}

static int arr[4] = {1, 2, 3, 4};

int main(void)
{
	struct point pt = {3, -4};
	printf("arr = %p, &pt = %p\n", (void *)arr, (void *)&pt);
	printf("int_add(%d, %d) = %d\n", 40, 2, int_add(40, 2));
	printf("int_mix('%c', %d, %ld, %u) = %ld\n", 'z', -300, -5000000000L, 4000000000u,
	       int_mix('z', -300, -5000000000L, 4000000000u));
	printf("str_arg(\"%s\", %d) = \"%s\"\n", "hello, arm", 7, str_arg("hello, arm", 7));
	printf("float_add(%g, %g, %g) = %g\n", 1.5, -0.25, 2.5f, float_add(1.5, -0.25, 2.5f));
	printf("ptr_arg(arr, NULL) = arr + %d\n", (int)(ptr_arg(arr, 0) - arr));
	printf("point_sum({%d, %d}, %d) = %d\n", pt.x, pt.y, 10, point_sum(&pt, 10));
	printf("point_val({%d, %d}, %g) = %d\n", pt.x, pt.y, 0.5, point_val(pt, 0.5));
	printf("unused_arg(%d, %d) = %d\n", 4, 5, unused_arg(4, 5));
	printf("outer(%d, %g) = %g\n", 2, 0.75, outer(2, 0.75));
	return 0;
}
