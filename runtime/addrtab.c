/* SPDX-License-Identifier: MIT */
/* Per-module function tables in an address hash: see addrtab.h */
#include "addrtab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* internal.h: the functions an injection rule or a limited plugin selects */
bool ct_sel_on;
bool ct_sel_exits;
uint8_t ct_sel_bloom[CT_SEL_BLOOM];

#define TOMB 1u /* a key taken out (0: empty) */

void *ct_map_anon(size_t n)
{
	void *p = mmap(NULL, n ? n : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

bool ct_atab_alloc(struct ct_atab *t, uint32_t nf, uint32_t nm)
{
	if (nm > CT_ATAB_MAX_MODS)
		return false;
	t->funcs = ct_map_anon((nf ? nf : 1) * sizeof(*t->funcs));
	t->mods = ct_map_anon((nm ? nm : 1) * sizeof(*t->mods));
	return t->funcs && t->mods;
}

bool ct_atab_hash(struct ct_atab *t, uint64_t cap)
{
	struct ct_filt_hash *h = t->h;
	h->vals = ct_map_anon(cap * sizeof(uint32_t));
	h->keys = ct_map_anon(cap * sizeof(uint64_t));
	if (!h->keys || !h->vals) {
		h->keys = NULL;
		return false;
	}
	h->mask = cap - 1;
	return true;
}

/* the look-ups stop at an empty slot: a quarter of them stays empty (a
 * module's later functions are then not seen) */
static void insert(struct ct_atab *t, uint64_t a, uint32_t v)
{
	struct ct_filt_hash *h = t->h;
	if (t->used >= h->mask / 4 * 3)
		return;
	uint64_t i = ct_filt_hashof(a) & h->mask;
	for (;;) {
		uint64_t k = h->keys[i];
		if (k == a || k == 0 || k == TOMB) {
			t->used += k == 0;
			h->vals[i] = v;
			__atomic_store_n(&h->keys[i], a, __ATOMIC_RELEASE);
			return;
		}
		i = (i + 1) & h->mask;
	}
}

static void erase(struct ct_atab *t, uint64_t a)
{
	struct ct_filt_hash *h = t->h;
	uint64_t i = ct_filt_hashof(a) & h->mask;
	for (;;) {
		uint64_t k = h->keys[i];
		if (k == a) {
			__atomic_store_n(&h->keys[i], TOMB, __ATOMIC_RELEASE);
			return;
		}
		if (k == 0)
			return;
		i = (i + 1) & h->mask;
	}
}

void ct_atab_put(struct ct_atab *t, uintptr_t a, uint32_t v)
{
	if (t->h->keys && v)
		insert(t, a, v);
}

static bool same_path(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return true;
	char ra[PATH_MAX];
	return realpath(b, ra) && !strcmp(a, ra);
}

void ct_atab_module(struct ct_atab *t, uintptr_t base, const char *path, const char *buildid,
		    bool added)
{
	if (!t->h->keys)
		return;
	if (!added) {
		for (uint32_t i = 0; i < t->natt; i++) {
			if (t->att[i].base != base)
				continue;
			const struct ct_atab_mod *m = &t->mods[t->att[i].mod];
			for (uint32_t j = 0; j < m->nf; j++)
				erase(t, base + t->funcs[m->f0 + j].off);
			t->att[i] = t->att[--t->natt];
			return;
		}
		return;
	}
	bool has_bid = buildid && strcmp(buildid, "-") != 0;
	for (uint32_t i = 0; i < t->nmods; i++) {
		const struct ct_atab_mod *m = &t->mods[i];
		if (has_bid && m->buildid[0] ? strcmp(m->buildid, buildid) != 0
					     : !same_path(m->path, path))
			continue;
		if (t->natt == CT_ATAB_MAX_ATTACHED)
			return;
		t->att[t->natt].base = base;
		t->att[t->natt].mod = i;
		t->natt++;
		for (uint32_t j = 0; j < m->nf; j++)
			insert(t, base + t->funcs[m->f0 + j].off, t->funcs[m->f0 + j].val);
		return;
	}
}

void ct_atab_select(const struct ct_atab *t, uintptr_t base, uint32_t mask)
{
	for (uint32_t i = 0; i < t->natt; i++) {
		if (t->att[i].base != base)
			continue;
		const struct ct_atab_mod *m = &t->mods[t->att[i].mod];
		for (uint32_t j = 0; j < m->nf; j++)
			if (t->funcs[m->f0 + j].val & mask)
				ct_sel_mark(base + t->funcs[m->f0 + j].off);
	}
}
