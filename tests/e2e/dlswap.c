/* SPDX-License-Identifier: MIT */
/* dlopen a library, call it, dlclose it; then dlopen another, which the
 * loader usually maps at the same address, and call it: each call must be
 * named after the library that held the address at that moment. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include "ct_test.h"

int main(int argc, char **argv)
{
	void *base[2] = {NULL, NULL};
	for (int k = 0; k < 2 && k + 1 < argc; k++) {
		void *h = dlopen(argv[k + 1], RTLD_NOW);
		if (!h) {
			printf("dlopen: %s\n", dlerror());
			return 1;
		}
		int (*f)(int) = (int (*)(int))dlsym(h, k ? "entry_b" : "entry_a");
		Dl_info di;
		if (!f || !dladdr((void *)f, &di))
			return 1;
		base[k] = di.dli_fbase;
		printf("%d\n", f(5));
		dlclose(h);
	}
	/* the case is about the same address: say whether it happened */
	fprintf(stderr, "same base: %s\n", base[0] == base[1] ? "yes" : "no");
	return 0;
}
