/* SPDX-License-Identifier: MIT */
/*
 * AArch64 register layouts shared by the trampolines (tramp.S) and the
 * runtime's C code, in the shape arch/x86_64/regs.h gives them (the shared
 * C code names the slots as there); hook.c checks CT_REGS_* against the
 * structs.  _mcount fills struct ct_arch_regs; its sp is the traced
 * function's return-address slot there (the saved link register of its
 * frame record), since -pg does not know the entry stack pointer.
 */
#ifndef CT_ARCH_REGS_H
#define CT_ARCH_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>

/* saved by an entry trampoline */
struct ct_arch_regs {
	uint64_t gp[8];  /* x0..x7: integer arguments 1..8 */
	uint64_t xmm[8]; /* low 8 bytes of v0..v7: floating-point arguments */
	uint64_t sp;     /* _mcount: the return-address slot (x29 + 8) */
	/* argument capture at _mcount (doc/args.md, "AArch64"): the
	 * parameters are where DWARF says they are after the `bl _mcount`,
	 * in the frame or in callee-saved registers.  _mcount saves these
	 * only while ct_args_enabled; hook.c sets cfa */
	uint64_t cfa;    /* the traced function's CFA (its entry sp) */
	uint64_t cs[10]; /* x19..x28 */
	uint64_t fcs[8]; /* low 8 bytes of v8..v15 (d8..d15) */
};

/* saved by the return trampoline */
struct ct_arch_retregs {
	uint64_t rax, rdx;   /* x0, x1: integer return value (x1 its upper half) */
	uint64_t xmm0, xmm1; /* d0, d1: floating-point return value */
};
#endif

#define CT_REGS_GP 0
#define CT_REGS_XMM 64
#define CT_REGS_SP 128
#define CT_REGS_CFA 136
#define CT_REGS_CS 144
#define CT_REGS_FCS 224
#define CT_REGS_SIZE 288
#define CT_RETREGS_RAX 0
#define CT_RETREGS_RDX 8
#define CT_RETREGS_XMM0 16
#define CT_RETREGS_XMM1 24
#define CT_RETREGS_SIZE 32

#endif
