/*
 * record --count with more arcs than a first counting table holds (2,048):
 * 64 functions each call every one of the 64 through a table of pointers
 * (4,096 arcs, one call each), after main called each of them once.
 */
#include <stdio.h>

#include "ct_test.h"

typedef void fn_t(int);
static fn_t *table[64];

#define F(n)                                                                                \
	NOINLINE void f##n(int all)                                                         \
	{                                                                                   \
		sink += n;                                                                  \
		if (all)                                                                    \
			for (int i = 0; i < 64; i++) {                                      \
				table[i](0);                                                \
				sink += 1;                                                  \
			}                                                                   \
	}
#define F8(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7)
F8(1)
F8(2)
F8(3)
F8(4)
F8(5)
F8(6)
F8(7)
F8(8)

#define P8(n) f##n##0, f##n##1, f##n##2, f##n##3, f##n##4, f##n##5, f##n##6, f##n##7,
static fn_t *table[64] = {P8(1) P8(2) P8(3) P8(4) P8(5) P8(6) P8(7) P8(8)};

int main(void)
{
	for (int i = 0; i < 64; i++) {
		table[i](1);
		sink += 1;
	}
	printf("count_many %d\n", 64 * 64);
	return 0;
}
