/* SPDX-License-Identifier: MIT */
/*
 * aarch64's part of the patched entries (runtime/patch.c, doc/frontends.md):
 * which sites can be patched, the patch, and the veneer that reaches
 * ct_patch_tramp from a module too far from it.  Included by patch.c only.
 *
 * The patch is the kernel's (arm64 ftrace): the two nops at a function's
 * entry (after its `bti c`, if any) become
 *
 *     mov x9, x30        the caller's return address, into a register
 *                        that is free at a function's entry
 *     bl  TARGET         ct_patch_tramp (arch/aarch64/patch.S), or a veneer
 *
 * gcc and clang put N - M nops at the entry for -fpatchable-function-entry
 * =N,M: two are needed (=2, or =N,M with N - M >= 2; more are left nops).
 * A `bl` reaches +-128 MiB; a module farther from the runtime gets a
 * veneer page mapped near it (`ldr x16, 8; br x16; .quad ct_patch_tramp`:
 * x16 is free there too, and x30 stays the `bl`'s).
 *
 * Order: the `mov` is written first, its cache line synchronised, then
 * the `bl`.  A thread that runs the entry meanwhile runs two nops, the mov
 * and a nop (harmless: x9 is scratch), or both; the one case that breaks,
 * a thread that ran the first nop before the mov was written and the bl
 * after, needs a thread in a module's code while it is being patched: the
 * program's modules are patched before main, a dlopen'ed library as soon
 * as dlopen returns, when only a thread its constructors started can be
 * in it (doc/frontends.md, Limits, as for x86-64's multi-byte nops).
 * Both words are aligned 4-byte stores, single-copy atomic.
 */
#ifndef CT_ARCH_PATCHSITE_H
#define CT_ARCH_PATCHSITE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "insn.h"

#define CT_PS_MOV_X9_X30 0xaa1e03e9u /* mov x9, x30 (orr x9, xzr, x30) */
#define CT_PS_BL 0x94000000u

/* how far a `bl` reaches, less a page of margin */
#define CT_PS_REACH ((1l << 27) - 4096)
#define CT_ARCH_PATCH 1 /* patched entries: this file's patch, not x86-64's */
#define CT_PS_OWN 1
#define CT_PS_NOPS "2 nops"
#define CT_PS_FAR "128 MiB"
#define CT_PS_FLAG "N-M >= 2"

static inline uint32_t ct_ps_bl(uintptr_t from, uintptr_t to)
{
	return CT_PS_BL | ((uint32_t)(((intptr_t)to - (intptr_t)from) >> 2) & 0x3ffffff);
}

/* the veneer at p (a fresh page, written before it is made executable) */
static inline void ct_ps_veneer(uint8_t *p, uintptr_t tramp)
{
	uint32_t w[2] = {0x58000050u, /* ldr x16, .+8 */
			 0xd61f0200u /* br x16 */};
	memcpy(p, w, sizeof(w));
	memcpy(p + 8, &tramp, 8);
}

/* where the patch goes for the function at entry, whose code ends at hi:
 * after its bti.  *site set; 1 two nops there, 0 patched before (a fork
 * child: the mov is ours), -1 no room */
static inline int ct_ps_site(uintptr_t entry, uintptr_t hi, uintptr_t *site)
{
	uintptr_t s = entry;
	uint32_t w[2];
	if (s & 3 || s + 12 > hi)
		return -1;
	memcpy(w, (const void *)s, 4);
	if (w[0] == CT_INSN_BTI_C || w[0] == CT_INSN_BTI_JC)
		s += 4;
	*site = s;
	memcpy(w, (const void *)s, 8);
	if (w[0] == CT_PS_MOV_X9_X30 && (w[1] & 0xfc000000u) == CT_PS_BL)
		return 0;
	return w[0] == CT_INSN_NOP && w[1] == CT_INSN_NOP ? 1 : -1;
}

/* write the patch at site (writable), the bl to `to` last */
static inline void ct_ps_write(uintptr_t site, uintptr_t to)
{
	volatile uint32_t *w = (volatile uint32_t *)site;
	w[0] = CT_PS_MOV_X9_X30;
	__builtin___clear_cache((char *)site, (char *)site + 4);
	w[1] = ct_ps_bl(site + 4, to);
	__builtin___clear_cache((char *)site + 4, (char *)site + 8);
}

#endif
