/* SPDX-License-Identifier: MIT */
/* The runtime's x86-64 instruction decoding (arch/x86_64/insn.h), on byte
 * sequences laid out as the compilers emit them. */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "insn.h"

/* code is copied into the middle of a page, so that reads before it stay
 * on the page */
static uint8_t page[8192] __attribute__((aligned(4096)));

static uintptr_t put(const uint8_t *code, size_t n)
{
	memset(page, 0xcc, sizeof(page));
	memcpy(page + 2048, code, n);
	return (uintptr_t)(page + 2048);
}

static void test_entries(void)
{
	int pushed;
	/* endbr64; call *__fentry__@GOTPCREL(%rip) */
	static const uint8_t f1[] = {0xf3, 0x0f, 0x1e, 0xfa, 0xff, 0x15, 1, 2, 3, 4, 0x90};
	uintptr_t a = put(f1, sizeof(f1));
	CHECK(ct_insn_fentry_fn(a + 10, 0, &pushed) == a && !pushed, "endbr + ff 15");
	/* the linker's relaxed form: addr32 call (67 e8) */
	static const uint8_t f2[] = {0x67, 0xe8, 1, 2, 3, 4, 0x90};
	a = put(f2, sizeof(f2));
	CHECK(ct_insn_fentry_fn(a + 6, 0, &pushed) == a && !pushed, "67 e8");
	/* GNU C nested function: push %r10 before the call */
	static const uint8_t f3[] = {0x41, 0x52, 0xff, 0x15, 1, 2, 3, 4, 0x41, 0x5a};
	a = put(f3, sizeof(f3));
	CHECK(ct_insn_fentry_fn(a + 8, 0, &pushed) == a && pushed, "push %%r10");
	/* a patched entry: e8 right at the entry, no push taken for one */
	static const uint8_t f4[] = {0xe8, 1, 2, 3, 4, 0x90};
	a = put(f4, sizeof(f4));
	CHECK(ct_insn_fentry_fn(a + 5, 2, &pushed) == a && !pushed, "patched e8");

	/* mcount: endbr64; push %rbp; mov %rsp,%rbp; push %rbx; call mcount */
	static const uint8_t m1[] = {0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89,
				     0xe5, 0x53, 0xe8, 1,    2,    3,    4};
	a = put(m1, sizeof(m1));
	CHECK(ct_insn_prologue_before(a + sizeof(m1)) == a, "mcount after the prologue");
	static const uint8_t m2[] = {0x55, 0x48, 0x8b, 0xec, 0xe8, 1, 2, 3, 4};
	a = put(m2, sizeof(m2));
	CHECK(ct_insn_prologue_before(a + sizeof(m2)) == a, "48 8b ec");
	/* no prologue within reach: the call itself */
	static const uint8_t m3[] = {0x90, 0xe8, 1, 2, 3, 4};
	a = put(m3, sizeof(m3));
	CHECK(ct_insn_prologue_before(a + 6) == a + 1, "no prologue");
}

