/* SPDX-License-Identifier: MIT */
/*
 * `record -A/-R/-a`: before the run, find the modules the program will
 * trace (the executable, the libraries it needs that are instrumented, and
 * --args-lib ones), match the specs' regexes against their (demangled)
 * function names, read DWARF for -a, and write DIR/args.spec.  The other
 * libraries it needs are the targets of library calls (doc/libcall.md):
 * -A/-R are matched against their dynamic symbols, and -a takes the
 * prototypes of lib/record/libcproto.c for them.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "argrecord.h"
#include "calltrace/format.h"
#include "error.h"
#include "libcallopt.h"
#include "libcproto.h"
#include "modfind.h"
#include "symtab.h"
#include "util.h"

/* err's message, as given (the command line's own text) */
static void msg(struct ct_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void msg(struct ct_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

struct rx {
	regex_t re;
	struct ct_aspec spec;
	bool used;
	bool autos; /* -A REGEX, -A REGEX@auto-args: no spec, the types from
		     * DWARF (a library's function: its known prototype) */
	const char *opt;
};

#define AUTO_ITEM "@auto-args"

/* -A/-R FUNC_REGEX without a spec, or with @auto-args */
static bool auto_opt(const char *opt)
{
	size_t n = strlen(opt), k = sizeof(AUTO_ITEM) - 1;
	return !strchr(opt, '@') || (n >= k && !strcmp(opt + n - k, AUTO_ITEM));
}

bool ct_args_opt_auto(const char *opt)
{
	return auto_opt(opt);
}

int ct_args_parse_opt(const char *opt, bool ret, char **re, struct ct_aspec *spec, bool *autos,
		      struct ct_error *err)
{
	*autos = auto_opt(opt);
	if (!*autos)
		return ct_aspec_from_opt(opt, ret, re, spec, err);
	size_t len = strlen(opt);
	if (strchr(opt, '@'))
		len -= sizeof(AUTO_ITEM) - 1;
	if (!len) {
		msg(err,
		    "'%s': expected FUNC_REGEX, FUNC_REGEX@auto-args or FUNC_REGEX@ITEM[,ITEM...]",
		    opt);
		*re = NULL;
		return -1;
	}
	*re = xasprintf("%.*s", (int)len, opt);
	return 0;
}

/* is one of v a -A/-R without a spec? */
static bool any_auto(const struct rx *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].autos)
			return true;
	return false;
}

static void free_rx(struct rx *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		regfree(&v[i].re);
		ct_aspec_free(&v[i].spec);
	}
	free(v);
}

static int compile(char **opts, size_t n, bool ret, struct rx **out, struct ct_error *err)
{
	struct rx *v = xcalloc(n ? n : 1, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		char *re;
		if (ct_args_parse_opt(opts[i], ret, &re, &v[i].spec, &v[i].autos, err) < 0) {
			free_rx(v, i);
			return -1;
		}
		int rc = regcomp(&v[i].re, re, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char e[200];
			regerror(rc, &v[i].re, e, sizeof(e));
			msg(err, "'%s': bad regex '%s': %s", opts[i], re, e);
			free(re);
			ct_aspec_free(&v[i].spec);
			free_rx(v, i);
			return -1;
		}
		free(re);
		v[i].opt = opts[i];
	}
	*out = v;
	return 0;
}

