/* SPDX-License-Identifier: MIT */
/* record --libcall / --no-libcall (libcallopt.h) */
#include "libcallopt.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "error.h"
#include "modfind.h"
#include "util.h"

int ct_libcall_option(struct ct_libcall_opts *o, int c, const char *arg, struct ct_error *err)
{
	bool on = c == CT_LC_OPT_ON;
	if (c == CT_LC_OPT_NEST) {
		o->nest = true;
		return 0;
	}
	if (!arg) {
		if (o->set && o->set != (on ? 1 : -1)) {
			ct_set_err(err, "--libcall and --no-libcall: choose one");
			return -1;
		}
		o->set = on ? 1 : -1;
		return 0;
	}
	regex_t r;
	if (!*arg || regcomp(&r, arg, REG_EXTENDED | REG_NOSUB)) {
		ct_set_err(err, "%s: bad regex '%s'", on ? "--libcall" : "--no-libcall", arg);
		return -1;
	}
	regfree(&r);
	char ***v = on ? &o->inc : &o->exc;
	size_t *n = on ? &o->ninc : &o->nexc;
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = xstrdup(arg);
	return 0;
}

int ct_libcall_check(struct ct_libcall_opts *o, struct ct_error *err)
{
	if (!o->nest)
		return 0;
	if (o->set < 0) {
		ct_set_err(err, "--nest-libcall: library calls are off (--no-libcall)");
		return -1;
	}
	if (!o->set)
		o->set = 1; /* (whatever $CALLTRACE_LIBCALL says: asked for) */
	return 0;
}

void ct_libcall_opts_free(struct ct_libcall_opts *o)
{
	for (size_t i = 0; i < o->ninc; i++)
		free(o->inc[i]);
	for (size_t i = 0; i < o->nexc; i++)
		free(o->exc[i]);
	free(o->inc);
	free(o->exc);
}

struct prep {
	struct ct_lcsel sel;
	struct ct_strset {
		char **v;
		size_t n, cap;
	} names;
	struct ct_error *err;
};

static bool matches(const regex_t *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!regexec(&r[i], name, 0, NULL, 0))
			return true;
	return false;
}

bool ct_lcsel_init(struct ct_lcsel *s, const struct ct_libcall_opts *o)
{
	memset(s, 0, sizeof(*s));
	if (!o || o->set < 0 || (!o->ninc && !o->nexc))
		return false;
	s->allow = o->ninc > 0;
	s->inc = xcalloc(o->ninc + 1, sizeof(regex_t));
	s->exc = xcalloc(o->nexc + 1, sizeof(regex_t));
	/* (checked by ct_libcall_option) */
	for (; s->ninc < o->ninc; s->ninc++)
		regcomp(&s->inc[s->ninc], o->inc[s->ninc], REG_EXTENDED | REG_NOSUB);
	for (; s->nexc < o->nexc; s->nexc++)
		regcomp(&s->exc[s->nexc], o->exc[s->nexc], REG_EXTENDED | REG_NOSUB);
	return true;
}

bool ct_lcsel_wants(const struct ct_lcsel *s, const char *name)
{
	return s->allow ? matches(s->inc, s->ninc, name) && !matches(s->exc, s->nexc, name)
			: !matches(s->exc, s->nexc, name);
}

void ct_lcsel_free(struct ct_lcsel *s)
{
	for (size_t i = 0; i < s->ninc; i++)
		regfree(&s->inc[i]);
	for (size_t i = 0; i < s->nexc; i++)
		regfree(&s->exc[i]);
	free(s->inc);
	free(s->exc);
	memset(s, 0, sizeof(*s));
}

static void consider(struct prep *p, const char *name)
{
	/* the runtime's list: the names allowed, or the names denied */
	bool in = p->sel.allow ? ct_lcsel_wants(&p->sel, name) : !ct_lcsel_wants(&p->sel, name);
	if (!in || !*name || strchr(name, '\n'))
		return;
	if (p->names.n == p->names.cap) {
		p->names.cap = p->names.cap ? 2 * p->names.cap : 64;
		p->names.v = xrealloc(p->names.v, p->names.cap * sizeof(char *));
	}
	p->names.v[p->names.n++] = xstrdup(name);
}

int ct_dynsym_funcs(const char *path,
		    void (*fn)(void *ctx, const char *name, uint64_t value, bool defined,
			       bool ifunc),
		    void *ctx)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t n = d ? d->d_size / sh.sh_entsize : 0;
		for (size_t i = 1; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym))
				continue;
			int t = GELF_ST_TYPE(sym.st_info);
			bool def = sym.st_shndx != SHN_UNDEF;
			if (t != STT_FUNC && t != STT_GNU_IFUNC && !(t == STT_NOTYPE && !def))
				continue;
			const char *name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && *name)
				fn(ctx, name, sym.st_value, def, t == STT_GNU_IFUNC);
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return 0;
}

static void consider_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	(void)value;
	(void)defined;
	(void)ifunc;
	consider(ctx, name);
}

/* the dynamic symbols of functions, defined or imported: the names a
 * library call is known by */
static int one_module(void *ctx, const struct ct_modfound *m)
{
	struct prep *p = ctx;
	if (ct_dynsym_funcs(m->path, consider_sym, p) < 0 && m->explicit_) {
		ct_set_err(p->err, "%s: %s", m->path, strerror(errno));
		return -1;
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ct_libcall_prepare(const struct ct_libcall_opts *o, const char *prog, char *const *libs,
		       size_t nlibs, const char *dir, int dfd, char *val, size_t vallen,
		       struct ct_error *err)
{
	val[0] = 0;
	if (o->set < 0) {
		snprintf(val, vallen, "0");
		return 0;
	}
	if (!o->ninc && !o->nexc) {
		if (o->set > 0)
			snprintf(val, vallen, "1");
		return 0;
	}
	int rc = -1;
	struct prep p;
	memset(&p, 0, sizeof(p));
	p.err = err;
	ct_lcsel_init(&p.sel, o);
	if (ct_modules_walk(prog, libs, nlibs, "--args-lib", one_module, &p, err) < 0)
		goto out;
	if (p.names.n)
		ct_qsort(p.names.v, p.names.n, sizeof(char *), cmp_str);
	snprintf(val, vallen, "%s/%s", dir, CT_LIBCALL_FILE);
	/* private, new, never through a link, in the directory record
	 * opened and checked */
	int fd = openat(dfd >= 0 ? dfd : AT_FDCWD, dfd >= 0 ? CT_LIBCALL_FILE : val,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		ct_set_err(err, "%s: %s", val, strerror(errno));
		val[0] = 0;
		goto out;
	}
	fprintf(f, "%s\n", p.sel.allow ? "allow" : "deny");
	for (size_t i = 0; i < p.names.n; i++)
		if (!i || strcmp(p.names.v[i], p.names.v[i - 1]))
			fprintf(f, "%s\n", p.names.v[i]);
	if (fclose(f) != 0) {
		ct_set_err(err, "%s: %s", val, strerror(errno));
		val[0] = 0;
		goto out;
	}
	rc = 0;
out:
	ct_lcsel_free(&p.sel);
	for (size_t i = 0; i < p.names.n; i++)
		free(p.names.v[i]);
	free(p.names.v);
	return rc;
}
