/* SPDX-License-Identifier: MIT */
/*
 * AArch64 instruction decoding for the runtime, in the shape of
 * arch/x86_64/insn.h.  Instructions are 4 bytes, aligned.  The
 * function of a patched entry (kind 2) is decoded here, the patch itself
 * in patchsite.h; the decoding the other hooked front ends need (an mcount
 * call site, x86-64's PLT stubs) answers "nothing here", so that the
 * patcher leaves such code alone (record refuses -pg for an aarch64
 * program before it runs: doc/frontends.md).
 */
#ifndef CT_ARCH_AARCH64_INSN_H
#define CT_ARCH_AARCH64_INSN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define CT_INSN_NOP 0xd503201fu

#define CT_INSN_BTI_C 0xd503245fu  /* bti c: a function's landing pad */
#define CT_INSN_BTI_JC 0xd50324dfu /* bti jc */

/* the function entered, from a hook's call site.  Kind 2, a patched entry
 * (patchsite.h): site is the `bl`'s return address, after `mov x9, x30;
 * bl`, which follow the function's `bti c` when it has one.  Otherwise
 * the call itself */
static inline uintptr_t ct_insn_fentry_fn(uintptr_t site, int kind, int *pushed)
{
	*pushed = 0;
	if (kind != 2)
		return site - 4;
	uintptr_t at = site - 8;
	uint32_t w;
	if ((at & 4095) >= 4) { /* (the word before, on the same page) */
		memcpy(&w, (const void *)(at - 4), 4);
		if (w == CT_INSN_BTI_C || w == CT_INSN_BTI_JC)
			at -= 4;
	}
	return at;
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
