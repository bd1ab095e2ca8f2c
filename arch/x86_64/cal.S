/* SPDX-License-Identifier: MIT */
/*
 * The two empty functions of the hooked front ends' calibration
 * (runtime/calibrate.c, doc/overhead.md):
 *
 *   ct_cal_hooked  what `gcc -pg -mfentry` makes of an empty function: a
 *                  call of __fentry__ (the runtime's own trampoline, through
 *                  the GOT as gcc calls it), then `ret`, which goes through
 *                  the return trampoline
 *   ct_cal_plain   the same function untraced: `ret`
 */
	.text

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

	.section .note.GNU-stack,"",@progbits
