/* SPDX-License-Identifier: MIT */
/*
 * vfork, interposed (doc/runtime.md), as arch/x86_64/vfork.S.  The child
 * runs on the parent's stack and shares its memory until it execs or
 * exits.  The return address is in x30 already, and the token of
 * ct_vfork_enter (wrap.c) waits in x9: the system call keeps both, and
 * each task has its own registers.  AArch64 has no vfork system call:
 * clone(CLONE_VM | CLONE_VFORK | SIGCHLD) with the same stack, as libc.
 * The child returns to the address ct_vfork_child_ret gives it; only the
 * parent calls ct_vfork_parent, after the child is gone, which gives the
 * state back and sets errno.
 */
#include <sys/syscall.h>

	.text
	.globl vfork
	.type vfork, %function
vfork:
	.cfi_startproc
	stp x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov x29, sp
	bl ct_vfork_enter
	ldp x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	mov w9, w0			/* kept across the system call */
	mov x0, #0x4111			/* CLONE_VM | CLONE_VFORK | SIGCHLD */
	mov x1, #0			/* the same stack */
	mov x2, #0
	mov x3, #0
	mov x4, #0
	mov x8, #SYS_clone
	svc #0
	cbz x0, .Lchild
	stp x29, x30, [sp, #-16]!	/* the parent: the child is gone */
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov x29, sp
	mov w1, w9
	bl ct_vfork_parent		/* (long result, int token): the result */
	ldp x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
.Lchild:
	mov x0, x30
	mov w1, w9
	bl ct_vfork_child_ret		/* (x0: the return address, w1 the token) */
	mov x30, x0
	mov x0, #0
	ret
	.cfi_endproc
	.size vfork, .-vfork

	.section .note.GNU-stack,"",%progbits