static int do_module(const char *path, const struct ct_args_opts *o, struct ct_argtab *t,
		     struct rx *A, struct rx *R, struct ct_msgs *warn, struct ct_error *err)
{
	struct ct_error e;
	/* names and addresses only: the views' file:line come from sym/ */
	struct ct_symtab *st = ct_symtab_names_from_elf(path, &e);
	if (!st) {
		msg(err, "%s", e.msg);
		return -1;
	}
	struct ct_amodule *m = ct_argtab_module(t, st->buildid, path);
	/* -a, or an -A/-R without a spec: the types DWARF gives */
	bool dwarf = o->autoargs || any_auto(A, o->nA) || any_auto(R, o->nR);
	size_t nf0 = m->nf;
	if (dwarf && ct_dwarf_specs(path, t, m, st, warn, err) < 0) {
		ct_symtab_free(st);
		return -1;
	}
	size_t nauto = m->nf;
	/* without -a, only the functions an -A/-R names keep theirs */
	bool *keep = dwarf && !o->autoargs ? xcalloc(nauto ? nauto : 1, 1) : NULL;
	for (size_t i = 0; i < st->nsyms && (o->nA || o->nR); i++) {
		const struct ct_symbol *sym = &st->syms[i];
		char *dm = ct_demangle(sym->name);
		const char *name = dm ? dm : sym->name;
		struct rx *a = NULL, *r = NULL;
		for (size_t k = 0; k < o->nA && !a; k++)
			if (!regexec(&A[k].re, name, 0, NULL, 0))
				a = &A[k];
		for (size_t k = 0; k < o->nR && !r; k++)
			if (!regexec(&R[k].re, name, 0, NULL, 0))
				r = &R[k];
		free(dm);
		if (!a && !r)
			continue;
		/* start from the DWARF spec of the function, if any */
		struct ct_aspec sp;
		memset(&sp, 0, sizeof(sp));
		size_t at = SIZE_MAX;
		for (size_t k = nf0; k < nauto; k++)
			if (m->f[k].off == sym->value) {
				at = k;
				break;
			}
		const struct ct_aspec *base = at != SIZE_MAX ? &t->specs[m->f[at].spec] : NULL;
		/* an -A/-R without a spec takes DWARF's: none, none taken */
		if (a && a->autos && !base)
			a = NULL;
		if (r && r->autos && !base)
			r = NULL;
		if (!a && !r)
			continue;
		const struct ct_aspec *sa = a && !a->autos     ? &a->spec
					    : a || o->autoargs ? base
							       : NULL;
		const struct ct_aspec *sr = r && !r->autos     ? &r->spec
					    : r || o->autoargs ? base
							       : NULL;
		if (sa) {
			sp.args = sa->args;
			sp.nargs = sa->nargs;
			sp.fmt = sa->fmt;
			sp.variadic = sa->variadic;
		}
		if (sr) {
			sp.ret = sr->ret;
			sp.nret = sr->nret;
		}
		struct ct_error e2;
		if (ct_aspec_check(&sp, t->strmax, &e2) < 0) {
			msg(err, "%s: %s", a ? a->opt : r->opt, e2.msg);
			ct_symtab_free(st);
			return -1;
		}
		uint32_t idx = ct_argtab_intern(t, &sp);
		if (a)
			a->used = true;
		if (r)
			r->used = true;
		if (at != SIZE_MAX) {
			m->f[at].spec = idx;
			if (keep)
				keep[at - nf0] = true;
		} else {
			ct_amodule_add(m, sym->value, idx);
		}
	}
	if (keep) {
		/* DWARF's specs of the functions no -A/-R named go */
		size_t o2 = nf0;
		for (size_t k = nf0; k < m->nf; k++)
			if (k >= nauto || keep[k - nf0])
				m->f[o2++] = m->f[k];
		m->nf = o2;
		free(keep);
	}
	ct_symtab_free(st);
	return 0;
}

struct walk {
	const struct ct_args_opts *o;
	struct ct_argtab *t;
	struct rx *A, *R;
	struct ct_msgs *warn;
	struct ct_error *err;
	/* -a: the prototypes, as -A and -R (exact names) */
	struct rx *PA, *PR;
	size_t nPA, nPR;
	char **pa_text, **pr_text;
	/* lib_module's */
	struct ct_amodule *m;
	const char *path, *bid;
	int rc;
};

static struct rx *first_match(struct rx *v, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (!regexec(&v[k].re, name, 0, NULL, 0))
			return &v[k];
	return NULL;
}

/* the prototype for name among v ("^NAME$@..."): compared, not matched */
static struct rx *proto_for(struct rx *v, size_t n, const char *name)
{
	size_t l = strlen(name);
	for (size_t k = 0; k < n; k++)
		if (!strncmp(v[k].opt + 1, name, l) && v[k].opt[1 + l] == '$' &&
		    v[k].opt[2 + l] == '@')
			return &v[k];
	return NULL;
}

/* one dynamic symbol of a library */
static void lib_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	struct walk *w = ctx;
	/* an IFUNC's calls go to the implementation it chose, at another
	 * address: nothing to attach there */
	if (!defined || ifunc || w->rc < 0)
		return;
	struct rx *a = first_match(w->A, w->o->nA, name);
	struct rx *r = first_match(w->R, w->o->nR, name);
	/* -a, or an -A/-R without a spec: the function's known prototype */
	struct rx *pa = w->o->autoargs || (a && a->autos) ? proto_for(w->PA, w->nPA, name) : NULL;
	struct rx *pr = w->o->autoargs || (r && r->autos) ? proto_for(w->PR, w->nPR, name) : NULL;
	if (a && a->autos && !pa)
		a = NULL;
	if (r && r->autos && !pr)
		r = NULL;
	const struct ct_aspec *sa = a && !a->autos ? &a->spec : pa ? &pa->spec : NULL;
	const struct ct_aspec *sr = r && !r->autos ? &r->spec : pr ? &pr->spec : NULL;
	if (!sa && !sr)
		return;
	struct ct_aspec sp;
	memset(&sp, 0, sizeof(sp));
	if (sa) {
		sp.args = sa->args;
		sp.nargs = sa->nargs;
		sp.fmt = sa->fmt;
		sp.variadic = sa->variadic;
	}
	if (sr) {
		sp.ret = sr->ret;
		sp.nret = sr->nret;
	}
	struct ct_error e2;
	if (ct_aspec_check(&sp, w->t->strmax, &e2) < 0) {
		msg(w->err, "%s: %s", a ? a->opt : r ? r->opt : name, e2.msg);
		w->rc = -1;
		return;
	}
	if (a)
		a->used = true;
	if (r)
		r->used = true;
	if (!w->m)
		w->m = ct_argtab_module(w->t, w->bid, w->path);
	ct_amodule_add(w->m, value, ct_argtab_intern(w->t, &sp));
}

