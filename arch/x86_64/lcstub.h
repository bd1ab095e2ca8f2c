/* SPDX-License-Identifier: MIT */
/*
 * x86-64's part of the library calls (runtime/libcall.c, doc/libcall.md):
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

#define CT_LC_R_JUMP_SLOT R_X86_64_JUMP_SLOT /* a PLT's GOT slot */
#define CT_LC_R_GLOB_DAT R_X86_64_GLOB_DAT   /* a GOT slot (-fno-plt) */

/* a stub and a jump reach their words within a block (up to 2 GiB) */
#define CT_LC_BLOCK_MAX ((size_t)1 << 30)

/* the 16-byte stub at s of a hooked slot: ct_libcall_tramp with the
 * function (*fn) pushed, where its frame is __fentry__'s */
static inline void ct_lc_stub(uint8_t *s, const uintptr_t *fn, const uintptr_t *tramp)
{
	int32_t d1 = (int32_t)((uintptr_t)fn - (uintptr_t)(s + 6));
	int32_t d2 = (int32_t)((uintptr_t)tramp - (uintptr_t)(s + 12));
	s[0] = 0xff; /* push d1(%rip) */
	s[1] = 0x35;
	memcpy(s + 2, &d1, 4);
	s[6] = 0xff; /* jmp *d2(%rip) */
	s[7] = 0x25;
	memcpy(s + 8, &d2, 4);
	memset(s + 12, 0xcc, 4);
}

/* the 8-byte jump at j of an alias: to *dst (its target, or an interposer) */
static inline void ct_lc_jump(uint8_t *j, const uintptr_t *dst)
{
	int32_t d0 = (int32_t)((uintptr_t)dst - (uintptr_t)(j + 6));
	j[0] = 0xff; /* jmp *d0(%rip) */
	j[1] = 0x25;
	memcpy(j + 2, &d0, 4);
	memset(j + 6, 0xcc, 2);
}

/* `mov slot(%rip), %reg` at p - 1 (REX.W) followed by `call *%reg`: how
 * clang -O0 -fno-plt calls (a load that only feeds the call) */
static inline bool ct_lc_load_call(const uint8_t *p)
{
	unsigned reg = (p[1] >> 3) & 7;
	if (p[-1] == 0x48)
		return p[6] == 0xff && p[7] == 0xd0 + reg;
	if (p[-1] == 0x4c)
		return p[6] == 0x41 && p[7] == 0xff && p[8] == 0xd0 + reg;
	return false;
}

/* the uses of the GOT slots g (sorted) in the code [lo, hi): bit 0 a call
 * or jump through it (ff 15 / ff 25 with a %rip-relative displacement, or
 * a load into a register that the next instruction calls), bit 1 a load of
 * it (mov/push/cmp ... slot(%rip): anything else).  A byte scan: a
 * displacement that lands exactly on the slot does not happen by chance */
static void ct_lc_scan_code(const uint8_t *lo, const uint8_t *hi, struct gotuse *g, size_t n)
{
	for (const uint8_t *p = lo; p + 9 <= hi; p++) {
		/* modrm 00 reg 101: %rip-relative; the displacement follows
		 * it, and the instruction ends 4 bytes later (plus an
		 * immediate for a few: not calls, so a load) */
		if ((p[1] & 0xc7) != 0x05)
			continue;
		int32_t disp;
		memcpy(&disp, p + 2, 4);
		uintptr_t at = (uintptr_t)(p + 6) + (uintptr_t)(intptr_t)disp;
		struct gotuse *e = got_find(g, n, at);
		if (!e)
			continue;
		if (p[0] == 0xff && (p[1] == 0x15 || p[1] == 0x25))
			e->use |= 1;
		else if (p[0] == 0x8b && p > lo && ct_lc_load_call(p))
			e->use |= 1;
		else
			e->use |= 2;
	}
}

#endif
