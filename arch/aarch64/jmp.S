/* SPDX-License-Identifier: MIT */
/*
 * setjmp wrappers: note the shadow-stack depth for this jmp_buf, then
 * branch (not call) to the real function with the caller's x30, sp and
 * frame pointer as they were, so that it saves the caller's context
 * exactly as if called directly.
 */
	.text

.macro WRAP name, real
	.globl \name
	.type \name, %function
\name:
	.cfi_startproc
	stp x29, x30, [sp, #-32]!
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov x29, sp
	stp x0, x1, [sp, #16]
	bl ct_note_setjmp
	ldp x0, x1, [sp, #16]
	ldp x29, x30, [sp], #32
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	adrp x16, \real
	ldr x16, [x16, #:lo12:\real]
	br x16
	.cfi_endproc
	.size \name, .-\name
.endm

	WRAP _setjmp, ct_real__setjmp
	WRAP setjmp, ct_real_setjmp
	WRAP __sigsetjmp, ct_real___sigsetjmp

	.section .note.GNU-stack,"",%progbits
