/* SPDX-License-Identifier: MIT */
/*
 * Patched entries on aarch64 (-fpatchable-function-entry=2, runtime/patch.c,
 * doc/frontends.md): the trampoline the two nops at a function's entry call
 * once patched, the kernel's way (patchsite.h):
 *
 *     mov x9, x30        the caller's return address, kept
 *     bl  ct_patch_tramp (or a veneer near the module that jumps here)
 *
 * so at ct_patch_tramp x9 is the return address into the caller, x30 the
 * function's entry + 8 (where it goes on), sp the caller's stack pointer at
 * the call and x0-x7, v0-v7 and x8 the arguments.  x9-x17 are free at a
 * function's entry (AAPCS64); x18 is the platform's and never touched.
 *
 * The same register-LR model as a library call (libcall.S): the trampoline
 * makes the slot runtime/hook.c works with in its own frame record, at the
 * caller's sp - 8 (the CFA, slot + 8, is the caller's sp, which is what sp
 * is again when the function returns), with the caller's return address in
 * it; ct_hook_enter (kind 2) writes the ENTER record, pushes the frame and
 * puts ct_return_tramp in the slot.  x30 is loaded back from the slot, the
 * slot is cleared (the function's stack from now on: an unwinder finds the
 * trampoline's address where the function saves its link register, and
 * hook.c's unhook_all gives the real one back through the unwinder's walk)
 * and the function goes on at entry + 8 with x30 = ct_return_tramp (or the
 * caller, when the call is not hooked).  `ret x16`, not `br x16`: a return
 * is no indirect branch for BTI, so a BTI-guarded function needs no landing
 * pad after its nops.  ct_return_tramp (tramp.S) is the return path.
 * record --inject's return=V (ct_hook_enter's answer 1) skips the body:
 * the same, but `ret` to x30 with x0 = V (inject.c put V in the saved x0),
 * as x86-64's trampolines skip it; throw= (2) branches to ct_inj_thrower
 * instead, x0 and x1 its arguments.
 *
 * With record --count (ct_count_on, as _mcount in tramp.S) it calls
 * ct_count_site (runtime/count.c) instead, with the caller's return
 * address and the site, and hooks no return: the slot keeps the caller's
 * return address, which the function gets in x30.  With --sample too
 * (ct_count_stack) ct_count_enter_site puts the call on the counting
 * stack with its CFA.
 *
 * It saves every register a call may carry an argument in (x0-x8, q0-q7
 * whole: the C code and libc may use the vector registers) and keeps sp
 * 16-byte aligned.  No assembly fast path: the C entry's general path.
 */
#include "entry.inc"

	.text

	.globl ct_patch_tramp
	.hidden ct_patch_tramp
	.type ct_patch_tramp, %function
	.p2align 4
ct_patch_tramp:
	.cfi_startproc
	/* the slot: the frame record's second word, the caller's return
	 * address (x9), at the caller's sp - 8; x30: entry + 8, where the
	 * function goes on, the frame's second word */
	ENTRY_SAVE x9, x30
	adrp x10, ct_count_on		/* record --count (runtime/count.c) */
	ldrb w10, [x10, #:lo12:ct_count_on]
	cbnz w10, .Lcount
	/* ct_hook_enter(regs, the site: entry + 8, 2) */
	add x0, sp, #ENT_R
	mov x1, x30
	mov x2, #2
	bl ct_hook_enter
	/* its answer, record --inject's (runtime/inject.c): 1 return=V, the
	 * body skipped, V in the saved x0; 2 throw=, a jump to the thrower
	 * instead; else 0 */
	mov w17, w0
.Lrestore:
	ENTRY_RESTORE
	.cfi_remember_state
	.cfi_def_cfa 31, 16
	/* `ret x16`: the function goes on (BTI checks no return) */
	ENTRY_LEAVE ret
	.cfi_restore_state
.Lcount:
	/* counting, as _mcount's .Lcount (tramp.S): no clock, no shadow
	 * stack, no return hook.  The arc is (the caller's return address,
	 * in the slot; the site, entry + 8), counted by ct_count_site; the
	 * slot is left as it is, so the function goes on with x30 = the
	 * caller's return address (w17 0: no injection's answer) */
	adrp x10, ct_count_stack	/* --sample: on the counting stack */
	ldrb w10, [x10, #:lo12:ct_count_stack]
	cbnz w10, .Lstack
	ldr x0, [x29, #8]
	mov x1, x30
	bl ct_count_site
	mov w17, #0
	b .Lrestore
.Lstack:
	/* ct_count_enter_site_lr(the site, the CFA: the caller's sp, x29 +
	 * 16; the return address into the caller, in the slot): a sample
	 * tells a function without a frame (which runs at its CFA) from one
	 * that has returned by the link register and its callers' code
	 * (runtime/count.c open_at_pc) */
	mov x0, x30
	add x1, x29, #16
	ldr x2, [x29, #8]
	bl ct_count_enter_site_lr
	mov w17, #0
	b .Lrestore
	.cfi_endproc
	.size ct_patch_tramp, .-ct_patch_tramp

	.section .note.GNU-stack,"",%progbits
