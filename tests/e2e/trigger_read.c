/* SPDX-License-Identifier: MIT */
/* read= triggers: touch() maps and writes 1 MiB (256 pages: at least 256
 * minor faults and 1024 KB more resident memory), inside work(); leaf()
 * and deeper() are plain calls; jumpy() leaves through longjmp. */
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ct_test.h"

#define MIB (1 << 20)

static jmp_buf jb;

NOINLINE void leaf(void)
{
	sink = 1;
}

NOINLINE char *touch(void)
{
	char *p = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(3);
	for (int i = 0; i < MIB; i += 4096)
		p[i] = 1;
	leaf();
	return p;
}

NOINLINE void work(void)
{
	char *p = touch();
	leaf();
	munmap(p, MIB);
}

NOINLINE void deeper(int n)
{
	if (n)
		deeper(n - 1);
	leaf();
}

NOINLINE void jumpy(void)
{
	leaf();
	longjmp(jb, 1);
}

int main(void)
{
	work();
	work();
	deeper(2);
	if (!setjmp(jb))
		jumpy();
	leaf();
	return 0;
}
