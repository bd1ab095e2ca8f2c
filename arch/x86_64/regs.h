/* SPDX-License-Identifier: MIT */
/*
 * x86-64 register layouts shared by the entry/return trampolines
 * (the .S files of arch/x86_64) and the runtime's C code.  The offsets are part of the
 * contract with the assembly: keep CT_REGS_* in step with the structs.
 * The names are the same on every architecture (the C code means
 * "argument register N", "the return value", never a register's name):
 * gp[] the integer arguments, fp[] the floating-point ones, ret/ret2 the
 * integer return value, fret/fret2 the floating-point one.
 */
#ifndef CT_ARCH_REGS_H
#define CT_ARCH_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>

/* saved by an entry trampoline (mcount, __fentry__, patched entries) */
struct ct_arch_regs {
	uint64_t gp[6]; /* rdi, rsi, rdx, rcx, r8, r9: integer arguments 1..6 */
	uint64_t fp[8]; /* low 8 bytes of xmm0..xmm7: floating-point arguments */
	uint64_t sp;    /* the traced function's stack pointer at its entry: it
			  * points at the return address; stack-passed
			  * arguments start at sp + 8 */
};

/* saved by the return trampoline */
struct ct_arch_retregs {
	uint64_t ret, ret2;   /* %rax, %rdx: integer return value (%rdx its upper half) */
	uint64_t fret, fret2; /* low 8 bytes of xmm0, xmm1: floating-point return value */
};
#endif

#define CT_REGS_GP 0
#define CT_REGS_FP 48
#define CT_REGS_SP 112
#define CT_REGS_SIZE 120
#define CT_RETREGS_RET 0
#define CT_RETREGS_RET2 8
#define CT_RETREGS_FRET 16
#define CT_RETREGS_FRET2 24
#define CT_RETREGS_SIZE 32

#endif
