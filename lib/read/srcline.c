/* SPDX-License-Identifier: MIT */
/*
 * Source lines of call sites and functions (lib/read/srcline.h).
 *
 * A call site is a return address in the caller: the call is the
 * instruction before it, so address - 1 is looked up in the line table of
 * the module that holds it (libdw: dwarf_addrdie, then dwarf_getsrc_die),
 * read from the module's file when its build-id is the recorded one, else
 * from its separate debug file (/usr/lib/debug/.build-id/).  Every result,
 * found or not, is cached per process and address; every module's DWARF is
 * opened once.
 */
#include "srcline.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session.h"
#include "session_priv.h"
#include "symtab.h"
#include "symtab_priv.h"
#include "util.h"

struct curange {
	uint64_t lo, hi;
	Dwarf_Die cu;
};

struct dwmod {
	Dwarf *dw; /* NULL: no line table to be had */
	int fd;
	/* without .debug_aranges (clang's default): the units' address
	 * ranges, made at the first address dwarf_addrdie does not find */
	struct curange *ranges;
	size_t nranges;
	bool ranged;
};

struct srccache {
	struct ct_u64map
		procs; /* struct ct_proc * -> struct ct_u64map * (site -> char *, "" for none) */
	struct ct_u64map mods;  /* hash of its build-id (or path) -> struct dwmod *:
				 * a binary's DWARF opened once for all the
				 * processes that map it */
	struct ct_u64map funcs; /* struct ct_sym_info * -> char * ("" for none) */
};

/* the session's cache (session_priv.h's srcline) */
static struct srccache *cache_of(struct ct_session *s, bool make)
{
	struct session_priv *sp = priv(s);
	if (!sp->srcline && make) {
		struct srccache *c = xcalloc(1, sizeof(*c));
		ct_u64map_init(&c->procs);
		ct_u64map_init(&c->mods);
		ct_u64map_init(&c->funcs);
		sp->srcline = c;
	}
	return sp->srcline;
}

/* a DWARF handle for the file at path if its build-id is want (any when
 * want is NULL), else NULL */
static Dwarf *open_dwarf(const char *path, const char *want, int *fdp)
{
	if (!path)
		return NULL;
	if (want) {
		char *id = ct_elf_buildid(path);
		bool same = id && !strcmp(id, want);
		free(id);
		if (!same)
			return NULL;
	}
	elf_version(EV_CURRENT);
	/* a file a recording names: a regular one (a FIFO or a device in its
	 * place must neither block nor be read without end) */
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(path, false, &size, &why);
	if (fd < 0)
		return NULL;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		close(fd);
		return NULL;
	}
	*fdp = fd;
	return dw;
}

static struct dwmod *dwmod_of(struct ct_session *s, struct srccache *c, const struct ct_module *m)
{
	void **slot = ct_u64map_slot(&c->mods, ct_hash_str(m->buildid ? m->buildid
							   : m->path  ? m->path
								      : ""));
	if (*slot)
		return *slot;
	struct dwmod *d = xcalloc(1, sizeof(*d));
	d->fd = -1;
	/* --with-syms: DIR's file first (its build-id checked there) */
	const char *ws = ct_withsyms_file(s, m);
	if (ws)
		d->dw = open_dwarf(ws, NULL, &d->fd);
	if (!d->dw)
		d->dw = open_dwarf(m->path, m->buildid, &d->fd);
	if (!d->dw && m->buildid) {
		char *dbg = ct_debug_file_path(m->buildid);
		d->dw = open_dwarf(dbg, NULL, &d->fd);
		free(dbg);
	}
	*slot = d;
	return d;
}

static void add_ranges(struct dwmod *d)
{
	size_t cap = 0;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t type;
	d->ranged = true;
	while (dwarf_get_units(d->dw, cu, &cu, NULL, &type, &cudie, &subdie) == 0) {
		if (type != DW_UT_compile && type != DW_UT_partial)
			continue;
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;
		while ((off = dwarf_ranges(&cudie, off, &base, &start, &end)) > 0) {
			if (d->nranges == cap) {
				cap = cap ? 2 * cap : 64;
				d->ranges = xrealloc(d->ranges, cap * sizeof(*d->ranges));
			}
			d->ranges[d->nranges++] = (struct curange){start, end, cudie};
		}
	}
}

