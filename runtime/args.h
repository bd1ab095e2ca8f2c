/* SPDX-License-Identifier: MIT */
/*
 * Argument and return-value capture: the interface between the entry and
 * return paths of the front ends that see registers (mcount, __fentry__,
 * patched entries) and the capture code (runtime/args.c).
 *
 * The front end calls ct_args_entry right after it wrote the function's
 * ENTER record, and ct_args_exit right before it writes the EXIT record,
 * both on the outer (non-nested) path with t->busy held.  When
 * ct_args_enabled is false neither is called, so a run without -A/-R/-a
 * pays one predictable branch.
 */
#ifndef CT_RT_ARGS_H
#define CT_RT_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "regs.h"

struct ct_thread;

#define CT_ARGS_WANT_RET 1u /* ct_args_exit must be called at this call's return */

extern bool ct_args_enabled __attribute__((visibility("hidden")));

/* write fn's argument record if a spec names fn; returns CT_ARGS_* flags
 * that the front end keeps with the frame until the function returns */
unsigned ct_args_entry(struct ct_thread *t, uintptr_t fn, const struct ct_arch_regs *r)
	__attribute__((visibility("hidden")));
/* write fn's return-value record (called only when the entry said
 * CT_ARGS_WANT_RET) */
void ct_args_exit(struct ct_thread *t, uintptr_t fn, const struct ct_arch_retregs *r)
	__attribute__((visibility("hidden")));

/* load $CALLTRACE_ARGS (process start-up); sets ct_args_enabled */
void ct_args_init(void) __attribute__((visibility("hidden")));
/* a module was mapped (added) or unmapped: its functions' specs go into
 * (or out of) the address hash */
void ct_args_module(uintptr_t base, const char *path, const char *buildid, bool added)
	__attribute__((visibility("hidden")));

#endif
