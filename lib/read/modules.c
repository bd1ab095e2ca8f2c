/* SPDX-License-Identifier: MIT */
/*
 * The module map of each process (from its .proc file) and symbol
 * resolution: an address -> the module that held it -> the symbol, with
 * each module's symbol table loaded once and each address resolved once.
 */
#include "session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "session_priv.h"
#include "symtab.h"
#include "util.h"

/* ---- the map ---------------------------------------------------------------- */

#define UNMODULE_WALK 256 /* modules at the same base looked at */

void ct_proc_add_module(struct ct_proc *p, const struct ct_module *m)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	if (p->nmodules == pp->capmod) {
		pp->capmod = pp->capmod ? 2 * pp->capmod : 16;
		p->modules = xrealloc(p->modules, pp->capmod * sizeof(*p->modules));
		pp->same_base = xrealloc(pp->same_base, pp->capmod * sizeof(*pp->same_base));
	}
	void **slot = ct_u64map_slot(&pp->bybase, m->base);
	pp->same_base[p->nmodules] = (uint32_t)(uintptr_t)*slot;
	p->modules[p->nmodules++] = *m;
	*slot = (void *)(uintptr_t)p->nmodules;
}

/* "unmodule CLOCK BASE PATH": the latest module still mapped at base with
 * that path was unmapped (the last UNMODULE_WALK at that base are looked at,
 * so that a hostile file cannot make this quadratic) */
void ct_proc_unmodule(struct ct_proc *p, uint64_t clk, uint64_t base, const char *path)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	uint32_t i = (uint32_t)(uintptr_t)ct_u64map_get(&pp->bybase, base);
	for (unsigned k = 0; i && k < UNMODULE_WALK; k++, i = pp->same_base[i - 1]) {
		struct ct_module *m = &p->modules[i - 1];
		if (m->unload_clock == UINT64_MAX && !strcmp(m->path, path)) {
			m->unload_clock = clk;
			return;
		}
	}
}

void ct_proc_free_modules(struct ct_proc *p)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	for (size_t i = 0; i < pp->cache.cap; i++) {
		if (pp->cache.used[i]) {
			struct ct_sym_info *si = pp->cache.vals[i];
			free((char *)si->name);
			free((char *)si->full);
			free(si);
		}
	}
	ct_u64map_free(&pp->cache);
	ct_u64map_free(&pp->bybase);
	free(pp->same_base);
	free(pp->bylo);
	free(pp->maxhi);
	for (size_t i = 0; i < p->nmodules; i++) {
		free(p->modules[i].path);
		free(p->modules[i].buildid);
	}
	free(p->modules);
}

void ct_session_free_symtabs(struct ct_session *s)
{
	struct session_priv *sp = priv(s);
	for (size_t i = 0; i < sp->symtabs.cap; i++) {
		if (!sp->symtabs.used[i])
			continue;
		for (struct symcache *c = sp->symtabs.vals[i], *n; c; c = n) {
			n = c->next;
			ct_symtab_free(c->tab);
			free(c->key);
			free(c);
		}
	}
	ct_u64map_free(&sp->symtabs);
	ct_withsyms_free(s);
}

/* ---- symbols ------------------------------------------------------------ */

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

static struct ct_symtab *module_symtab(struct ct_session *s, struct ct_module *mod)
{
	struct session_priv *sp = priv(s);
	char key[256];
	ct_symtab_key(mod->buildid, mod->path, key, sizeof(key));
	void **slot = ct_u64map_slot(&sp->symtabs, ct_hash_str(key));
	for (struct symcache *c = *slot; c; c = c->next)
		if (!strcmp(c->key, key))
			return c->tab;
	struct symcache *c = xcalloc(1, sizeof(*c));
	c->key = xstrdup(key);
	c->next = *slot;
	*slot = c;

	struct ct_error e;
	/* --with-syms: DIR's file wins over the saved table */
	const char *ws = ct_withsyms_file(s, mod);
	if (ws) {
		c->tab = ct_symtab_from_elf(ws, &e);
		if (c->tab)
			return c->tab;
		ct_session_warn(s, "--with-syms: %s; not used", e.msg);
	}
	c->tab = ct_symtab_load_saved(s->dir, key, &e);
	if (!c->tab && e.msg[0])
		ct_session_warn(s, "%s", e.msg);
	if (c->tab) {
		if (mod->buildid && access(mod->path, F_OK) == 0) {
			char *bid = ct_elf_buildid(mod->path);
			if (bid && strcmp(bid, mod->buildid))
				ct_session_warn(s,
						"%s: changed since the recording (build-id %s, "
						"recorded %s); "
						"using the saved symbols",
						mod->path, bid, mod->buildid);
			free(bid);
		}
		return c->tab;
	}
	const char *name = base_name(mod->path);
	if (!*mod->path || mod->path[0] == '[' || !strncmp(name, "linux-vdso", 10) ||
	    !strncmp(name, "linux-gate", 10))
		return NULL;
	if (access(mod->path, R_OK) < 0) {
		ct_session_warn(s, "%s: %s, and no saved symbols; names not resolved", mod->path,
				strerror(errno));
		return NULL;
	}
	char *bid = ct_elf_buildid(mod->path);
	if (mod->buildid && (!bid || strcmp(bid, mod->buildid))) {
		ct_session_warn(s,
				"%s: build-id mismatch (recorded %s, file has %s); names not "
				"resolved",
				mod->path, mod->buildid, bid ? bid : "none");
		free(bid);
		return NULL;
	}
	free(bid);
	c->tab = ct_symtab_from_elf(mod->path, &e);
	if (!c->tab)
		ct_session_warn(s, "%s; names not resolved", e.msg);
	return c->tab;
}

