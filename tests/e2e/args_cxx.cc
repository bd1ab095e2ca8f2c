// SPDX-License-Identifier: MIT
// C++: `this` and parameters of methods (record -a and -A on demangled
// names), and exceptions unwinding through calls that have arguments and
// return values.
#include <cstdio>
#include <stdexcept>

#include "ct_test.h"

namespace shapes {
enum class Kind { Circle = 1, Square = 2 };

struct Counter {
	int n;
	NOINLINE int add(int k, Kind kind)
	{
		n += k + (int)kind;
		return n;
	}
	NOINLINE static long twice(long x)
	{
		sink = (int)x;
		return 2 * x;
	}
};
} // namespace shapes

NOINLINE int thrower(int depth, const char *why)
{
	if (depth == 0)
		throw std::runtime_error(why);
	int r = thrower(depth - 1, why);
	sink = r;
	return r;
}

NOINLINE int catcher(int depth)
{
	try {
		return thrower(depth, "deep");
	} catch (const std::exception &) {
		sink = 1;
		return -depth;
	}
}

NOINLINE int after(int x)
{
	sink = x;
	return x + 1;
}

int main()
{
	shapes::Counter c;
	c.n = 0;
	c.add(2, shapes::Kind::Square);
	std::printf("n %d\n", c.n);
	shapes::Counter::twice(21);
	std::printf("catcher %d\n", catcher(2));
	after(7);
	return 0;
}
