/* SPDX-License-Identifier: MIT */
/*
 * x86-64 instruction decoding for the runtime: what the hooked front ends
 * and the patcher need to read of the program's code.  Each function reads
 * a few bytes at or before an address it is given and knows the exact
 * instructions compilers emit there; nothing here writes.  libc only,
 * header-only (the runtime's files include it; tests/unit/test_insn.c
 * checks it on byte sequences).
 */
#ifndef CT_ARCH_X86_64_INSN_H
#define CT_ARCH_X86_64_INSN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

/* ---- function entries ---------------------------------------------------- */

/* endbr64 (f3 0f 1e fa) at a? */
static inline int ct_insn_is_endbr64(uintptr_t a)
{
	uint32_t v;
	memcpy(&v, (const void *)a, 4);
	return v == 0xfa1e0ff3u;
}

/* does reading 4 bytes before `a` stay on a page that holds `a`'s function?
 * (a function that starts a page may be the first of its mapping) */
static inline int ct_insn_endbr_readable(uintptr_t a)
{
	return (a & 4095) >= 4;
}

/* The function that called __fentry__ (kind 0) or a patched entry's
 * trampoline (kind 2), from the call's return address `site`: the call is
 * the function's first instruction, after an endbr64 where there is one.
 * gcc calls __fentry__ through the GOT (ff 15, or 67 e8 once the linker
 * relaxed it): 6 bytes; a patched entry is a 5-byte e8.  In a nested
 * function (GNU C) gcc keeps the static chain around the call: `push %r10`
 * (41 52) before it, so the return-address slot is one word further up;
 * *pushed says so. */
static inline uintptr_t ct_insn_fentry_fn(uintptr_t site, int kind, int *pushed)
{
	const uint8_t *s = (const uint8_t *)site;
	uintptr_t at = site - 5;
	*pushed = 0;
	if (kind == 0 && ((s[-6] == 0xff && s[-5] == 0x15) || (s[-6] == 0x67 && s[-5] == 0xe8)))
		at = site - 6;
	if (kind == 0 && (at & 4095) >= 2 && ((const uint8_t *)at)[-2] == 0x41 &&
	    ((const uint8_t *)at)[-1] == 0x52) {
		at -= 2;
		*pushed = 1;
	}
	if (ct_insn_endbr_readable(at) && ct_insn_is_endbr64(at - 4))
		at -= 4;
	return at;
}

/* The function that called mcount, from the call's return address `site`:
 * mcount is called after `push %rbp; mov %rsp,%rbp` (48 89 e5 or 48 8b
 * ec) and maybe more instructions (clang saves registers and moves
 * arguments first), so look back for that prologue, up to 256 bytes, onto
 * the page before only when it is mapped.  Without one: the call itself
 * (inside the function: its symbol still resolves). */
static __attribute__((noinline, unused)) uintptr_t ct_insn_prologue_before(uintptr_t site)
{
	const uint8_t *lo = (const uint8_t *)site - 5 - 256;
	for (const uint8_t *p = (const uint8_t *)site - 9; p >= lo; p--) {
		if (p[0] == 0x55 && p[1] == 0x48 &&
		    ((p[2] == 0x89 && p[3] == 0xe5) || (p[2] == 0x8b && p[3] == 0xec))) {
			uintptr_t a = (uintptr_t)p;
			if (ct_insn_endbr_readable(a) && ct_insn_is_endbr64(a - 4))
				a -= 4;
			return a;
		}
		if (((uintptr_t)p & 4095) == 0) {
			/* the function began on the page before: walk on if that
			 * page is there (mincore fails on an unmapped one) */
			unsigned char vec;
			if (mincore((void *)((uintptr_t)p - 4096), 4096, &vec) != 0)
				break;
		}
	}
	return site - 5;
}

/* ---- nops ------------------------------------------------------------------ */

/* length of the nop instruction at p (90, 66 90 .., 0f 1f /0 in each of
 * its forms, 66-prefixed), 0 if it is none of those */
static inline unsigned ct_insn_nop_len(const uint8_t *p)
{
	unsigned pre = 0;
	while (p[pre] == 0x66 && pre < 6)
		pre++;
	const uint8_t *q = p + pre;
	if (q[0] == 0x90)
		return pre + 1;
	if (q[0] != 0x0f || q[1] != 0x1f)
		return 0;
	uint8_t modrm = q[2];
	unsigned len = 3;
	unsigned mod = modrm >> 6, rm = modrm & 7;
	if ((modrm >> 3 & 7) != 0 || mod == 3)
		return 0;
	if (rm == 4)
		len++; /* SIB */
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	else if (rm == 5)
		len += 4;
	return pre + len;
}

/* how many bytes of whole nop instructions starting at p cover at least 5
 * bytes (the room for a call); 0 if the nops there are fewer than 5 bytes */
static inline unsigned ct_insn_nops_cover5(const uint8_t *p)
{
	unsigned n = 0;
	while (n < 5) {
		unsigned l = ct_insn_nop_len(p + n);
		if (!l)
			return 0;
		n += l;
	}
	return n;
}

/* are the bytes [a, b) whole nop instructions?  (the M nops before an
 * entry) */