static const struct ct_module *sort_mods; /* for cmp_bylo */

static int cmp_bylo(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (sort_mods[x].lo != sort_mods[y].lo)
		return sort_mods[x].lo < sort_mods[y].lo ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* the choice among the modules that hold an address (session.h) */
bool ct_module_wins(const struct ct_module *m, size_t i, const struct ct_module *best, size_t bi)
{
	bool mm = m->unload_clock == UINT64_MAX, bm = best->unload_clock == UINT64_MAX;
	if (mm != bm)
		return mm;
	if (m->load_clock != best->load_clock)
		return m->load_clock > best->load_clock;
	return i > bi;
}

/* at most this many modules that start at or below an address are looked
 * at for it: a normal map has one or two, and a hostile .proc of
 * overlapping modules costs no more than this per address */
#define MODULE_WALK 64

/* the index by lo, made at the first look-up (again if modules were added) */
static void index_modules(struct proc_priv *pp)
{
	struct ct_proc *p = &pp->pub;
	size_t n = p->nmodules;
	if (!pp->bylo || pp->nindexed != n) { /* a session built by hand may add some */
		pp->bylo = xrealloc(pp->bylo, n * sizeof(*pp->bylo));
		pp->maxhi = xrealloc(pp->maxhi, n * sizeof(*pp->maxhi));
		pp->nindexed = n;
		for (size_t i = 0; i < n; i++)
			pp->bylo[i] = (uint32_t)i;
		sort_mods = p->modules;
		ct_qsort(pp->bylo, n, sizeof(*pp->bylo), cmp_bylo);
		for (size_t i = 0; i < n; i++) {
			uint64_t hi = p->modules[pp->bylo[i]].hi;
			pp->maxhi[i] = i && pp->maxhi[i - 1] > hi ? pp->maxhi[i - 1] : hi;
		}
		pp->overlaps = -1;
	}
}

/* the module containing addr, or NULL; with ns, among those mapped at that
 * time when there is one (a module loaded since, or unloaded before, held
 * the range at another time) */
static struct ct_module *find_module_at(struct ct_session *s, struct proc_priv *pp, uint64_t addr,
					const uint64_t *ns, unsigned *found)
{
	*found = 0;
	struct ct_proc *p = &pp->pub;
	size_t n = p->nmodules;
	if (!n)
		return NULL;
	index_modules(pp);
	/* the first position whose module starts above addr */
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->modules[pp->bylo[mid]].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	struct ct_module *best = NULL, *then = NULL;
	size_t bi = 0, ti = 0;
	for (size_t j = lo, k = 0; j-- > 0 && pp->maxhi[j] > addr && k < MODULE_WALK; k++) {
		size_t i = pp->bylo[j];
		struct ct_module *m = &p->modules[i];
		if (addr >= m->hi)
			continue;
		(*found)++;
		if (!best || ct_module_wins(m, i, best, bi)) {
			best = m;
			bi = i;
		}
		if (ns && ct_session_ns(s, m->load_clock) <= *ns &&
		    (m->unload_clock == UINT64_MAX || *ns < ct_session_ns(s, m->unload_clock)) &&
		    (!then || ct_module_wins(m, i, then, ti))) {
			then = m;
			ti = i;
		}
	}
	return then ? then : best;
}

static struct ct_module *find_module(struct proc_priv *pp, uint64_t addr)
{
	unsigned found;
	return find_module_at(NULL, pp, addr, NULL, &found);
}

const struct ct_module *ct_session_module(struct ct_session *s, struct ct_proc *p, uint64_t addr)
{
	(void)s;
	long tagged = ct_addr_module(addr);
	if (tagged >= 0 && (size_t)tagged < p->nmodules)
		return &p->modules[tagged];
	return find_module((struct proc_priv *)(void *)p, ct_addr_untag(addr));
}

bool ct_proc_overlaps(struct ct_proc *p)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	if (!p->nmodules)
		return false;
	index_modules(pp);
	if (pp->overlaps < 0) {
		/* by lo: a module that starts below the largest hi before it */
		pp->overlaps = 0;
		for (size_t i = 1; i < p->nmodules && !pp->overlaps; i++)
			pp->overlaps = p->modules[pp->bylo[i]].lo < pp->maxhi[i - 1];
	}
	return pp->overlaps;
}

