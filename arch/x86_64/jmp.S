/* SPDX-License-Identifier: MIT */
/*
 * setjmp wrappers: note the shadow-stack depth for this jmp_buf, then jump
 * (not call) to the real function, so that it sees its caller's frame and
 * return address exactly as if called directly.
 */
	.text

.macro WRAP name, real
	.globl \name
	.type \name, @function
\name:
	.cfi_startproc
	push %rdi
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	sub $8, %rsp               /* keep the stack 16-byte aligned for the call */
	.cfi_adjust_cfa_offset 8
	call ct_note_setjmp
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdi
	.cfi_adjust_cfa_offset -8
	jmp *\real(%rip)
	.cfi_endproc
	.size \name, .-\name
.endm

	WRAP _setjmp, ct_real__setjmp
	WRAP setjmp, ct_real_setjmp
	WRAP __sigsetjmp, ct_real___sigsetjmp

	.section .note.GNU-stack,"",@progbits
