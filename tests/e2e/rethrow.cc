/* exceptions through return-hooked frames: rethrow, nested try, catch(...),
 * a destructor that calls traced code while unwinding, and (with argument
 * "uncaught") an exception nobody catches */
#include <cstdio>
#include <cstring>

#include "ct_test.h"

struct error {
	int code;
};

NOINLINE void cleanup_work(int x)
{
	sink += x;
}

struct guard {
	int x;
	NOINLINE ~guard()
	{
		cleanup_work(x);
	}
};

NOINLINE void thrower(int x)
{
	sink += x;
	if (sink > 0) /* always */
		throw error{x};
	sink += 30;
}

NOINLINE void with_guard(int x)
{
	guard g{x};
	thrower(x);
	sink += 20;
}

NOINLINE void rethrower(int x)
{
	try {
		with_guard(x);
	} catch (error &e) {
		e.code += 100;
		throw; /* __cxa_rethrow */
	}
}

NOINLINE int nested(int x)
{
	int r = 0;
	try {
		try {
			rethrower(x);
		} catch (const error &e) {
			r = e.code;
			thrower(r); /* a new exception from inside a handler */
		}
	} catch (...) {
		r += 1000;
	}
	return r;
}

NOINLINE int deep(int n, int x)
{
	if (n == 0) {
		thrower(x);
		return 0;
	}
	int r = deep(n - 1, x);
	sink += n; /* after the call: no tail recursion to a loop */
	return r + 1;
}

NOINLINE int catch_all(int x)
{
	try {
		return deep(5, x);
	} catch (...) {
		return -1;
	}
}

NOINLINE void after(int r)
{
	sink += r;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !std::strcmp(argv[1], "uncaught")) {
		std::printf("throwing\n");
		std::fflush(stdout);
		with_guard(7);
		return 0;
	}
	int total = 0;
	for (int i = 1; i <= 3; i++) {
		int r = nested(i);
		after(r);
		total += r;
		total += catch_all(i);
	}
	std::printf("total %d\n", total);
	return 0;
}
