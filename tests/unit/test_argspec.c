/* SPDX-License-Identifier: MIT */
/* Argument specs: -A/-R parsing, the args.spec file, payload checks and
 * value formatting (lib/args/argspec.c). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "calltrace/format.h"
#include "check.h"

static struct ct_aspec parse_ok(const char *opt, bool ret, const char *want_re)
{
	struct ct_aspec s;
	char *re = NULL;
	struct ct_error e = {""};
	const char *err = e.msg;
	memset(&s, 0, sizeof(s));
	int rc = ct_aspec_from_opt(opt, ret, &re, &s, &e);
	CHECK(rc == 0, "%s: %s", opt, err);
	CHECK(re && !strcmp(re, want_re), "%s: regex '%s'", opt, re ? re : "(null)");
	free(re);
	return s;
}

static void parse_bad(const char *opt, bool ret, const char *want_in_msg)
{
	struct ct_aspec s;
	char *re = NULL;
	struct ct_error e = {""};
	const char *err = e.msg;
	memset(&s, 0, sizeof(s));
	int rc = ct_aspec_from_opt(opt, ret, &re, &s, &e);
	CHECK(rc < 0, "%s accepted", opt);
	CHECK(strstr(err, want_in_msg), "%s: message '%s' lacks '%s'", opt, err, want_in_msg);
	CHECK(!re, "%s: regex left allocated", opt);
	ct_aspec_free(&s);
}

static void test_parse(void)
{
	struct ct_aspec s = parse_ok("^gcd$@arg1/d,arg2/u64,arg7/x,fparg2/f32", false, "^gcd$");
	CHECK(s.nargs == 4, "%zu items", s.nargs);
	CHECK(s.args[0].fmt == CT_AF_INT && s.args[0].bits == 32 &&
		      s.args[0].loc[0].kind == CT_AL_GP && s.args[0].loc[0].reg == 0,
	      "arg1/d");
	CHECK(s.args[1].fmt == CT_AF_UINT && s.args[1].bits == 64 && s.args[1].loc[0].reg == 1,
	      "arg2/u64");
	CHECK(s.args[2].fmt == CT_AF_HEX && s.args[2].loc[0].kind == CT_AL_STACK &&
		      s.args[2].loc[0].off == 8 && s.args[2].loc[0].size == 8,
	      "arg7 is the first stack slot, at sp+8");
	CHECK(s.args[3].fmt == CT_AF_FLOAT && s.args[3].bits == 32 &&
		      s.args[3].loc[0].kind == CT_AL_XMM && s.args[3].loc[0].reg == 1,
	      "fparg2/f32 is xmm1");
	ct_aspec_free(&s);

	s = parse_ok("f@arg9/s", false, "f");
	CHECK(s.args[0].fmt == CT_AF_STR && s.args[0].loc[0].off == 8 + 8 * 2, "arg9 at sp+24");
	ct_aspec_free(&s);

	s = parse_ok("x@retval/f32", true, "x");
	CHECK(s.nret == 1 && s.ret[0].loc[0].kind == CT_AL_RET && s.ret[0].loc[0].reg == 2,
	      "retval/f is xmm0");
	ct_aspec_free(&s);

	s = parse_ok("a@b@fmt=\"%d, %s @ %lx %f %%\"", false, "a@b");
	CHECK(s.nargs == 4 && s.fmt && !strcmp(s.fmt, "%d, %s @ %lx %f %%"), "fmt form");
	CHECK(s.args[2].fmt == CT_AF_HEX && s.args[2].bits == 64 && s.args[2].loc[0].reg == 2,
	      "%%lx is the third integer argument");
	CHECK(s.args[3].fmt == CT_AF_FLOAT && s.args[3].loc[0].kind == CT_AL_XMM &&
		      s.args[3].loc[0].reg == 0,
	      "%%f is the first floating-point argument");
	ct_aspec_free(&s);

	parse_bad("gcd", false, "expected FUNC_REGEX@");
	parse_bad("@arg1", false, "expected FUNC_REGEX@");
	parse_bad("gcd@arg0", false, "unknown item");
	parse_bad("gcd@arg1/q", false, "unknown format");
	parse_bad("gcd@arg1/d12", false, "unknown format");
	parse_bad("gcd@arg1/f", false, "use fpargN/f");
	parse_bad("gcd@fparg9/f", false, "unknown item");
	parse_bad("gcd@fparg1/d", false, "fparg");
	parse_bad("gcd@retval", false, "unknown item");
	parse_bad("gcd@arg1", true, "unknown item");
	parse_bad("gcd@fmt=\"%d", false, "unterminated");
	parse_bad("gcd@fmt=\"%q\"", false, "unsupported conversion");
	parse_bad("gcd@arg1,fmt=\"%d\"", false, "cannot be mixed");
	parse_bad("gcd@retval,retval", true, "one return value");
}

/* a payload builder */
struct pl {
	uint32_t w[CT_ARGS_MAX_WORDS];
	uint32_t n;
};

