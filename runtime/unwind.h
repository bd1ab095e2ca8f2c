/* SPDX-License-Identifier: MIT */
/*
 * The runtime's unwinder (unwind.c): a step from a frame to its caller's by
 * the DWARF call frame information the loader mapped (each module's
 * .eh_frame_hdr and .eh_frame), async-signal-safe: no allocation, no lock,
 * no libc call.  record --count --sample finds the hooked calls open at a
 * sample with it (stackwalk.c), so that its hooks do nothing more than
 * --count's.  On the architectures whose arch.h defines CT_ARCH_UNWIND.
 */
#ifndef CT_RT_UNWIND_H
#define CT_RT_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "cfi.h"

#ifdef CT_ARCH_UNWIND

/* the function a pc is in, by its frame description: its start, and the
 * module's slot for its hook's site (the return address of its entry
 * hook's call; 0 while none is known) */
struct ct_uw_func {
	uintptr_t start;
	uintptr_t *site;
	const uint8_t *fde;
};

/* a walk's lookups and steps go between these: a module table replaced
 * meanwhile (dlopen, dlclose) stays mapped until released */
void ct_unwind_hold(void) __attribute__((visibility("hidden")));
void ct_unwind_release(void) __attribute__((visibility("hidden")));

/* the function holding pc; false: none described (no module, no entry) */
bool ct_unwind_find(uintptr_t pc, struct ct_uw_func *f) __attribute__((visibility("hidden")));

/* the function a direct call that returns to ret calls (its start, the
 * described function's): false if the call before ret is not one (an
 * indirect call, a call through a PLT's stub), or its target is not
 * described as a function's start */
bool ct_unwind_callee(uintptr_t ret, struct ct_uw_func *f) __attribute__((visibility("hidden")));

/* one step: r, a frame in f (its pc exact: where it stopped, or a
 * return address: looked up at pc - 1), becomes its caller's frame (the
 * caller's pc, its stack pointer the frame's CFA).  false: no further
 * (no rule the step knows, a word outside the stack, the stack's end).
 * rule (may be NULL): the frame's rules, to be applied again at the same
 * pc (cfi.h) while the module table is the same (ct_unwind_gen) */
bool ct_unwind_step(struct ct_uw_regs *r, const struct ct_uw_func *f, bool exact,
		    struct ct_uw_mem *m, struct ct_cfi_rule *rule)
	__attribute__((visibility("hidden")));

/* the module table's number: what a lookup found stays valid while it is
 * the same (a walk holds it: ct_unwind_hold) */
uint32_t ct_unwind_gen(void) __attribute__((visibility("hidden")));

/* a signal frame: is pc where a signal handler returns to (the
 * rt_sigreturn stub)?  Then r becomes the interrupted context, read from
 * the stack at r's stack pointer; false if not, or not readable */
bool ct_unwind_sigframe(struct ct_uw_regs *r, struct ct_uw_mem *m)
	__attribute__((visibility("hidden")));

/* the loaded modules looked up again (at start-up, after dlopen and
 * dlclose: modules.c), their sites kept */
void ct_unwind_refresh(void) __attribute__((visibility("hidden")));

/* the function whose entry hook returns to site (a hooked call's
 * count.S site), noted for the samples */
void ct_unwind_note_site(uintptr_t site) __attribute__((visibility("hidden")));

#endif
#endif
