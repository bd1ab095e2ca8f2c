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
#include "entry.inc"

	.text

	.globl ct_libcall_tramp
	.hidden ct_libcall_tramp
	.type ct_libcall_tramp, %function
	.p2align 4
ct_libcall_tramp:
	.cfi_startproc
	/* the slot: the frame record's x30, at the caller's sp - 8; x16:
	 * the function, the frame's second word */
	ENTRY_SAVE x30, x16
	/* ct_hook_enter(regs, the function, 3) */
	add x0, sp, #ENT_R
	mov x1, x16
	mov x2, #3
	bl ct_hook_enter
	/* its answer, record --inject's (runtime/inject.c): 1 return=V, the
	 * library function not called, V in the saved x0; 2 throw=, a jump to
	 * the thrower instead; else 0 */
	mov w17, w0
	ENTRY_RESTORE
	.cfi_def_cfa 31, 16
	ENTRY_LEAVE br
	.cfi_endproc
	.size ct_libcall_tramp, .-ct_libcall_tramp

	.section .note.GNU-stack,"",%progbits
