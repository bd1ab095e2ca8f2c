/* cxx_local LIB: dlopen a C++ library with RTLD_LOCAL (its libstdc++ and
 * libgcc_s are then in its own scope only), call a function of it that
 * throws and catches an exception; close it, open it again and call it
 * again (the unwinder found the first time may have gone with it) */
#include <dlfcn.h>
#include <stdio.h>

#include "ct_test.h"

NOINLINE static int call_lib(const char *path, int v)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	int (*work)(int) = (int (*)(int))dlsym(h, "cxx_work");
	int r = work ? work(v) : -1;
	dlclose(h);
	sink += r;
	return r;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	printf("caught=%d\n", call_lib(argv[1], 5));
	printf("caught=%d\n", call_lib(argv[1], 7));
	return 0;
}
