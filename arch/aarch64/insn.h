/* SPDX-License-Identifier: MIT */
/*
 * AArch64 instruction decoding for the runtime, in the shape of
 * arch/x86_64/insn.h.  Instructions are 4 bytes, aligned.  -pg is
 * supported (the function that called _mcount, from the call's return
 * address), and so are patched entries (kind 2: the function from the
 * patched `bl`; the patch itself is in patchsite.h); x86-64's PLT stub
 * decoding answers "nothing here" (library calls have lcstub.h).
 */
#ifndef CT_ARCH_AARCH64_INSN_H
#define CT_ARCH_AARCH64_INSN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

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

/* Where a function's straight-line prologue cannot reach back to: the
 * end of the function before it (a return, a branch, a call: a function
 * may end by calling one that does not return), padding between functions
 * (nop, or zeros: udf #0), a branch of any kind (the prologue before
 * _mcount has none).  Everything else may be part of a prologue. */
static inline bool ct_insn_a64_ends_before(uint32_t w)
{
	return w == CT_INSN_NOP || w == 0 || (w & 0x7c000000u) == 0x14000000u /* b, bl */ ||
	       (w & 0xfe000000u) == 0xd6000000u /* br, blr, ret, eret */ ||
	       (w & 0x7e000000u) == 0x34000000u /* cbz, cbnz */ ||
	       (w & 0x7e000000u) == 0x36000000u /* tbz, tbnz */ ||
	       (w & 0xff000010u) == 0x54000000u /* b.cond */ ||
	       (w & 0xffe0001fu) == 0xd4200000u /* brk */;
}

/* The function that called _mcount, from the call's return address
 * `site`.  gcc calls it after the frame record (`stp x29, x30, [sp,
 * #-N]!; mov x29, sp`, or `sub sp, sp, ...; stp x29, x30, [sp]`) and the
 * moves or stores of the arguments, clang after saving registers: the
 * first instruction of that straight-line run, looking back from the call
 * up to 64 instructions for the end of the code before it (above), onto
 * the page before only when it is mapped.  Without one: the call itself
 * (inside the function: its symbol still resolves). */
static __attribute__((noinline, unused)) uintptr_t ct_insn_prologue_before(uintptr_t site)
{
	uintptr_t call = site - 4, p = call;
	for (int n = 0; n < 64; n++) {
		if ((p & 4095) == 0) {
			unsigned char vec;
			if (mincore((void *)(p - 4096), 4096, &vec) != 0)
				return n ? p : call; /* the mapping's first word */
		}
		uint32_t w;
		memcpy(&w, (const void *)(p - 4), 4);
		if (ct_insn_a64_ends_before(w))
			return p == call ? call : p;
		p -= 4;
	}
	return call;
}

/* The frame a -pg prologue set up, from its function's first instruction
 * fn to the call of _mcount at call: the offset of x29 (the frame record)
 * from the entry stack pointer (0 or less), or 1 when the prologue does
 * something this does not follow.  It follows the stack pointer through
 * pre- and post-indexed stores with sp as base (`stp x29, x30, [sp,
 * #-N]!`, clang's `str d8, [sp, #-N]!`) and subtractions (`sub sp, sp,
 * #N`, gcc's `mov x12, N; sub sp, sp, x12` for big frames), and x29 through
 * `mov x29, sp` / `add x29, sp, #M`.  A prologue that signs the link
 * register (paciasp, pacibsp: -mbranch-protection=pac-ret) answers 1 too:
 * the signed copy in the frame record cannot be replaced. */
/* the low bits of v as a signed number (without a shift into the sign
 * bit, which C leaves undefined) */
static inline int64_t ct_insn_a64_sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);
	return (int64_t)((v & ((m << 1) - 1)) ^ m) - (int64_t)m;
}

