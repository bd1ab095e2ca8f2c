/* library-call names (doc/libcall.md): aliases of one implementation
 * (memcpy and memmove, strtol and strtoimax) named as the program calls
 * them; a C++ library call's parameter list printed once; gcc's clones
 * (".isra.0", "[clone .constprop.0]") named with "()" where it belongs */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <new>

#include "ct_test.h"

extern "C" NOINLINE int cclone(int x) __asm__("cclone.isra.0");
extern "C" NOINLINE int cclone(int x)
{
	sink += x;
	return x + 1;
}

/* _Z6cxxonei is cxxone(int) */
NOINLINE int cxxone(int x) __asm__("_Z6cxxonei.constprop.0");
NOINLINE int cxxone(int x)
{
	sink += x;
	return x * 2;
}

NOINLINE static void copies(char *a, const char *b, size_t n)
{
	for (int i = 0; i < 3; i++)
		memcpy(a, b, n);
	for (int i = 0; i < 2; i++)
		memmove(a + 1, a, n);
	sink += a[1];
}

NOINLINE static long numbers(const char *s)
{
	long v = strtol(s, NULL, 10) + strtol(s, NULL, 16);
	v += (long)strtoimax(s, NULL, 10);
	return v;
}

NOINLINE static void allocs(void)
{
	/* (not new/delete: clang and gcc call different deletes) */
	int *p = static_cast<int *>(::operator new(sizeof(int)));
	*p = 4;
	sink += *p;
	::operator delete(p);
}

int main(int argc, char **argv)
{
	char a[32], b[32] = "calltrace";
	(void)argv;
	copies(a, b, (size_t)argc + 8);
	sink += numbers("12");
	allocs();
	sink += cclone(argc) + cxxone(argc);
	return 0;
}
