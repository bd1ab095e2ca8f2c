/* SPDX-License-Identifier: MIT */
/*
 * The argument spec file, DIR/args.spec (doc/args.md, "The spec file"):
 * its grammar, read by both halves.  `record` writes it (lib/args/argspec.c),
 * the runtime captures by it (runtime/args.c) and the reader decodes by it
 * (lib/args/argspec.c): this one parser serves all three, so they cannot read
 * the same line two ways.
 *
 * Freestanding enough for the runtime: no malloc, no stdio, no locale; it
 * reads a buffer the caller holds and hands out one line at a time, every
 * number and name checked, fields as (pointer, length) into the buffer.
 * Header-only, like ring.h.
 *
 * A file is a first line "calltrace-args VERSION", then lines of a keyword
 * and space-separated words, in four blocks:
 *
 *   strmax N
 *   enum I            then "v VALUE NAME" lines, then "end"
 *   struct I SIZE NAME  then "m OFF FMT NAME DESC" lines, then "end"
 *   spec I            then "a LOCS FMT NAME DESC", "r LOCS FMT NAME DESC",
 *                     "fmt TEXT", "variadic" lines, then "end"
 *   module BUILDID PATH   then "f OFFSET SPEC" lines (hex offset)
 *
 * Indexes count up from 0 in each kind; an "f" line names a spec already
 * defined.  Text fields have space, control bytes, DEL and '%' written as
 * %XX, and "-" for none.
 */
#ifndef CALLTRACE_SPECFILE_H
#define CALLTRACE_SPECFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calltrace/format.h"

/* where a value is */
enum ct_aloc_kind {
	CT_AL_GP,    /* integer register: 0..5 the x86-64 argument registers rdi
		      * rsi rdx rcx r8 r9 (aarch64's x0..x5); aarch64 also
		      * 6, 7 (x6, x7) and 19..28 (x19..x28, callee-saved) */
	CT_AL_XMM,   /* vector register, low 8 bytes: 0..7 xmm0..7 (aarch64's
		      * v0..v7); aarch64 also 8..15 (d8..d15, callee-saved) */
	CT_AL_STACK, /* size bytes at the entry sp + off (off >= 8) */
	CT_AL_RET,   /* return registers: 0 rax, 1 rdx, 2 xmm0, 3 xmm1
		      * (aarch64: x0, x1, d0, d1) */
	CT_AL_CFA,   /* size bytes at the frame's CFA + (int32_t)off: aarch64
		      * -pg's parameters in the frame (DWARF's DW_OP_fbreg
		      * with the CFA as frame base), read at _mcount */
};

struct ct_aloc {
	uint8_t kind;
	uint8_t reg;
	uint16_t size; /* CT_AL_STACK, CT_AL_CFA: bytes (1..256) */
	uint32_t off;  /* CT_AL_STACK: from the entry sp; CT_AL_CFA: an
			* int32_t from the CFA */
};

/* a location read from memory (size bytes, in 8-byte words) */
static inline bool ct_sf_in_memory(const struct ct_aloc *l)
{
	return l->kind == CT_AL_STACK || l->kind == CT_AL_CFA;
}

/* the callee-saved registers a CT_AL_GP / CT_AL_XMM location may name
 * (aarch64's) besides the argument registers */
#define CT_SF_GP_CS_LO 19
#define CT_SF_GP_CS_HI 28
#define CT_SF_GP_MAX 8 /* argument registers: 0..7 */
#define CT_SF_XMM_MAX 16
#define CT_SF_CFA_OFF_MAX (1 << 20)