static void pl64(struct pl *p, uint64_t v)
{
	p->w[p->n++] = (uint32_t)v;
	p->w[p->n++] = (uint32_t)(v >> 32);
}

/* a value of at most 32 bits from a register: one word */
static void pl32(struct pl *p, uint32_t v)
{
	p->w[p->n++] = v;
}

static void plstr(struct pl *p, uint64_t ptr, const char *s, uint32_t flags)
{
	pl64(p, ptr);
	uint32_t len = s ? (uint32_t)strlen(s) : 0;
	p->w[p->n++] = len | flags;
	memset(&p->w[p->n], 0, (len + 3) / 4 * 4);
	if (s)
		memcpy(&p->w[p->n], s, len);
	p->n += (len + 3) / 4;
}

static const char *fake_sym(void *ctx, uint64_t addr)
{
	(void)ctx;
	return addr == 0x401000 ? "callback" : NULL;
}

static void fmt_check(struct ct_argtab *t, const char *opt, bool ret, const struct pl *p,
		      const char *want)
{
	struct ct_aspec s;
	char *re = NULL;
	struct ct_error e = {""};
	const char *err = e.msg;
	memset(&s, 0, sizeof(s));
	if (ct_aspec_from_opt(opt, ret, &re, &s, &e) < 0) {
		CHECK(0, "%s: %s", opt, err);
		return;
	}
	free(re);
	uint32_t idx = ct_argtab_intern(t, &s);
	ct_aspec_free(&s);
	CHECK(ct_args_payload_ok(t, idx, ret, p->w, p->n), "%s: payload of %u words refused", opt,
	      p->n);
	CHECK(!ct_args_payload_ok(t, idx, ret, p->w, p->n + 2), "%s: longer payload accepted", opt);
	if (p->n)
		CHECK(!ct_args_payload_ok(t, idx, ret, p->w, p->n - 1),
		      "%s: short payload accepted", opt);
	struct ct_callargs a = {.spec = idx};
	if (ret) {
		a.has_ret = true, a.ret = p->w, a.nret = p->n;
	} else {
		a.has_args = true, a.args = p->w, a.nargs = p->n;
	}
	char buf[512];
	ct_args_format(t, &a, ret, fake_sym, NULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, want), "%s: '%s', want '%s'", opt, buf, want);
}

static uint64_t dbl(double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	return v;
}

