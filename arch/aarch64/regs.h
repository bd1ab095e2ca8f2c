/* SPDX-License-Identifier: MIT */
/*
 * AArch64 register layouts shared by the trampolines (tramp.S, libcall.S)
 * and the runtime's C code, in the shape and with the neutral names
 * arch/x86_64/regs.h gives them; hook.c checks CT_REGS_* against the
 * structs.  Their sp is the return-address slot: for _mcount the saved
 * link register of the traced function's frame record (-pg does not know
 * the entry stack pointer), for a library call the word just below the
 * caller's stack pointer (libcall.S makes it there, as on x86-64).
 */
#ifndef CT_ARCH_REGS_H
#define CT_ARCH_REGS_H

#ifndef __ASSEMBLER__
#include <stdint.h>

/* saved by an entry trampoline */
struct ct_arch_regs {
	uint64_t gp[8]; /* x0..x7: integer arguments 1..8 */
	uint64_t fp[8]; /* low 8 bytes of v0..v7: floating-point arguments */
	uint64_t sp;    /* the slot of the return address: _mcount's is the
			 * saved link register of the frame record (x29 + 8);
			 * a library call's is just below the caller's stack
			 * pointer, where its stack-passed arguments start 8
			 * above it (libcall.S) */
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
	uint64_t ret, ret2;   /* x0, x1: integer return value (x1 its upper half) */
	uint64_t fret, fret2; /* d0, d1: floating-point return value */
};
#endif

#define CT_REGS_GP 0
#define CT_REGS_FP 64
#define CT_REGS_SP 128
#define CT_REGS_CFA 136
#define CT_REGS_CS 144
#define CT_REGS_FCS 224
#define CT_REGS_SIZE 288
#define CT_RETREGS_RET 0
#define CT_RETREGS_RET2 8
#define CT_RETREGS_FRET 16
#define CT_RETREGS_FRET2 24
#define CT_RETREGS_SIZE 32

#endif
