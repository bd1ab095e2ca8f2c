/* SPDX-License-Identifier: MIT */
/*
 * What runtime/libcall.c (library calls: the traced modules' GOT slots
 * hooked) shares with libcall_nest.c (record --nest-libcall's parts): a
 * loaded module's dynamic section, read, and its symbols looked up.
 */
#ifndef CT_RT_LIBCALL_PRIV_H
#define CT_RT_LIBCALL_PRIV_H

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* one loaded module, from its dynamic section (ct_lc_read_dynamic) */
struct dyn {
	uintptr_t bias, lo, hi, relro_lo, relro_hi;
	const ElfW(Sym) * sym;
	const char *str;
	size_t strsz;
	const ElfW(Rela) * jmprel, *rela;
	size_t njmprel, nrela;
	const ElfW(Half) * versym;
	const ElfW(Verneed) * verneed;
	size_t nverneed;
	const uint32_t *gnuhash; /* DT_GNU_HASH, or NULL */
	const ElfW(Phdr) * phdr;
	int phnum;
};

/* libcall.c's: d's bias, phdr and phnum set, the rest read (false: not
 * a module it follows); the symbol name of that type defined in d, by
 * its DT_GNU_HASH */
bool ct_lc_read_dynamic(struct dyn *d) CT_HIDDEN;
const ElfW(Sym) * ct_lc_gnu_lookup(const struct dyn *d, const char *name, unsigned type) CT_HIDDEN;

/* libcall_nest.c's: an untraced module's slots while it is patched
 * (--nest-libcall); whether a is in the dynamic loader; whether an
 * untraced module's slots are left alone */
extern bool ct_lc_nest_loose CT_HIDDEN;
bool ct_lc_in_ldso(uintptr_t a) CT_HIDDEN;
bool ct_lc_nest_skip(uintptr_t bias, const ElfW(Phdr) * phdr, int phnum) CT_HIDDEN;

#endif
