/* a C++ exception thrown through 3 instrumented frames and caught */
#include <cstdio>

#include "ct_test.h"

struct error {
	int code;
};

NOINLINE void f3(int x)
{
	sink += x;
	if (sink > 0) /* always: keeps the code after the throw reachable */
		throw error{x};
	sink += 30;
}

NOINLINE void f2(int x)
{
	sink += 2;
	f3(x);
	sink += 20;
}

NOINLINE void f1(int x)
{
	sink += 1;
	f2(x);
	sink += 10;
}

NOINLINE void after_catch(int code)
{
	sink += code;
}

NOINLINE void after_try(void)
{
	sink += 5;
}

NOINLINE int catcher(int x)
{
	int code = 0;
	try {
		f1(x);
	} catch (const error &e) {
		code = e.code;
		after_catch(code);
	}
	after_try();
	return code;
}

NOINLINE void last(void)
{
	sink += 6;
}

int main()
{
	int a = catcher(3);
	int b = catcher(4);
	last();
	std::printf("caught %d %d\n", a, b);
	return 0;
}
