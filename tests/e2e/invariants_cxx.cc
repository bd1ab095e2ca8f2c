/* invariants: a C++ exception thrown through 3 frames, caught, and the
 * calls after it (tests/check_times.py) */
#include "ct_test.h"

struct error {
	int code;
};

NOINLINE void tiny(int i)
{
	sink += i;
}

NOINLINE void t3(int x)
{
	tiny(x);
	if (sink > 0) /* always: keeps the code after the throw reachable */
		throw error{x};
	sink += 30;
}

NOINLINE void t2(int x)
{
	tiny(x);
	t3(x);
	sink += 20;
}

NOINLINE void t1(int x)
{
	tiny(x);
	t2(x);
	sink += 10;
}

NOINLINE int catcher(int x)
{
	int code = 0;
	try {
		t1(x);
	} catch (const error &e) {
		code = e.code;
		tiny(code);
	}
	return code;
}

int main()
{
	int n = 0;
	for (int i = 1; i <= 50; i++)
		n += catcher(i);
	for (int i = 0; i < 1000; i++)
		tiny(i);
	return n == 1275 ? 0 : 1;
}
