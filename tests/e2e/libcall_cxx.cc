// libcall_cxx: an exception thrown by a callback through an untraced
// library's frame (each) into the traced caller, which catches it; the
// library call and the throw are closed, and what follows is in place.
#include <cstdio>
#include <stdexcept>

#include "ct_test.h"

extern "C" void each(int n, void (*cb)(int));

NOINLINE void cb(int i)
{
	if (i == 1)
		throw std::runtime_error("boom");
	sink += i;
}

NOINLINE void cb_ok(int i)
{
	sink += i;
}

NOINLINE int run()
{
	try {
		each(3, cb);
	} catch (const std::exception &e) {
		std::printf("caught %s\n", e.what());
		return 1;
	}
	return 0;
}

NOINLINE void after()
{
	each(2, cb_ok);
}

int main()
{
	int r = run();
	after();
	return r;
}
