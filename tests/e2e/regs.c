/* Every register a call may pass a value in, and every register a return
 * may carry one in, must come through the tracer's hooks unchanged, also
 * when a hook hands a full buffer over (the test records with tiny buffers,
 * so that happens at every kind of entry and return): six integer and two
 * stack arguments, eight double arguments (xmm0-7), %al of a variadic
 * call, %r10 of a nested function (gcc), and return values in rax:rdx,
 * xmm0:xmm1 and the x87 stack.  Each result is checked against the same
 * computation made in untraced code. */
#include <stdarg.h>
#include <stdio.h>

#include "ct_test.h"

struct pair {
	long a, b;
};
struct dpair {
	double x, y;
};

NOINLINE long ints(long a, long b, long c, long d, long e, long f, long g, long h)
{
	sink++;
	return a + 3 * b + 5 * c + 7 * d + 11 * e + 13 * f + 17 * g + 19 * h;
}

NOINLINE double dbls(double a, double b, double c, double d, double e, double f, double g, double h)
{
	sink++;
	return a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h;
}

NOINLINE struct pair mkpair(long a, long b)
{
	sink++;
	struct pair p = {a * 2, b * 3};
	return p;
}

NOINLINE struct dpair mkdpair(double x, double y)
{
	sink++;
	struct dpair p = {x / 2, y * 4};
	return p;
}

NOINLINE long double ld(long double x)
{
	sink++;
	return x * 3;
}

NOINLINE double vsum(int n, ...)
{
	va_list ap;
	double s = 0;
	sink++;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double) * (i + 1);
	va_end(ap);
	return s;
}

/* the same computations, untraced */
NOTRACE static long ints_ref(long a, long b, long c, long d, long e, long f, long g, long h)
{
	return a + 3 * b + 5 * c + 7 * d + 11 * e + 13 * f + 17 * g + 19 * h;
}

NOTRACE static double dbls_ref(double a, double b, double c, double d, double e, double f, double g,
			       double h)
{
	return a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h;
}

static int bad;

NOTRACE static void check(int ok, const char *what, int i)
{
	if (!ok && bad++ < 5)
		printf("mismatch in %s at round %d\n", what, i);
}

#if !defined(__clang__)
/* a nested function reads its parent's frame through the static chain, %r10 */
NOINLINE long with_nested(long k)
{
	long base = k * 7;
	NOINLINE long inner(long x)
	{
		sink++;
		return base + x;
	}
	/* the same at the start of a page: the `push %r10` is then all that
	 * stands between the page's start and the call */
	__attribute__((noinline, aligned(4096))) long inner_paged(long x)
	{
		sink++;
		return base - x;
	}
	sink++;
	return inner(1) + inner(2) + inner_paged(3);
}
#endif

NOINLINE void round_(int i)
{
	long a = i, b = i + 1, c = -i, d = i * 3, e = i ^ 5, f = 1000 - i, g = i * i, h = 42 + i;
	check(ints(a, b, c, d, e, f, g, h) == ints_ref(a, b, c, d, e, f, g, h), "ints", i);
	double x = i * 0.5;
	check(dbls(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7) ==
		  dbls_ref(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7),
	      "dbls", i);
	struct pair p = mkpair(a, h);
	check(p.a == a * 2 && p.b == h * 3, "mkpair", i);
	struct dpair q = mkdpair(x, x + 1);
	check(q.x == x / 2 && q.y == (x + 1) * 4, "mkdpair", i);
	check(ld((long double)i) == (long double)i * 3, "ld", i);
	check(vsum(3, x, x + 1, x + 2) == x + 2 * (x + 1) + 3 * (x + 2), "vsum", i);
#if !defined(__clang__)
	check(with_nested(i) == 3 * 7 * (long)i, "with_nested", i);
#endif
}

int main(void)
{
	for (int i = 0; i < 20000; i++)
		round_(i);
	printf("%s\n", bad ? "registers changed" : "all registers came through");
	return bad != 0;
}
