/* SPDX-License-Identifier: MIT */
/*
 * The functions of the calibration (runtime/calibrate.c, doc/overhead.md):
 *
 *   ct_cal_hooked  what `gcc -pg -mfentry` makes of an empty function: a
 *                  call of __fentry__ (the runtime's own trampoline, through
 *                  the GOT as gcc calls it), then `ret`, which goes through
 *                  the return trampoline
 *   ct_cal_plain   the same function untraced: `ret`
 *   ct_cal_cyg     an empty function as -finstrument-functions compiles it
 *   ct_cal_mix     calls a function N times from 16 call sites, in an order
 *                  no predictor can learn (a 64-bit LCG picks the site), so
 *                  that the return trampoline's jump back to the caller
 *                  mispredicts as it does in a program whose calls return
 *                  to many places, not as in a loop with one call site
 *   ct_cal_loop    calls a function N times from one call site: for
 *                  -finstrument-functions, whose calls return by a plain
 *                  `ret` that the return stack predicts wherever they come
 *                  from (the mix's own mispredicted jumps would hide part
 *                  of these hooks' cost: doc/overhead.md)
 */
	.text

/* a push and a pop of a callee-saved register, with their unwind notes */
	.macro PUSH_CFI reg
	push \reg
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset \reg, 0
	.endm
	.macro POP_CFI reg
	pop \reg
	.cfi_adjust_cfa_offset -8
	.cfi_restore \reg
	.endm

	.globl ct_cal_hooked
	.hidden ct_cal_hooked
	.type ct_cal_hooked, @function
	.p2align 4
ct_cal_hooked:
	.cfi_startproc
	call *__fentry__@GOTPCREL(%rip)
	ret
	.cfi_endproc
	.size ct_cal_hooked, .-ct_cal_hooked

	.globl ct_cal_plain
	.hidden ct_cal_plain
	.type ct_cal_plain, @function
	.p2align 4
ct_cal_plain:
	.cfi_startproc
	ret
	.cfi_endproc
	.size ct_cal_plain, .-ct_cal_plain

/* an empty function as -finstrument-functions compiles it: its address and
 * its caller's return address to the hooks, called through the PLT as a
 * program calls them (the runtime's own hooks: they are exported) */
	.globl ct_cal_cyg
	.hidden ct_cal_cyg
	.type ct_cal_cyg, @function
	.p2align 4
ct_cal_cyg:
	.cfi_startproc
	PUSH_CFI %rbx
	lea ct_cal_cyg(%rip), %rbx
	mov 8(%rsp), %rsi
	mov %rbx, %rdi
	call __cyg_profile_func_enter@PLT
	mov 8(%rsp), %rsi
	mov %rbx, %rdi
	POP_CFI %rbx
	jmp __cyg_profile_func_exit@PLT
	.cfi_endproc
	.size ct_cal_cyg, .-ct_cal_cyg

/* void ct_cal_mix(void (*fn)(void), unsigned long n, uint64_t seed) */
	.globl ct_cal_mix
	.hidden ct_cal_mix
	.type ct_cal_mix, @function
	.p2align 4
ct_cal_mix:
	.cfi_startproc
	PUSH_CFI %rbx
	PUSH_CFI %r12
	PUSH_CFI %r13
	/* the stack is 16-byte aligned at the call sites, as the ABI wants */
	mov %rdi, %rbx
	mov %rsi, %r12
	mov %rdx, %r13
	test %r12, %r12
	jz 3f
1:	movabs $6364136223846793005, %rax
	imul %rax, %r13
	movabs $1442695040888963407, %rax
	add %rax, %r13
	mov %r13, %rax
	shr $60, %rax			/* the site: the LCG's best bits */
	shl $4, %rax
	lea 4f(%rip), %rcx
	add %rcx, %rax
	jmp *%rax
	.p2align 4
4:
	.rept 16
	.p2align 4
	call *%rbx
	jmp 2f
	.endr
2:	dec %r12
	jnz 1b
3:	POP_CFI %r13
	POP_CFI %r12
	POP_CFI %rbx
	ret
	.cfi_endproc
	.size ct_cal_mix, .-ct_cal_mix

/* void ct_cal_loop(void (*fn)(void), unsigned long n) */
	.globl ct_cal_loop
	.hidden ct_cal_loop
	.type ct_cal_loop, @function
	.p2align 4
ct_cal_loop:
	.cfi_startproc
	PUSH_CFI %rbx
	PUSH_CFI %r12
	sub $8, %rsp			/* the call below 16-byte aligned */
	.cfi_adjust_cfa_offset 8
	mov %rdi, %rbx
	mov %rsi, %r12
	test %r12, %r12
	jz 2f
	.p2align 4
1:	call *%rbx
	dec %r12
	jnz 1b
2:	add $8, %rsp
	.cfi_adjust_cfa_offset -8
	POP_CFI %r12
	POP_CFI %rbx
	ret
	.cfi_endproc
	.size ct_cal_loop, .-ct_cal_loop

	.section .note.GNU-stack,"",@progbits
