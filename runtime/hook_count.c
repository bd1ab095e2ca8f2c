/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample's entries of the hooked front ends (-pg,
 * -mfentry, patched entries): ct_hook_enter hands its calls here when
 * --count is on.  Each call is counted on count.c's counting stack with
 * its frame's CFA, and its return is not hooked: a call is over once the
 * stack pointer is above its CFA, which the next entry (count.c
 * ct_count_enter_at) and each sample (ct_count_sample, with the
 * interrupted stack pointer) see.  So the program's return addresses are
 * never touched: its returns stay predicted (a hooked return mispredicts
 * in the program's own code, time no exclusion of the runtime's code can
 * take out of a sample), and longjmp, C++ exceptions, backtrace() and
 * context switches need nothing of the runtime.
 *
 * What it cannot tell: a tail call (the callee's CFA is its caller's)
 * looks like a sibling, the arc from the caller's caller, as a call-site
 * count (count.S) keys it; and a call on another stack (a coroutine's,
 * sigaltstack) compares CFAs of different stacks, so calls open on the
 * one left may be taken as over (the samples there then go to the
 * nearest call open below them).
 */
#include <stdbool.h>
#include <stdint.h>

#include "count.h"
#include "hook_priv.h"
#include "internal.h"
#include "regs.h"

#if COUNT_FRAMES
int ct_hook_count_enter(struct ct_arch_regs *r, uintptr_t site, uintptr_t kind)
{
	struct ct_tstate *t = &ct_self;
	int pushed = 0;
	bool inside = unlikely(t->busy++ != 0);
	if (inside && t->off) { /* a stopped thread: nothing (as ct_hook_enter) */
		t->busy--;
		return 0;
	}
	uintptr_t fn = kind == 1 ? mcount_fn(site) : ct_insn_fentry_fn(site, (int)kind, &pushed);
	if (inside) /* a signal handler inside this code: counted only */
		ct_count_call((void *)fn);
	else /* the slot is r->sp (+8: a pushed frame pointer) */
		ct_count_enter_at(fn, r->sp + (pushed ? 8 : 0) + 8);
	t->busy--;
	return 0;
}
#endif