/* argument locations, the reference tool's spelling (doc/args.md) */
static void test_locations(void)
{
	struct ct_aspec s = parse_ok("f@arg1/i32%rdi,arg2/x%r9,fparg1/32%xmm3,arg3/s%stack+2,"
				     "fparg2/80%stack1,arg4%stack+10",
				     false, "f");
	CHECK(s.nargs == 6, "%zu items", s.nargs);
	CHECK(s.args[0].fmt == CT_AF_INT && s.args[0].bits == 32 &&
		      s.args[0].loc[0].kind == CT_AL_GP && s.args[0].loc[0].reg == 0,
	      "arg1/i32%%rdi");
	CHECK(s.args[1].fmt == CT_AF_HEX && s.args[1].loc[0].kind == CT_AL_GP &&
		      s.args[1].loc[0].reg == 5,
	      "arg2/x%%r9");
	CHECK(s.args[2].fmt == CT_AF_FLOAT && s.args[2].bits == 32 &&
		      s.args[2].loc[0].kind == CT_AL_XMM && s.args[2].loc[0].reg == 3,
	      "fparg1/32%%xmm3");
	CHECK(s.args[3].fmt == CT_AF_STR && s.args[3].loc[0].kind == CT_AL_STACK &&
		      s.args[3].loc[0].off == 16 && s.args[3].loc[0].size == 8,
	      "arg3/s%%stack+2: off %u", s.args[3].loc[0].off);
	CHECK(s.args[4].fmt == CT_AF_FLOAT && s.args[4].bits == 80 &&
		      s.args[4].loc[0].kind == CT_AL_STACK && s.args[4].loc[0].off == 8 &&
		      s.args[4].loc[0].size == 16,
	      "fparg2/80%%stack1");
	CHECK(s.args[5].loc[0].kind == CT_AL_STACK && s.args[5].loc[0].off == 80,
	      "arg4%%stack+10: off %u", s.args[5].loc[0].off);
	ct_aspec_free(&s);
	s = parse_ok("f@retval/x64%rdx", true, "f");
	CHECK(s.nret == 1 && s.ret[0].loc[0].kind == CT_AL_RET && s.ret[0].loc[0].reg == 1,
	      "retval%%rdx");
	ct_aspec_free(&s);
	/* an aarch64 program's names (argregs.h), by the program's machine */
	ct_aspec_set_machine(183 /* EM_AARCH64 */);
	s = parse_ok("f@arg1/d%x7,fparg1/f%d3,arg8/x,fparg2/f32%v2", false, "f");
	CHECK(s.nargs == 4 && s.args[0].loc[0].kind == CT_AL_GP && s.args[0].loc[0].reg == 7 &&
		      s.args[1].loc[0].kind == CT_AL_XMM && s.args[1].loc[0].reg == 3 &&
		      s.args[2].loc[0].kind == CT_AL_GP && s.args[2].loc[0].reg == 7 &&
		      s.args[3].loc[0].kind == CT_AL_XMM && s.args[3].loc[0].reg == 2,
	      "aarch64: x7, d3, arg8 in x7, v2");
	ct_aspec_free(&s);
	s = parse_ok("f@retval/x64%x1", true, "f");
	CHECK(s.nret == 1 && s.ret[0].loc[0].kind == CT_AL_RET && s.ret[0].loc[0].reg == 1,
	      "aarch64: retval%%x1");
	ct_aspec_free(&s);
	parse_bad("f@arg1%rdi", false, "unknown register '%rdi' (x0..x7 v0..v7");
	parse_bad("f@retval%rax", true, "unknown register '%rax' (a return value is in x0 x1");
	parse_bad("f@arg9", false, "after the eighth are on the stack");
	parse_bad("f@arg1%stack+1", false, "%stack is not available for an aarch64 program");
	ct_aspec_set_machine(62 /* EM_X86_64 */);
	parse_bad("f@arg1%x0", false, "unknown register '%x0'");
	parse_bad("f@arg1%rzz", false, "unknown register '%rzz'");
	parse_bad("f@arg1%stack+0", false, "bad stack slot");
	parse_bad("f@arg1%stack+", false, "bad stack slot");
	parse_bad("f@arg1%stackx", false, "bad stack slot");
	parse_bad("f@fparg1/80", false, "a long double (/80) is passed on the stack");
	parse_bad("f@fparg1/80%xmm1", false, "a long double (/80) is passed on the stack");
	parse_bad("f@retval%rdi", true, "unknown register '%rdi'");
	parse_bad("f@retval%stack+1", true, "not on the stack");
}