static inline intptr_t ct_insn_a64_fp_off(uintptr_t fn, uintptr_t call)
{
	int64_t sp = 0, fp = 1;
	uint64_t kv[32];
	uint32_t known = 0;
	if (call < fn || call - fn > 4 * 64 || ((fn | call) & 3))
		return 1;
	for (uintptr_t p = fn; p < call; p += 4) {
		uint32_t w;
		memcpy(&w, (const void *)p, 4);
		unsigned rd = w & 31, rn = (w >> 5) & 31;
		if (w == 0xd503233fu || w == 0xd503237fu)
			return 1; /* paciasp, pacibsp */
		if ((w & 0x3a000000u) == 0x28000000u && ((w >> 23) & 3) != 2 &&
		    ((w >> 23) & 3) != 0) {
			/* load/store pair, pre- (3) or post-indexed (1) */
			unsigned opc = w >> 30, v = (w >> 26) & 1;
			int64_t imm = ct_insn_a64_sext((w >> 15) & 0x7f, 7);
			unsigned scale = v ? 4u << opc : (opc & 2 ? 8 : 4);
			if (rn == 31)
				sp += imm * scale;
			continue;
		}
		if ((w & 0x3b200400u) == 0x38000400u) {
			/* load/store register, pre- or post-indexed */
			int64_t imm = ct_insn_a64_sext((w >> 12) & 0x1ff, 9);
			if (rn == 31)
				sp += imm;
			continue;
		}
		if ((w & 0x1f800000u) == 0x11000000u) {
			/* add/sub (immediate) */
			int64_t imm = (int64_t)((w >> 10) & 0xfff) << ((w >> 22) & 1 ? 12 : 0);
			bool sub = (w >> 30) & 1, setf = (w >> 29) & 1;
			if (rd == 31 && !setf) {
				if (rn != 31)
					return 1; /* sp from another register */
				sp += sub ? -imm : imm;
			} else if (rd == 29) {
				if (rn != 31 || setf)
					return 1;
				fp = sp + (sub ? -imm : imm);
			}
			continue;
		}
		if ((w & 0x1fe00000u) == 0x0b200000u && rd == 31 && !((w >> 29) & 1)) {
			/* add/sub (extended register) into sp: sp -/+ a constant */
			unsigned rm = (w >> 16) & 31, sh = (w >> 10) & 7;
			if (rn != 31 || !(known >> rm & 1))
				return 1;
			int64_t v = (int64_t)(kv[rm] << sh);
			sp += (w >> 30) & 1 ? -v : v;
			continue;
		}
		if ((w & 0x1f800000u) == 0x12800000u) {
			/* movz (opc 2), movk (3), movn (0) */
			unsigned opc = (w >> 29) & 3, hw = (w >> 21) & 3;
			uint64_t imm = (uint64_t)((w >> 5) & 0xffff) << (16 * hw);
			if (opc == 2)
				kv[rd] = imm, known |= 1u << rd;
			else if (opc == 0)
				kv[rd] = ~imm, known |= 1u << rd;
			else if (opc == 3 && (known >> rd & 1))
				kv[rd] = (kv[rd] & ~((uint64_t)0xffff << (16 * hw))) | imm;
			if (!((w >> 31) & 1) && (known >> rd & 1))
				kv[rd] = (uint32_t)kv[rd];
			continue;
		}
		if ((w & 0x1f800000u) == 0x12000000u && rd == 31 && ((w >> 29) & 3) != 3)
			return 1; /* a logical immediate into sp */
		/* another write of a register whose constant was known */
		known &= ~(1u << rd);
	}
	return fp <= 0 && fp >= sp ? (intptr_t)fp : 1;
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

/* (not decoded here: a sample at a patched entry's `bl` or in a veneer
 * goes to the call open, as the tracer's own code alone is set apart) */
static inline bool ct_insn_enters(uintptr_t pc, uintptr_t lo, uintptr_t hi)
{
	(void)pc;
	(void)lo;
	(void)hi;
	return false;
}

#endif
