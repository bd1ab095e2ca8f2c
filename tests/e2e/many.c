/* 100 traced functions of some 60-100 bytes each, so that several of them
 * straddle a page boundary: see entries.sh */
#include <stdio.h>

#include "ct_test.h"

#define F(n)                                                                                       \
	NOINLINE void f##n(int x)                                                                  \
	{                                                                                          \
		volatile char buf[64];                                                             \
		buf[x & 63] = (char)x;                                                             \
		sink += buf[(x + 1) & 63] + x * n;                                                 \
		if (x > 0)                                                                         \
			sink += x * 3 + n;                                                         \
	}
#define TEN(n) F(n##0) F(n##1) F(n##2) F(n##3) F(n##4) F(n##5) F(n##6) F(n##7) F(n##8) F(n##9)
TEN(1) TEN(2) TEN(3) TEN(4) TEN(5) TEN(6) TEN(7) TEN(8) TEN(9) TEN(10)

#define C(n) f##n(1);
#define CALL10(n)                                                                                  \
	C(n##0) C(n##1) C(n##2) C(n##3) C(n##4) C(n##5) C(n##6) C(n##7) C(n##8) C(n##9)

int main(void)
{
	CALL10(1) CALL10(2) CALL10(3) CALL10(4) CALL10(5) CALL10(6) CALL10(7) CALL10(8) CALL10(9)
	CALL10(10)
	printf("%d\n", sink);
	return 0;
}