static void test_format(void)
{
	struct ct_argtab t;
	ct_argtab_init(&t);
	struct pl p = {.n = 0};
	pl32(&p, 0x30);
	pl32(&p, 0x12);
	fmt_check(&t, "gcd@arg1/d,arg2", false, &p, "48, 18");
	p.n = 0;
	pl32(&p, 0xfffffffb); /* the high bits of a narrower value do not show */
	pl32(&p, 0x1234fb2e);
	pl64(&p, (uint64_t)-123456789012LL);
	pl32(&p, 4000000000u);
	pl32(&p, 0xdeadbeef);
	fmt_check(&t, "f@arg1/d8,arg2/d16,arg3/d64,arg4/u,arg5/x", false, &p,
		  "-5, -1234, -123456789012, 4000000000, 0xdeadbeef");
	p.n = 0;
	pl32(&p, 'a');
	pl32(&p, '\n');
	pl32(&p, 0x7f);
	pl64(&p, 0x401000);
	pl64(&p, 0);
	pl64(&p, 0x401001);
	fmt_check(&t, "f@arg1/c,arg2/c,arg3/c,arg4/p,arg5/p,arg6/p", false, &p,
		  "'a', '\\n', '\\x7f', callback, NULL, 0x401001");
	p.n = 0;
	plstr(&p, 0x1000, "say \"hi\"\t", 0);
	plstr(&p, 0x10, NULL, CT_ARGS_STR_BAD);
	plstr(&p, 0, NULL, 0);
	plstr(&p, 0x2000, "abcd", CT_ARGS_STR_TRUNC);
	fmt_check(&t, "f@arg1/s,arg2/s,arg3/s,arg4/s", false, &p,
		  "\"say \\\"hi\\\"\\t\", <bad pointer 0x10>, NULL, \"abcd\"...");
	p.n = 0;
	pl64(&p, dbl(2.5));
	float f = 0.1f;
	uint32_t fu;
	memcpy(&fu, &f, 4);
	pl32(&p, fu);
	pl64(&p, dbl(-1e300));
	pl64(&p, dbl(3));
	fmt_check(&t, "f@fparg1/f,fparg2/f32,fparg3/f,fparg4/f64", false, &p,
		  "2.5, 0.1, -1e+300, 3.0");
	p.n = 0;
	pl32(&p, (uint32_t)-7);
	plstr(&p, 0x1000, "str", 0);
	pl32(&p, 255);
	pl64(&p, dbl(3.5));
	fmt_check(&t, "f@fmt=\"a=%d s=%-5s| x=%#x d=%.2f %%\"", false, &p,
		  "a=-7 s=str  | x=0xff d=3.50 %");
	p.n = 0;
	pl32(&p, 6);
	fmt_check(&t, "f@retval/d", true, &p, "6");
	fmt_check(&t, "f@fmt=\"returns %u\"", true, &p, "returns 6");
	p.n = 0;
	plstr(&p, 0x1000, "two", 0);
	fmt_check(&t, "f@retval/s", true, &p, "\"two\"");
	ct_argtab_free(&t);
}

/* the C library's constants (-a's prototypes for open, mmap, kill, ...;
 * Linux x86-64 values) */