uint64_t ct_proc_tag(struct ct_session *s, struct ct_proc *p, uint64_t addr, uint64_t ns)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	unsigned found;
	struct ct_module *m = find_module_at(s, pp, addr, &ns, &found);
	size_t i = m ? (size_t)(m - p->modules) : 0;
	/* only where the range held more than one module */
	if (!m || found < 2 || i + 1 >= (1u << (64 - CT_ADDR_TAG_SHIFT)) ||
	    addr >> CT_ADDR_TAG_SHIFT)
		return addr;
	return addr | (uint64_t)(i + 1) << CT_ADDR_TAG_SHIFT;
}

const struct ct_sym_info *ct_session_resolve(struct ct_session *s, struct ct_proc *p, uint64_t addr)
{
	struct proc_priv *pp = (struct proc_priv *)(void *)p;
	void **slot = ct_u64map_slot(&pp->cache, addr);
	if (*slot)
		return *slot;
	struct ct_sym_info *si = xcalloc(1, sizeof(*si));
	*slot = si;

	/* a tagged address names its module (session.h) */
	long tagged = ct_addr_module(addr);
	addr = ct_addr_untag(addr);
	/* a library call's alias is its jump to the library's function */
	uint64_t target = (uint64_t)(uintptr_t)ct_u64map_get(&pp->lcalias, addr);
	struct ct_module *mod = tagged >= 0 && (size_t)tagged < p->nmodules
					? &p->modules[tagged]
					: find_module(pp, target ? target : addr);
	if (!mod) {
		si->name = xasprintf("0x%" PRIx64, addr);
		return si;
	}
	si->module = base_name(mod->path);
	const char *lc = ct_u64map_get(&pp->lcnames, addr);
	if (lc) {
		/* a library call: named as the program called it, with the
		 * library (an IFUNC's implementation has a name of its own) */
		char *full = ct_demangle(lc);
		char *simple = full && s->demangle == CT_DEMANGLE_SIMPLE
				       ? ct_demangle_simplify(full)
				       : NULL;
		const char *nm = simple                                    ? simple
				 : full && s->demangle == CT_DEMANGLE_FULL ? full
									   : lc;
		si->name = xasprintf("%s@%s", nm, si->module);
		if (full && nm != full)
			si->full = xasprintf("%s@%s", full, si->module);
		free(full);
		free(simple);
		si->libcall = true;
		return si;
	}
	uint64_t off = addr - mod->base;
	struct ct_symtab *tab = module_symtab(s, mod);
	const struct ct_symbol *sym = tab ? ct_symtab_lookup(tab, off) : NULL;
	if (!sym) {
		si->name = xasprintf("%s+0x%" PRIx64, si->module, off);
		return si;
	}
	/* the name as --demangle says (demangle.h), and the full one beside
	 * it when that differs (the filters match both) */
	char *full = ct_demangle(sym->name);
	char *simple =
		full && s->demangle == CT_DEMANGLE_SIMPLE ? ct_demangle_simplify(full) : NULL;
	const char *nm = simple                                    ? simple
			 : full && s->demangle == CT_DEMANGLE_FULL ? full
								   : sym->name;
	if (off != sym->value)
		si->name = xasprintf("%s+0x%" PRIx64, nm, off - sym->value);
	else
		si->name = xstrdup(nm);
	if (full && off == sym->value && strcmp(full, si->name)) {
		si->full = full;
		full = NULL;
	}
	free(full);
	free(simple);
	si->file = sym->file;
	si->line = sym->line;
	if (off == sym->value)
		si->size = sym->size;
	return si;
}

bool ct_session_proc_has_symbols(struct ct_session *s, struct ct_proc *p)
{
	struct ct_module *mod = NULL;
	for (size_t i = 0; i < p->nmodules && p->exe && !mod; i++)
		if (!strcmp(p->modules[i].path, p->exe))
			mod = &p->modules[i];
	if (!mod && p->nmodules)
		mod = &p->modules[0];
	return mod && module_symtab(s, mod);
}

const char *ct_session_func_at(struct ct_session *s, struct ct_proc *p, uint64_t addr)
{
	const struct ct_sym_info *si = ct_session_resolve(s, p, addr);
	if (!si->module)
		return NULL;
	/* "name+0x1f" or "module+0x1f": not the start of a function */
	const char *plus = strrchr(si->name, '+');
	if (plus && plus[1] == '0' && plus[2] == 'x' && plus[3] &&
	    strspn(plus + 3, "0123456789abcdef") == strlen(plus + 3))
		return NULL;
	return si->name;
}

/* ---- arguments ------------------------------------------------------------ */

struct symctx {
	struct ct_session *s;
	struct ct_proc *p;
};

static const char *session_sym(void *ctx, uint64_t addr)
{
	struct symctx *c = ctx;
	return c->p ? ct_session_func_at(c->s, c->p, addr) : NULL;
}

size_t ct_event_args_text(struct ct_session *s, struct ct_proc *p, const struct ct_callargs *a,
			  bool ret, char *buf, size_t len)
{
	struct symctx c = {s, p};
	return ct_args_format(s->argtab, a, ret, session_sym, &c, buf, len);
}
