/* libcall_nest: library calls made from inside libraries (record
 * --nest-libcall, doc/libcall.md): fopen and fclose calling malloc and
 * free in libc, strdup calling malloc; an untraced library of the
 * program's calling calloc and free (and its own exported function, a
 * call into itself), linked and dlopen'd. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ct_test.h"

int nest_lib_work(int n); /* libcall_nest_lib.so, untraced */

NOINLINE void open_close(void)
{
	FILE *f = fopen("/dev/null", "r");
	if (f) {
		sink += fgetc(f);
		fclose(f);
	}
}

NOINLINE void dup_free(void)
{
	char *s = strdup("xy");
	sink += s[0];
	free(s);
}

NOINLINE void in_lib(void)
{
	sink += nest_lib_work(3);
}

NOINLINE void in_dlopened(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		exit(3);
	}
	int (*fn)(int) = (int (*)(int))dlsym(h, "nest_dl_work");
	sink += fn(4);
}

int main(int argc, char **argv)
{
	open_close();
	dup_free();
	in_lib();
	if (argc > 1)
		in_dlopened(argv[1]);
	printf("done\n");
	return 0;
}