static void test_consts(void)
{
	struct ct_argtab t;
	ct_argtab_init(&t);
	struct pl p = {.n = 0};
	const char *open_spec = "open@arg1/s,arg2/oflags,arg3/mode";
	/* without O_CREAT or O_TMPFILE the mode is not read: left out */
	plstr(&p, 0x1000, "/dev/null", 0);
	pl32(&p, 02000000); /* O_RDONLY|O_CLOEXEC */
	pl32(&p, 0x3);      /* whatever rdx held */
	fmt_check(&t, open_spec, false, &p, "\"/dev/null\", O_RDONLY|O_CLOEXEC");
	p.n = 0;
	plstr(&p, 0x1000, "f", 0);
	pl32(&p, 01101); /* O_WRONLY|O_CREAT|O_TRUNC */
	pl32(&p, 0644);
	fmt_check(&t, open_spec, false, &p, "\"f\", O_WRONLY|O_CREAT|O_TRUNC, 0644");
	p.n = 0;
	plstr(&p, 0x1000, ".", 0);
	pl32(&p, 020200002); /* O_RDWR|O_TMPFILE (which includes O_DIRECTORY) */
	pl32(&p, 0600);
	fmt_check(&t, open_spec, false, &p, "\".\", O_RDWR|O_TMPFILE, 0600");
	p.n = 0;
	plstr(&p, 0x1000, ".", 0);
	pl32(&p, 0200000 | 04010000 | 0x40000000); /* O_DIRECTORY, O_SYNC, unknown */
	pl32(&p, 0777);
	fmt_check(&t, open_spec, false, &p, "\".\", O_RDONLY|O_SYNC|O_DIRECTORY|0x40000000");
	p.n = 0;
	pl32(&p, (uint32_t)-100);
	plstr(&p, 0x1000, "f", 0);
	pl32(&p, 010001); /* O_WRONLY|O_DSYNC */
	pl32(&p, 0x55);
	fmt_check(&t, "openat@arg1/dirfd,arg2/s,arg3/oflags,arg4/mode", false, &p,
		  "AT_FDCWD, \"f\", O_WRONLY|O_DSYNC");
	p.n = 0;
	pl32(&p, 3);
	pl32(&p, 0755);
	fmt_check(&t, "f@arg1/dirfd,arg2/mode", false, &p, "3, 0755");
	p.n = 0;
	pl32(&p, 0);
	pl32(&p, 7);
	pl32(&p, 0x10);
	fmt_check(&t, "f@arg1/prot,arg2/prot,arg3/prot", false, &p,
		  "PROT_NONE, PROT_READ|PROT_WRITE|PROT_EXEC, 0x10");
	p.n = 0;
	pl32(&p, 0x22);
	pl32(&p, 0x100031);
	pl32(&p, 0x7);
	fmt_check(&t, "f@arg1/mapflags,arg2/mapflags,arg3/mapflags", false, &p,
		  "MAP_PRIVATE|MAP_ANONYMOUS, "
		  "MAP_SHARED|MAP_FIXED|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, "
		  "0x7");
	p.n = 0;
	pl32(&p, 2);
	pl32(&p, 0);
	pl32(&p, 34);
	pl32(&p, 36);
	pl32(&p, 99);
	pl32(&p, 31);
	fmt_check(&t, "f@arg1/signal,arg2/signal,arg3/signal,arg4/signal,arg5/signal,arg6/signal",
		  false, &p, "SIGINT, 0, SIGRTMIN, SIGRTMIN+2, 99, SIGSYS");
	p.n = 0;
	pl64(&p, 0);
	pl64(&p, 1);
	pl64(&p, (uint64_t)-1);
	pl64(&p, 0x401000);
	pl64(&p, 0x5000);
	fmt_check(&t,
		  "f@arg1/sighandler,arg2/sighandler,arg3/sighandler,arg4/sighandler,arg5/"
		  "sighandler",
		  false, &p, "SIG_DFL, SIG_IGN, SIG_ERR, callback, 0x5000");
	p.n = 0;
	pl64(&p, 1);
	fmt_check(&t, "signal@retval/sighandler", true, &p, "SIG_IGN");
	parse_bad("f@arg1/flags", false, "unknown format");

	/* through the file: the kind is kept ("k32:0") */
	char path[] = "/tmp/ct-argconst-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	CHECK(ct_argtab_write(&t, f) == 0, "write");
	fclose(f);
	struct ct_argtab u;
	struct ct_error e = {""};
	const char *err = e.msg;
	CHECK(ct_argtab_load(&u, path, &e) == 0, "load: %s", err);
	unlink(path);
	CHECK(u.nspecs == t.nspecs, "%zu specs read back, %zu written", u.nspecs, t.nspecs);
	if (u.nspecs >= 1) {
		p.n = 0;
		plstr(&p, 0x1000, "/dev/null", 0);
		pl32(&p, 02000000);
		pl32(&p, 0x3);
		struct ct_callargs a = {.spec = 0, .has_args = true, .args = p.w, .nargs = p.n};
		char buf[128];
		ct_args_format(&u, &a, false, NULL, NULL, buf, sizeof(buf));
		CHECK(!strcmp(buf, "\"/dev/null\", O_RDONLY|O_CLOEXEC"), "read back: '%s'", buf);
	}
	ct_argtab_free(&u);
	ct_argtab_free(&t);
}

