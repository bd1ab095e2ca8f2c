/* SPDX-License-Identifier: MIT */
/*
 * AArch64 register layouts shared with the runtime's C code, in the shape
 * and with the neutral names arch/x86_64/regs.h gives them.  The library
 * calls' trampolines (libcall.S) fill them; the layout is checked by
 * hook.c against CT_REGS_*.
 */
#ifndef CT_ARCH_REGS_H
#define CT_ARCH_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>

/* saved by an entry trampoline */
struct ct_arch_regs {
	uint64_t gp[8]; /* x0..x7: integer arguments 1..8 */
	uint64_t fp[8]; /* low 8 bytes of v0..v7: floating-point arguments */
	uint64_t sp;    /* the slot of the return address, as on x86-64: the
			 * stack-passed arguments start 8 above it (the
			 * trampolines make the slot just below the caller's
			 * stack pointer: libcall.S) */
};

/* saved by the return trampoline */
struct ct_arch_retregs {
	uint64_t ret, ret2;   /* x0, x1: integer return value (x1 its upper half) */
	uint64_t fret, fret2; /* d0, d1: floating-point return value */
};
#endif

#define CT_REGS_GP 0
#define CT_REGS_FP 64
#define CT_REGS_SP 128
#define CT_REGS_SIZE 136
#define CT_RETREGS_RET 0
#define CT_RETREGS_RET2 8
#define CT_RETREGS_FRET 16
#define CT_RETREGS_FRET2 24
#define CT_RETREGS_SIZE 32

#endif
