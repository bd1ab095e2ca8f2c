/* SPDX-License-Identifier: MIT */
/* record -a: parameter and return types from DWARF. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ct_test.h"

enum color { RED, GREEN = 5, BLUE = -2 };
/* enumerators that DWARF writes as data1/data2 with the top bit set */
enum wide { W7F = 0x7f, W80 = 0x80, WFF = 0xff, W8000 = 0x8000, WFFFF = 0xffff };
enum swide { SNEG = -1, S80 = 0x80, S8000 = 0x8000 };
struct pt { int x, y; };            /* 8 bytes: one register */
struct mix { long id; double w; };   /* INTEGER + SSE: rdi-class and xmm */
struct big { long a, b, c; };        /* 24 bytes: on the stack */
struct fl { float a, b; };           /* 8 bytes, SSE: one xmm */
union u { int i; float f; };

static volatile int v1 = 1;

NOINLINE enum color paint(enum color c, bool on, unsigned char uc, short s)
{
	sink = c + on + uc + s;
	return c == RED ? BLUE : (enum color)7;
}

NOINLINE long widths(int8_t a, uint16_t b, int64_t c, uint64_t d, char ch, const char *str)
{
	sink = a + b + (int)c + (int)d + ch + str[0];
	return (long)c;
}

NOINLINE enum wide ewide(enum wide a, enum swide b)
{
	sink = a + b;
	return a == W80 ? WFF : W8000;
}

/* bytes: one rule for arguments and return values (a character only for
 * char itself) */
NOINLINE uint8_t byte_u8(uint8_t a, unsigned char b, signed char c)
{
	sink = a + b + c;
	return (uint8_t)(a + 1);
}

NOINLINE unsigned char byte_uc(unsigned char a)
{
	sink = a;
	return (unsigned char)(a + 2);
}

NOINLINE char byte_c(char a)
{
	sink = a;
	return (char)(a + 1);
}

NOINLINE struct pt move(struct pt p, int dx, struct mix m, struct fl f)
{
	p.x += dx + (int)m.id + (int)m.w + (int)f.a + (int)f.b; /* every
									 * value used: clang -O2 does not
									 * pass those a callee ignores */
	sink = p.x;
	return p;
}

NOINLINE struct big grow(struct big b, long k)
{
	b.a += k;
	sink = (int)b.a;
	return b; /* returned in memory: rdi is the hidden pointer */
}

NOINLINE long stack_args(long a1, long a2, long a3, long a4, long a5, long a6, long a7,
			 double d1, double d2, double d3, double d4, double d5, double d6,
			 double d7, double d8, double d9, struct pt p, long a8)
{
	sink = (int)(a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + d1 + d2 + d3 + d4 + d5 + d6 + d7 +
		     d8 + d9 + p.x);
	return a7 + a8;
}

NOINLINE int odd_types(long double ld, union u un, int after)
{
	sink = (int)ld + un.i + after;
	return after;
}

NOINLINE long double ldouble(int x)
{
	sink = x;
	return x * 0.5L;
}

NOINLINE int sum(int n, ...)
{
	va_list ap;
	int s = 0;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	sink = s;
	return s;
}

NOINLINE void nothing(void)
{
	sink = 0;
}

NOINLINE int (*pick(int which))(int n, ...)
{
	sink = which;
	return sum;
}

int main(void)
{
	paint(GREEN, true, 200, -3);
	paint(RED, false, 0, 0);
	widths(-1, 65535, -5000000000LL, 18000000000000000000ull, 'z', "text");
	ewide(W80, S80);
	ewide(WFFFF, S8000);
	ewide(W7F, SNEG);
	byte_u8(200, 201, -3);
	byte_uc(250);
	byte_c('x');
	struct pt p = {1, 2};
	struct mix m = {10, 0.5};
	struct fl f = {1.5f, -2.0f};
	move(p, 3 * v1, m, f);
	struct big b = {1, 2, 3};
	grow(b, 4);
	stack_args(1, 2, 3, 4, 5, 6, 7, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, p, 8);
	union u un = {.i = 1};
	odd_types(1.0L, un, 42);
	ldouble(3);
	pick(1)(3, 1, 2, 3);
	nothing();
	puts("done");
	return 0;
}
