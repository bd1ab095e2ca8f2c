/* SPDX-License-Identifier: MIT */
/* calltrace benchmark workload for library calls (bench/libcall.sh): a loop
 * of N calls of strlen (libc, through the PLT), memcpy (the same), or of a
 * traced function of the program's own (the hooked front ends' cost).
 *
 *   libcall_loop strlen|memcpy|own N */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char bufs[8][32] = {"a", "bb", "ccc", "dddd", "eeeee", "ffffff", "ggggggg", "hhhhhhhh"};
static char dst[64];
static volatile size_t len = 16;
static volatile size_t sink;

__attribute__((noinline)) size_t own(const char *s)
{
	sink += (unsigned char)s[0];
	return sink;
}

__attribute__((noinline)) void loop(const char *what, long n)
{
	size_t t = 0;
	if (!strcmp(what, "strlen"))
		for (long i = 0; i < n; i++)
			t += strlen(bufs[i & 7]);
	else if (!strcmp(what, "memcpy"))
		for (long i = 0; i < n; i++)
			memcpy(dst, bufs[i & 7], len);
	else
		for (long i = 0; i < n; i++)
			t += own(bufs[i & 7]);
	sink += t;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	loop(argv[1], atol(argv[2]));
	printf("%zu\n", (size_t)sink);
	return 0;
}
