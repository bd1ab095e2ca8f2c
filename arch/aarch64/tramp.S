/* SPDX-License-Identifier: MIT */
/*
 * The trampolines of the hooked front ends on aarch64 (doc/frontends.md,
 * "AArch64"):
 *
 *   _mcount         -pg (gcc and clang): called after the traced
 *                   function's frame record is set up (x29 points at it:
 *                   [x29] the caller's x29, [x29, #8] the saved link
 *                   register, the return address into the caller), with
 *                   x30 the return address into the traced function.  gcc
 *                   passes the traced function's x30 in x0 as well, clang
 *                   does not: neither is needed
 *   ct_return_tramp the return address given to hooked frames: written
 *                   over the saved link register, so the function's
 *                   epilogue loads it into x30 and its `ret` lands here;
 *                   shared with the library calls (libcall.S) and the
 *                   patched entries (patch.S), whose entry trampolines
 *                   leave it in x30 for the function
 *
 * With record --count, _mcount calls ct_count_site (runtime/count.c)
 * instead, and hooks no return.
 *
 * Both save what the C code may clobber (x0-x8 and q0-q7 at an entry,
 * where they hold the arguments; x0-x8 and q0-q7 at a return, where x0-x1,
 * x8 and v0-v3 may hold the return value) and call the same C paths as
 * x86-64's general paths: ct_hook_enter and ct_hook_return (runtime/
 * hook.c).  There is no assembly fast path yet: the C fast paths are the
 * hot ones (doc/runtime.md counts their instructions).
 *
 * Library calls have their entry trampoline in libcall.S, patched
 * entries (-fpatchable-function-entry=2) theirs in patch.S.
 */
#include "regs.h"

/* _mcount's frame: the frame record, struct ct_arch_regs, x8 and a pad,
 * the full q0-q7 */
#define E_REGS 16
#define E_X8 (E_REGS + CT_REGS_SIZE)
#define E_Q (E_X8 + 16)
#define E_SIZE (E_Q + 8 * 16)

/* ct_return_tramp's: the frame record, struct ct_arch_retregs, x2-x8 and
 * a pad, the full q0-q7 (x0, x1 are in the struct) */
#define R_REGS 16
#define R_X2 (R_REGS + CT_RETREGS_SIZE)
#define R_Q (R_X2 + 8 * 8)
#define R_SIZE (R_Q + 8 * 16)

	.text

/*
 * _mcount: ct_hook_enter(struct ct_arch_regs *, site, 1), site the return
 * address into the traced function (x30), which hook.c's mcount_fn turns
 * into the function's address (arch/aarch64/insn.h).  The struct's sp is
 * the traced function's return-address slot, the saved link register of
 * its frame record (x29 + 8): ct_hook_enter puts the return trampoline
 * there.  (With -pg the entry stack pointer is not known here, so there
 * are no stack-passed arguments to read; nor is x0 the first argument:
 * gcc has put the link register there.  -a takes the parameters where
 * DWARF puts them at this call: in the frame, below the CFA hook.c works
 * out, or in callee-saved registers, saved into the struct while
 * ct_args_enabled; doc/args.md, "AArch64".)
 */
	.globl _mcount
	.type _mcount, %function
	.p2align 4
