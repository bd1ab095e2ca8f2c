/* SPDX-License-Identifier: MIT */
/*
 * Library calls on aarch64 (runtime/libcall.c, doc/libcall.md): the entry
 * trampoline that a GOT slot's stub branches to.  The return trampoline
 * that the library function returns into is -pg's (tramp.S).
 *
 * A hooked slot holds the address of a stub of its own (lcstub.h):
 *
 *     ldr x16, FN        the function: the real target, or an alias's jump
 *     ldr x17, TRAMP     ct_libcall_tramp
 *     br  x17
 *
 * so at ct_libcall_tramp x16 is the function, x30 the return address into
 * the caller (the PLT stub and ours branch, they do not link), sp the
 * caller's stack pointer at the call (the stack arguments start there) and
 * x0-x7, v0-v7 and x8 the arguments as the function will see them.  x9-x17
 * are free at a call (AAPCS64), x18 is the platform's and never touched.
 *
 * The return address is a register, not a stack slot as on x86-64, and the
 * library function must keep its stack arguments where they are, so no
 * frame of ours may stay below the caller's.  The trampoline makes the
 * slot that runtime/hook.c works with for the length of the C call: its
 * frame record stores x30 at sp - 8, which is the slot, its CFA (slot + 8)
 * the caller's sp, which is what the stack pointer is again when the
 * library function returns.  ct_hook_enter (kind 3, general path: there is
 * no assembly fast path on aarch64 yet) writes the ENTER record, pushes
 * the frame with the real return address and puts ct_return_tramp in the
 * slot; x30 is loaded back from it, the frame is gone, and the branch to
 * the function leaves it x30 = ct_return_tramp (or the caller, when the
 * call was not hooked: a nested signal handler's full stack, a filter).
 *
 * The return trampoline is the one -pg's frames return into (tramp.S
 * ct_return_tramp): entered by the function's `ret` with sp = the CFA, it
 * calls ct_hook_return(struct ct_arch_retregs *, cfa), which writes the
 * EXIT record and gives the real return address back, which becomes x30
 * for a plain `ret`.  Until then the return address exists only on the
 * shadow stack, which no unwinder can read: its CFI says x30 is undefined
 * there (an unwinder stops cleanly).
 *
 * record --inject's return=V (ct_hook_enter's answer 1): the function is
 * not called; the trampoline returns to x30 (ct_return_tramp, which ends
 * the call) with x0 = V, which inject.c put in the saved x0.  throw= (2):
 * it branches to ct_inj_thrower instead, x0 and x1 its arguments.
 *
 * The entry trampoline saves every register a call may carry an argument
 * in (x0-x8, q0-q7 whole: the C code and libc may use the vector
 * registers), and keeps sp 16-byte aligned.
 */
#include "regs.h"

/* the entry trampoline's frame, below its frame record (x29 points at
 * it): struct ct_arch_regs at R, then x8, x16, a pad and q0-q7 */
#define R 0
#define E_X8 (R + CT_REGS_SIZE)
#define E_X16 (E_X8 + 8)
#define E_Q ((E_X16 + 8 + 15) & ~15)
#define E_SIZE (E_Q + 8 * 16)

	.text

	.globl ct_libcall_tramp
	.hidden ct_libcall_tramp
	.type ct_libcall_tramp, %function
	.p2align 4
ct_libcall_tramp:
	.cfi_startproc
	/* the slot: the frame record's x30, at the caller's sp - 8 */
	stp x29, x30, [sp, #-16]!
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
	stp x8, x16, [sp, #E_X8]
	stp q0, q1, [sp, #(E_Q + 0)]
	stp q2, q3, [sp, #(E_Q + 32)]
	stp q4, q5, [sp, #(E_Q + 64)]
	stp q6, q7, [sp, #(E_Q + 96)]
	/* ct_hook_enter(regs, the function, 3) */
	add x0, sp, #R
	mov x1, x16
	mov x2, #3
	bl ct_hook_enter
	/* its answer, record --inject's (runtime/inject.c): 1 return=V, the
	 * library function not called, V in the saved x0; 2 throw=, a jump to
	 * the thrower instead; else 0 */
	mov w17, w0
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
	.cfi_def_cfa 31, 16
	/* x30: the slot as ct_hook_enter left it (ct_return_tramp, or the
	 * caller's address when the call is not hooked).  The slot is the
	 * library function's stack from now on: it is cleared, so that the
	 * trampoline's address is found there only when the function saved
	 * its link register there (hook.c unhook_all: the others' are found
	 * through the unwinder) */
	ldr x30, [sp, #8]
	.cfi_restore 30
	str xzr, [sp, #8]
	ldr x29, [sp], #16
	.cfi_restore 29
	.cfi_def_cfa_offset 0
	cbnz w17, 1f
	br x16
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
	.cfi_endproc
	.size ct_libcall_tramp, .-ct_libcall_tramp

	.section .note.GNU-stack,"",%progbits
