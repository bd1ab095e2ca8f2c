/* SPDX-License-Identifier: MIT */
/*
 * calltrace coverage: which functions of each instrumented module were
 * called, and which never were.
 *
 * One pass over all streams counts the entries per (process, address).
 * Each address is then put in its module (as ct_session_resolve does) and
 * attributed to the module's function symbol containing it.  A module is
 * "instrumented" when at least one traced call landed in it (--all-modules:
 * every module with symbols).  Modules are keyed like DIR/sym (build-id, or
 * a hash of the path), so the same module in several processes is one entry.
 * Symbols come from --with-syms DIR's file, else DIR/sym/<key>.sym, else
 * from the ELF file when its build-id matches the recorded one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "counts.h"
#include "message.h"
#include "session.h"
#include "symtab.h"
#include "output.h"
#include "progress.h"
#include "util.h"
#include "view.h"

enum { OPT_FORMAT = 256, OPT_FAIL_UNDER };

static const char head[] =
	"usage: calltrace coverage [options]\n"
	"\n"
	"Function coverage: which functions of each instrumented module (one in\n"
	"which at least one traced call landed) were called, which never were.\n"
	"\n"
	"options:\n";

static const char tail[] = "\n"
			   "exit status: 0 ok, 1 bad data, 2 bad usage, 3 below --fail-under\n";

struct func {
	const char *name; /* display name (demangled when asked) */
	char *dm;         /* malloc'd demangled name or NULL */
	char *key;        /* malloc'd: what its variants share (variant_key) */
	bool thunk;       /* a thunk to the function */
	const char *file; /* DWARF file or NULL */
	uint64_t value;
	uint64_t calls;
};

struct module {
	char *key;
	char *path;
	struct ct_symtab *tab; /* NULL: no symbols */
	uint64_t *counts;      /* per symbol of tab */
	bool instrumented;
	struct func *funcs;
	size_t nfuncs, called;
};

struct cov {
	struct ct_session *s;
	struct module *mods;
	size_t nmods;
	struct ct_u64map *calls;  /* per proc: address -> count */
	struct ct_u64map *pcalls; /* that of the thread being read */
	enum { F_TEXT, F_JSON } fmt;
	double fail_under; /* -1: none */
	bool all_modules;
};

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* the symbols of a module, as ct_session_resolve finds them */
static struct ct_symtab *load_symtab(struct ct_session *s, const struct ct_module *mod,
				     const char *key)
{
	struct ct_error e;
	struct ct_symtab *tab = NULL;
	const char *ws = ct_withsyms_file(s, mod); /* --with-syms: first */
	if (ws && !(tab = ct_symtab_from_elf(ws, &e)))
		ct_session_warn(s, "--with-syms: %s; not used", e.msg);
	if (tab)
		return tab;
	tab = ct_symtab_load_saved(s->dir, key, &e);
	if (!tab && e.msg[0])
		ct_session_warn(s, "%s", e.msg);
	if (tab)
		return tab;
	const char *name = base_name(mod->path);
	if (!*mod->path || mod->path[0] == '[' || !strncmp(name, "linux-vdso", 10) ||
	    !strncmp(name, "linux-gate", 10) || access(mod->path, R_OK) < 0)
		return NULL;
	char *bid = ct_elf_buildid(mod->path);
	bool ok = !mod->buildid || (bid && !strcmp(bid, mod->buildid));
	free(bid);
	if (!ok) {
		ct_session_warn(s, "%s: build-id mismatch; its functions are not counted",
				mod->path);
		return NULL;
	}
	tab = ct_symtab_from_elf(mod->path, &e);
	if (!tab)
		ct_session_warn(s, "%s", e.msg);
	return tab;
}

static struct module *get_module(struct cov *c, const struct ct_module *mod)
{
	char key[256];
	ct_symtab_key(mod->buildid, mod->path, key, sizeof(key));
	for (size_t i = 0; i < c->nmods; i++)
		if (!strcmp(c->mods[i].key, key))
			return &c->mods[i];
	c->mods = xrealloc(c->mods, (c->nmods + 1) * sizeof(*c->mods));
	struct module *m = &c->mods[c->nmods++];
	memset(m, 0, sizeof(*m));
	m->key = xstrdup(key);
	m->path = xstrdup(mod->path);
	m->tab = load_symtab(c->s, mod, key);
	if (m->tab)
		m->counts = xcalloc(m->tab->nsyms ? m->tab->nsyms : 1, sizeof(*m->counts));
	return m;
}

