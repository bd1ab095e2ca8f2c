/* SPDX-License-Identifier: MIT */
/*
 * Argument and return-value specs (doc/args.md): what to capture at a
 * function's entry and return, where it is (registers, stack), and how to
 * print it.  `record` builds them from -A/-R options and DWARF, writes them
 * to DIR/args.spec (the runtime captures by it, the reader decodes by it),
 * and the reader formats the captured values.
 */
#ifndef CT_ARGSPEC_H
#define CT_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "calltrace/specfile.h"
#include "error.h"

struct ct_aitem {
	uint8_t fmt;  /* enum ct_afmt */
	uint8_t bits; /* width of integers and floats: 8 16 32 64 */
	uint8_t nloc; /* 0..2 */
	struct ct_aloc loc[2];
	int table;  /* enum or struct table */
	char *name; /* parameter name or NULL */
	char *desc; /* CT_AF_NONE: what is printed */
};

struct ct_aspec {
	struct ct_aitem *args;
	size_t nargs;
	struct ct_aitem *ret;
	size_t nret;   /* 0 or 1 */
	char *fmt;     /* printf-style form of the arguments, or NULL */
	bool variadic; /* print ", ..." after the arguments */
};

struct ct_aenum_val {
	int64_t value;
	char *name;
};
struct ct_aenum {
	struct ct_aenum_val *v;
	size_t n;
};

struct ct_amember {
	uint32_t off;
	struct ct_aitem it; /* fmt/bits/table of the member (no locations) */
};
struct ct_astruct {
	uint32_t size;
	char *name;
	struct ct_amember *m;
	size_t n;
};

struct ct_afunc {
	uint64_t off; /* st_value in the module */
	uint32_t spec;
};

struct ct_amodule {
	char *buildid; /* or NULL */
	char *path;
	struct ct_afunc *f;
	size_t nf, capf;
};

struct ct_argtab {
	unsigned strmax; /* bytes of a string copied at most */
	struct ct_aspec *specs;
	size_t nspecs;
	struct ct_aenum *enums;
	size_t nenums;
	struct ct_astruct *structs;
	size_t nstructs;
	struct ct_amodule *mods;
	size_t nmods;
};


/* ---- specs from the command line ------------------------------------ */

/* the traced program's ELF machine (EM_*): the register names and the
 * argument registers -A/-R use (lib/args/argregs.h); x86-64's until set */
void ct_aspec_set_machine(int em);

/* one -A (ret false) or -R (ret true) option: "REGEX@ITEM,ITEM...".
 * *re gets the regex (malloc'd); the items are put into spec (args or ret)
 * as parsed.  -1 with a message in err when the spec is malformed. */
int ct_aspec_from_opt(const char *opt, bool ret, char **re, struct ct_aspec *spec,
		      struct ct_error *err);

/* one conversion of a printf form: "%-08.3lld" -> its parts */
struct ct_aconv {
	char flags[8];
	int width, prec; /* -1 when absent */
	char len[3];
	char c;
};
/* the length of the conversion at s ('%'), 0 when it is not one we
 * support (-A's forms, and their printing in argfmt.c) */
size_t ct_aconv_parse(const char *s, struct ct_aconv *cv);

/* ---- the table ---------------------------------------------------------- */

void ct_argtab_init(struct ct_argtab *t);
void ct_argtab_free(struct ct_argtab *t);
void ct_aspec_free(struct ct_aspec *s);
void ct_aitem_copy(struct ct_aitem *dst, const struct ct_aitem *src);
/* the index of a spec equal to s in t (added as a copy if new) */
uint32_t ct_argtab_intern(struct ct_argtab *t, const struct ct_aspec *s);
struct ct_amodule *ct_argtab_module(struct ct_argtab *t, const char *buildid, const char *path);
void ct_amodule_add(struct ct_amodule *m, uint64_t off, uint32_t spec);
/* a value of at most 32 bits from one register takes one payload word
 * (its low half); everything else 8 bytes per register or stack slot */
bool ct_aitem_narrow(const struct ct_aitem *it);
/* check that a spec's records fit (CT_ARGS_MAX_WORDS); -1 with a message */
int ct_aspec_check(const struct ct_aspec *s, unsigned strmax, struct ct_error *err);
/* payload words of a spec's entry (ret false) or return record, strings at
 * their longest */
unsigned ct_aspec_words(const struct ct_aspec *s, bool ret, unsigned strmax);

int ct_argtab_write(const struct ct_argtab *t, FILE *f);
/* -1 with a message naming the file and line */
int ct_argtab_load(struct ct_argtab *t, const char *path, struct ct_error *err);

/* ---- decoding and printing ------------------------------------------- */

/* the decoded values of one call: the payload words of its ARGS and RETVAL
 * records (validated against the spec when attached) */
struct ct_callargs {
	uint32_t spec;
	bool has_args, has_ret;
	const uint32_t *args; /* payload of the ARGS record */
	uint32_t nargs;       /* words */
	const uint32_t *ret;  /* payload of the RETVAL record */
	uint32_t nret;
};

/* does the payload fit the spec's items?  (strings within their words) */
bool ct_args_payload_ok(const struct ct_argtab *t, uint32_t spec, bool ret, const uint32_t *w,
			uint32_t n);

/* resolve a pointer to a function name (for p); may return NULL */
typedef const char *(*ct_args_sym_fn)(void *ctx, uint64_t addr);

/* "48, 18" / "6": the arguments or the return value as text; returns the
 * length written (always NUL-terminated, cut at len - 1) */
size_t ct_args_format(const struct ct_argtab *t, const struct ct_callargs *a, bool ret,
		      ct_args_sym_fn sym, void *symctx, char *buf, size_t len);

/* the length of a demangled C++ name without its parameter list
 * ("ns::f(int) const" -> "ns::f"), for printing values in its place */
size_t ct_args_bare_len(const char *name, size_t len);
/* where the qualifiers after the parameter list of such a name start
 * (" const" of "K::get() const", " const &" of "K::f(int) const &"): the
 * offset just after its last ')', len when it has none.  The values are
 * printed between the two, so a const method stays one. */
size_t ct_args_quals_off(const char *name, size_t len);

#endif