_mcount:
	.cfi_startproc
	stp x29, x30, [sp, #-E_SIZE]!
	.cfi_def_cfa_offset E_SIZE
	.cfi_offset 29, -E_SIZE
	.cfi_offset 30, -E_SIZE + 8
	mov x29, sp
	stp x0, x1, [sp, #E_REGS + CT_REGS_GP + 0]
	stp x2, x3, [sp, #E_REGS + CT_REGS_GP + 16]
	stp x4, x5, [sp, #E_REGS + CT_REGS_GP + 32]
	stp x6, x7, [sp, #E_REGS + CT_REGS_GP + 48]
	stp d0, d1, [sp, #E_REGS + CT_REGS_FP + 0]
	stp d2, d3, [sp, #E_REGS + CT_REGS_FP + 16]
	stp d4, d5, [sp, #E_REGS + CT_REGS_FP + 32]
	stp d6, d7, [sp, #E_REGS + CT_REGS_FP + 48]
	str x8, [sp, #E_X8]
	stp q0, q1, [sp, #E_Q + 0]
	stp q2, q3, [sp, #E_Q + 32]
	stp q4, q5, [sp, #E_Q + 64]
	stp q6, q7, [sp, #E_Q + 96]
	adrp x10, ct_args_enabled	/* -A/-R/-a (runtime/args.c): the */
	ldrb w10, [x10, #:lo12:ct_args_enabled]
	cbz w10, 1f			/* callee-saved registers, where DWARF */
	stp x19, x20, [sp, #E_REGS + CT_REGS_CS + 0]	/* may put parameters */
	stp x21, x22, [sp, #E_REGS + CT_REGS_CS + 16]
	stp x23, x24, [sp, #E_REGS + CT_REGS_CS + 32]
	stp x25, x26, [sp, #E_REGS + CT_REGS_CS + 48]
	stp x27, x28, [sp, #E_REGS + CT_REGS_CS + 64]
	stp d8, d9, [sp, #E_REGS + CT_REGS_FCS + 0]
	stp d10, d11, [sp, #E_REGS + CT_REGS_FCS + 16]
	stp d12, d13, [sp, #E_REGS + CT_REGS_FCS + 32]
	stp d14, d15, [sp, #E_REGS + CT_REGS_FCS + 48]
1:
	ldr x9, [sp]			/* the traced function's x29 */
	add x9, x9, #8			/* its saved link register: the slot */
	adrp x10, ct_count_on		/* record --count (runtime/count.c) */
	ldrb w10, [x10, #:lo12:ct_count_on]
	cbnz w10, .Lcount
	str x9, [sp, #E_REGS + CT_REGS_SP]
	add x0, sp, #E_REGS
	mov x1, x30
	mov x2, #1
	bl ct_hook_enter
.Lrestore:
	ldp x0, x1, [sp, #E_REGS + CT_REGS_GP + 0]
	ldp x2, x3, [sp, #E_REGS + CT_REGS_GP + 16]
	ldp x4, x5, [sp, #E_REGS + CT_REGS_GP + 32]
	ldp x6, x7, [sp, #E_REGS + CT_REGS_GP + 48]
	ldr x8, [sp, #E_X8]
	ldp q0, q1, [sp, #E_Q + 0]
	ldp q2, q3, [sp, #E_Q + 32]
	ldp q4, q5, [sp, #E_Q + 64]
	ldp q6, q7, [sp, #E_Q + 96]
	.cfi_remember_state
	ldp x29, x30, [sp], #E_SIZE
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_restore_state
.Lcount:
	/* counting: no clock, no shadow stack, no return hook; the arc is
	 * (the caller's return address, ours inside the traced function),
	 * as x86-64's count.S keys it, counted by ct_count_site in C (no
	 * assembly fast path on aarch64 yet) */
	adrp x10, ct_count_stack	/* --sample: on the counting stack */
	ldrb w10, [x10, #:lo12:ct_count_stack]
	cbnz w10, 2f
	ldr x0, [x9]
	mov x1, x30
	bl ct_count_site
	b .Lrestore
2:	/* ct_hook_count_mcount(the site, the slot): with the frame's CFA
	 * (runtime/hook.c) */
	mov x0, x30
	mov x1, x9
	bl ct_hook_count_mcount
	b .Lrestore
	.cfi_endproc
	.size _mcount, .-_mcount

/*
 * The return trampoline, of -pg's frames, library calls' (libcall.S) and
 * patched entries' (patch.S).
 * A hooked function's `ret` lands here with sp its entry stack pointer and
 * the return value in x0/x1 (or memory at x8) or v0-v3.
 * ct_hook_return(struct ct_arch_retregs *, sp) writes the EXIT record and
 * gives the real return address back (the entry stack pointer is the
 * frame's CFA, as on x86-64: for -pg hook.c computed it at the entry from
 * the prologue, for a library call or a patched entry it is the caller's
 * stack pointer at the call); the trampoline returns there with every register as the function
 * left it but x30, which holds that address, and x0 when record --inject's
 * retval=V rewrote the saved one (runtime/inject.c ct_inj_exit: the ret
 * word of the struct, which is reloaded).
 *
 * Until then the return address is only on the shadow stack, which no
 * unwinder can read: the CFI says "undefined" (an unwinder stops here
 * cleanly).  The nop before the label is inside the same FDE, because
 * unwinders look up a return address minus 1.
 */
	.globl ct_return_tramp
	.hidden ct_return_tramp
	.type ct_return_tramp, %function
	.p2align 4
	.cfi_startproc
	.cfi_def_cfa 31, 0
	.cfi_undefined 30
	nop
ct_return_tramp:
	sub sp, sp, #R_SIZE
	.cfi_def_cfa_offset R_SIZE
	stp x29, x30, [sp]
	.cfi_offset 29, -R_SIZE
	mov x29, sp
	stp x0, x1, [sp, #R_REGS + CT_RETREGS_RET]
	str d0, [sp, #R_REGS + CT_RETREGS_FRET]
	str d1, [sp, #R_REGS + CT_RETREGS_FRET2]
	stp x2, x3, [sp, #R_X2 + 0]
	stp x4, x5, [sp, #R_X2 + 16]
	stp x6, x7, [sp, #R_X2 + 32]
	str x8, [sp, #R_X2 + 48]
	stp q0, q1, [sp, #R_Q + 0]
	stp q2, q3, [sp, #R_Q + 32]
	stp q4, q5, [sp, #R_Q + 64]
	stp q6, q7, [sp, #R_Q + 96]
	add x0, sp, #R_REGS
	add x1, sp, #R_SIZE		/* the entry stack pointer */
	bl ct_hook_return
	mov x30, x0			/* where the function really returns to */
	.cfi_same_value 30
	ldp x0, x1, [sp, #R_REGS + CT_RETREGS_RET]
	ldp x2, x3, [sp, #R_X2 + 0]
	ldp x4, x5, [sp, #R_X2 + 16]
	ldp x6, x7, [sp, #R_X2 + 32]
	ldr x8, [sp, #R_X2 + 48]
	ldp q0, q1, [sp, #R_Q + 0]
	ldp q2, q3, [sp, #R_Q + 32]
	ldp q4, q5, [sp, #R_Q + 64]
	ldp q6, q7, [sp, #R_Q + 96]
	ldr x29, [sp]
	.cfi_restore 29
	add sp, sp, #R_SIZE
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size ct_return_tramp, .-ct_return_tramp

	.section .note.GNU-stack,"",%progbits
