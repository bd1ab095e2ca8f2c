/* SPDX-License-Identifier: MIT */
/* `record -F/-N/--hide/-D/-t`: see recfilter.h; the file's format is
 * runtime/filter.c's. */
#include "recfilter.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "error.h"
#include "message.h"
#include "modfind.h"
#include "symtab.h"
#include "util.h"

bool ct_recfilter_active(const struct ct_recfilter *f)
{
	return f->ninc || f->nexc || f->nhide || f->max_depth || f->min_time;
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = xstrdup(s);
}

static const char *opt_name(int opt)
{
	return opt == 'F' ? "-F" : opt == 'N' ? "-N" : opt == 'H' ? "--hide" : opt == 'D' ? "-D" : "-t";
}

int ct_recfilter_option(struct ct_recfilter *f, int opt, const char *arg)
{
	if (opt == 'F' || opt == 'N' || opt == 'H') {
		regex_t r;
		int rc = regcomp(&r, arg, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			char buf[256];
			regerror(rc, &r, buf, sizeof(buf));
			ct_error("%s: bad regex '%s': %s", opt_name(opt), arg, buf);
			return -1;
		}
		regfree(&r);
		if (opt == 'F')
			push(&f->inc, &f->ninc, arg);
		else if (opt == 'N')
			push(&f->exc, &f->nexc, arg);
		else
			push(&f->hide, &f->nhide, arg);
		return 0;
	}
	if (opt == 'D') {
		unsigned long v;
		char *end;
		errno = 0;
		v = strtoul(arg, &end, 10);
		if (*arg < '0' || *arg > '9' || errno || *end || v == 0 || v > (1ul << 24) - 2) {
			ct_error("-D: want a depth from 1 to %lu, not '%s'", (1ul << 24) - 2, arg);
			return -1;
		}
		f->max_depth = (uint32_t)v;
		return 0;
	}
	if (opt == 't') {
		int64_t ns = ct_parse_duration(arg);
		if (ns <= 0) {
			ct_error("-t: want a time such as 10us, 1.5ms, 2s, not '%s'", arg);
			return -1;
		}
		f->min_time = (uint64_t)ns;
		return 0;
	}
	ct_error("unknown filter option -%c", opt);
	return -1;
}

static void describe_list(char **out, size_t *len, const char *opt, char **v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t add = strlen(opt) + strlen(v[i]) + 5;
		*out = xrealloc(*out, *len + add);
		*len += (size_t)snprintf(*out + *len, add, "%s%s '%s'", *len ? " " : "", opt, v[i]);
	}
}

char *ct_recfilter_describe(const struct ct_recfilter *f)
{
	char *s = xstrdup("");
	size_t len = 0;
	describe_list(&s, &len, "-F", f->inc, f->ninc);
	describe_list(&s, &len, "-N", f->exc, f->nexc);
	describe_list(&s, &len, "--hide", f->hide, f->nhide);
	char buf[64];
	if (f->max_depth) {
		snprintf(buf, sizeof(buf), "%s-D %u", len ? " " : "", f->max_depth);
		s = xrealloc(s, len + strlen(buf) + 1);
		len += (size_t)sprintf(s + len, "%s", buf);
	}
	if (f->min_time) {
		snprintf(buf, sizeof(buf), "%s-t %" PRIu64 "ns", len ? " " : "", f->min_time);
		s = xrealloc(s, len + strlen(buf) + 1);
		len += (size_t)sprintf(s + len, "%s", buf);
	}
	return s;
}

void ct_recfilter_free(struct ct_recfilter *f)
{
	char **lists[] = {f->inc, f->exc, f->hide};
	size_t ns[] = {f->ninc, f->nexc, f->nhide};
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < ns[k]; i++)
			free(lists[k][i]);
		free(lists[k]);
	}
	memset(f, 0, sizeof(*f));
}

/* ---- matching ------------------------------------------------------------ */

struct rx {
	regex_t re;
	const char *text;
	const char *opt;
	unsigned flag;
	bool used;
};

struct prep {
	FILE *out;
	struct rx *rx;
	size_t nrx;
	struct ct_error *err;
};

