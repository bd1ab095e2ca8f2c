/* SPDX-License-Identifier: MIT */
/*
 * aarch64's part of the library calls (runtime/libcall.c, doc/libcall.md):
 * the relocations of a GOT slot, the code of a slot's stub and of an
 * alias's jump, and how the module's code uses a -fno-plt GOT slot.
 * Included by libcall.c only.
 */
#ifndef CT_ARCH_LCSTUB_H
#define CT_ARCH_LCSTUB_H

#include <elf.h>
#include <stdint.h>
#include <string.h>

#include "runtime/gotuse.h"

#define CT_LC_R_JUMP_SLOT R_AARCH64_JUMP_SLOT /* a PLT's GOT slot */
#define CT_LC_R_GLOB_DAT R_AARCH64_GLOB_DAT   /* a GOT slot (-fno-plt) */

/* a stub and a jump reach their words with `ldr` (literal): +-1 MiB */
#define CT_LC_BLOCK_MAX ((size_t)1 << 20)

#define A64_LDR_LIT(rt, from, to) \
	(0x58000000u | ((uint32_t)(((intptr_t)(to) - (intptr_t)(from)) >> 2) & 0x7ffff) << 5 | (rt))
#define A64_BR(rn) (0xd61f0000u | (uint32_t)(rn) << 5)
#define A64_BRK 0xd4200780u /* brk #0x3c */

/* the 16-byte stub at s of a hooked slot: ct_libcall_tramp (*tramp) with
 * x16 the function (*fn); x16 and x17 are free at a call (the PLT uses
 * them the same way) */
static inline void ct_lc_stub(uint8_t *s, const uintptr_t *fn, const uintptr_t *tramp)
{
	uint32_t w[4] = {
		A64_LDR_LIT(16, s, fn),        /* ldr x16, FN */
		A64_LDR_LIT(17, s + 4, tramp), /* ldr x17, TRAMP */
		A64_BR(17),                    /* br x17 */
		A64_BRK,
	};
	memcpy(s, w, sizeof(w));
}

/* the 8-byte jump at j of an alias: to *dst (its target, or an interposer) */
static inline void ct_lc_jump(uint8_t *j, const uintptr_t *dst)
{
	uint32_t w[2] = {A64_LDR_LIT(16, j, dst), A64_BR(16)};
	memcpy(j, w, sizeof(w));
}

/* may the instruction w read or write the general register r (< 31)?  By
 * its encoding class (the register fields each class has); anything not
 * decoded here answers yes, which only ever leaves a slot alone */
static inline bool a64_touches(uint32_t w, unsigned r)
{
	unsigned rd = w & 31, rn = (w >> 5) & 31, ra = (w >> 10) & 31, rm = (w >> 16) & 31;
	if ((w & 0x1c000000u) == 0x10000000u) { /* data processing, immediate */
		if ((w & 0x1f000000u) == 0x10000000u)
			return rd == r;               /* adr, adrp */
		if ((w & 0x1f800000u) == 0x12800000u) /* movn, movz, movk */
			return rd == r;
		return rd == r || rn == r;
	}
	if ((w & 0x0e000000u) == 0x0a000000u) /* data processing, register */
		return rd == r || rn == r || rm == r || ra == r;
	if ((w & 0x0a000000u) != 0x08000000u)
		return true;
	/* loads and stores: the forms compilers emit around a call, whose
	 * immediates would read as registers (bits 10-21) */
	if ((w & 0x3b000000u) == 0x18000000u) /* ldr literal */
		return rd == r;
	if ((w & 0x3a000000u) == 0x28000000u) /* ldp, stp (all forms) */
		return rd == r || rn == r || ra == r;
	if ((w & 0x3b000000u) == 0x39000000u) /* ldr, str [xN, #uimm12] */
		return rd == r || rn == r;
	if ((w & 0x3b200000u) == 0x38000000u) /* the imm9 forms: ldur, pre, post */
		return rd == r || rn == r;
	if ((w & 0x3b200c00u) == 0x38200800u) /* ldr, str [xN, xM{, ext}] */
		return rd == r || rn == r || rm == r;
	return rd == r || rn == r || ra == r || rm == r; /* the rest, all fields */
}

/* the uses of the GOT slots g (sorted) in the code [lo, hi): bit 0 a call
 * or jump through it (`adrp xA, PAGE; ldr xT, [xA, #OFF]`, then `blr xT` or
 * `br xT` with no other instruction touching xT nor a branch in between,
 * as gcc and clang -fno-plt call), bit 1 any other reference (the load not
 * followed so by a call, or an `add` that takes the slot's address) */
static void ct_lc_scan_code(const uint8_t *lo, const uint8_t *hi, struct gotuse *g, size_t n)
{
	const uint32_t *p = (const uint32_t *)(((uintptr_t)lo + 3) & ~(uintptr_t)3);
	const uint32_t *e = (const uint32_t *)((uintptr_t)hi & ~(uintptr_t)3);
	for (; p < e; p++) {
		uint32_t w = *p;
		if ((w & 0x9f000000u) != 0x90000000u)
			continue; /* adrp */
		unsigned ra = w & 31;
		int64_t imm = (int64_t)(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3));
		imm = (imm ^ (1 << 20)) - (1 << 20); /* 21 bits, signed */
		uintptr_t page = ((uintptr_t)p & ~(uintptr_t)4095) + (uintptr_t)(imm * 4096);
		for (const uint32_t *q = p + 1; q < e && q < p + 16; q++) {
			uint32_t v = *q;
			uintptr_t at;
			unsigned rt = v & 31;
			if ((v & 0xffc00000u) == 0xf9400000u && ((v >> 5) & 31) == ra) {
				at = page + ((v >> 10) & 0xfff) * 8; /* ldr xT, [xA, #OFF] */
			} else if ((v & 0xffc00000u) == 0x91000000u && ((v >> 5) & 31) == ra) {
				at = page + ((v >> 10) & 0xfff); /* add xD, xA, #OFF */
				rt = 31;                         /* (the address: never a call) */
			} else if (a64_touches(v, ra)) {
				break; /* xA is something else now */
			} else {
				continue;
			}
			struct gotuse *u = got_find(g, n, at);
			if (!u)
				break;
			unsigned use = 2;
			for (const uint32_t *c = q + 1; rt < 31 && c < e && c < q + 64; c++) {
				if (*c == (0xd63f0000u | rt << 5) || *c == A64_BR(rt)) {
					use = 1; /* blr xT, br xT */
					break;
				}
				if ((*c & 0xfffff01fu) == 0xd503201fu)
					continue; /* a hint: nop, xpaclri, bti, ... */
				if (a64_touches(*c, rt) || (*c & 0x1c000000u) == 0x14000000u)
					break; /* another use, or a branch (b, bl, ret, ...) */
			}
			u->use |= use;
			break;
		}
	}
}

#endif
