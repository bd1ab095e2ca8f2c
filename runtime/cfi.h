/* SPDX-License-Identifier: MIT */
/*
 * DWARF call frame information, as .eh_frame holds it (cfi.c): the
 * runtime's unwinder (unwind.c) steps from a frame to its caller's with
 * it.  On the architectures whose arch.h defines CT_ARCH_UNWIND.
 */
#ifndef CT_RT_CFI_H
#define CT_RT_CFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arch.h"

#ifdef CT_ARCH_UNWIND

/* the registers of a frame, by DWARF number (CT_ARCH_DWARF_RA: the pc),
 * and which are known */
struct ct_uw_regs {
	uintptr_t r[CT_ARCH_UW_NREGS];
	uint32_t known;
};

/* where a step may read: the stack [lo, hi) the frame's stack pointer is
 * on; stack_of says which, for a stack pointer that leaves it (a signal
 * frame's interrupted context on another stack), false if none */
struct ct_uw_mem {
	uintptr_t lo, hi;
	bool (*stack_of)(void *ctx, uintptr_t sp, uintptr_t *lo, uintptr_t *hi);
	void *ctx;
};

/* m made the stack that holds sp, the caller's stack pointer: the one m
 * says, or another its stack_of knows; false if none */
bool ct_cfi_move_to(struct ct_uw_mem *m, uintptr_t sp) __attribute__((visibility("hidden")));

/* a 4-byte signed value at p (unaligned) */
static inline int32_t ct_cfi_s32(const uint8_t *p)
{
	int32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* a pointer of encoding enc (DW_EH_PE_*) at *pp, before end, datarel its
 * base for DW_EH_PE_datarel; *pp moved past it; *ok false if it is not
 * one (an indirect one among them) */
uintptr_t ct_cfi_read_enc(const uint8_t **pp, const uint8_t *end, uint8_t enc, uintptr_t datarel,
			  bool *ok) __attribute__((visibility("hidden")));

/* the range the FDE at fde covers: [start, start + range) */
bool ct_cfi_fde_range(const uint8_t *fde, uintptr_t *start, uintptr_t *range)
	__attribute__((visibility("hidden")));

/* a frame's rules in the common case, kept to be applied again at the
 * same pc without the CFI: the CFA is register cfa_reg's value plus
 * cfa_off, the registers in saved[] are saved at their offsets from the
 * CFA (the return address among them), the others keep their values
 * (nsaved CT_CFI_NO_RULE: the frame's rules are not such) */
#define CT_CFI_RULE_SAVED 8
#define CT_CFI_NO_RULE 0xff
struct ct_cfi_rule {
	uint8_t cfa_reg, nsaved;
	int32_t cfa_off;
	struct {
		uint8_t reg;
		int32_t off;
	} saved[CT_CFI_RULE_SAVED];
};

/* one step by the FDE at fde, whose range starts at start: r, a frame (its
 * pc exact: where it stopped; or a return address, looked up at pc - 1)
 * becomes its caller's frame (the caller's pc, its stack pointer the
 * frame's CFA).  false: no further (no rule the step knows, a word
 * outside the stack, the stack's end).  rule (may be NULL): the frame's
 * rules, if they are the common case's */
bool ct_cfi_step(struct ct_uw_regs *r, const uint8_t *fde, uintptr_t start, bool exact,
		 struct ct_uw_mem *m, struct ct_cfi_rule *rule)
	__attribute__((visibility("hidden")));

/* the step by a rule ct_cfi_step gave for the same pc, as it would be */
bool ct_cfi_apply(const struct ct_cfi_rule *rule, struct ct_uw_regs *r, struct ct_uw_mem *m)
	__attribute__((visibility("hidden")));

#endif
#endif