/* a text field: bytes <= ' ', DEL and '%' as %XX */
static void put_text(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputs("-", f);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
}

static int do_module(void *ctx, const struct ct_modfound *m)
{
	struct prep *p = ctx;
	/* only modules that can call a hook (and the ones named) */
	if (!m->instrumented && !m->explicit_ && !m->main_)
		return 0;
	struct ct_error e;
	struct ct_symtab *st = ct_symtab_from_elf(m->path, &e);
	if (!st) {
		if (m->explicit_ || m->main_) {
			*p->err = e;
			return -1;
		}
		return 0;
	}
	fputs("module ", p->out);
	put_text(p->out, st->buildid);
	fputc(' ', p->out);
	put_text(p->out, m->path);
	fputc('\n', p->out);
	for (size_t i = 0; i < st->nsyms; i++) {
		const struct ct_symbol *sym = &st->syms[i];
		char *dm = ct_demangle(sym->name);
		const char *name = dm ? dm : sym->name;
		unsigned flags = 0;
		for (size_t k = 0; k < p->nrx; k++) {
			if (flags & p->rx[k].flag)
				continue;
			if (!regexec(&p->rx[k].re, name, 0, NULL, 0)) {
				flags |= p->rx[k].flag;
				p->rx[k].used = true;
			}
		}
		free(dm);
		/* a hidden function that nothing else names needs no hook */
		if (flags == CT_FL_HIDE)
			flags |= CT_FL_NOHOOK;
		if (flags)
			fprintf(p->out, "f %" PRIx64 " %x\n", sym->value, flags);
	}
	ct_symtab_free(st);
	return ferror(p->out) ? -1 : 0;
}

int ct_recfilter_prepare(const struct ct_recfilter *f, const char *prog, const char *dir,
			 double hz, char *path, size_t pathlen, struct ct_error *err)
{
	int rc = -1;
	struct prep p = {0};
	p.err = err;
	size_t n = f->ninc + f->nexc + f->nhide;
	p.rx = xcalloc(n ? n : 1, sizeof(*p.rx));
	struct {
		char **v;
		size_t n;
		unsigned flag;
		const char *opt;
	} lists[] = {{f->inc, f->ninc, CT_FL_INC, "-F"},
		     {f->exc, f->nexc, CT_FL_EXC, "-N"},
		     {f->hide, f->nhide, CT_FL_HIDE, "--hide"}};
	for (size_t l = 0; l < 3; l++) {
		for (size_t i = 0; i < lists[l].n; i++) {
			struct rx *r = &p.rx[p.nrx];
			if (regcomp(&r->re, lists[l].v[i], REG_EXTENDED | REG_NOSUB)) {
				snprintf(err->msg, sizeof(err->msg), "%s: bad regex '%s'",
					 lists[l].opt, lists[l].v[i]);
				goto out;
			}
			r->text = lists[l].v[i];
			r->opt = lists[l].opt;
			r->flag = lists[l].flag;
			p.nrx++;
		}
	}
	snprintf(path, pathlen, "%s/%s", dir, CT_FILTER_FILE);
	/* private, new (the data directory was just made), never through a link */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	p.out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!p.out) {
		snprintf(err->msg, sizeof(err->msg), "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	uint64_t ticks = f->min_time ? (uint64_t)((double)f->min_time * hz / 1e9 + 0.5) : 0;
	if (f->min_time && !ticks)
		ticks = 1;
	fprintf(p.out, "calltrace-filter 1\ndepth %u\ntime %" PRIu64 " %" PRIu64 "\ninc %d\n",
		f->max_depth, f->min_time, ticks, f->ninc ? 1 : 0);
	if (ct_modules_walk(prog, f->libs, f->nlibs, "--args-lib", do_module, &p, err) < 0) {
		fclose(p.out);
		goto out;
	}
	if (fclose(p.out) != 0) {
		snprintf(err->msg, sizeof(err->msg), "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < p.nrx; i++)
		if (!p.rx[i].used)
			ct_warn("%s '%s' matches no function", p.rx[i].opt, p.rx[i].text);
	rc = 0;
out:
	for (size_t i = 0; i < p.nrx; i++)
		regfree(&p.rx[i].re);
	free(p.rx);
	return rc;
}
