/* SPDX-License-Identifier: MIT */
/*
 * The trampolines of the hooked front ends (-pg) are not written for
 * aarch64 yet (doc/frontends.md): the runtime never installs them there
 * (CT_ARCH_HOOKED_FRONTENDS 0) and record refuses those front ends for an
 * aarch64 program.  The symbols the shared C code compares addresses with
 * exist all the same; reaching one is a bug, and traps.  (Library calls
 * have theirs: libcall.S, with ct_return_tramp; patched entries patch.S.)
 */
	.text

.macro STUB name
	.globl \name
	.hidden \name
	.type \name, %function
	.p2align 2
\name:
	.cfi_startproc
	brk #0x3c
	.cfi_endproc
	.size \name, .-\name
.endm

	.section .note.GNU-stack,"",%progbits