/* a library the program needs that is not instrumented: its functions are
 * library calls' targets */
static int lib_module(struct walk *w, const char *path)
{
	if (!w->o->nA && !w->o->nR && !w->o->autoargs)
		return 0;
	char *bid = ct_elf_buildid(path);
	w->m = NULL;
	w->path = path;
	w->bid = bid;
	w->rc = 0;
	ct_dynsym_funcs(path, lib_sym, w);
	free(bid);
	return w->rc;
}

/* one module of the program (modfind.h): the executable, the instrumented
 * libraries it needs, the --args-lib ones */
static int one_module(void *ctx, const struct ct_modfound *m)
{
	struct walk *w = ctx;
	if (m->main_ && m->instrumented && !m->regs)
		ct_msg_add(w->warn, CT_MSG_WARN,
			   "%s is built with -finstrument-functions, "
			   "whose hooks do not see arguments: build with -pg -mfentry, -pg or "
			   "-fpatchable-function-entry to capture them",
			   m->path);
	if (!m->main_ && !m->explicit_ && !m->instrumented)
		return lib_module(w, m->path);
	return do_module(m->path, w->o, w->t, w->A, w->R, w->warn, w->err);
}

int ct_args_prepare(const struct ct_args_opts *o, const char *prog, const char *dir, int dfd,
		    char *specpath, size_t splen, struct ct_msgs *warn, struct ct_error *err)
{
	struct rx *A = NULL, *R = NULL;
	struct ct_argtab t;
	int rc = -1;
	struct walk w;
	memset(&w, 0, sizeof(w));
	ct_argtab_init(&t);
	if (o->strmax)
		t.strmax = o->strmax;
	if (compile(o->A, o->nA, false, &A, err) < 0)
		goto out;
	if (compile(o->R, o->nR, true, &R, err) < 0)
		goto out;
	w.o = o;
	w.t = &t;
	w.A = A;
	w.R = R;
	w.warn = warn;
	w.err = err;
	if (o->autoargs || any_auto(A, o->nA) || any_auto(R, o->nR)) {
		char **pa = xcalloc(ct_nlibc_protos, sizeof(char *));
		char **pr = xcalloc(ct_nlibc_protos, sizeof(char *));
		for (size_t i = 0; i < ct_nlibc_protos; i++) {
			const struct ct_libc_proto *p = &ct_libc_protos[i];
			if (p->args)
				pa[w.nPA++] = xasprintf("^%s$@%s", p->name, p->args);
			if (p->ret)
				pr[w.nPR++] = xasprintf("^%s$@%s", p->name, p->ret);
		}
		/* the strings stay: the rx's opt points at them */
		w.pa_text = pa;
		w.pr_text = pr;
		if (compile(pa, w.nPA, false, &w.PA, err) < 0 ||
		    compile(pr, w.nPR, true, &w.PR, err) < 0)
			goto out;
	}
	if (ct_modules_walk(prog, o->libs, o->nlibs, "--args-lib", one_module, &w, err) < 0)
		goto out;
	for (size_t i = 0; i < o->nA; i++)
		if (!A[i].used)
			ct_msg_add(warn, CT_MSG_WARN, "-A '%s' matches no function%s", A[i].opt,
				   A[i].autos ? " whose types are known (DWARF: build with -g)"
					      : "");
	for (size_t i = 0; i < o->nR; i++)
		if (!R[i].used)
			ct_msg_add(warn, CT_MSG_WARN, "-R '%s' matches no function%s", R[i].opt,
				   R[i].autos ? " whose types are known (DWARF: build with -g)"
					      : "");
	snprintf(specpath, splen, "%s/%s", dir, CT_ARGS_FILE);
	/* private, new (the data directory was just made), never through a
	 * link, in the directory record opened and checked */
	int sfd = openat(dfd >= 0 ? dfd : AT_FDCWD, dfd >= 0 ? CT_ARGS_FILE : specpath,
			 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = sfd >= 0 ? fdopen(sfd, "w") : NULL;
	if (!f) {
		if (sfd >= 0)
			close(sfd);
		msg(err, "cannot write %s: %s", specpath, strerror(errno));
		goto out;
	}
	int wr = ct_argtab_write(&t, f);
	if (fclose(f) != 0 || wr < 0) {
		msg(err, "cannot write %s: %s", specpath, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (w.PA)
		free_rx(w.PA, w.nPA);
	if (w.PR)
		free_rx(w.PR, w.nPR);
	for (size_t i = 0; w.pa_text && i < w.nPA; i++)
		free(w.pa_text[i]);
	for (size_t i = 0; w.pr_text && i < w.nPR; i++)
		free(w.pr_text[i]);
	free(w.pa_text);
	free(w.pr_text);
	if (A)
		free_rx(A, o->nA);
	if (R)
		free_rx(R, o->nR);
	ct_argtab_free(&t);
	return rc;
}