/* the module containing addr in p: among several, the one
 * ct_session_resolve would take (ct_module_wins) */
static const struct ct_module *find_module(const struct ct_proc *p, uint64_t addr)
{
	const struct ct_module *mod = NULL;
	size_t mi = 0;
	for (size_t i = 0; i < p->nmodules; i++) {
		const struct ct_module *m = &p->modules[i];
		if (addr < m->lo || addr >= m->hi)
			continue;
		if (!mod || ct_module_wins(m, i, mod, mi)) {
			mod = m;
			mi = i;
		}
	}
	return mod;
}

/* not a function of the program's own: runtime and compiler support */
static bool skip_symbol(const char *n)
{
	static const char *const names[] = {
		"_start",
		"_init",
		"_fini",
		"frame_dummy",
		"register_tm_clones",
		"deregister_tm_clones",
		"_dl_relocate_static_pie",
	};
	if (n[0] == '_' && n[1] != 'Z' && ((n[1] >= 'A' && n[1] <= 'Z') || n[1] == '_'))
		return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(n, names[i]))
			return true;
	if (strstr(n, ".cold"))
		return true; /* a split-off part of a function, never entered */
	return false;
}

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;
	int r = strcmp(x->name, y->name);
	return r ? r : (x->value > y->value) - (x->value < y->value);
}

/* one source function's variants together: by key, then file */
static int cmp_variant(const void *a, const void *b)
{
	const struct func *x = a, *y = b;
	int r = strcmp(x->key, y->key);
	if (r)
		return r;
	if (!x->file || !y->file)
		return (!x->file) - (!y->file);
	r = strcmp(x->file, y->file);
	if (r)
		return r;
	/* the variant that names the function first: not a thunk, lowest
	 * address */
	if (x->thunk != y->thunk)
		return x->thunk - y->thunk;
	return (x->value > y->value) - (x->value < y->value);
}

/* the key that a function's variants share: the full demangled name
 * without a thunk's prefix (a C++ constructor's or destructor's complete,
 * base and deleting variants, and the thunks that adjust `this` before
 * jumping to one, are one function of the source) */
static char *variant_key(const char *mangled, bool *thunk)
{
	static const char *const pfx[] = {"virtual thunk to ", "non-virtual thunk to ",
					  "covariant return thunk to "};
	char *full = ct_demangle_as(mangled, CT_DEMANGLE_FULL);
	char *k = full ? full : xstrdup(mangled);
	*thunk = false;
	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++) {
		size_t n = strlen(pfx[i]);
		if (!strncmp(k, pfx[i], n)) {
			memmove(k, k + n, strlen(k + n) + 1);
			*thunk = true;
			break;
		}
	}
	return k;
}

static void build_funcs(struct cov *c, struct module *m)
{
	struct ct_symtab *t = m->tab;
	bool has_file = false;
	m->funcs = xcalloc(t->nsyms ? t->nsyms : 1, sizeof(*m->funcs));
	for (size_t i = 0; i < t->nsyms;) {
		/* aliases share a value: one function, named by the first kept name */
		size_t j = i;
		uint64_t calls = 0;
		const struct ct_symbol *keep = NULL;
		for (; j < t->nsyms && t->syms[j].value == t->syms[i].value; j++) {
			calls += m->counts[j];
			if (!keep && !skip_symbol(t->syms[j].name))
				keep = &t->syms[j];
		}
		i = j;
		if (!keep)
			continue;
		struct func *f = &m->funcs[m->nfuncs++];
		f->dm = ct_demangle_as(keep->name, c->s->demangle);
		f->name = f->dm ? f->dm : keep->name;
		f->key = variant_key(keep->name, &f->thunk);
		f->file = keep->file;
		f->value = keep->value;
		f->calls = calls;
		has_file |= f->file != NULL;
	}
	/* a module built with debug info: its functions are those its DWARF
	 * describes; a function it does not (a crt file's or libc_nonshared's
	 * code linked in, as -pg's atexit, a compiler's thunk) is not the
	 * program's own */
	size_t n = 0;
	for (size_t i = 0; i < m->nfuncs; i++) {
		if (has_file && !m->funcs[i].file) {
			free(m->funcs[i].dm);
			free(m->funcs[i].key);
			continue;
		}
		m->funcs[n++] = m->funcs[i];
	}
	m->nfuncs = n;
	/* variants of one source function are one function, called when one
	 * of them was */
	ct_qsort(m->funcs, m->nfuncs, sizeof(*m->funcs), cmp_variant);
	n = 0;
	for (size_t i = 0; i < m->nfuncs; i++) {
		struct func *f = &m->funcs[i];
		struct func *g = n ? &m->funcs[n - 1] : NULL;
		if (g && !strcmp(g->key, f->key) &&
		    (g->file == f->file || (g->file && f->file && !strcmp(g->file, f->file)))) {
			g->calls += f->calls;
			free(f->dm);
			free(f->key);
			continue;
		}
		m->funcs[n++] = *f;
	}
	m->nfuncs = n;
	m->called = 0;
	for (size_t i = 0; i < m->nfuncs; i++)
		m->called += m->funcs[i].calls != 0;
	ct_qsort(m->funcs, m->nfuncs, sizeof(*m->funcs), cmp_func);
}

