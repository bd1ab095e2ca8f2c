/* SPDX-License-Identifier: MIT */
/*
 * record --count: the counting trampolines of the register-seeing front
 * ends (runtime/count.c).  The entry trampolines of tramp.S jump here
 * first thing when ct_count_on is set.  No clock, no shadow stack, no
 * return hook: the arc is (the caller's return address, our own return
 * address inside the callee), looked up in the thread's open-addressing
 * table (runtime/count.c's hash: ((from ^ to) * HASH_MUL >> 7) & mask, a
 * byte offset, linear probing) and bumped with one instruction.  An arc not
 * in the table yet (or no table yet) goes to ct_count_site, with every
 * register a traced function may be using saved.
 *
 *   __fentry__, patched entries: (%rsp) = our return address, 8(%rsp) =
 *   the function's return-address slot; mcount: the slot is 8(%rbp) (%rbp
 *   is the traced function's frame pointer, set up just before the call)
 *
 * With --sample too, nothing more: a sample finds the calls open by
 * unwinding (runtime/stackwalk.c), the sites it needs noted by
 * ct_count_site when an arc is new.
 */
#include "keep.inc"
#include "runtime/count.h"

#define HASH_MUL 0x5bd1e995
#define SITE_BIT 63 /* CT_COUNT_SITE */

	.text

/* \name: the counting path of the entry trampoline \name; the caller's
 * return address is at \so(\sb) as seen on entry (before our pushes) */
.macro COUNT_TRAMP name, sb, so
	.globl ct_count_\name
	.hidden ct_count_\name
	.type ct_count_\name, @function
	.p2align 4
ct_count_\name:
	.cfi_startproc
	push %rax
	.cfi_adjust_cfa_offset 8
	push %rcx
	.cfi_adjust_cfa_offset 8
	push %rdx
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	.ifc \sb, %rsp
	mov \so+32(%rsp), %rax		/* from: the caller's return address */
	.else
	mov \so(\sb), %rax
	.endif
	mov 32(%rsp), %rdx		/* to: our return address, */
	bts $SITE_BIT, %rdx		/* marked as a site */
	movq ct_count_self@GOTTPOFF(%rip), %r11
	/* the arc (%rax, %rdx) in the table, %r11 the thread's state */
	mov %fs:CT_C_MASK(%r11), %rsi
	mov %fs:CT_C_SLOTS(%r11), %rcx
	test %rcx, %rcx
	jz 9f
	mov %rax, %r11
	xor %rdx, %r11
	imul $HASH_MUL, %r11, %r11
	shr $7, %r11
1:	and %rsi, %r11
	cmp %rdx, 8(%rcx,%r11)		/* to */
	jne 3f
	cmp %rax, (%rcx,%r11)		/* from */
	jne 4f
	incq 16(%rcx,%r11)		/* one instruction: signals land around it */
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdx
	.cfi_adjust_cfa_offset -8
	pop %rcx
	.cfi_adjust_cfa_offset -8
	pop %rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_adjust_cfa_offset 32
3:	cmpq $0, 8(%rcx,%r11)		/* a free slot: the arc is new */
	je 9f
4:	add $32, %r11
	jmp 1b
9:	/* ct_count_site(from, to without its mark), every register kept */
	KEEP_SAVE
	mov %rax, %rdi
	btr $SITE_BIT, %rdx
	mov %rdx, %rsi
	call ct_count_site
	KEEP_RESTORE
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdx
	.cfi_adjust_cfa_offset -8
	pop %rcx
	.cfi_adjust_cfa_offset -8
	pop %rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size ct_count_\name, . - ct_count_\name
.endm

	COUNT_TRAMP __fentry__, %rsp, 8
	COUNT_TRAMP mcount, %rbp, 8
	COUNT_TRAMP ct_patch_tramp, %rsp, 8

	.section .note.GNU-stack, "", @progbits
