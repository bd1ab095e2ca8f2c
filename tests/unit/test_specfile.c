/* SPDX-License-Identifier: MIT */
/* The args.spec grammar shared by record, the runtime and the reader
 * (include/calltrace/specfile.h): words, locations, formats, lines, and
 * every way a line can be wrong. */
#include <stdio.h>
#include <string.h>

#include "calltrace/specfile.h"
#include "check.h"

static struct ct_sf_field F(const char *s) {
	struct ct_sf_field f = {s, strlen(s)};
	return f;
}

static void
test_words(void)
{
	uint64_t v;
	int64_t sv;
	CHECK(ct_sf_num(F("0"), 10, 5, &v) && v == 0, "0");
	CHECK(ct_sf_num(F("18446744073709551615"), 10, UINT64_MAX, &v) && v == UINT64_MAX,
	      "the largest u64");
	CHECK(!ct_sf_num(F("18446744073709551616"), 10, UINT64_MAX, &v), "overflow");
	CHECK(!ct_sf_num(F("6"), 10, 5, &v), "above the maximum");
	CHECK(!ct_sf_num(F(""), 10, 5, &v) && !ct_sf_num(F("1a"), 10, 99, &v), "not a number");
	CHECK(ct_sf_num(F("1aF"), 16, UINT64_MAX, &v) && v == 0x1af, "hex");
	CHECK(ct_sf_snum(F("-9223372036854775808"), &sv) && sv == INT64_MIN, "the least i64");
	CHECK(ct_sf_snum(F("42"), &sv) && sv == 42, "42");
	CHECK(!ct_sf_snum(F("-"), &sv) && !ct_sf_snum(F("9223372036854775808"), &sv), "bad signed");

	char buf[32];
	CHECK(ct_sf_text(F("-"), buf, sizeof(buf)) == -1, "- is no text");
	CHECK(ct_sf_text(F("a%20b%25%1b"), buf, sizeof(buf)) == 5 && !strcmp(buf, "a b%\x1b"),
	      "escapes: '%s'", buf);
	CHECK(ct_sf_text(F("%2"), buf, sizeof(buf)) == 2 && !strcmp(buf, "%2"),
	      "a cut escape stays as it is");
	CHECK(ct_sf_text(F("%zz"), buf, sizeof(buf)) == 3 && !strcmp(buf, "%zz"), "not hex");
	CHECK(ct_sf_text(F("abcdef"), buf, 4) == 3 && !strcmp(buf, "abc"), "cut to the buffer");
	char inplace[] = "x%41y z";
	struct ct_sf_field f = {inplace, 5};
	CHECK(ct_sf_text(f, inplace, f.n + 1) == 3 && !strcmp(inplace, "xAy"), "in place");
}

