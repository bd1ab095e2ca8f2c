/* SPDX-License-Identifier: MIT */
/*
 * How C++ names are shown (the views' --demangle=full|simple|no): full,
 * as the C++ ABI's demangler writes them (`int ns::Cls<int>::get(int)
 * const`); simple, the qualified name alone, without return type,
 * template arguments or parameter list (`ns::Cls::get`); no, as in the
 * binary (`_ZNK2ns3ClsIiE3getEi`).  Names that are not mangled (C) are
 * shown as they are in every mode.
 */
#ifndef CT_DEMANGLE_H
#define CT_DEMANGLE_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* the modes; no is 0 so that a mode reads as "demangle or not" */
enum ct_demangle_mode {
	CT_DEMANGLE_NO = 0,
	CT_DEMANGLE_FULL,
	CT_DEMANGLE_SIMPLE,
};

/* the mode a --demangle argument names, or -1 */
int ct_demangle_mode_of(const char *arg);

/* the name shown for a symbol's name in mode: malloc'd, or NULL when it is
 * the name itself */
char *ct_demangle_as(const char *name, enum ct_demangle_mode mode);

/* a demangled name simplified (simple mode): malloc'd */
char *ct_demangle_simplify(const char *full);

/*
 * The names a -F/-N/--hide/-T regex is matched against, at record time
 * and in the views alike (doc/record.md, "Which names a regex sees"): the
 * name as the views print it, never its return type.  For a demangled
 * C++ name ("void ns::twice<int>(int)"): the qualified name with its
 * parameters ("ns::twice<int>(int)"), without them ("ns::twice<int>") and
 * the simple name ("ns::twice"); a C name is itself.  A library call's
 * name is each of these with its "@module" ("strlen@libc.so.6") and
 * without it ("strlen").  The mangled name is not one of them.
 */
struct ct_match_names {
	const char *v[6];
	size_t n;
	char *buf[6]; /* what v points into, malloc'd */
	size_t nbuf;
};
/* name: the full demangled name, or a name that is not mangled */
void ct_match_names_init(struct ct_match_names *m, const char *name);
/* does re (compiled with REG_NOSUB) match one of them? */
bool ct_match_names_regex(const struct ct_match_names *m, const regex_t *re);
void ct_match_names_free(struct ct_match_names *m);

#endif
