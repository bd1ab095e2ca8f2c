/* backtrace() from inside traced frames: the result must be the one an
 * untraced run gives (module + offset of each return address) */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <string.h>

#include "ct_test.h"

NOTRACE static void show(void)
{
	void *pc[64];
	int n = backtrace(pc, 64);
	printf("frames %d\n", n);
	for (int i = 0; i < n; i++) {
		Dl_info di;
		if (dladdr(pc[i], &di) && di.dli_fname) {
			const char *b = strrchr(di.dli_fname, '/');
			printf("  %s+%#lx\n", b ? b + 1 : di.dli_fname,
			       (unsigned long)((char *)pc[i] - (char *)di.dli_fbase));
		} else {
			printf("  ?\n");
		}
	}
	/* a short buffer */
	n = backtrace(pc, 2);
	printf("short %d\n", n);
}

NOINLINE void bt3(int x)
{
	sink += x;
	show();
	sink += x;
}

NOINLINE void bt2(int x)
{
	sink += x;
	bt3(x);
	sink += x;
}

NOINLINE void bt1(int x)
{
	sink += x;
	bt2(x);
	sink += x;
}

NOINLINE void after(void)
{
	sink += 1;
}

int main(void)
{
	bt1(1);
	after();
	return 0;
}
