/* SPDX-License-Identifier: MIT */
/*
 * vfork, interposed (doc/runtime.md).  The child runs on the parent's
 * stack and shares its memory, the tracing state included, until it execs
 * or exits: as libc's vfork does, the return address is kept in a
 * register (%rdi: the system call keeps it, and each task has its own)
 * rather than on the stack the child will write over.
 *
 * Before the system call ct_vfork_enter (wrap.c) makes the shared state
 * drop what the child's hooks would write; its answer waits in %esi.  The
 * child returns to the real return address (ct_vfork_child_ret: when a
 * library call's trampoline put the return trampoline there, the address
 * is read from the shadow stack, never written), so that only the parent
 * returns through the trampoline, after ct_vfork_parent has given the
 * state back and set errno.  ct_vfork_enter blocks signals, which each
 * task unblocks before it returns (doc/runtime.md).
 */
#include <sys/syscall.h>

	.text
	.globl vfork
	.type vfork, @function
vfork:
	.cfi_startproc
	sub $8, %rsp			/* 16-byte aligned for the call */
	.cfi_adjust_cfa_offset 8
	call ct_vfork_enter
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	mov %eax, %esi			/* kept across the system call */
	pop %rdi			/* the return address */
	.cfi_adjust_cfa_offset -8
	.cfi_register %rip, %rdi
	mov $SYS_vfork, %eax
	syscall
	.cfi_remember_state
	test %rax, %rax
	jz .Lchild
	push %rdi			/* the parent: its return address back */
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rip, 0
	mov %rax, %rdi
	sub $8, %rsp
	.cfi_adjust_cfa_offset 8
	call ct_vfork_parent		/* (long result, int token): the result */
	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
.Lchild:
	.cfi_restore_state
	call ct_vfork_child_ret		/* (%rdi: the return address, %esi the token) */
	push %rax
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rip, 0
	xor %eax, %eax
	ret
	.cfi_endproc
	.size vfork, .-vfork

	.section .note.GNU-stack,"",@progbits
