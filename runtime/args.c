/* SPDX-License-Identifier: MIT */
/*
 * TEMPORARY placeholder so that libcalltrace.so links on the h-fentry
 * branch: argument capture is off.  The real runtime/args.c (branch h-args)
 * replaces this file when the branches are merged.
 */
#include "args.h"

bool ct_args_enabled;

unsigned ct_args_entry(struct ct_thread *t, uintptr_t fn, const struct ct_arch_regs *r)
{
	(void)t;
	(void)fn;
	(void)r;
	return 0;
}

void ct_args_exit(struct ct_thread *t, uintptr_t fn, const struct ct_arch_retregs *r)
{
	(void)t;
	(void)fn;
	(void)r;
}
