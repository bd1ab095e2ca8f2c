/* inject_throw_c [LIB]: a C program whose alloc() gets record --inject's
 * throw=.  With LIB (a C++ library, dlopened RTLD_LOCAL) each step is
 * called through it, which catches; without, nothing catches */
#include <dlfcn.h>
#include <stdio.h>

#include "ct_test.h"

NOINLINE void *alloc(int n)
{
	sink += n;
	return (void *)&sink;
}

NOINLINE int step(int i)
{
	return alloc(i) != NULL;
}

int main(int argc, char **argv)
{
	int (*guard)(int (*)(int), int) = NULL;
	if (argc > 1) {
		void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		guard = h ? (int (*)(int (*)(int), int))dlsym(h, "cxx_guard") : NULL;
		if (!guard) {
			fprintf(stderr, "%s\n", dlerror());
			return 2;
		}
	}
	for (int i = 1; i <= 3; i++) {
		printf("step %d: %d\n", i, guard ? guard(step, i) : step(i));
		fflush(stdout);
	}
	return 0;
}
