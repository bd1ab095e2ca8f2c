/* SPDX-License-Identifier: MIT */
/*
 * The functions of the calibration (runtime/calibrate.c, doc/overhead.md),
 * as arch/x86_64/cal.S has them:
 *
 *   ct_cal_cyg     an empty function as -finstrument-functions compiles it
 *                  for aarch64: a frame record, its address and the link
 *                  register to the hooks, called through the PLT
 *   ct_cal_plain   an empty function: `ret`
 *   ct_cal_hooked  what `gcc -pg` makes of an empty function on aarch64:
 *                  a frame record, the link register to x0 and a call of
 *                  _mcount (tramp.S), then the epilogue, whose `ret` goes
 *                  through the return trampoline
 *   ct_cal_mix     calls a function N times from 16 call sites in an order
 *                  no predictor learns (a 64-bit LCG picks the site)
 *   ct_cal_loop    calls a function N times from one call site
 */
	.text

	.globl ct_cal_plain
	.hidden ct_cal_plain
	.type ct_cal_plain, %function
	.p2align 4
ct_cal_plain:
	.cfi_startproc
	ret
	.cfi_endproc
	.size ct_cal_plain, .-ct_cal_plain

	.globl ct_cal_hooked
	.hidden ct_cal_hooked
	.type ct_cal_hooked, %function
	.p2align 4
ct_cal_hooked:
	.cfi_startproc
	stp x29, x30, [sp, #-16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov x29, sp
	mov x0, x30
	bl _mcount
	ldp x29, x30, [sp], #16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size ct_cal_hooked, .-ct_cal_hooked

	.globl ct_cal_cyg
	.hidden ct_cal_cyg
	.type ct_cal_cyg, %function
	.p2align 4
ct_cal_cyg:
	.cfi_startproc
	stp x29, x30, [sp, #-32]!
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov x29, sp
	str x19, [sp, #16]
	.cfi_offset 19, -16
	adr x19, ct_cal_cyg
	mov x1, x30
	mov x0, x19
	bl __cyg_profile_func_enter
	ldr x1, [sp, #8]		/* the caller's x30, as gcc reloads it */
	mov x0, x19
	ldr x19, [sp, #16]
	.cfi_restore 19
	ldp x29, x30, [sp], #32
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	b __cyg_profile_func_exit
	.cfi_endproc
	.size ct_cal_cyg, .-ct_cal_cyg

/* void ct_cal_mix(void (*fn)(void), unsigned long n, uint64_t seed) */
	.globl ct_cal_mix
	.hidden ct_cal_mix
	.type ct_cal_mix, %function
	.p2align 4
ct_cal_mix:
	.cfi_startproc
	stp x29, x30, [sp, #-48]!
	.cfi_def_cfa_offset 48
	.cfi_offset 29, -48
	.cfi_offset 30, -40
	mov x29, sp
	stp x19, x20, [sp, #16]
	.cfi_offset 19, -32
	.cfi_offset 20, -24
	stp x21, x22, [sp, #32]
	.cfi_offset 21, -16
	.cfi_offset 22, -8
	mov x19, x0
	mov x20, x1
	mov x21, x2
	ldr x22, .Lmul
	cbz x20, 3f
1:	ldr x9, .Linc
	madd x21, x21, x22, x9
	lsr x9, x21, #60		/* the site: the LCG's best bits */
	adr x10, 4f
	add x10, x10, x9, lsl #3
	br x10
	.p2align 3
4:
	.rept 16
	blr x19
	b 2f
	.endr
2:	subs x20, x20, #1
	b.ne 1b
3:	ldp x21, x22, [sp, #32]
	ldp x19, x20, [sp, #16]
	ldp x29, x30, [sp], #48
	.cfi_restore 19
	.cfi_restore 20
	.cfi_restore 21
	.cfi_restore 22
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.p2align 3
.Lmul:	.quad 6364136223846793005
.Linc:	.quad 1442695040888963407
	.cfi_endproc
	.size ct_cal_mix, .-ct_cal_mix

/* void ct_cal_loop(void (*fn)(void), unsigned long n) */
	.globl ct_cal_loop
	.hidden ct_cal_loop
	.type ct_cal_loop, %function
	.p2align 4
ct_cal_loop:
	.cfi_startproc
	stp x29, x30, [sp, #-32]!
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov x29, sp
	stp x19, x20, [sp, #16]
	.cfi_offset 19, -16
	.cfi_offset 20, -8
	mov x19, x0
	mov x20, x1
	cbz x20, 2f
	.p2align 4
1:	blr x19
	subs x20, x20, #1
	b.ne 1b
2:	ldp x19, x20, [sp, #16]
	ldp x29, x30, [sp], #32
	.cfi_restore 19
	.cfi_restore 20
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size ct_cal_loop, .-ct_cal_loop

	.section .note.GNU-stack,"",%progbits