static void test_items(void)
{
	struct ct_aloc l;
	CHECK(ct_sf_loc(F("r9"), false, &l) && l.kind == CT_AL_GP && l.reg == 5, "r9");
	CHECK(ct_sf_loc(F("xmm7"), false, &l) && l.kind == CT_AL_XMM && l.reg == 7, "xmm7");
	CHECK(!ct_sf_loc(F("xmm8"), false, &l) && !ct_sf_loc(F("xmm"), false, &l), "xmm8");
	CHECK(ct_sf_loc(F("sp+8:256"), false, &l) && l.kind == CT_AL_STACK && l.off == 8 &&
		      l.size == 256,
	      "stack");
	CHECK(!ct_sf_loc(F("sp+4:8"), false, &l) && !ct_sf_loc(F("sp+8:257"), false, &l) &&
		      !ct_sf_loc(F("sp+8:0"), false, &l) && !ct_sf_loc(F("sp+8"), false, &l) &&
		      !ct_sf_loc(F("sp+1048576:8"), false, &l),
	      "bad stack slots");
	/* aarch64 -pg's parameters: in the frame below the CFA, in callee-saved
	 * registers (and x6, x7 for its patched entries) */
	CHECK(ct_sf_loc(F("cfa-20:4"), false, &l) && l.kind == CT_AL_CFA && (int32_t)l.off == -20 &&
		      l.size == 4,
	      "cfa-20:4");
	CHECK(ct_sf_loc(F("cfa+16:256"), false, &l) && l.kind == CT_AL_CFA && l.off == 16 &&
		      l.size == 256,
	      "cfa+16:256");
	CHECK(!ct_sf_loc(F("cfa-4"), false, &l) && !ct_sf_loc(F("cfa-4:0"), false, &l) &&
		      !ct_sf_loc(F("cfa-4:257"), false, &l) && !ct_sf_loc(F("cfa4:4"), false, &l) &&
		      !ct_sf_loc(F("cfa-1048577:4"), false, &l) &&
		      !ct_sf_loc(F("cfa-:4"), false, &l),
	      "bad frame slots");
	CHECK(ct_sf_loc(F("x19"), false, &l) && l.kind == CT_AL_GP && l.reg == 19, "x19");
	CHECK(ct_sf_loc(F("x28"), false, &l) && l.kind == CT_AL_GP && l.reg == 28, "x28");
	CHECK(ct_sf_loc(F("x7"), false, &l) && l.kind == CT_AL_GP && l.reg == 7, "x7");
	CHECK(ct_sf_loc(F("d15"), false, &l) && l.kind == CT_AL_XMM && l.reg == 15, "d15");
	CHECK(!ct_sf_loc(F("x5"), false, &l) && !ct_sf_loc(F("x8"), false, &l) &&
		      !ct_sf_loc(F("x18"), false, &l) && !ct_sf_loc(F("x29"), false, &l) &&
		      !ct_sf_loc(F("x019"), false, &l) && !ct_sf_loc(F("d7"), false, &l) &&
		      !ct_sf_loc(F("d16"), false, &l) && !ct_sf_loc(F("x19"), true, &l),
	      "registers that are no argument's place");
	CHECK(ct_sf_item_words(CT_AF_INT, 32, 1, &(struct ct_aloc){.kind = CT_AL_CFA, .size = 4},
			       64) == 2 &&
		      ct_sf_item_words(CT_AF_INT, 32, 1,
				       &(struct ct_aloc){.kind = CT_AL_GP, .reg = 19}, 64) == 1,
	      "a frame slot takes its 8-byte words, a register a narrow value one");
	CHECK(ct_sf_loc(F("xmm1"), true, &l) && l.kind == CT_AL_RET && l.reg == 3, "ret xmm1");
	CHECK(!ct_sf_loc(F("rdi"), true, &l) && !ct_sf_loc(F("rax"), false, &l),
	      "argument and return registers apart");

	uint8_t fmt, bits;
	int32_t table;
	CHECK(ct_sf_fmt(F("d32"), &fmt, &bits, &table) && fmt == CT_AF_INT && bits == 32, "d32");
	CHECK(ct_sf_fmt(F("e16:3"), &fmt, &bits, &table) && fmt == CT_AF_ENUM && bits == 16 &&
		      table == 3,
	      "e16:3");
	CHECK(ct_sf_fmt(F("S:0"), &fmt, &bits, &table) && fmt == CT_AF_STRUCT && table == 0, "S:0");
	CHECK(ct_sf_fmt(F("k32:4"), &fmt, &bits, &table) && fmt == CT_AF_CONST && bits == 32 &&
		      table == CT_AK_SIGNAL,
	      "k32:4");
	CHECK(!ct_sf_fmt(F("k32:7"), &fmt, &bits, &table) &&
		      !ct_sf_fmt(F("k32"), &fmt, &bits, &table),
	      "a constant of an unknown kind accepted");
	CHECK(ct_sf_narrow(CT_AF_CONST, 32, 1, &(struct ct_aloc){CT_AL_GP, 1, 0, 0}),
	      "a 32-bit constant takes one word");
	CHECK(ct_sf_fmt(F("?"), &fmt, &bits, &table) && fmt == CT_AF_NONE, "?");
	CHECK(ct_sf_fmt(F("f32"), &fmt, &bits, &table) && fmt == CT_AF_FLOAT, "f32");
	static const char *const badf[] = {"d33", "f16", "e32",   "e32:", "S:", "S1:2",
					   "d",   "q32", "d32:1", "cc",   "",   "x0"};
	for (size_t i = 0; i < sizeof(badf) / sizeof(badf[0]); i++)
		CHECK(!ct_sf_fmt(F(badf[i]), &fmt, &bits, &table), "format '%s' accepted", badf[i]);

	struct ct_aloc gp = {CT_AL_GP, 0, 0, 0}, st = {CT_AL_STACK, 0, 24, 16};
	CHECK(ct_sf_narrow(CT_AF_INT, 32, 1, &gp) && !ct_sf_narrow(CT_AF_INT, 64, 1, &gp) &&
		      !ct_sf_narrow(CT_AF_INT, 32, 1, &st) &&
		      !ct_sf_narrow(CT_AF_PTR, 64, 1, &gp) &&
		      ct_sf_narrow(CT_AF_FLOAT, 32, 1, &gp) &&
		      !ct_sf_narrow(CT_AF_FLOAT, 64, 1, &gp),
	      "narrow");
	CHECK(ct_sf_item_words(CT_AF_INT, 32, 1, &gp, 64) == 1 &&
		      ct_sf_item_words(CT_AF_HEX, 64, 1, &st, 64) == 6 &&
		      ct_sf_item_words(CT_AF_STR, 64, 1, &gp, 64) == 2 + 1 + 16,
	      "words");
}

