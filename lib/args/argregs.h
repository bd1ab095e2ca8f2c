/* SPDX-License-Identifier: MIT */
/*
 * The names -A/-R specs give argument locations (doc/args.md,
 * "Locations"), in the reference tool's spelling: `arg1%rdi`,
 * `fparg1%xmm0`, `arg7%stack+1`, `retval%rdx`, for an x86-64 program.
 * argspec.c turns them into the spec file's locations
 * (calltrace/specfile.h).  The tables are the analysis side's knowledge of
 * the traced program's ABI, not of the machine calltrace is built for:
 * record chooses them by the program's ELF machine (ct_aspec_set_machine):
 * x86-64's, or aarch64's (x0..x7, v0..v7; the return value in x0, x1, v0,
 * v1), where record takes argument items only for patched entries: at
 * -pg's _mcount the argument registers are not the arguments (doc/args.md,
 * "AArch64").
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
#define CT_ARGREGS_GP 6 /* argN in registers: arg1..arg6 */

/* aarch64 (AAPCS64): the same spec file locations (CT_AL_GP 0..7, CT_AL_XMM
 * 0..7, CT_AL_RET 0..3), by aarch64's names; d0..d7 are v0..v7's low 8
 * bytes, as xmm0..7 are on x86-64 */
static const struct ct_argreg ct_argregs_a64[] = {
	{"x0", CT_AL_GP, 0},  {"x1", CT_AL_GP, 1},  {"x2", CT_AL_GP, 2},  {"x3", CT_AL_GP, 3},
	{"x4", CT_AL_GP, 4},  {"x5", CT_AL_GP, 5},  {"x6", CT_AL_GP, 6},  {"x7", CT_AL_GP, 7},
	{"v0", CT_AL_XMM, 0}, {"v1", CT_AL_XMM, 1}, {"v2", CT_AL_XMM, 2}, {"v3", CT_AL_XMM, 3},
	{"v4", CT_AL_XMM, 4}, {"v5", CT_AL_XMM, 5}, {"v6", CT_AL_XMM, 6}, {"v7", CT_AL_XMM, 7},
	{"d0", CT_AL_XMM, 0}, {"d1", CT_AL_XMM, 1}, {"d2", CT_AL_XMM, 2}, {"d3", CT_AL_XMM, 3},
	{"d4", CT_AL_XMM, 4}, {"d5", CT_AL_XMM, 5}, {"d6", CT_AL_XMM, 6}, {"d7", CT_AL_XMM, 7},
};
static const struct ct_argreg ct_retregs_a64[] = {
	{"x0", CT_AL_RET, 0}, {"x1", CT_AL_RET, 1}, {"v0", CT_AL_RET, 2},
	{"d0", CT_AL_RET, 2}, {"v1", CT_AL_RET, 3}, {"d1", CT_AL_RET, 3},
};
#define CT_ARGREGS_NAMES_A64 "x0..x7 v0..v7 (or d0..d7)"
#define CT_RETREGS_NAMES_A64 "x0 x1 v0 v1 (or d0 d1)"
#define CT_ARGREGS_GP_A64 8 /* arg1..arg8 in x0..x7 */

/* %stack+N: the N-th 8-byte slot above the return address, N from 1:
 * the entry stack pointer + CT_ARGREGS_STACK_BASE + 8 * (N - 1) */
#define CT_ARGREGS_STACK_BASE 8u
#define CT_ARGREGS_SLOT 8u

#endif