/* how a value is shown */
enum ct_afmt {
	CT_AF_INT,    /* signed decimal */
	CT_AF_UINT,   /* unsigned decimal */
	CT_AF_HEX,    /* 0x... */
	CT_AF_CHAR,   /* 'c' */
	CT_AF_BOOL,   /* true/false */
	CT_AF_PTR,    /* 0x..., or a function's name */
	CT_AF_STR,    /* "..." copied at record time */
	CT_AF_FLOAT,  /* float (bits 32) or double (64) */
	CT_AF_ENUM,   /* enumerator name, from enum table `table` */
	CT_AF_STRUCT, /* members from struct table `table` */
	CT_AF_NONE,   /* not captured: printed as `desc` (e.g. <struct S 40B>) */
	CT_AF_STDSTR, /* "..."s: a libstdc++ std::string at the address the
		       * location holds, its text copied at record time */
	CT_AF_CONST,  /* a C library constant: flags or a name, decoded by
		       * the kind `table` (enum ct_aconst) */
};

/* the kinds of CT_AF_CONST (their numbers are in args.spec files: only
 * ever append); the values are Linux x86-64's */
enum ct_aconst {
	CT_AK_OFLAGS,     /* open's flags: O_RDONLY|O_CLOEXEC */
	CT_AK_MODE,       /* a file mode, octal: 0644 (left out after an
			   * CT_AK_OFLAGS without O_CREAT or O_TMPFILE) */
	CT_AK_PROT,       /* mmap's and mprotect's prot: PROT_READ|PROT_WRITE */
	CT_AK_MAPFLAGS,   /* mmap's flags: MAP_PRIVATE|MAP_ANONYMOUS */
	CT_AK_SIGNAL,     /* a signal number: SIGINT */
	CT_AK_SIGHANDLER, /* a signal handler: SIG_IGN, SIG_DFL, a function */
	CT_AK_DIRFD,      /* a directory fd of the *at calls: AT_FDCWD */
	CT_AK_N
};

/* the formats whose value is followed by copied text */
static inline bool ct_sf_has_text(unsigned fmt)
{
	return fmt == CT_AF_STR || fmt == CT_AF_STDSTR;
}

static const char *const ct_sf_gp_names[6] = {"rdi", "rsi", "rdx", "rcx", "r8", "r9"};
static const char *const ct_sf_ret_names[4] = {"rax", "rdx", "xmm0", "xmm1"};

#define CT_SF_STRUCT_MAX 4096 /* bytes of a struct table's type */
#define CT_ARGS_STRMAX_DEFAULT 64
#define CT_ARGS_STRMAX_MAX 1024 /* bytes of a string copied at most */
#define CT_SF_STACK_OFF_MAX (1u << 20)
#define CT_SF_STACK_SIZE_MAX 256

/* a value of at most 32 bits from one register takes one payload word (its
 * low half); everything else 8 bytes per register or stack slot */
static inline bool ct_sf_narrow(unsigned fmt, unsigned bits, unsigned nloc,
				const struct ct_aloc *loc0)
{
	if (nloc != 1 || ct_sf_in_memory(loc0))
		return false;
	switch (fmt) {
	case CT_AF_INT:
	case CT_AF_UINT:
	case CT_AF_HEX:
	case CT_AF_BOOL:
	case CT_AF_ENUM:
	case CT_AF_CONST:
		return bits <= 32;
	case CT_AF_CHAR:
		return true;
	case CT_AF_FLOAT:
		return bits == 32;
	default:
		return false;
	}
}

/* payload words of one item, strings at their longest */
static inline unsigned ct_sf_item_words(unsigned fmt, unsigned bits, unsigned nloc,
					const struct ct_aloc *loc, unsigned strmax)
{
	unsigned w = 0;
	if (nloc && ct_sf_narrow(fmt, bits, nloc, &loc[0]))
		return 1;
	for (unsigned i = 0; i < nloc; i++)
		w += ct_sf_in_memory(&loc[i]) ? ((loc[i].size + 7u) / 8u) * 2u : 2u;
	if (ct_sf_has_text(fmt) && nloc)
		w += 1 + (strmax + 3) / 4;
	return w;
}

/* ---- words ------------------------------------------------------------ */

/* a field of a line: bytes [s, s + n) of the caller's buffer */
struct ct_sf_field {
	const char *s;
	size_t n;
};