static double pct(size_t called, size_t total)
{
	return total ? 100.0 * (double)called / (double)total : 0.0;
}

struct fileagg {
	const char *file;
	size_t total, called;
};

static int cmp_fileagg(const void *a, const void *b)
{
	const struct fileagg *x = a, *y = b;
	if (!x->file || !y->file)
		return (!x->file) - (!y->file); /* unknown last */
	return strcmp(x->file, y->file);
}

static size_t per_file(const struct module *m, struct fileagg **out)
{
	struct fileagg *fa = xcalloc(m->nfuncs ? m->nfuncs : 1, sizeof(*fa));
	size_t n = 0;
	for (size_t i = 0; i < m->nfuncs; i++) {
		const struct func *f = &m->funcs[i];
		size_t k;
		for (k = 0; k < n; k++)
			if ((!fa[k].file && !f->file) ||
			    (fa[k].file && f->file && !strcmp(fa[k].file, f->file)))
				break;
		if (k == n)
			fa[n++].file = f->file;
		fa[k].total++;
		fa[k].called += f->calls != 0;
	}
	ct_qsort(fa, n, sizeof(*fa), cmp_fileagg);
	*out = fa;
	return n;
}

/* the functions of all modules with symbols, and those called */
static void totals(const struct cov *c, size_t *total, size_t *called)
{
	*total = *called = 0;
	for (size_t i = 0; i < c->nmods; i++)
		if (c->mods[i].funcs) {
			*total += c->mods[i].nfuncs;
			*called += c->mods[i].called;
		}
}

static void print_text(const struct cov *c, FILE *out)
{
	size_t total, called;
	totals(c, &total, &called);
	for (size_t i = 0; i < c->nmods; i++) {
		const struct module *m = &c->mods[i];
		if (!m->funcs)
			continue;
		fprintf(out, "%s  %zu/%zu (%.1f%%)\n", ct_tx(m->path), m->called, m->nfuncs,
			pct(m->called, m->nfuncs));
		struct fileagg *fa;
		size_t n = per_file(m, &fa);
		for (size_t k = 0; k < n; k++)
			fprintf(out, "  %s  %zu/%zu (%.1f%%)\n",
				fa[k].file ? ct_tx(fa[k].file) : "(unknown file)", fa[k].called,
				fa[k].total, pct(fa[k].called, fa[k].total));
		free(fa);
		if (m->called < m->nfuncs) {
			fprintf(out, "  never called:\n");
			for (size_t k = 0; k < m->nfuncs; k++)
				if (!m->funcs[k].calls)
					fprintf(out, "    %s\n", ct_tx(m->funcs[k].name));
		}
	}
	fprintf(out, "total  %zu/%zu (%.1f%%)\n", called, total, pct(called, total));
}

static void print_json(const struct cov *c, FILE *out)
{
	size_t total, called;
	bool first = true;
	totals(c, &total, &called);
	fputs("{\"modules\":[", out);
	for (size_t i = 0; i < c->nmods; i++) {
		const struct module *m = &c->mods[i];
		if (!m->funcs)
			continue;
		fputs(first ? "\n{\"path\":" : ",\n{\"path\":", out);
		first = false;
		ct_json_string(out, m->path);
		fprintf(out, ",\"functions\":%zu,\"called\":%zu,\"percent\":%.2f,\"files\":[",
			m->nfuncs, m->called, pct(m->called, m->nfuncs));
		struct fileagg *fa;
		size_t n = per_file(m, &fa);
		for (size_t k = 0; k < n; k++) {
			fputs(k ? ",{\"file\":" : "{\"file\":", out);
			if (fa[k].file)
				ct_json_string(out, fa[k].file);
			else
				fputs("null", out);
			fprintf(out, ",\"functions\":%zu,\"called\":%zu,\"percent\":%.2f}",
				fa[k].total, fa[k].called, pct(fa[k].called, fa[k].total));
		}
		free(fa);
		fputs("],\"uncalled\":[", out);
		bool f1 = true;
		for (size_t k = 0; k < m->nfuncs; k++) {
			if (m->funcs[k].calls)
				continue;
			if (!f1)
				fputc(',', out);
			f1 = false;
			ct_json_string(out, m->funcs[k].name);
		}
		fputs("],\"called_functions\":[", out);
		f1 = true;
		for (size_t k = 0; k < m->nfuncs; k++) {
			if (!m->funcs[k].calls)
				continue;
			fputs(f1 ? "{\"name\":" : ",{\"name\":", out);
			f1 = false;
			ct_json_string(out, m->funcs[k].name);
			fprintf(out, ",\"calls\":%" PRIu64 "}", m->funcs[k].calls);
		}
		fputs("]}", out);
	}
	fprintf(out, "\n],\"functions\":%zu,\"called\":%zu,\"percent\":%.2f}\n", total, called,
		pct(called, total));
}

