/* SPDX-License-Identifier: MIT */
/* The runtime's aarch64 reading of -fno-plt calls (arch/aarch64/lcstub.h):
 * which general registers an instruction touches, on the words gcc and
 * clang emit between `adrp` and the GOT load (from aarch64-linux-gnu-as
 * and objdump -d), and the scan that tells a call through a GOT slot from
 * any other use.  Pure C: it runs on the build machine. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "arch/aarch64/lcstub.h"

/* the registers (x0-x30) that a64_touches says w touches, as a mask */
static uint32_t touched(uint32_t w)
{
	uint32_t m = 0;
	for (unsigned r = 0; r < 31; r++)
		if (a64_touches(w, r))
			m |= 1u << r;
	return m;
}

#define R(n) (1u << (n))

static uint32_t page[1024] __attribute__((aligned(4096)));

/* adrp x1, <this page>; [mid]; ldr x1, [x1, #8*9]; blr x1: the slot's use */
static unsigned scan(uint32_t mid)
{
	memset(page, 0, sizeof(page));
	page[100] = 0x90000001; /* adrp x1, . */
	page[101] = mid;
	page[102] = 0xf9400000u | 9u << 10 | 1u << 5 | 1; /* ldr x1, [x1, #72] */
	page[103] = 0xd63f0020;                           /* blr x1 */
	struct gotuse g = {(uintptr_t)page + 72, 0};
	ct_lc_scan_code((const uint8_t *)&page[100], (const uint8_t *)&page[104], &g, 1);
	return g.use;
}

int main(void)
{
	static const struct {
		const char *what;
		uint32_t w, regs;
	} ls[] = {
		{"ldr x2, [sp, #8]", 0xf94007e2, R(2)},
		{"stp x29, x30, [sp, #-32]!", 0xa9be7bfd, R(29) | R(30)},
		{"ldp x19, x1, [sp, #16]", 0xa94107f3, R(19) | R(1)},
		{"ldur x3, [x29, #-20]", 0xf85ec3a3, R(3) | R(29)},
		{"ldr x4, [x5, #16]!", 0xf8410ca4, R(4) | R(5)},
		{"ldr x6, <literal>", 0x58000026, R(6)},
		{"ldr x1, [sp, #8]", 0xf94007e1, R(1)},
		{"ldr x7, [x1, x8]", 0xf8686827, R(7) | R(1) | R(8)},
		{"ldr x9, [x10, x1]", 0xf8616949, R(9) | R(10) | R(1)},
		{"str w1, [sp, #4]", 0xb90007e1, R(1)},
		{"stp x2, x3, [sp, #32]", 0xa9020fe2, R(2) | R(3)},
	};
	for (size_t i = 0; i < sizeof(ls) / sizeof(ls[0]); i++)
		CHECK(touched(ls[i].w) == ls[i].regs, "%s: touches %#x, not %#x", ls[i].what,
		      touched(ls[i].w), ls[i].regs);

	/* a load whose offset reads as x1 in the register fields does not hide
	 * the call; one that writes x1 does */
	CHECK(scan(0xf94007e2) == 1, "ldr x2, [sp, #8] between: a call");
	CHECK(scan(0xa9020fe2) == 1, "stp x2, x3, [sp, #32] between: a call");
	CHECK(scan(0xaa0403e3) == 1, "mov x3, x4 between: a call");
	CHECK(scan(0xf94007e1) == 0, "ldr x1, [sp, #8] between: not followed");
	return check_done();
}
