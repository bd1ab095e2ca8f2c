/* SPDX-License-Identifier: MIT */
/* The runtime's aarch64 decoding of -pg prologues (arch/aarch64/insn.h):
 * the function that called _mcount, and where its frame record lies from
 * its entry stack pointer, on the words gcc 12 and clang 14 emit (copied
 * from aarch64-linux-gnu-objdump -d of their output).  Pure C: it runs on
 * the build machine. */
#include <stdint.h>
#include <string.h>

#include "arch/aarch64/insn.h"
#include "check.h"

static uint32_t page[2048] __attribute__((aligned(4096)));

/* code in the middle of the page, after the end of a function before it
 * (ret) and nops of padding; returns the address of its first word */
static uintptr_t put(const uint32_t *code, size_t n)
{
	memset(page, 0, sizeof(page));
	page[500] = 0xd65f03c0; /* ret */
	page[501] = 0xd503201f; /* nop */
	memcpy(&page[502], code, n * 4);
	return (uintptr_t)&page[502];
}

/* the word index of the bl _mcount in code */
static size_t bl_at(const uint32_t *code, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((code[i] & 0xfc000000u) == 0x94000000u)
			return i;
	return n;
}

static void one(const char *what, const uint32_t *code, size_t n, intptr_t want_off)
{
	uintptr_t fn = put(code, n);
	uintptr_t call = fn + 4 * bl_at(code, n);
	CHECK(ct_insn_prologue_before(call + 4) == fn, "%s: the function's start", what);
	intptr_t off = ct_insn_a64_fp_off(fn, call);
	CHECK(off == want_off, "%s: x29 at entry sp %+ld, want %+ld", what, (long)off,
	      (long)want_off);
}

int main(void)
{
	/* gcc -pg -O0: stp x29, x30, [sp, #-48]!; mov x29, sp; the arguments
	 * stored; mov x0, x30; bl _mcount */
	static const uint32_t gcc0[] = {0xa9bd7bfd, 0x910003fd, 0xaa1e03e3, 0xb9002fe0,
					0xb9002be1, 0xf90013e2, 0xfd000fe0, 0xaa0303fe,
					0xd50320ff, 0xaa1e03e0, 0x94000000, 0xb9402fe0};
	one("gcc -O0", gcc0, sizeof(gcc0) / 4, -48);
	/* gcc -pg -O2, a 5040-byte frame: mov x12, #5040; sub sp, sp, x12;
	 * stp x29, x30, [sp]; mov x29, sp; ... */
	static const uint32_t gccbig[] = {0xd282760c, 0xcb2c63ff, 0xa9007bfd, 0x910003fd,
					  0xf9000bf3, 0xd50320ff, 0x2a0003f3, 0xaa1e03e0,
					  0x94000000, 0x2f00e400};
	one("gcc -O2, big frame", gccbig, sizeof(gccbig) / 4, -5040);
	/* clang -pg -O2: str d8, [sp, #-48]!; stp x29, x30, [sp, #8];
	 * add x29, sp, #8; ...; bl _mcount (no mov x0, x30) */
	static const uint32_t clang2[] = {0xfc1d0fe8, 0xa900fbfd, 0x910023fd, 0xf9000ff5,
					  0xa9024ff4, 0x1e604008, 0xaa0203f3, 0x2a0103f4,
					  0x2a0003f5, 0x94000000, 0x1e604100};
	one("clang -O2", clang2, sizeof(clang2) / 4, -40);
	/* pac-ret: paciasp first, the saved link register is signed: not
	 * followed (1) */
	static const uint32_t pac[] = {0xd503233f, 0xa9bf7bfd, 0x910003fd,
				       0xaa1e03e0, 0x94000000, 0xd50323bf};
	one("paciasp", pac, sizeof(pac) / 4, 1);
	/* sp from another register (mov sp, x1: add sp, x1, #0): not followed */
	static const uint32_t movsp[] = {0xa9bf7bfd, 0x9100003f, 0x910003fd, 0xaa1e03e0,
					 0x94000000};
	one("mov sp, x1", movsp, sizeof(movsp) / 4, 1);
	/* no frame pointer set up before the call: not followed */
	static const uint32_t nofp[] = {0xa9bf7bfd, 0xaa1e03e0, 0x94000000};
	one("no mov x29, sp", nofp, sizeof(nofp) / 4, 1);
	return check_done();
}
