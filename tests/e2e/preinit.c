/* SPDX-License-Identifier: MIT */
/* A traced function called from the program's .preinit_array, which runs
 * before libc has set environ (and before any library's constructor): the
 * runtime must find its configuration anyway and trace the whole run. */
#include <stdio.h>

#include "ct_test.h"

extern char **environ;
static int environ_was_null = -1;

NOINLINE int early(int x)
{
	sink = x;
	return x * 2;
}

static void pre(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	(void)envp;
	environ_was_null = environ == NULL;
	early(1);
}

__attribute__((section(".preinit_array"), used)) static void (*pre_p)(int, char **,
								  char **) = pre;

int main(void)
{
	printf("environ in .preinit_array: %s\n", environ_was_null ? "NULL" : "set");
	return early(2) == 4 ? 0 : 1;
}
