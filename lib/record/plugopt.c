/* SPDX-License-Identifier: MIT */
/* `record --plugin`/`--plugin-filter`: see plugopt.h; the file's format is
 * runtime/plugin.c's. */
#include "plugopt.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "error.h"
#include "libcallopt.h"
#include "modfind.h"
#include "specout.h"
#include "symtab.h"
#include "util.h"

int ct_plugopt_option(struct ct_plugopt *o, int opt, const char *arg, struct ct_error *err)
{
	if (opt == CT_PL_FILTER) {
		regex_t re;
		if (regcomp(&re, arg, REG_EXTENDED | REG_NOSUB)) {
			ct_set_err(err, "--plugin-filter: bad regex '%s'", arg);
			return -1;
		}
		regfree(&re);
		o->filters = xrealloc(o->filters, (o->nfilters + 1) * sizeof(char *));
		o->filters[o->nfilters++] = xstrdup(arg);
		return 0;
	}
	if (o->path) {
		ct_set_err(err,
			   "--plugin: one plugin per recording (a plugin may load others itself)");
		return -1;
	}
	/* PATH[:ARGS]: the first ':' ends the path */
	const char *colon = strchr(arg, ':');
	size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
	if (!n) {
		ct_set_err(err, "--plugin: no path in '%s' (--plugin=PATH[:ARGS])", arg);
		return -1;
	}
	char *p = xmalloc(n + 1);
	memcpy(p, arg, n);
	p[n] = 0;
	char real[PATH_MAX];
	if (!realpath(p, real)) {
		ct_set_err(err, "--plugin: %s: %s", p, strerror(errno));
		free(p);
		return -1;
	}
	free(p);
	o->path = xstrdup(real);
	o->args = colon ? xstrdup(colon + 1) : NULL;
	return 0;
}

struct symcheck {
	bool enter, exit, enter_fn;
};

static void check_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	struct symcheck *c = ctx;
	(void)value;
	(void)ifunc;
	if (!defined)
		return;
	if (!strcmp(name, "calltrace_plugin_enter"))
		c->enter = true;
	else if (!strcmp(name, "calltrace_plugin_exit"))
		c->exit = true;
	else if (!strcmp(name, "calltrace_plugin_enter_fn"))
		c->enter_fn = true;
}

int ct_plugopt_check(const struct ct_plugopt *o, struct ct_error *err)
{
	if (!o->path) {
		if (o->nfilters) {
			ct_set_err(err, "--plugin-filter without --plugin");
			return -1;
		}
		return 0;
	}
	struct stat st;
	if (stat(o->path, &st) < 0 || !S_ISREG(st.st_mode)) {
		ct_set_err(err, "--plugin: %s: not a regular file", o->path);
		return -1;
	}
	if (access(o->path, R_OK) < 0) {
		ct_set_err(err, "--plugin: %s: %s", o->path, strerror(errno));
		return -1;
	}
	/* an ELF shared object (ET_DYN) */
	unsigned char h[18] = {0};
	int fd = open(o->path, O_RDONLY | O_CLOEXEC);
	ssize_t got = fd >= 0 ? read(fd, h, sizeof(h)) : -1;
	if (fd >= 0)
		close(fd);
	if (got != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) || h[16] != 3 || h[17] != 0) {
		ct_set_err(err,
			   "--plugin: %s: not an ELF shared object (build it with -shared -fPIC; "
			   "doc/plugins.md)",
			   o->path);
		return -1;
	}
	struct symcheck c = {0};
	if (ct_dynsym_funcs(o->path, check_sym, &c) < 0) {
		ct_set_err(err,
			   "--plugin: %s: not a shared object calltrace can read (build it with "
			   "-shared -fPIC; doc/plugins.md)",
			   o->path);
		return -1;
	}
	if (!c.enter && !c.exit && !c.enter_fn) {
		ct_set_err(err,
			   "--plugin: %s defines none of calltrace_plugin_enter, "
			   "calltrace_plugin_enter_fn and calltrace_plugin_exit "
			   "(include/calltrace/plugin.h; doc/plugins.md)",
			   o->path);
		return -1;
	}
	return 0;
}

/* ---- the table ----------------------------------------------------------- */

struct prep {
	FILE *out;
	regex_t *rx;
	bool *used;
	size_t nrx;
	struct ct_error *err;
	struct ct_u64map done; /* the module's offsets written */
	size_t nsel;
	char **imp; /* the functions the traced modules import, sorted */
	size_t nimp, impcap;
	const char *lib; /* the library's file name, for a library call's name */
};

/* a text field: bytes <= ' ', DEL and '%' as %XX; "-" for none */

/* lib: a library function the program imports, named as replay names a
 * library call, NAME@LIBRARY (doc/libcall.md); --plugin-filter matches
 * both names */