static inline bool ct_insn_nops_exactly(uintptr_t a, uintptr_t b)
{
	while (a < b) {
		unsigned l = ct_insn_nop_len((const uint8_t *)a);
		if (!l)
			return false;
		a += l;
	}
	return a == b;
}

/* ---- calls ----------------------------------------------------------------- */

enum { CT_INSN_CALL_NONE, CT_INSN_CALL_SLOT, CT_INSN_CALL_REL };

/* A call at p: `call *slot(%rip)` (ff 15 rel32: *to is the slot's address,
 * CT_INSN_CALL_SLOT) or `call rel32` (e8: *to is the target,
 * CT_INSN_CALL_REL); *len its length.  Reads 6 bytes. */
static inline unsigned ct_insn_call_at(uintptr_t p, uintptr_t *to, unsigned *len)
{
	const uint8_t *b = (const uint8_t *)p;
	int32_t rel;
	if (b[0] == 0xff && b[1] == 0x15) {
		memcpy(&rel, b + 2, 4);
		*to = p + 6 + (intptr_t)rel;
		*len = 6;
		return CT_INSN_CALL_SLOT;
	}
	if (b[0] == 0xe8) {
		memcpy(&rel, b + 1, 4);
		*to = p + 5 + (intptr_t)rel;
		*len = 5;
		return CT_INSN_CALL_REL;
	}
	return CT_INSN_CALL_NONE;
}

/* the GOT slot a PLT stub at p jumps through (`jmp *slot(%rip)`, after an
 * endbr64 and a bnd prefix where there are), or 0; the stub must lie in
 * [lo, hi) */
static inline uintptr_t ct_insn_plt_slot(uintptr_t p, uintptr_t lo, uintptr_t hi)
{
	if (p < lo || p + 16 > hi)
		return 0;
	const uint8_t *b = (const uint8_t *)p;
	if (!memcmp(b, "\xf3\x0f\x1e\xfa", 4))
		b += 4;
	if (b[0] == 0xf2)
		b++;
	if (b[0] != 0xff || b[1] != 0x25)
		return 0;
	int32_t rel;
	memcpy(&rel, b + 2, 4);
	return (uintptr_t)(b + 6) + (intptr_t)rel;
}

/* ---- the tracer's way in (record --count --sample) --------------------- */

enum { CT_INSN_ENTER_NONE, CT_INSN_ENTER_CALL, CT_INSN_ENTER_CALL_SLOT, CT_INSN_ENTER_JMP_SLOT };

/* Where the instruction at pc goes if it is `call rel32` (e8, *to its
 * target: CT_INSN_ENTER_CALL), `call *slot(%rip)` (ff 15: *to the slot's
 * content, CT_INSN_ENTER_CALL_SLOT) or `jmp *slot(%rip)` (ff 25 after a
 * bnd prefix f2 where there is one, as PLT stubs and patch.c's jump stubs
 * are: CT_INSN_ENTER_JMP_SLOT), each after an endbr64 where there is one;
 * else CT_INSN_ENTER_NONE.  Reads the instruction's bytes only as far as
 * the ones read so far say it goes (pc may be a 1-byte instruction at the
 * end of a mapping), and the slot the instruction itself is about to read:
 * for a signal handler's interrupted pc, whose instruction is mapped and
 * about to run. */
static inline unsigned ct_insn_enter_target(uintptr_t pc, uintptr_t *to)
{
	const uint8_t *b = (const uint8_t *)pc;
	int32_t rel;
	*to = 0;
	if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
		b += 4; /* endbr64: the function's code follows */
	if (b[0] == 0xe8) {
		memcpy(&rel, b + 1, 4);
		*to = (uintptr_t)(b + 5) + (intptr_t)rel;
		return CT_INSN_ENTER_CALL;
	}
	if (b[0] == 0xf2 && b[1] == 0xff && b[2] == 0x25)
		b++;
	else if (b[0] != 0xff || (b[1] != 0x15 && b[1] != 0x25))
		return CT_INSN_ENTER_NONE;
	memcpy(&rel, b + 2, 4);
	memcpy(to, (const void *)((uintptr_t)(b + 6) + (intptr_t)rel), sizeof(*to));
	return b[1] == 0x15 ? CT_INSN_ENTER_CALL_SLOT : CT_INSN_ENTER_JMP_SLOT;
}

/* Does the instruction at pc enter the code [lo, hi)?  A call or jump
 * there, directly or through a slot, or a `call rel32` to a stub whose
 * `jmp *slot` goes there (a PLT stub; patch.c's jump stub near the
 * module): the hooks' calls of -pg, -mfentry, patched entries and
 * -finstrument-functions.  The call's target is read as pc is: it is
 * about to run.  (A call of a function whose first instruction calls
 * there is not: that is the program's call of a traced function.) */
static inline bool ct_insn_enters(uintptr_t pc, uintptr_t lo, uintptr_t hi)
{
	uintptr_t to;
	unsigned k = ct_insn_enter_target(pc, &to);
	if (k == CT_INSN_ENTER_NONE)
		return false;
	if (to >= lo && to < hi)
		return true;
	if (k != CT_INSN_ENTER_CALL)
		return false;
	return ct_insn_enter_target(to, &to) == CT_INSN_ENTER_JMP_SLOT && to >= lo && to < hi;
}

#endif