static const char good[] = "calltrace-args 1\n"
			   "strmax 32\n"
			   "enum 0\n"
			   "v -1 MINUS%20ONE\n"
			   "end\n"
			   "struct 0 16 point\n"
			   "m 8 d32 y -\n"
			   "end\n"
			   "\n"
			   "spec 0\n"
			   "a rdi,sp+16:8 e32:0 the%20name -\n"
			   "r rax S:0 - -\n"
			   "fmt %25d\n"
			   "variadic\n"
			   "end\n"
			   "module abcd /a%20path/x\n"
			   "f 1a30 0\n";

static void test_lines(void)
{
	struct ct_sf sf;
	struct ct_sf_line l;
	static const enum ct_sf_kind want[] = {CT_SF_STRMAX, CT_SF_ENUM,   CT_SF_VALUE,
					       CT_SF_END,    CT_SF_STRUCT, CT_SF_MEMBER,
					       CT_SF_END,    CT_SF_SPEC,   CT_SF_ARG,
					       CT_SF_RET,    CT_SF_FORM,   CT_SF_VARIADIC,
					       CT_SF_END,    CT_SF_MODULE, CT_SF_FUNC};
	size_t n = 0;
	int rc;
	ct_sf_start(&sf, good, sizeof(good) - 1);
	while ((rc = ct_sf_next(&sf, &l)) > 0) {
		CHECK(n < sizeof(want) / sizeof(want[0]) && l.kind == want[n], "line %u: kind %d",
		      sf.lineno, (int)l.kind);
		char buf[64];
		switch (l.kind) {
		case CT_SF_VALUE:
			CHECK(l.v == -1 && ct_sf_text(l.f[0], buf, sizeof(buf)) == 9 &&
				      !strcmp(buf, "MINUS ONE"),
			      "enumerator");
			break;
		case CT_SF_STRUCT:
			CHECK(l.n == 0 && l.n2 == 16 && ct_sf_is(l.f[0], "point"), "struct");
			break;
		case CT_SF_MEMBER:
			CHECK(l.n == 8 && l.fmt == CT_AF_INT && ct_sf_is(l.f[1], "-"), "member");
			break;
		case CT_SF_ARG:
			CHECK(l.nloc == 2 && l.loc[0].kind == CT_AL_GP &&
				      l.loc[1].kind == CT_AL_STACK && l.loc[1].off == 16 &&
				      l.fmt == CT_AF_ENUM && l.table == 0,
			      "argument");
			break;
		case CT_SF_RET:
			CHECK(l.nloc == 1 && l.loc[0].kind == CT_AL_RET && l.fmt == CT_AF_STRUCT,
			      "return value");
			break;
		case CT_SF_MODULE:
			CHECK(ct_sf_is(l.f[0], "abcd") &&
				      ct_sf_text(l.f[1], buf, sizeof(buf)) > 0 &&
				      !strcmp(buf, "/a path/x"),
			      "module");
			break;
		case CT_SF_FUNC:
			CHECK(l.n == 0x1a30 && l.n2 == 0, "function");
			break;
		default:
			break;
		}
		n++;
	}
	CHECK(rc == 0 && n == sizeof(want) / sizeof(want[0]),
	      "the whole file: rc %d, %zu lines, %s", rc, n, sf.why ? sf.why : "");

	/* each damaged file fails on the line named, with a reason */
	static const struct {
		const char *text;
		unsigned line;
	} bad[] = {
		{"calltrace-args 2\n", 1},
		{"calltrace-argsX 1\n", 1},
		{"calltrace-args 1\nend\n", 2},
		{"calltrace-args 1\nspec 0\na rdi d33 - -\nend\n", 3},
		{"calltrace-args 1\nspec 0\na rdi d32 - -\n", 3},
		{"calltrace-args 1\nspec 1\nend\n", 2},
		{"calltrace-args 1\nspec 0\na rdi e32:0 - -\nend\n", 3},
		{"calltrace-args 1\nspec 0\na rdi d32 -\nend\n", 3},
		{"calltrace-args 1\nspec 0\na rdi d32 - - extra\nend\n", 3},
		{"calltrace-args 1\nspec 0\na rdi,rsi,rdx d64 - -\nend\n", 3},
		{"calltrace-args 1\nspec 0\na - s - -\nend\n", 3},
		{"calltrace-args 1\nspec 0\nr rdi d32 - -\nend\n", 3},
		{"calltrace-args 1\nspec 0\nbogus\nend\n", 3},
		{"calltrace-args 1\nf 10 0\n", 2},
		{"calltrace-args 1\nmodule - /x\nf 10 0\n", 3},
		{"calltrace-args 1\nspec 0\nend\nmodule - /x\nf 1g 0\n", 5},
		{"calltrace-args 1\nmodule -\n", 2},
		{"calltrace-args 1\nstrmax 100000\n", 2},
		{"calltrace-args 1\nenum 0\nv x NAME\nend\n", 3},
		{"calltrace-args 1\nstruct 0 0 s\nend\n", 2},
		{"calltrace-args 1\nstruct 0 4097 s\nend\n", 2},
		{"calltrace-args 1\nstruct 0 8 s\nm 8 d32 - -\nend\n", 3},
		{"calltrace-args 1\nstruct 0 8 s\nm 0 s - -\nend\n", 3},
		{"calltrace-args 1\nwhat\n", 2},
	};
	ct_sf_start(&sf, "", 0);
	CHECK(ct_sf_next(&sf, &l) == 0, "an empty file is an empty table");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ct_sf_start(&sf, bad[i].text, strlen(bad[i].text));
		while ((rc = ct_sf_next(&sf, &l)) > 0)
			;
		CHECK(rc < 0 && sf.lineno == bad[i].line && sf.why && *sf.why,
		      "bad file %zu: rc %d at line %u (want %u): %s", i, rc, sf.lineno, bad[i].line,
		      sf.why ? sf.why : "");
	}
}

int main(void)
{
	test_words();
	test_items();
	test_lines();
	return check_done();
}