static void test_nops(void)
{
	static const struct {
		uint8_t b[12];
		unsigned len;
	} n[] = {
		{{0x90}, 1},
		{{0x66, 0x90}, 2},
		{{0x0f, 0x1f, 0x00}, 3},
		{{0x0f, 0x1f, 0x40, 0x00}, 4},
		{{0x0f, 0x1f, 0x44, 0x00, 0x00}, 5},
		{{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00}, 6},
		{{0x0f, 0x1f, 0x80, 0, 0, 0, 0}, 7},
		{{0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, 8},
		{{0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0}, 0}, /* cs: not ours */
		{{0x0f, 0x1f, 0xc0}, 0},                            /* mod 3 */
		{{0x0f, 0x1f, 0x48, 0x00}, 0},                      /* reg 1: not a nop */
		{{0xe8, 0, 0, 0, 0}, 0},
	};
	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		CHECK(ct_insn_nop_len(n[i].b) == n[i].len, "nop %zu: %u, want %u", i,
		      ct_insn_nop_len(n[i].b), n[i].len);
	static const uint8_t five1[] = {0x90, 0x90, 0x90, 0x90, 0x90, 0x55};
	static const uint8_t three2[] = {0x0f, 0x1f, 0x00, 0x66, 0x90, 0x55};
	static const uint8_t four[] = {0x90, 0x90, 0x90, 0x90, 0x55, 0x55};
	static const uint8_t over[] = {0x90, 0x90, 0x90, 0x0f, 0x1f, 0x40, 0x00, 0x55};
	CHECK(ct_insn_nops_cover5(five1) == 5 && ct_insn_nops_cover5(three2) == 5 &&
		      ct_insn_nops_cover5(four) == 0 && ct_insn_nops_cover5(over) == 7,
	      "cover 5");
	uintptr_t a = put(three2, sizeof(three2));
	CHECK(ct_insn_nops_exactly(a, a + 5) && !ct_insn_nops_exactly(a, a + 4) &&
		      !ct_insn_nops_exactly(a, a + 6),
	      "exactly");
}

static void test_calls(void)
{
	uintptr_t to;
	unsigned len;
	static const uint8_t c1[] = {0xff, 0x15, 0x10, 0, 0, 0};
	uintptr_t a = put(c1, sizeof(c1));
	CHECK(ct_insn_call_at(a, &to, &len) == CT_INSN_CALL_SLOT && to == a + 6 + 0x10 && len == 6,
	      "ff 15");
	static const uint8_t c2[] = {0xe8, 0xfb, 0xff, 0xff, 0xff};
	a = put(c2, sizeof(c2));
	CHECK(ct_insn_call_at(a, &to, &len) == CT_INSN_CALL_REL && to == a && len == 5,
	      "e8 back to itself");
	static const uint8_t c3[] = {0xff, 0x25, 0, 0, 0, 0};
	a = put(c3, sizeof(c3));
	CHECK(ct_insn_call_at(a, &to, &len) == CT_INSN_CALL_NONE, "a jmp is no call");

	/* PLT stubs: classic (jmp *slot), .plt.sec with IBT (endbr; bnd jmp) */
	static const uint8_t p1[16] = {0xff, 0x25, 0x20, 0, 0, 0, 0x68, 0, 0, 0, 0, 0xe9};
	a = put(p1, sizeof(p1));
	CHECK(ct_insn_plt_slot(a, a, a + 64) == a + 6 + 0x20, "plt");
	static const uint8_t p2[16] = {0xf3, 0x0f, 0x1e, 0xfa, 0xf2, 0xff, 0x25, 0x08, 0, 0, 0};
	a = put(p2, sizeof(p2));
	CHECK(ct_insn_plt_slot(a, a, a + 64) == a + 11 + 8, "plt.sec");
	CHECK(ct_insn_plt_slot(a, a + 1, a + 64) == 0 && ct_insn_plt_slot(a, a, a + 8) == 0,
	      "outside the module");
	static const uint8_t p3[16] = {0x90, 0xff, 0x25};
	a = put(p3, sizeof(p3));
	CHECK(ct_insn_plt_slot(a, a, a + 64) == 0, "not a stub");
}

/* record --count --sample's test of a sample's pc: at the instruction that
 * enters the runtime's code [lo, hi)?  (the page's second half stands for
 * it; slots hold their targets) */
static void test_enters(void)
{
	uint8_t code[64];
	uintptr_t a, lo, hi, in;
	memset(page, 0xcc, sizeof(page));
	lo = (uintptr_t)(page + 4096);
	hi = lo + 4096;
	in = lo + 100;
#define AT(off) ((uintptr_t)(page + 2048 + (off)))
#define REL(from, len, to) ((int32_t)(uint32_t)((uintptr_t)(to) - ((uintptr_t)(from) + (len))))
	/* call rel32 straight in; after an endbr64 */
	int32_t r = REL(AT(0), 5, in);
	code[0] = 0xe8;
	memcpy(code + 1, &r, 4);
	memcpy(page + 2048, code, 5);
	CHECK(ct_insn_enters(AT(0), lo, hi), "call rel32 into the runtime");
	CHECK(!ct_insn_enters(AT(0), lo + 200, hi), "call rel32 elsewhere");
	static const uint8_t endbr[4] = {0xf3, 0x0f, 0x1e, 0xfa};
	memcpy(page + 2048, endbr, 4);
	r = REL(AT(4), 5, in);
	memcpy(page + 2052, code, 1);
	memcpy(page + 2053, &r, 4);
	CHECK(ct_insn_enters(AT(0), lo, hi), "endbr64; call rel32");
	/* call *slot(%rip) and a patch.c jump stub (jmp *0(%rip); .quad) */
	memset(page, 0xcc, 4096);
	static const uint8_t cs[6] = {0xff, 0x15, 0x10, 0, 0, 0};
	memcpy(page + 2048, cs, 6);
	memcpy(page + 2048 + 6 + 0x10, &in, 8);
	CHECK(ct_insn_enters(AT(0), lo, hi), "call *slot into the runtime");
	static const uint8_t stub[6] = {0xff, 0x25, 0, 0, 0, 0};
	memcpy(page + 2048 + 100, stub, 6);
	memcpy(page + 2048 + 106, &in, 8);
	CHECK(ct_insn_enters(AT(100), lo, hi), "a jump stub");
	/* a call to that stub (the patched entry's call); to a bnd PLT stub */
	code[0] = 0xe8;
	r = REL(AT(200), 5, AT(100));
	memcpy(code + 1, &r, 4);
	memcpy(page + 2048 + 200, code, 5);
	CHECK(ct_insn_enters(AT(200), lo, hi), "call to a jump stub into the runtime");
	static const uint8_t plt[11] = {0xf3, 0x0f, 0x1e, 0xfa, 0xf2, 0xff, 0x25, 0x20, 0, 0, 0};
	memcpy(page + 2048 + 300, plt, 11);
	memcpy(page + 2048 + 311 + 0x20, &in, 8);
	r = REL(AT(400), 5, AT(300));
	memcpy(code + 1, &r, 4);
	memcpy(page + 2048 + 400, code, 5);
	CHECK(ct_insn_enters(AT(300), lo, hi) && ct_insn_enters(AT(400), lo, hi),
	      "endbr64; bnd jmp *slot, and a call to it");
	/* a call to a function whose first instruction calls the runtime (the
	 * program's call of a traced -fno-plt -mfentry function) is not */
	memcpy(page + 2048 + 500, cs, 6);
	memcpy(page + 2048 + 506 + 0x10, &in, 8);
	r = REL(AT(600), 5, AT(500));
	memcpy(code + 1, &r, 4);
	memcpy(page + 2048 + 600, code, 5);
	CHECK(!ct_insn_enters(AT(600), lo, hi), "a call to a traced function");
	/* nor a ret, a jmp rel32, or a stub going elsewhere */
	page[2048 + 700] = 0xc3;
	CHECK(!ct_insn_enters(AT(700), lo, hi), "ret");
	CHECK(!ct_insn_enters(AT(100), lo + 200, hi), "a stub elsewhere");
	/* a 1-byte instruction at the end of a mapping: nothing read past it */
	uint8_t *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED, "mmap");
	if (m != MAP_FAILED) {
		munmap(m + 4096, 4096);
		m[4095] = 0xc3;
		a = (uintptr_t)(m + 4095);
		CHECK(!ct_insn_enters(a, lo, hi), "ret at a mapping's end");
		munmap(m, 4096);
	}
#undef AT
#undef REL
}

int main(void)
{
	test_entries();
	test_nops();
	test_calls();
	test_enters();
	return check_done();
}