/* the one pass: entries per (process, address) */
static void count(void *ctx, struct ct_thread *t, const struct ct_event *evs, int n)
{
	struct cov *c = ctx;
	(void)t;
	for (int k = 0; k < n; k++)
		if (evs[k].kind == CT_ENTER) {
			void **slot = ct_u64map_slot(c->pcalls, evs[k].addr);
			*slot = (void *)((uintptr_t)*slot + 1);
		}
}

/* with filters, every call still says which modules are traced: its
 * function is known, with no call counted yet */
static void seen(void *ctx, struct ct_thread *t, const struct ct_event *evs, int n)
{
	struct cov *c = ctx;
	(void)t;
	for (int k = 0; k < n; k++)
		if (evs[k].kind == CT_ENTER)
			ct_u64map_slot(c->pcalls, evs[k].addr);
}

/* with -F/-N/--hide/-D/-t: the calls the filters show */
static void emit(void *ctx, const struct ct_fevent *fe)
{
	if (fe->ev.kind == CT_ENTER)
		count(ctx, NULL, &fe->ev, 1);
}

/* a recording of call counts (record --count): the calls into each callee
 * address of each thread; 0, or 1 after a message */
static int read_counts(struct cov *c, struct ct_view *v)
{
	struct ct_counts cnt;
	int rc = ct_view_counts_load(v, &cnt);
	for (size_t k = 0; k < cnt.nthreads && !rc; k++) {
		const struct ct_count_thread *t = &cnt.threads[k];
		size_t pi = 0;
		while (pi < c->s->nprocs &&
		       (c->s->procs[pi]->pid != t->pid || c->s->procs[pi]->gen != t->gen))
			pi++;
		if (pi == c->s->nprocs)
			continue;
		for (size_t i = 0; i < t->naddrs; i++) {
			void **slot = ct_u64map_slot(&c->calls[pi], t->addrs[i].addr);
			*slot = (void *)((uintptr_t)*slot + t->addrs[i].calls);
		}
	}
	ct_counts_free(&cnt);
	return rc;
}

/* a thread of a process the recording knows */
static int read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct cov *c = ctx;
	size_t pi = 0;
	while (pi < c->s->nprocs && c->s->procs[pi] != t->proc)
		pi++;
	if (pi == c->s->nprocs)
		return 0;
	c->pcalls = &c->calls[pi];
	return ct_view_read_thread(v, t, NULL, emit, c);
}