/* the unit that holds ELF address a */
static bool unit_of(struct dwmod *d, uint64_t a, Dwarf_Die *cu)
{
	if (dwarf_addrdie(d->dw, a, cu))
		return true;
	if (!d->ranged)
		add_ranges(d);
	for (size_t i = 0; i < d->nranges; i++)
		if (a >= d->ranges[i].lo && a < d->ranges[i].hi) {
			*cu = d->ranges[i].cu;
			return true;
		}
	return false;
}

/* "file:line" of the instruction at ELF address a of module d, or NULL */
static char *line_at(struct dwmod *d, uint64_t a)
{
	Dwarf_Die cu;
	if (!d->dw || !unit_of(d, a, &cu))
		return NULL;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, a);
	int line = 0;
	const char *file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(l, &line) != 0 || line <= 0)
		return NULL;
	return xasprintf("%s:%d", ct_basename(file), line);
}

const char *ct_srcline_site(struct ct_session *s, struct ct_proc *p, uint64_t site)
{
	if (!site || !p)
		return NULL;
	struct srccache *c = cache_of(s, true);
	void **ps = ct_u64map_slot(&c->procs, (uint64_t)(uintptr_t)p);
	if (!*ps) {
		struct ct_u64map *m = xmalloc(sizeof(*m));
		ct_u64map_init(m);
		*ps = m;
	}
	void **slot = ct_u64map_slot(*ps, site);
	if (!*slot) {
		const struct ct_module *m = ct_session_module(s, p, site - 1);
		char *text =
			m ? line_at(dwmod_of(s, c, m), ct_addr_untag(site) - 1 - m->base) : NULL;
		*slot = text ? text : xstrdup("");
	}
	return **(char **)slot ? *slot : NULL;
}

const char *ct_srcline_site_or_addr(struct ct_session *s, struct ct_proc *p, uint64_t site)
{
	const char *t = ct_srcline_site(s, p, site);
	if (t || !site || !p)
		return t ? t : "";
	/* (the process's map has it: ct_srcline_site made it; bit 63 is
	 * never an address's) */
	struct srccache *c = cache_of(s, true);
	void **slot =
		ct_u64map_slot(ct_u64map_get(&c->procs, (uint64_t)(uintptr_t)p), site | 1ull << 63);
	if (!*slot)
		*slot = xasprintf("0x%" PRIx64, ct_addr_untag(site));
	return *slot;
}

const char *ct_srcline_func(struct ct_session *s, struct ct_proc *p, uint64_t addr)
{
	const struct ct_sym_info *si = p ? ct_session_resolve(s, p, addr) : NULL;
	if (!si || !si->file || si->line <= 0)
		return NULL;
	struct srccache *c = cache_of(s, true);
	void **slot = ct_u64map_slot(&c->funcs, (uint64_t)(uintptr_t)si);
	if (!*slot)
		*slot = xasprintf("%s:%d", ct_basename(si->file), si->line);
	return *slot;
}

size_t ct_srcline_note(struct ct_session *s, struct ct_proc *p, uint64_t fn, uint64_t site,
		       char *buf, size_t len)
{
	const char *own = ct_srcline_func(s, p, fn);
	const char *from = ct_srcline_site(s, p, site);
	int n = snprintf(buf, len, "%s%s%s%s", own ? own : "", own && from ? ", " : "",
			 from ? "from " : "", from ? from : "");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static void free_strings(struct ct_u64map *m)
{
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i])
			free(m->vals[i]);
	ct_u64map_free(m);
}

void ct_srcline_free(struct ct_session *s)
{
	struct srccache *c = cache_of(s, false);
	if (!c)
		return;
	for (size_t i = 0; i < c->procs.cap; i++)
		if (c->procs.used[i]) {
			free_strings(c->procs.vals[i]);
			free(c->procs.vals[i]);
		}
	ct_u64map_free(&c->procs);
	for (size_t i = 0; i < c->mods.cap; i++)
		if (c->mods.used[i]) {
			struct dwmod *d = c->mods.vals[i];
			if (d->dw)
				dwarf_end(d->dw);
			if (d->fd >= 0)
				close(d->fd);
			free(d->ranges);
			free(d);
		}
	ct_u64map_free(&c->mods);
	free_strings(&c->funcs);
	free(c);
	priv(s)->srcline = NULL;
}
