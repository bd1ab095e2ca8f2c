/* SPDX-License-Identifier: MIT */
/*
 * Per-module function tables, each function with a 32-bit value, put into
 * an address hash (struct ct_filt_hash, read by look-ups on the hot paths)
 * when their module is mapped (start-up, dlopen) and taken out when it is
 * unmapped (dlclose).  The record-time filters (filter.c: a function's
 * CT_FL_* flags) and plugins (plugin.c: its index and whether it is
 * selected) each keep one, filled from the spec file `record` wrote.
 * libc only; the arrays are mmap'ed.
 */
#ifndef CT_RT_ADDRTAB_H
#define CT_RT_ADDRTAB_H

#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "internal.h"

struct ct_atab_func {
	uint64_t off; /* from the module's load bias */
	uint32_t val; /* what the hash gives for it (not 0) */
};

struct ct_atab_mod {
	char buildid[128]; /* "" when the spec says "-" */
	char path[PATH_MAX];
	uint32_t f0, nf; /* its functions: funcs[f0 .. f0 + nf) */
};

#define CT_ATAB_MAX_MODS 512
#define CT_ATAB_MAX_ATTACHED 1024

struct ct_atab {
	struct ct_filt_hash *h; /* the hash the look-ups read */
	uint64_t used;          /* slots taken once (kept below 3/4 of them) */
	struct ct_atab_func *funcs;
	uint32_t nfuncs;
	struct ct_atab_mod *mods;
	uint32_t nmods;
	struct {
		uintptr_t base;
		uint32_t mod;
	} att[CT_ATAB_MAX_ATTACHED]; /* the modules mapped now */
	uint32_t natt;
};

/* room for nf functions in nm modules (nm at most CT_ATAB_MAX_MODS) */
bool ct_atab_alloc(struct ct_atab *t, uint32_t nf, uint32_t nm) CT_HIDDEN;
/* the hash, with cap slots (a power of 2); false when it cannot be had */
bool ct_atab_hash(struct ct_atab *t, uint64_t cap) CT_HIDDEN;
/* the module at base (path, build id or NULL/"-") was mapped (added) or
 * unmapped: its functions go into the hash or out of it */
void ct_atab_module(struct ct_atab *t, uintptr_t base, const char *path, const char *buildid,
		    bool added) CT_HIDDEN;

/* a's value is v from now on (a library call's alias, runtime/libcall.c);
 * nothing when the table has no hash or v is 0 */
void ct_atab_put(struct ct_atab *t, uintptr_t a, uint32_t v) CT_HIDDEN;

/* the module mapped at base: the functions whose value has a bit of mask
 * set their byte of ct_sel_bloom (internal.h), which sends their calls
 * off the fast paths (--inject's rules, a limited --plugin) */
void ct_atab_select(const struct ct_atab *t, uintptr_t base, uint32_t mask) CT_HIDDEN;
/* n bytes of zeroed private memory (mmap), or NULL */
void *ct_map_anon(size_t n) CT_HIDDEN;

#endif
