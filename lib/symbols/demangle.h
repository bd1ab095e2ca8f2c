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

#endif
