/* SPDX-License-Identifier: MIT */
/*
 * AArch64 instruction decoding for the runtime, in the shape of
 * arch/x86_64/insn.h.  Instructions are 4 bytes, aligned.  Only
 * -finstrument-functions is supported on aarch64 so far: the hooked front
 * ends' decoding (the function from an mcount call site, patched entries,
 * PLT stubs) answers "nothing here", so that the patcher and the library
 * calls leave the program's code alone (record refuses those front ends
 * for an aarch64 program before it runs: doc/frontends.md).
 */
#ifndef CT_ARCH_AARCH64_INSN_H
#define CT_ARCH_AARCH64_INSN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define CT_INSN_NOP 0xd503201fu

/* the function entered, from a hook's call site: the call itself */
static inline uintptr_t ct_insn_fentry_fn(uintptr_t site, int kind, int *pushed)
{
	(void)kind;
	*pushed = 0;
	return site - 4;
}

static __attribute__((unused)) uintptr_t ct_insn_prologue_before(uintptr_t site)
{
	return site - 4;
}

/* patched entries: no room is ever taken (0) */
static inline unsigned ct_insn_nops_cover5(const uint8_t *p)
{
	(void)p;
	return 0;
}

/* are the bytes [a, b) whole nop instructions? */
static inline bool ct_insn_nops_exactly(uintptr_t a, uintptr_t b)
{
	if ((a | b) & 3)
		return false;
	for (; a < b; a += 4) {
		uint32_t w;
		memcpy(&w, (const void *)a, 4);
		if (w != CT_INSN_NOP)
			return false;
	}
	return true;
}

enum { CT_INSN_CALL_NONE, CT_INSN_CALL_SLOT, CT_INSN_CALL_REL };

static inline unsigned ct_insn_call_at(uintptr_t p, uintptr_t *to, unsigned *len)
{
	(void)p;
	*to = 0;
	*len = 4;
	return CT_INSN_CALL_NONE;
}

static inline uintptr_t ct_insn_plt_slot(uintptr_t p, uintptr_t lo, uintptr_t hi)
{
	(void)p;
	(void)lo;
	(void)hi;
	return 0;
}

#endif
