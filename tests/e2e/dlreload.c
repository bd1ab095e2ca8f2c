/* dlopen, call, dlclose the same library three times (patchable.sh: a
 * library loaded again at the same place is patched again) */
#include <dlfcn.h>
#include <stdio.h>

#include "ct_test.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	for (int k = 0; k < 3; k++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		if (!h) {
			printf("dlopen: %s\n", dlerror());
			return 1;
		}
		int (*entry)(int) = (int (*)(int))dlsym(h, "plugin_entry");
		printf("%d\n", entry(k));
		dlclose(h);
	}
	return 0;
}
