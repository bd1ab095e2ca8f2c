// inject_throw: the program the inject_throw case injects C++ exceptions
// into (record --inject throw=, doc/inject.md): parse() and reserve() each
// have a caller that catches what they may throw; neither throws untraced.
// Each can throw in the compiler's eyes: a function it proves nothrow has
// no unwind entries at its call sites (doc/inject.md, Limits).
#include <cstdio>
#include <new>
#include <stdexcept>

#include "ct_test.h"

NOINLINE int parse(int x)
{
	sink += x;
	if (x < 0)
		throw std::runtime_error("negative");
	return x * 2;
}

NOINLINE int reserve(int n)
{
	sink += n;
	if (n > 1000000)
		throw std::bad_alloc();
	return n;
}

NOINLINE void handle(int i)
{
	try {
		int v = parse(i);
		printf("parse(%d) = %d\n", i, v);
	} catch (const std::runtime_error &e) {
		printf("parse(%d): runtime_error: %s\n", i, e.what());
	}
	try {
		reserve(i);
		printf("reserve(%d) ok\n", i);
	} catch (const std::bad_alloc &) {
		printf("reserve(%d): bad_alloc\n", i);
	}
}

int main()
{
	for (int i = 1; i <= 4; i++)
		handle(i);
	return 0;
}
