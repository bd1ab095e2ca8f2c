/* dlopen_rel DIR LIB: chdir to DIR, dlopen LIB by a path relative to it
 * ("./libplugin.so"), go back, call into it */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int call_plugin(int (*fn)(int), int x)
{
	sink += 2;
	return fn(x);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int here = open(".", O_RDONLY | O_DIRECTORY);
	if (here < 0 || chdir(argv[1]) != 0) {
		perror(argv[1]);
		return 1;
	}
	void *h = dlopen(argv[2], RTLD_NOW);
	if (fchdir(here) != 0 || !h) {
		fprintf(stderr, "dlopen: %s\n", h ? "fchdir failed" : dlerror());
		return 1;
	}
	int (*fn)(int) = (int (*)(int))dlsym(h, "plugin_entry");
	if (!fn)
		return 1;
	printf("plugin_entry(21) = %d\n", call_plugin(fn, 21));
	dlclose(h);
	return 0;
}
