/* SPDX-License-Identifier: MIT */
/*
 * `record -A/-R/-a`: before the run, find the modules the program will
 * trace (the executable, the libraries it needs that are instrumented, and
 * --args-lib ones), match the specs' regexes against their (demangled)
 * function names, read DWARF for -a, and write DIR/args.spec.
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

#include "argspec.h"
#include "calltrace/format.h"
#include "error.h"
#include "message.h"
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

/* the file execvp would run */
static char *find_program(const char *name)
{
	char buf[PATH_MAX];
	if (strchr(name, '/'))
		return realpath(name, buf) ? xstrdup(buf) : NULL;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *c = strchr(path, ':');
		size_t n = c ? (size_t)(c - path) : strlen(path);
		char cand[2 * PATH_MAX];
		snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, n ? path : ".", name);
		if (access(cand, X_OK) == 0 && realpath(cand, buf))
			return xstrdup(buf);
		path += n + (c ? 1 : 0);
	}
	return NULL;
}

struct modinfo {
	bool instrumented;
	bool regs; /* by a front end that sees registers */
	char **needed;
	size_t nneeded;
	char *runpath, *rpath;
};

static void modinfo_free(struct modinfo *m)
{
	for (size_t i = 0; i < m->nneeded; i++)
		free(m->needed[i]);
	free(m->needed);
	free(m->runpath);
	free(m->rpath);
}

static const char *const hooks[] = {"__cyg_profile_func_enter", "mcount", "_mcount", "__fentry__",
				    NULL};

static int read_modinfo(const char *path, struct modinfo *mi)
{
	memset(mi, 0, sizeof(*mi));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return -1;
	}
	size_t shstrndx = 0;
	elf_getshdrstrndx(e, &shstrndx);
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *sname = elf_strptr(e, shstrndx, sh.sh_name);
		if (sname && !strcmp(sname, "__patchable_function_entries"))
			mi->instrumented = mi->regs = true;
		/* only these sections' data: not the program's code or DWARF */
		if (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB &&
		    sh.sh_type != SHT_DYNAMIC)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			continue;
		size_t n = sh.sh_size / sh.sh_entsize;
		if (sh.sh_type == SHT_DYNSYM || sh.sh_type == SHT_SYMTAB) {
			for (size_t i = 0; i < n; i++) {
				GElf_Sym sym;
				if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx != SHN_UNDEF)
					continue;
				const char *nm = elf_strptr(e, sh.sh_link, sym.st_name);
				for (int k = 0; nm && hooks[k]; k++)
					if (!strcmp(nm, hooks[k])) {
						mi->instrumented = true;
						mi->regs |= k > 0;
					}
			}
		} else if (sh.sh_type == SHT_DYNAMIC) {
			for (size_t i = 0; i < n; i++) {
				GElf_Dyn dyn;
				if (!gelf_getdyn(d, (int)i, &dyn))
					continue;
				const char *v = NULL;
				if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RUNPATH ||
				    dyn.d_tag == DT_RPATH)
					v = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
				if (!v)
					continue;
				if (dyn.d_tag == DT_NEEDED) {
					mi->needed = xrealloc(mi->needed,
							      (mi->nneeded + 1) * sizeof(char *));
					mi->needed[mi->nneeded++] = xstrdup(v);
				} else if (dyn.d_tag == DT_RUNPATH) {
					free(mi->runpath);
					mi->runpath = xstrdup(v);
				} else {
					free(mi->rpath);
					mi->rpath = xstrdup(v);
				}
			}
		}
	}
	elf_end(e);
	close(fd);
	return 0;
}

/* look for lib in the ':'-separated dirs ($ORIGIN = origin) */
static char *search_dirs(const char *dirs, const char *origin, const char *lib)
{
	while (dirs && *dirs) {
		const char *c = strchr(dirs, ':');
		size_t n = c ? (size_t)(c - dirs) : strlen(dirs);
		char d[PATH_MAX], cand[2 * PATH_MAX + 16], real[PATH_MAX];
		snprintf(d, sizeof(d), "%.*s", (int)n, dirs);
		if (!strncmp(d, "$ORIGIN", 7))
			snprintf(cand, sizeof(cand), "%s%s/%s", origin, d + 7, lib);
		else if (!strncmp(d, "${ORIGIN}", 9))
			snprintf(cand, sizeof(cand), "%s%s/%s", origin, d + 9, lib);
		else
			snprintf(cand, sizeof(cand), "%s/%s", *d ? d : ".", lib);
		if (access(cand, R_OK) == 0 && realpath(cand, real))
			return xstrdup(real);
		dirs += n + (c ? 1 : 0);
	}
	return NULL;
}

static char *find_lib(const char *lib, const char *from, const struct modinfo *mi)
{
	char origin[PATH_MAX];
	snprintf(origin, sizeof(origin), "%s", from);
	char *sl = strrchr(origin, '/');
	if (sl)
		*sl = 0;
	char real[PATH_MAX];
	if (strchr(lib, '/'))
		return realpath(lib, real) ? xstrdup(real) : NULL;
	char *r = NULL;
	if (!mi->runpath && mi->rpath)
		r = search_dirs(mi->rpath, origin, lib);
	if (!r)
		r = search_dirs(getenv("LD_LIBRARY_PATH"), origin, lib);
	if (!r && mi->runpath)
		r = search_dirs(mi->runpath, origin, lib);
	if (!r)
		r = search_dirs("/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
				"/lib:/usr/lib:/usr/local/lib",
				origin, lib);
	return r;
}