static void one_sym(struct prep *p, const char *symname, uint64_t value, const char *lib)
{
	void **slot = ct_u64map_slot(&p->done, value);
	if (*slot)
		return; /* an alias at the same address said it first */
	*slot = (void *)1;
	char *dm = ct_demangle(symname);
	const char *name = dm ? dm : symname;
	char *full = lib ? xasprintf("%s@%s", name, lib) : NULL;
	int sel = !p->nrx;
	for (size_t k = 0; k < p->nrx; k++) {
		if (!regexec(&p->rx[k], name, 0, NULL, 0) ||
		    (full && !regexec(&p->rx[k], full, 0, NULL, 0))) {
			sel = 1;
			p->used[k] = true;
		}
	}
	p->nsel += (size_t)sel;
	fprintf(p->out, "f %" PRIx64 " %d ", value, sel);
	ct_specout_text(p->out, full ? full : name);
	fputc('\n', p->out);
	free(full);
	free(dm);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool imported(const struct prep *p, const char *name)
{
	return p->nimp && bsearch(&name, p->imp, p->nimp, sizeof(char *), cmp_str);
}

static void imp_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	struct prep *p = ctx;
	(void)value;
	(void)ifunc;
	if (defined)
		return;
	if (p->nimp == p->impcap) {
		p->impcap = p->impcap ? 2 * p->impcap : 256;
		p->imp = xrealloc(p->imp, p->impcap * sizeof(char *));
	}
	p->imp[p->nimp++] = xstrdup(name);
}

/* the functions the traced modules import: their library calls' names */
static int imp_module(void *ctx, const struct ct_modfound *m)
{
	if (m->instrumented)
		ct_dynsym_funcs(m->path, imp_sym, ctx);
	return 0;
}

static void imp_def(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	struct prep *p = ctx;
	if (defined && !ifunc && value && imported(p, name))
		one_sym(p, name, value, p->lib);
}

static void dyn_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	/* an IFUNC's calls go to an implementation elsewhere */
	if (defined && !ifunc && value)
		one_sym(ctx, name, value, NULL);
}

static int do_module(void *ctx, const struct ct_modfound *m)
{
	struct prep *p = ctx;
	int rc;
	struct ct_symtab *st = ct_specout_module(p->out, m, p->err, &rc);
	if (!st)
		return rc;
	ct_u64map_init(&p->done);
	/* a library's functions that the program calls first, by the name
	 * it calls them (malloc@libc.so.6, not __libc_malloc) */
	if (!m->instrumented && !m->main_) {
		p->lib = m->name;
		ct_dynsym_funcs(m->path, imp_def, p);
	}
	for (size_t i = 0; i < st->nsyms; i++)
		one_sym(p, st->syms[i].name, st->syms[i].value, NULL);
	/* a library's functions are library calls' targets (doc/libcall.md) */
	if (!m->instrumented && !m->main_)
		ct_dynsym_funcs(m->path, dyn_sym, p);
	ct_u64map_free(&p->done);
	ct_symtab_free(st);
	return ferror(p->out) ? -1 : 0;
}

int ct_plugopt_prepare(const struct ct_plugopt *o, const char *prog, char *const *libs,
		       size_t nlibs, const char *dir, int dfd, double hz, char *path,
		       size_t pathlen, struct ct_msgs *warn, struct ct_error *err)
{
	int rc = -1;
	struct prep p = {0};
	p.err = err;
	p.rx = xcalloc(o->nfilters ? o->nfilters : 1, sizeof(*p.rx));
	p.used = xcalloc(o->nfilters ? o->nfilters : 1, sizeof(*p.used));
	for (size_t i = 0; i < o->nfilters; i++) {
		if (regcomp(&p.rx[i], o->filters[i], REG_EXTENDED | REG_NOSUB)) {
			snprintf(err->msg, sizeof(err->msg), "--plugin-filter: bad regex '%s'",
				 o->filters[i]);
			goto out;
		}
		p.nrx++;
	}
	p.out = ct_specout_create(dir, dfd, CT_PLUGIN_FILE, path, pathlen, err);
	if (!p.out)
		goto out;
	fputs("calltrace-plugin 1\nplugin ", p.out);
	ct_specout_text(p.out, o->path);
	if (o->args && *o->args) {
		fputs("\nargs ", p.out);
		ct_specout_text(p.out, o->args);
	}
	fprintf(p.out, "\nclock %" PRIu64 "\nall %d\n", (uint64_t)(hz + 0.5), o->nfilters ? 0 : 1);
	if (ct_modules_walk(prog, libs, nlibs, "--args-lib", imp_module, &p, err) < 0) {
		fclose(p.out);
		goto out;
	}
	if (p.nimp)
		qsort(p.imp, p.nimp, sizeof(char *), cmp_str);
	if (ct_modules_walk(prog, libs, nlibs, "--args-lib", do_module, &p, err) < 0) {
		fclose(p.out);
		goto out;
	}
	if (fclose(p.out) != 0) {
		snprintf(err->msg, sizeof(err->msg), "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < p.nrx; i++)
		if (!p.used[i])
			ct_msg_add(warn, CT_MSG_WARN, "--plugin-filter '%s' matches no function",
				   o->filters[i]);
	rc = 0;
out:
	for (size_t i = 0; i < p.nrx; i++)
		regfree(&p.rx[i]);
	free(p.rx);
	free(p.used);
	for (size_t i = 0; i < p.nimp; i++)
		free(p.imp[i]);
	free(p.imp);
	return rc;
}

void ct_plugopt_free(struct ct_plugopt *o)
{
	for (size_t i = 0; i < o->nfilters; i++)
		free(o->filters[i]);
	free(o->filters);
	free(o->path);
	free(o->args);
	memset(o, 0, sizeof(*o));
}
