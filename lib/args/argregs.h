/* SPDX-License-Identifier: MIT */
/*
 * The names -A/-R specs give argument locations (doc/args.md,
 * "Locations"), in the reference tool's spelling: `arg1%rdi`,
 * `fparg1%xmm0`, `arg7%stack+1`, `retval%rdx`, for an x86-64 program.
 * argspec.c turns them into the spec file's locations
 * (calltrace/specfile.h).  The table is the analysis side's knowledge of
 * the traced program's ABI, not of the machine calltrace is built for:
 * an aarch64 program's would sit beside it, chosen by the program's
 * machine (record refuses -A/-R for aarch64 programs until then).
 */
#ifndef CT_ARGS_ARGREGS_H
#define CT_ARGS_ARGREGS_H

#include "calltrace/specfile.h"

struct ct_argreg {
	const char *name;
	uint8_t kind; /* enum ct_aloc_kind */
	uint8_t reg;
};

/* where an argument can be at a function's entry */
static const struct ct_argreg ct_argregs[] = {
	{"rdi", CT_AL_GP, 0},   {"rsi", CT_AL_GP, 1},   {"rdx", CT_AL_GP, 2},
	{"rcx", CT_AL_GP, 3},   {"r8", CT_AL_GP, 4},    {"r9", CT_AL_GP, 5},
	{"xmm0", CT_AL_XMM, 0}, {"xmm1", CT_AL_XMM, 1}, {"xmm2", CT_AL_XMM, 2},
	{"xmm3", CT_AL_XMM, 3}, {"xmm4", CT_AL_XMM, 4}, {"xmm5", CT_AL_XMM, 5},
	{"xmm6", CT_AL_XMM, 6}, {"xmm7", CT_AL_XMM, 7},
};
/* ... and the return value at the return */
static const struct ct_argreg ct_retregs[] = {
	{"rax", CT_AL_RET, 0},
	{"rdx", CT_AL_RET, 1},
	{"xmm0", CT_AL_RET, 2},
	{"xmm1", CT_AL_RET, 3},
};
#define CT_ARGREGS_NAMES "rdi rsi rdx rcx r8 r9 xmm0..xmm7"
#define CT_RETREGS_NAMES "rax rdx xmm0 xmm1"

/* %stack+N: the N-th 8-byte slot above the return address, N from 1:
 * the entry stack pointer + CT_ARGREGS_STACK_BASE + 8 * (N - 1) */
#define CT_ARGREGS_STACK_BASE 8u
#define CT_ARGREGS_SLOT 8u

#endif