struct rx {
	regex_t re;
	struct ct_aspec spec;
	bool used;
	const char *opt;
};

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
		if (ct_aspec_from_opt(opts[i], ret, &re, &v[i].spec, err) < 0) {
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
		     struct rx *A, struct rx *R, struct ct_error *err)
{
	struct ct_error e;
	/* names and addresses only: the views' file:line come from sym/ */
	struct ct_symtab *st = ct_symtab_names_from_elf(path, &e);
	if (!st) {
		msg(err, "%s", e.msg);
		return -1;
	}
	struct ct_amodule *m = ct_argtab_module(t, st->buildid, path);
	if (o->autoargs && ct_dwarf_specs(path, t, m, st, err) < 0) {
		ct_symtab_free(st);
		return -1;
	}
	size_t nauto = m->nf;
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
		for (size_t k = 0; k < nauto; k++)
			if (m->f[k].off == sym->value) {
				at = k;
				break;
			}
		const struct ct_aspec *base = at != SIZE_MAX ? &t->specs[m->f[at].spec] : NULL;
		const struct ct_aspec *sa = a ? &a->spec : base;
		const struct ct_aspec *sr = r ? &r->spec : base;
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
		if (at != SIZE_MAX)
			m->f[at].spec = idx;
		else
			ct_amodule_add(m, sym->value, idx);
	}
	ct_symtab_free(st);
	return 0;
}

int ct_args_prepare(const struct ct_args_opts *o, const char *prog, const char *dir, char *specpath,
		    size_t splen, char *errbuf, size_t errlen)
{
	struct ct_error e, *err = &e;
	struct rx *A = NULL, *R = NULL;
	struct ct_argtab t;
	int rc = -1;
	char **paths = NULL;
	size_t npaths = 0;
	ct_argtab_init(&t);
	if (o->strmax)
		t.strmax = o->strmax;
	if (compile(o->A, o->nA, false, &A, err) < 0)
		goto out;
	if (compile(o->R, o->nR, true, &R, err) < 0)
		goto out;
	char *exe = find_program(prog);
	if (!exe) {
		/* running it fails the same way: record says so */
		rc = 0;
		goto out;
	}
	/* the executable, the instrumented libraries it needs (breadth
	 * first), and --args-lib modules */
	paths = xmalloc(sizeof(char *));
	paths[npaths++] = exe;
	for (size_t i = 0; i < o->nlibs; i++) {
		char real[PATH_MAX];
		if (!realpath(o->libs[i], real)) {
			msg(err, "--args-lib %s: %s", o->libs[i], strerror(errno));
			goto out;
		}
		paths = xrealloc(paths, (npaths + 1) * sizeof(char *));
		paths[npaths++] = xstrdup(real);
	}
	size_t nexplicit = npaths;
	for (size_t i = 0; i < npaths && npaths < 512; i++) {
		struct modinfo mi;
		if (read_modinfo(paths[i], &mi) < 0) {
			if (i < nexplicit) {
				msg(err, "%s: not an ELF file", paths[i]);
				goto out;
			}
			continue;
		}
		if (i == 0 && mi.instrumented && !mi.regs)
			ct_warn(
			    "%s is built with -finstrument-functions, "
			    "whose hooks do not see arguments: build with -pg -mfentry, -pg or "
			    "-fpatchable-function-entry to capture them",
			    paths[i]);
		if (i < nexplicit || mi.instrumented) {
			if (do_module(paths[i], o, &t, A, R, err) < 0) {
				modinfo_free(&mi);
				goto out;
			}
		}
		for (size_t k = 0; k < mi.nneeded; k++) {
			char *l = find_lib(mi.needed[k], paths[i], &mi);
			if (!l)
				continue;
			bool seen = false;
			for (size_t j = 0; j < npaths && !seen; j++)
				seen = !strcmp(paths[j], l);
			if (seen) {
				free(l);
				continue;
			}
			paths = xrealloc(paths, (npaths + 1) * sizeof(char *));
			paths[npaths++] = l;
		}
		modinfo_free(&mi);
	}
	for (size_t i = 0; i < o->nA; i++)
		if (!A[i].used)
			ct_warn("-A '%s' matches no function",
				A[i].opt);
	for (size_t i = 0; i < o->nR; i++)
		if (!R[i].used)
			ct_warn("-R '%s' matches no function",
				R[i].opt);
	snprintf(specpath, splen, "%s/%s", dir, CT_ARGS_FILE);
	/* private, new (the data directory was just made), never through a link */
	int sfd = open(specpath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
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
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	if (A)
		free_rx(A, o->nA);
	if (R)
		free_rx(R, o->nR);
	ct_argtab_free(&t);
	if (rc < 0)
		snprintf(errbuf, errlen, "%s", e.msg);
	return rc;
}