static void test_file(void)
{
	struct ct_argtab t, u;
	ct_argtab_init(&t);
	t.strmax = 32;
	struct ct_aspec s;
	char *re;
	struct ct_error e = {""};
	const char *err = e.msg;
	memset(&s, 0, sizeof(s));
	CHECK(ct_aspec_from_opt("x@arg1/s,arg8/d64,fparg1/f32", false, &re, &s, &e) == 0, "%s",
	      err);
	free(re);
	s.args[0].name = strdup("the name");
	s.ret = calloc(1, sizeof(*s.ret));
	s.nret = 1;
	s.ret[0].fmt = CT_AF_ENUM;
	s.ret[0].bits = 32;
	s.ret[0].nloc = 1;
	s.ret[0].loc[0] = (struct ct_aloc){.kind = CT_AL_RET, .reg = 0};
	t.enums = calloc(1, sizeof(*t.enums));
	t.nenums = 1;
	t.enums[0].n = 2;
	t.enums[0].v = calloc(2, sizeof(*t.enums[0].v));
	t.enums[0].v[0] = (struct ct_aenum_val){-1, strdup("MINUS_ONE")};
	t.enums[0].v[1] = (struct ct_aenum_val){7, strdup("SEVEN")};
	uint32_t idx = ct_argtab_intern(&t, &s);
	CHECK(ct_argtab_intern(&t, &s) == idx, "the same spec twice gets one index");
	ct_aspec_free(&s);
	struct ct_amodule *m = ct_argtab_module(&t, "abcd", "/a path/with%");
	ct_amodule_add(m, 0x1130, idx);

	char path[] = "/tmp/ct-argspec-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	CHECK(ct_argtab_write(&t, f) == 0, "write");
	fclose(f);
	CHECK(ct_argtab_load(&u, path, &e) == 0, "load: %s", err);
	CHECK(u.strmax == 32 && u.nspecs == 1 && u.nenums == 1 && u.nmods == 1, "tables");
	if (u.nmods == 1) {
		CHECK(!strcmp(u.mods[0].path, "/a path/with%") &&
			      !strcmp(u.mods[0].buildid, "abcd"),
		      "module '%s'", u.mods[0].path);
		CHECK(u.mods[0].nf == 1 && u.mods[0].f[0].off == 0x1130 && u.mods[0].f[0].spec == 0,
		      "function");
	}
	if (u.nspecs == 1) {
		CHECK(u.specs[0].nargs == 3 && u.specs[0].args[0].name &&
			      !strcmp(u.specs[0].args[0].name, "the name"),
		      "names");
		CHECK(u.specs[0].args[1].loc[0].kind == CT_AL_STACK &&
			      u.specs[0].args[1].loc[0].off == 16,
		      "stack slot");
		struct pl p = {.n = 0};
		pl32(&p, (uint32_t)-1);
		struct ct_callargs a = {.spec = 0, .has_ret = true, .ret = p.w, .nret = p.n};
		char buf[64];
		ct_args_format(&u, &a, true, NULL, NULL, buf, sizeof(buf));
		CHECK(!strcmp(buf, "MINUS_ONE"), "enum by name: '%s'", buf);
		p.n = 0;
		pl32(&p, 3);
		a.ret = p.w;
		ct_args_format(&u, &a, true, NULL, NULL, buf, sizeof(buf));
		CHECK(!strcmp(buf, "3"), "enum without a name: the number, '%s'", buf);
	}
	ct_argtab_free(&u);
	ct_argtab_free(&t);

	/* damaged files are refused with the line */
	static const char *const bad[] = {
		"calltrace-args 2\n",
		"calltrace-args 1\nspec 0\na rdi d33 - -\nend\n",
		"calltrace-args 1\nspec 0\na rdi d32 - -\n",
		"calltrace-args 1\nspec 0\na rdi e32:3 - -\nend\n",
		"calltrace-args 1\nmodule - /x\nf 10 4\n",
		"calltrace-args 1\nspec 0\na sp+4:8 d32 - -\nend\n",
		"calltrace-args 1\nstrmax 100000\n",
		"calltrace-args 1\nspec 0\na rdi k32:99 - -\nend\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = fopen(path, "w");
		fputs(bad[i], f);
		fclose(f);
		CHECK(ct_argtab_load(&u, path, &e) < 0, "bad file %zu accepted", i);
		CHECK(strstr(err, path) && strstr(err, "line"), "message '%s'", err);
		ct_argtab_free(&u);
	}
	unlink(path);
}

int main(void)
{
	test_parse();
	test_locations();
	test_format();
	test_consts();
	test_file();
	return check_done();
}
