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
 * With record --count (ct_count_on, with or without --sample, as _mcount
 * in tramp.S) it calls ct_count_site (runtime/count.c) instead, with the
 * caller's return address and the site, and hooks no return: the slot
 * keeps the caller's return address, which the function gets in x30.
 *
 * It saves every register a call may carry an argument in (x0-x8, q0-q7
 * whole: the C code and libc may use the vector registers) and keeps sp
 * 16-byte aligned.  No assembly fast path: the C entry's general path.
 */
#include "regs.h"

/* the frame, below its frame record (x29 points at it): struct
 * ct_arch_regs at R, then x8, the resume address, and q0-q7 */
#define R 0
#define E_X8 (R + CT_REGS_SIZE)
#define E_GO (E_X8 + 8)
#define E_Q ((E_GO + 8 + 15) & ~15)
#define E_SIZE (E_Q + 8 * 16)

#if E_SIZE % 16 || E_SIZE > 504 || CT_REGS_SIZE != 288
#error "ct_patch_tramp's frame: 16-byte aligned, within ldp/stp's reach"
#endif

	.text

	.globl ct_patch_tramp
	.hidden ct_patch_tramp
	.type ct_patch_tramp, %function
	.p2align 4
ct_patch_tramp:
	.cfi_startproc
	/* the slot: the frame record's second word, the caller's return
	 * address (x9), at the caller's sp - 8 */
	stp x29, x9, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov x29, sp
	.cfi_def_cfa 29, 16
	sub sp, sp, #E_SIZE
	stp x0, x1, [sp, #(R + CT_REGS_GP + 0)]
	stp x2, x3, [sp, #(R + CT_REGS_GP + 16)]
	stp x4, x5, [sp, #(R + CT_REGS_GP + 32)]
	stp x6, x7, [sp, #(R + CT_REGS_GP + 48)]
	stp d0, d1, [sp, #(R + CT_REGS_FP + 0)]
	stp d2, d3, [sp, #(R + CT_REGS_FP + 16)]
	stp d4, d5, [sp, #(R + CT_REGS_FP + 32)]
	stp d6, d7, [sp, #(R + CT_REGS_FP + 48)]
	add x9, x29, #8			/* regs->sp: the slot (hook.c) */
	str x9, [sp, #(R + CT_REGS_SP)]
	stp x8, x30, [sp, #E_X8]	/* x30: entry + 8, where it goes on */
	stp q0, q1, [sp, #(E_Q + 0)]
	stp q2, q3, [sp, #(E_Q + 32)]
	stp q4, q5, [sp, #(E_Q + 64)]
	stp q6, q7, [sp, #(E_Q + 96)]
	adrp x10, ct_count_on		/* record --count (runtime/count.c) */
	ldrb w10, [x10, #:lo12:ct_count_on]
	cbnz w10, .Lcount
	/* ct_hook_enter(regs, the site: entry + 8, 2) */
	add x0, sp, #R
	mov x1, x30
	mov x2, #2
	bl ct_hook_enter
	/* its answer, record --inject's (runtime/inject.c): 1 return=V, the
	 * body skipped, V in the saved x0; 2 throw=, a jump to the thrower
	 * instead; else 0 */
	mov w17, w0
.Lrestore:
	ldp q0, q1, [sp, #(E_Q + 0)]
	ldp q2, q3, [sp, #(E_Q + 32)]
	ldp q4, q5, [sp, #(E_Q + 64)]
	ldp q6, q7, [sp, #(E_Q + 96)]
	ldp x8, x16, [sp, #E_X8]
	ldp x0, x1, [sp, #(R + CT_REGS_GP + 0)]
	ldp x2, x3, [sp, #(R + CT_REGS_GP + 16)]
	ldp x4, x5, [sp, #(R + CT_REGS_GP + 32)]
	ldp x6, x7, [sp, #(R + CT_REGS_GP + 48)]
	mov sp, x29
	.cfi_remember_state
	.cfi_def_cfa 31, 16
	/* x30: the slot as ct_hook_enter left it, which is then cleared */
	ldr x30, [sp, #8]
	.cfi_restore 30
	str xzr, [sp, #8]
	ldr x29, [sp], #16
	.cfi_restore 29
	.cfi_def_cfa_offset 0
	cbnz w17, 1f
	ret x16
1:	cmp w17, #2
	b.eq 2f
	/* record --inject's return=V: straight back to the caller (through
	 * the return trampoline, which ends the call), x0 = V */
	ret
2:	/* throw=: a tail call of ct_inj_thrower (libcalltrace-throw.so) in
	 * place of the body, x0 and x1 its arguments (inject.c put them in
	 * the saved x0, x1), x30 the slot's, sp the caller's */
	adrp x16, ct_inj_thrower
	ldr x16, [x16, #:lo12:ct_inj_thrower]
	br x16
	.cfi_restore_state
.Lcount:
	/* counting, as _mcount's .Lcount (tramp.S): no clock, no shadow
	 * stack, no return hook.  The arc is (the caller's return address,
	 * in the slot; the site, entry + 8), counted by ct_count_site; the
	 * slot is left as it is, so the function goes on with x30 = the
	 * caller's return address (w17 0: no injection's answer) */
	ldr x0, [x29, #8]
	mov x1, x30
	bl ct_count_site
	mov w17, #0
	b .Lrestore
	.cfi_endproc
	.size ct_patch_tramp, .-ct_patch_tramp

	.section .note.GNU-stack,"",%progbits