static inline bool ct_sf_is(struct ct_sf_field f, const char *word)
{
	size_t i = 0;
	for (; i < f.n; i++)
		if (word[i] != f.s[i] || !word[i])
			return false;
	return word[i] == 0;
}

static inline int ct_sf_hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* an unsigned decimal (hex: base 16) number of the whole field, at most max */
static inline bool ct_sf_num(struct ct_sf_field f, unsigned base, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	if (!f.n)
		return false;
	for (size_t i = 0; i < f.n; i++) {
		int h = ct_sf_hexval((unsigned char)f.s[i]);
		if (h < 0 || (unsigned)h >= base)
			return false;
		unsigned d = (unsigned)h;
		if (d > max || v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static inline bool ct_sf_snum(struct ct_sf_field f, int64_t *out)
{
	uint64_t v;
	bool neg = f.n && f.s[0] == '-';
	struct ct_sf_field m = {f.s + neg, f.n - neg};
	if (!ct_sf_num(m, 10, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &v))
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

/* a text field decoded into out (NUL-terminated, at most len - 1 bytes);
 * returns its length, or -1 for "-" (no text).  out may be f.s itself:
 * the decoded text is never longer. */
static inline long ct_sf_text(struct ct_sf_field f, char *out, size_t len)
{
	size_t o = 0;
	if (f.n == 1 && f.s[0] == '-')
		return -1;
	for (size_t i = 0; i < f.n && o + 1 < len; i++) {
		int h, l;
		if (f.s[i] == '%' && i + 2 < f.n &&
		    (h = ct_sf_hexval((unsigned char)f.s[i + 1])) >= 0 &&
		    (l = ct_sf_hexval((unsigned char)f.s[i + 2])) >= 0) {
			out[o++] = (char)(h << 4 | l);
			i += 2;
		} else {
			out[o++] = f.s[i];
		}
	}
	if (len)
		out[o] = 0;
	return (long)o;
}

/* ---- items ------------------------------------------------------------ */

/* a decimal register number of f from character k on: n in [lo, hi] */
static inline bool ct_sf_regnum(struct ct_sf_field f, size_t k, unsigned lo, unsigned hi,
				unsigned *n)
{
	uint64_t v;
	struct ct_sf_field d = {f.s + k, f.n > k ? f.n - k : 0};
	if (d.n < 1 || d.n > 2 || (d.n == 2 && d.s[0] == '0') || !ct_sf_num(d, 10, hi, &v) ||
	    v < lo)
		return false;
	*n = (unsigned)v;
	return true;
}

/* one location: "rdi".."r9", "xmm0".."xmm7", "sp+OFF:SIZE", aarch64's
 * "x6" "x7" "x19".."x28" "d8".."d15" "cfa+OFF:SIZE" "cfa-OFF:SIZE"; or
 * with ret, "rax" "rdx" "xmm0" "xmm1" */
static inline bool ct_sf_loc(struct ct_sf_field f, bool ret, struct ct_aloc *l)
{
	l->kind = 0, l->reg = 0, l->size = 0, l->off = 0;
	if (ret) {
		for (unsigned i = 0; i < 4; i++)
			if (ct_sf_is(f, ct_sf_ret_names[i])) {
				l->kind = CT_AL_RET, l->reg = (uint8_t)i;
				return true;
			}
		return false;
	}
	for (unsigned i = 0; i < 6; i++)
		if (ct_sf_is(f, ct_sf_gp_names[i])) {
			l->kind = CT_AL_GP, l->reg = (uint8_t)i;
			return true;
		}
	if (f.n == 4 && f.s[0] == 'x' && f.s[1] == 'm' && f.s[2] == 'm' && f.s[3] >= '0' &&
	    f.s[3] <= '7') {
		l->kind = CT_AL_XMM, l->reg = (uint8_t)(f.s[3] - '0');
		return true;
	}
	unsigned rn;
	if (f.n >= 2 && f.s[0] == 'x' &&
	    (ct_sf_regnum(f, 1, 6, CT_SF_GP_MAX - 1, &rn) ||
	     ct_sf_regnum(f, 1, CT_SF_GP_CS_LO, CT_SF_GP_CS_HI, &rn))) {
		l->kind = CT_AL_GP, l->reg = (uint8_t)rn;
		return true;
	}
	if (f.n >= 2 && f.s[0] == 'd' && ct_sf_regnum(f, 1, 8, CT_SF_XMM_MAX - 1, &rn)) {
		l->kind = CT_AL_XMM, l->reg = (uint8_t)rn;
		return true;
	}
	if (f.n > 4 && f.s[0] == 'c' && f.s[1] == 'f' && f.s[2] == 'a' &&
	    (f.s[3] == '+' || f.s[3] == '-')) {
		size_t c = 4;
		while (c < f.n && f.s[c] != ':')
			c++;
		uint64_t off, size;
		struct ct_sf_field fo = {f.s + 4, c - 4},
				   fs = {f.s + c + 1, c < f.n ? f.n - c - 1 : 0};
		if (c == f.n || !ct_sf_num(fo, 10, CT_SF_CFA_OFF_MAX, &off) ||
		    !ct_sf_num(fs, 10, CT_SF_STACK_SIZE_MAX, &size) || size < 1)
			return false;
		int32_t so = f.s[3] == '-' ? -(int32_t)off : (int32_t)off;
		l->kind = CT_AL_CFA, l->off = (uint32_t)so, l->size = (uint16_t)size;
		return true;
	}
	if (f.n > 3 && f.s[0] == 's' && f.s[1] == 'p' && f.s[2] == '+') {
		size_t c = 3;
		while (c < f.n && f.s[c] != ':')
			c++;
		uint64_t off, size;
		struct ct_sf_field fo = {f.s + 3, c - 3},
				   fs = {f.s + c + 1, c < f.n ? f.n - c - 1 : 0};
		if (c == f.n || !ct_sf_num(fo, 10, CT_SF_STACK_OFF_MAX - 1, &off) || off < 8 ||
		    !ct_sf_num(fs, 10, CT_SF_STACK_SIZE_MAX, &size) || size < 1)
			return false;
		l->kind = CT_AL_STACK, l->off = (uint32_t)off, l->size = (uint16_t)size;
		return true;
	}
	return false;
}

/* a value's format: "d32" "u8" "x16" "b8" "f32" "f64" "f80" "c" "p" "s" "t" "?"
 * "e32:TABLE" "S:TABLE" "k32:KIND" */
static inline bool ct_sf_fmt(struct ct_sf_field f, uint8_t *fmt, uint8_t *bits, int32_t *table)
{
	uint64_t b = 0, t = 0;
	*table = 0;
	if (f.n == 1) {
		switch (f.s[0]) {
		case 'c':
			*fmt = CT_AF_CHAR, *bits = 8;
			return true;
		case 'p':
		case 's':
		case 't':
			*fmt = f.s[0] == 'p' ? CT_AF_PTR : f.s[0] == 's' ? CT_AF_STR : CT_AF_STDSTR;
			*bits = 64;
			return true;
		case '?':
			*fmt = CT_AF_NONE, *bits = 0;
			return true;
		}
		return false;
	}
	if (f.n < 2)
		return false;
	size_t c = 1;
	while (c < f.n && f.s[c] != ':')
		c++;
	struct ct_sf_field num = {f.s + 1, c - 1}, tab = {f.s + c + 1, c < f.n ? f.n - c - 1 : 0};
	if (f.s[0] == 'S') {
		if (c != 1 || !ct_sf_num(tab, 10, INT32_MAX, &t))
			return false;
		*fmt = CT_AF_STRUCT, *bits = 0, *table = (int32_t)t;
		return true;
	}
	/* (80: a long double, "f80", taken from 16 bytes of the stack) */
	if (!ct_sf_num(num, 10, 80, &b) ||
	    (b != 8 && b != 16 && b != 32 && b != 64 && !(b == 80 && f.s[0] == 'f')))
		return false;
	if (f.s[0] == 'e') {
		if (c == f.n || !ct_sf_num(tab, 10, INT32_MAX, &t))
			return false;
		*fmt = CT_AF_ENUM, *table = (int32_t)t;
	} else if (f.s[0] == 'k') {
		if (c == f.n || !ct_sf_num(tab, 10, CT_AK_N - 1, &t))
			return false;
		*fmt = CT_AF_CONST, *table = (int32_t)t;
	} else if (c != f.n) {
		return false;
	} else if (f.s[0] == 'd') {
		*fmt = CT_AF_INT;
	} else if (f.s[0] == 'u') {
		*fmt = CT_AF_UINT;
	} else if (f.s[0] == 'x') {
		*fmt = CT_AF_HEX;
	} else if (f.s[0] == 'b') {
		*fmt = CT_AF_BOOL;
	} else if (f.s[0] == 'f' && (b == 32 || b == 64 || b == 80)) {
		*fmt = CT_AF_FLOAT;
	} else {
		return false;
	}
	*bits = (uint8_t)b;
	return true;
}

/* ---- lines ------------------------------------------------------------ */

enum ct_sf_kind {
	CT_SF_STRMAX,   /* n = bytes */
	CT_SF_ENUM,     /* n = index */
	CT_SF_VALUE,    /* in an enum: v = value, f[0] = name */
	CT_SF_STRUCT,   /* n = index, n2 = size, f[0] = name */
	CT_SF_MEMBER,   /* in a struct: n = offset, fmt/bits/table, f[0] name, f[1] desc */
	CT_SF_SPEC,     /* n = index */
	CT_SF_ARG,      /* in a spec: loc[0..nloc), fmt/bits/table, f[0] name, f[1] desc */
	CT_SF_RET,      /* the same, for the return value */
	CT_SF_FORM,     /* in a spec: f[0] = the printf-style form */
	CT_SF_VARIADIC, /* in a spec */
	CT_SF_END,      /* the end of an enum, struct or spec */
	CT_SF_MODULE,   /* f[0] = build-id, f[1] = path (the rest of the line) */
	CT_SF_FUNC,     /* in a module: n = offset, n2 = spec index */
};

struct ct_sf_line {
	enum ct_sf_kind kind;
	uint64_t n, n2;
	int64_t v;
	uint8_t fmt, bits, nloc;
	int32_t table;
	struct ct_aloc loc[2];
	struct ct_sf_field f[2];
};

struct ct_sf {
	const char *p, *end; /* what is left of the text */
	unsigned lineno;
	enum { CT_SF_TOP, CT_SF_IN_ENUM, CT_SF_IN_STRUCT, CT_SF_IN_SPEC } where;
	uint64_t nenums, nstructs, nspecs, nmodules;
	uint64_t struct_size; /* of the struct being read */
	const char *why;      /* after an error: what is wrong on line lineno */
};

static inline void ct_sf_start(struct ct_sf *sf, const char *text, size_t len)
{
	sf->p = text;
	sf->end = text + len;
	sf->lineno = 0;
	sf->where = CT_SF_TOP;
	sf->nenums = sf->nstructs = sf->nspecs = sf->nmodules = 0;
	sf->struct_size = 0;
	sf->why = NULL;
}

/* split off the next space-separated word of [*p, end); with rest, the
 * whole remainder (leading spaces skipped) */
static inline struct ct_sf_field ct_sf_word(const char **p, const char *end, bool rest)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	const char *e = s;
	if (rest)
		e = end;
	else
		while (e < end && *e != ' ')
			e++;
	*p = e;
	struct ct_sf_field f = {s, (size_t)(e - s)};
	return f;
}

static inline int ct_sf_fail(struct ct_sf *sf, const char *why)
{
	sf->why = why;
	return -1;
}

/* "a"/"r"/"m" lines: LOCS FMT NAME DESC (m: OFF FMT NAME DESC) */
static inline int ct_sf_item(struct ct_sf *sf, const char **p, const char *end, bool ret,
			     bool member, struct ct_sf_line *l)
{
	struct ct_sf_field w[4];
	for (int i = 0; i < 4; i++) {
		w[i] = ct_sf_word(p, end, false);
		if (!w[i].n)
			return ct_sf_fail(sf, "a field is missing");
	}
	if (ct_sf_word(p, end, false).n)
		return ct_sf_fail(sf, "extra words at the end of the line");
	l->nloc = 0;
	if (member) {
		if (!ct_sf_num(w[0], 10, UINT32_MAX, &l->n) || l->n >= sf->struct_size)
			return ct_sf_fail(sf, "a member offset outside its struct");
	} else if (!ct_sf_is(w[0], "-")) {
		const char *s = w[0].s, *e = w[0].s + w[0].n;
		while (s < e) {
			const char *c = s;
			while (c < e && *c != ',')
				c++;
			struct ct_sf_field one = {s, (size_t)(c - s)};
			if (l->nloc == 2)
				return ct_sf_fail(sf, "more than two locations");
			if (!ct_sf_loc(one, ret, &l->loc[l->nloc]))
				return ct_sf_fail(sf, "a bad location");
			l->nloc++;
			s = c < e ? c + 1 : e;
		}
	}
	if (!ct_sf_fmt(w[1], &l->fmt, &l->bits, &l->table))
		return ct_sf_fail(sf, "a bad format");
	if (ct_sf_has_text(l->fmt) && (member || l->nloc != 1))
		return ct_sf_fail(sf, "a string needs one location");
	/* the tables come before the specs (members may name later tables:
	 * the reader checks those at the end) */
	if (!member && ((l->fmt == CT_AF_ENUM && (uint64_t)l->table >= sf->nenums) ||
			(l->fmt == CT_AF_STRUCT && (uint64_t)l->table >= sf->nstructs)))
		return ct_sf_fail(sf, "a spec names a table that does not exist");
	l->f[0] = w[2];
	l->f[1] = w[3];
	return 0;
}

/* The next line: 1 with *l filled, 0 at a good end of the file, -1 on an
 * error (sf->why says what, on line sf->lineno).  Empty lines are
 * skipped.  The first line must be the header of this version; an empty
 * file is an empty table. */
static inline int ct_sf_next(struct ct_sf *sf, struct ct_sf_line *l)
{
	for (;;) {
		if (sf->p >= sf->end) {
			if (sf->where != CT_SF_TOP)
				return ct_sf_fail(sf, "cut short");
			return 0;
		}
		const char *s = sf->p, *e = s;
		while (e < sf->end && *e != '\n')
			e++;
		sf->p = e < sf->end ? e + 1 : e;
		sf->lineno++;
		if (sf->lineno == 1) {
			const char *q = s;
			struct ct_sf_field magic = ct_sf_word(&q, e, false);
			struct ct_sf_field ver = ct_sf_word(&q, e, false);
			uint64_t v;
			if (!ct_sf_is(magic, CT_ARGS_MAGIC) || !ct_sf_num(ver, 10, 1u << 20, &v))
				return ct_sf_fail(sf, "not an argument spec file");
			if (v != CT_ARGS_VERSION)
				return ct_sf_fail(sf, "unsupported version");
			continue;
		}
		const char *q = s;
		struct ct_sf_field kw = ct_sf_word(&q, e, false);
		if (!kw.n)
			continue;
		struct ct_sf_field a, b;
		if (ct_sf_is(kw, "end")) {
			if (sf->where == CT_SF_TOP)
				return ct_sf_fail(sf, "\"end\" outside a block");
			sf->where = CT_SF_TOP;
			l->kind = CT_SF_END;
			return 1;
		}
		switch (sf->where) {
		case CT_SF_IN_ENUM:
			a = ct_sf_word(&q, e, false);
			b = ct_sf_word(&q, e, false);
			if (!ct_sf_is(kw, "v") || !ct_sf_snum(a, &l->v) || !b.n ||
			    ct_sf_word(&q, e, false).n)
				return ct_sf_fail(sf, "a bad enumerator");
			l->kind = CT_SF_VALUE;
			l->f[0] = b;
			return 1;
		case CT_SF_IN_STRUCT:
			if (!ct_sf_is(kw, "m"))
				return ct_sf_fail(sf, "a bad struct member");
			l->kind = CT_SF_MEMBER;
			return ct_sf_item(sf, &q, e, false, true, l) < 0 ? -1 : 1;
		case CT_SF_IN_SPEC:
			if (ct_sf_is(kw, "a") || ct_sf_is(kw, "r")) {
				bool r = kw.s[0] == 'r';
				l->kind = r ? CT_SF_RET : CT_SF_ARG;
				return ct_sf_item(sf, &q, e, r, false, l) < 0 ? -1 : 1;
			}
			if (ct_sf_is(kw, "fmt")) {
				l->kind = CT_SF_FORM;
				l->f[0] = ct_sf_word(&q, e, false);
				if (!l->f[0].n || ct_sf_word(&q, e, false).n)
					return ct_sf_fail(sf, "a bad form");
				return 1;
			}
			if (ct_sf_is(kw, "variadic")) {
				l->kind = CT_SF_VARIADIC;
				return 1;
			}
			return ct_sf_fail(sf, "a bad line in a spec");
		case CT_SF_TOP:
			break;
		}
		a = ct_sf_word(&q, e, false);
		if (ct_sf_is(kw, "strmax")) {
			if (!ct_sf_num(a, 10, CT_ARGS_STRMAX_MAX, &l->n))
				return ct_sf_fail(sf, "a bad strmax");
			l->kind = CT_SF_STRMAX;
		} else if (ct_sf_is(kw, "enum")) {
			if (!ct_sf_num(a, 10, UINT32_MAX, &l->n) || l->n != sf->nenums)
				return ct_sf_fail(sf, "enum tables out of order");
			sf->nenums++;
			sf->where = CT_SF_IN_ENUM;
			l->kind = CT_SF_ENUM;
		} else if (ct_sf_is(kw, "struct")) {
			b = ct_sf_word(&q, e, false);
			struct ct_sf_field name = ct_sf_word(&q, e, false);
			if (!ct_sf_num(a, 10, UINT32_MAX, &l->n) || l->n != sf->nstructs)
				return ct_sf_fail(sf, "struct tables out of order");
			if (!ct_sf_num(b, 10, CT_SF_STRUCT_MAX, &l->n2) || l->n2 == 0 || !name.n)
				return ct_sf_fail(sf, "a bad struct table");
			sf->nstructs++;
			sf->struct_size = l->n2;
			sf->where = CT_SF_IN_STRUCT;
			l->kind = CT_SF_STRUCT;
			l->f[0] = name;
		} else if (ct_sf_is(kw, "spec")) {
			if (!ct_sf_num(a, 10, UINT32_MAX, &l->n) || l->n != sf->nspecs)
				return ct_sf_fail(sf, "specs out of order");
			sf->nspecs++;
			sf->where = CT_SF_IN_SPEC;
			l->kind = CT_SF_SPEC;
		} else if (ct_sf_is(kw, "module")) {
			b = ct_sf_word(&q, e, true);
			if (!a.n || !b.n)
				return ct_sf_fail(sf, "a bad module line");
			sf->nmodules++;
			l->kind = CT_SF_MODULE;
			l->f[0] = a;
			l->f[1] = b;
		} else if (ct_sf_is(kw, "f")) {
			b = ct_sf_word(&q, e, false);
			if (!sf->nmodules || !ct_sf_num(a, 16, UINT64_MAX, &l->n) ||
			    !ct_sf_num(b, 10, UINT32_MAX, &l->n2) || ct_sf_word(&q, e, false).n)
				return ct_sf_fail(sf, "a bad function line");
			if (l->n2 >= sf->nspecs)
				return ct_sf_fail(sf,
						  "a function names a spec that does not exist");
			l->kind = CT_SF_FUNC;
		} else {
			return ct_sf_fail(sf, "an unknown line");
		}
		return 1;
	}
}

#endif
