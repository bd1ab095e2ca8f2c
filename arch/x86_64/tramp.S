/* SPDX-License-Identifier: MIT */
/*
 * Entry and return trampolines of the register-seeing front ends:
 *
 *   __fentry__      gcc/clang -pg -mfentry: called first thing in a function,
 *                   before its prologue; 8(%rsp) is the function's return
 *                   address slot
 *   mcount          -pg: called after the prologue (push %rbp; mov %rsp,%rbp);
 *                   8(%rbp) of the caller is its return address slot
 *   ct_patch_tramp  the target of the calls that runtime/patch.c writes over
 *                   -fpatchable-function-entry nops (same frame as __fentry__)
 *   ct_return_tramp the return address given to hooked frames
 *
 * The entry trampolines save every argument register (struct ct_arch_regs
 * for the capture code, plus %rax, %r10 and the full xmm0-7, which the C
 * code or libc might clobber) and call runtime/hook.c.  They are not called
 * with the ABI's stack alignment (mcount after a push is 8 off), so they
 * align the stack themselves, with %rbp as their frame pointer; the CFI
 * follows every step, so debuggers and unwinders can walk through them.
 */
#include "regs.h"

/* struct ct_arch_regs, then %rax, %r10, a pad and the full xmm0-7 */
#define E_RAX CT_REGS_SIZE
#define E_R10 (CT_REGS_SIZE + 8)
#define E_XMM 144
#define E_SIZE (E_XMM + 8 * 16)

	.text

.macro ENTRY_TRAMP name, kind, global
	.if \global
	.globl \name
	.type \name, @function
	.else
	.globl \name
	.hidden \name
	.type \name, @function
	.endif
	.p2align 4
\name:
	.cfi_startproc
	push %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	and $-16, %rsp
	sub $E_SIZE, %rsp
	mov %rdi, CT_REGS_GP + 0(%rsp)
	mov %rsi, CT_REGS_GP + 8(%rsp)
	mov %rdx, CT_REGS_GP + 16(%rsp)
	mov %rcx, CT_REGS_GP + 24(%rsp)
	mov %r8, CT_REGS_GP + 32(%rsp)
	mov %r9, CT_REGS_GP + 40(%rsp)
	mov %rax, E_RAX(%rsp)
	mov %r10, E_R10(%rsp)
	movq %xmm0, CT_REGS_XMM + 0(%rsp)
	movq %xmm1, CT_REGS_XMM + 8(%rsp)
	movq %xmm2, CT_REGS_XMM + 16(%rsp)
	movq %xmm3, CT_REGS_XMM + 24(%rsp)
	movq %xmm4, CT_REGS_XMM + 32(%rsp)
	movq %xmm5, CT_REGS_XMM + 40(%rsp)
	movq %xmm6, CT_REGS_XMM + 48(%rsp)
	movq %xmm7, CT_REGS_XMM + 56(%rsp)
	movaps %xmm0, E_XMM + 0(%rsp)
	movaps %xmm1, E_XMM + 16(%rsp)
	movaps %xmm2, E_XMM + 32(%rsp)
	movaps %xmm3, E_XMM + 48(%rsp)
	movaps %xmm4, E_XMM + 64(%rsp)
	movaps %xmm5, E_XMM + 80(%rsp)
	movaps %xmm6, E_XMM + 96(%rsp)
	movaps %xmm7, E_XMM + 112(%rsp)
	.if \kind == 1
	/* mcount: the traced function's frame pointer is our saved %rbp;
	 * its entry stack pointer (the slot) is 8 above it */
	mov 0(%rbp), %rax
	add $8, %rax
	.else
	/* our return address is at 8(%rbp), the traced function's slot
	 * right above it */
	lea 16(%rbp), %rax
	.endif
	mov %rax, CT_REGS_SP(%rsp)
	mov %rsp, %rdi
	mov 8(%rbp), %rsi
	mov $\kind, %edx
	call ct_hook_enter
	mov CT_REGS_GP + 0(%rsp), %rdi
	mov CT_REGS_GP + 8(%rsp), %rsi
	mov CT_REGS_GP + 16(%rsp), %rdx
	mov CT_REGS_GP + 24(%rsp), %rcx
	mov CT_REGS_GP + 32(%rsp), %r8
	mov CT_REGS_GP + 40(%rsp), %r9
	mov E_RAX(%rsp), %rax
	mov E_R10(%rsp), %r10
	movaps E_XMM + 0(%rsp), %xmm0
	movaps E_XMM + 16(%rsp), %xmm1
	movaps E_XMM + 32(%rsp), %xmm2
	movaps E_XMM + 48(%rsp), %xmm3
	movaps E_XMM + 64(%rsp), %xmm4
	movaps E_XMM + 80(%rsp), %xmm5
	movaps E_XMM + 96(%rsp), %xmm6
	movaps E_XMM + 112(%rsp), %xmm7
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size \name, .-\name
.endm

	ENTRY_TRAMP __fentry__, 0, 1
	ENTRY_TRAMP mcount, 1, 1
	ENTRY_TRAMP ct_patch_tramp, 2, 0

	.globl _mcount
	.set _mcount, mcount

/*
 * The return trampoline.  A hooked function's `ret` lands here with %rsp one
 * above its return-address slot and the return value in %rax/%rdx/%xmm0/
 * %xmm1.  ct_hook_return (struct ct_arch_retregs *, slot + 8) writes the
 * EXIT record and gives the original return address back; it goes into the
 * slot again, and a plain `ret` uses it.
 *
 * Until then the return address of this frame is only on the shadow stack,
 * which no unwinder can read: the CFI says "undefined" (an unwinder stops
 * here cleanly).  The nop before the label is inside the same FDE, because
 * unwinders look up a return address minus 1.
 */
	.globl ct_return_tramp
	.hidden ct_return_tramp
	.type ct_return_tramp, @function
	.p2align 4
	.cfi_startproc
	.cfi_def_cfa %rsp, 0
	.cfi_undefined %rip
	nop
ct_return_tramp:
	sub $8, %rsp                /* %rsp = the slot */
	.cfi_adjust_cfa_offset 8
	push %rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	mov %rsp, %rbp
	.cfi_def_cfa_register %rbp
	and $-16, %rsp
	sub $64, %rsp
	mov %rax, CT_RETREGS_RAX(%rsp)
	mov %rdx, CT_RETREGS_RDX(%rsp)
	movq %xmm0, CT_RETREGS_XMM0(%rsp)
	movq %xmm1, CT_RETREGS_XMM1(%rsp)
	movaps %xmm0, 32(%rsp)
	movaps %xmm1, 48(%rsp)
	mov %rsp, %rdi
	lea 16(%rbp), %rsi
	call ct_hook_return
	mov %rax, 8(%rbp)
	.cfi_offset %rip, -8
	mov CT_RETREGS_RAX(%rsp), %rax
	mov CT_RETREGS_RDX(%rsp), %rdx
	movaps 32(%rsp), %xmm0
	movaps 48(%rsp), %xmm1
	mov %rbp, %rsp
	.cfi_def_cfa_register %rsp
	pop %rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size ct_return_tramp, .-ct_return_tramp

	.section .note.GNU-stack,"",@progbits