static void attribute(struct cov *c, bool all_modules)
{
	struct ct_session *s = c->s;
	for (size_t pi = 0; pi < s->nprocs; pi++) {
		struct ct_proc *p = s->procs[pi];
		struct ct_u64map *mp = &c->calls[pi];
		for (size_t i = 0; i < mp->cap; i++) {
			if (!mp->used[i])
				continue;
			/* an address tagged with its module (session.h) is in that
			 * one, whatever was mapped there later */
			uint64_t addr = ct_addr_untag(mp->keys[i]);
			long tm = ct_addr_module(mp->keys[i]);
			const struct ct_module *mod = tm >= 0 && (size_t)tm < p->nmodules
							      ? &p->modules[tm]
							      : find_module(p, addr);
			if (!mod)
				continue;
			/* a library call (doc/libcall.md) makes no module
			 * instrumented: it is the caller's coverage */
			if (ct_session_resolve(s, p, mp->keys[i])->libcall)
				continue;
			struct module *m = get_module(c, mod);
			m->instrumented = true;
			if (!m->tab)
				continue;
			const struct ct_symbol *sym = ct_symtab_lookup(m->tab, addr - mod->base);
			if (sym)
				m->counts[sym - m->tab->syms] += (uintptr_t)mp->vals[i];
		}
		if (all_modules)
			for (size_t k = 0; k < p->nmodules; k++)
				get_module(c, &p->modules[k]);
	}
	for (size_t i = 0; i < c->nmods; i++) {
		struct module *m = &c->mods[i];
		if (m->tab && (m->instrumented || all_modules))
			build_funcs(c, m);
	}
}

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	{"format", OPT_FORMAT, "text|json", "the output's format (default text)"},
	{"fail-under", OPT_FAIL_UNDER, "PCT", "exit 3 when the overall percentage is below PCT"},
	CT_OPT_FLAG("all-modules", struct cov, all_modules,
		    "every module with symbols, not only instrumented ones"),
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_TIDS,
	CT_OPT_CALL_FILTERS("only calls at depth < N (counted as in replay)"),
	CT_OPT_PAGER,
	CT_OPT_HELP,
	CT_OPT_END,
};

/* the view's own options */
static int option(struct ct_view *v, int c, const char *arg, struct ct_error *err)
{
	struct cov *cv = v->ctx;
	static const char *const fmts[] = {[F_TEXT] = "text", [F_JSON] = "json"};
	char *end;
	int i;

	switch (c) {
	case OPT_FORMAT:
		i = ct_view_choice("--format", arg, fmts, 2, "text or json", err);
		if (i >= 0)
			cv->fmt = i;
		return i < 0 ? -1 : 0;
	case OPT_FAIL_UNDER:
		errno = 0;
		cv->fail_under = strtod(arg, &end);
		if (errno || end == arg || *end || cv->fail_under < 0 || cv->fail_under > 100) {
			ct_set_err(err, "--fail-under: want a percentage 0-100, not '%s'", arg);
			return -1;
		}
		return 0;
	}
	return -1; /* not reached: getopt gives the table's options only */
}

int cmd_coverage(int argc, char **argv)
{
	struct cov cv = {.fmt = F_TEXT, .fail_under = -1};
	/* clang-format off */
	struct ct_view v = {.head = head, .tail = tail, .opts = options, .option = option,
			    .ctx = &cv, .unfiltered = count, .prefilter = seen, .counts_ok = true};
	/* clang-format on */
	int status;

	status = ct_view_start(&v, argc, argv);
	if (status >= 0)
		goto out;
	struct ct_session *s = v.s;
	cv.s = s;
	cv.calls = xcalloc(s->nprocs ? s->nprocs : 1, sizeof(*cv.calls));
	for (size_t i = 0; i < s->nprocs; i++)
		ct_u64map_init(&cv.calls[i]);

	status = 0;
	/* no warning about lost events: coverage counts calls, not times */
	if (v.counts && read_counts(&cv, &v)) {
		status = 1;
	} else if (!v.counts && ct_view_read(&v, read_thread, &cv) < 0) {
		status = ct_error("%s", v.err.msg);
	} else {
		attribute(&cv, cv.all_modules);
		if (cv.fmt == F_JSON)
			print_json(&cv, stdout);
		else
			print_text(&cv, stdout);
		if ((fflush(stdout) != 0 || ferror(stdout)) && !v.paged) {
			ct_error("writing the output: %s", strerror(errno));
			status = 1;
		}
		struct ct_msgs msgs = {0};
		if (status == 0 && !v.counts && ct_filter_caller_empty(&v.filt, &msgs))
			status = 1; /* -C let no call through */
		ct_msgs_flush(&msgs);
		size_t total, called;
		totals(&cv, &total, &called);
		if (status == 0 && cv.fail_under >= 0 && pct(called, total) < cv.fail_under) {
			ct_error("coverage %.1f%% is below %g%%", pct(called, total),
				 cv.fail_under);
			status = 3;
		}
	}

	for (size_t i = 0; i < cv.nmods; i++) {
		struct module *m = &cv.mods[i];
		for (size_t k = 0; k < m->nfuncs; k++) {
			free(m->funcs[k].dm);
			free(m->funcs[k].key);
		}
		free(m->funcs);
		free(m->counts);
		ct_symtab_free(m->tab);
		free(m->key);
		free(m->path);
	}
	free(cv.mods);
	for (size_t i = 0; i < s->nprocs; i++)
		ct_u64map_free(&cv.calls[i]);
	free(cv.calls);
out:
	ct_view_close(&v);
	return status;
}
