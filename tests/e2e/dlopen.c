/* a dlopen'd instrumented library: dlopen, call through dlsym, dlclose */
#include <dlfcn.h>
#include <stdio.h>

#include "ct_test.h"

NOINLINE void before_load(void)
{
	sink += 1;
}

NOINLINE int call_plugin(int (*fn)(int), int x)
{
	sink += 2;
	return fn(x);
}

NOINLINE void after_unload(int r)
{
	sink += r;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	before_load();
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	int (*fn)(int) = (int (*)(int))dlsym(h, "plugin_entry");
	if (!fn) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		return 1;
	}
	int r = call_plugin(fn, 21);
	dlclose(h);
	after_unload(r);
	printf("plugin returned %d\n", r);
	return 0;
}
