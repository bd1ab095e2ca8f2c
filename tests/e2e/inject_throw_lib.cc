// inject_throw_lib: the program inject_throw's library-call section
// injects into (record --inject throw= on a library function, doc/inject.md):
// get() calls libstdc++'s operator new through the library-call hook, and
// main catches its std::bad_alloc.  The pointer escapes (keep), so that no
// compiler elides the allocation.
#include <cstdio>
#include <new>

#include "ct_test.h"

static int *volatile keep;

NOINLINE int *get(int i)
{
	return new int(i);
}

int main()
{
	for (int i = 1; i <= 3; i++) {
		try {
			int *p = get(i);
			keep = p;
			printf("new %d ok\n", *p);
			delete p;
		} catch (const std::bad_alloc &) {
			printf("new %d: bad_alloc\n", i);
		}
	}
	return 0;
}
