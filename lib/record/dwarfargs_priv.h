/* SPDX-License-Identifier: MIT */
/*
 * What lib/record/dwarfargs.c (record -a: argument specs from DWARF, by
 * the x86-64 calling convention) shares with dwarfargs_a64.c (aarch64
 * -pg: the parameters where DWARF says they are at _mcount): the walk's
 * state and the type helpers.
 */
#ifndef CT_DWARFARGS_PRIV_H
#define CT_DWARFARGS_PRIV_H

#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

#include "argspec.h"
#include "symtab.h"
#include "util.h"

/* one module's walk (ct_dwarf_specs) */
struct ct_dwa_ctx {
	struct ct_argtab *t;
	struct ct_amodule *m;
	const struct ct_symtab *st;
	struct ct_u64map enums;   /* die offset -> table index + 1 */
	struct ct_u64map structs; /* die offset -> table index + 1 */
	struct ct_u64map done;    /* function offsets already described */
	Elf *elf;                 /* the module's, for aarch64's code */
	bool a64;                 /* an aarch64 module: DWARF's locations at
				   * _mcount (ct_dwa_a64_param), not the registers */
};

/* dwarfargs.c's: d with its typedefs and qualifiers stripped (NULL:
 * void); a type's size in bytes (0: unknown); a class only declared in
 * this module's DWARF; the format of a scalar of type d (false: not one
 * printed); an item described, not decoded (its text printf's) */
Dwarf_Die *ct_dwa_strip(Dwarf_Die *d, Dwarf_Die *buf);
Dwarf_Word ct_dwa_size_of(Dwarf_Die *d);
bool ct_dwa_declared_only(Dwarf_Die *t);
bool ct_dwa_scalar_fmt(struct ct_dwa_ctx *c, Dwarf_Die *d, struct ct_aitem *it, int depth);
void ct_dwa_set_none(struct ct_aitem *it, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* dwarfargs_a64.c's: where _mcount returns to in the function at lo (0:
 * no call of it found); whether fn's frame base is its CFA; one
 * parameter's format and location at site; the return value as AAPCS64
 * places it */
uint64_t ct_dwa_a64_mcount_ret(Elf *e, uint64_t lo);
bool ct_dwa_a64_fb_is_cfa(Dwarf_Die *fn);
void ct_dwa_a64_param(struct ct_dwa_ctx *c, Dwarf_Die *p, Dwarf_Die *d, uint64_t site, bool fb_cfa,
		      struct ct_aitem *it);
void ct_dwa_a64_retval(struct ct_dwa_ctx *c, struct ct_aitem *it, bool hidden);

#endif
