/* SPDX-License-Identifier: MIT */
/* `record --inject`/`--inject-file`/`--seed`: see injectopt.h; the file's
 * format is runtime/inject.c's. */
#include "injectopt.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "emulate.h"
#include "error.h"
#include "injtext.h"
#include "libcallopt.h"
#include "modfind.h"
#include "specout.h"
#include "symtab.h"
#include "util.h"

/* ---- one rule ------------------------------------------------------------ */

static bool parse_int(const char *s, uint64_t *v)
{
	if (!*s || isspace((unsigned char)*s))
		return false;
	char *end;
	errno = 0;
	if (*s == '-') {
		long long x = strtoll(s, &end, 0);
		*v = (uint64_t)x;
	} else {
		*v = strtoull(s, &end, 0);
	}
	return !errno && !*end;
}

static bool parse_count(const char *s, uint64_t *v)
{
	return *s != '-' && parse_int(s, v);
}

static int errno_of(const char *s)
{
	uint64_t v;
	if (parse_count(s, &v))
		return v >= 1 && v <= 4095 ? (int)v : 0;
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n && !strcmp(n, s))
			return e;
	}
	return 0;
}

static int signal_of(const char *s)
{
	uint64_t v;
	if (parse_count(s, &v))
		return v >= 1 && v <= 64 ? (int)v : 0;
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (int k = 1; k < 32; k++) {
		const char *n = sigabbrev_np(k);
		if (n && !strcmp(n, s))
			return k;
	}
	return 0;
}

void ct_injrule_free(struct ct_injrule *r)
{
	free(r->text);
	free(r->regex);
	free(r->where);
	free(r->msg);
	memset(r, 0, sizeof(*r));
}

#define WHY(...)                                    \
	do {                                        \
		snprintf(why, whylen, __VA_ARGS__); \
		goto bad;                           \
	} while (0)

static int parse_if(const char *v, struct ct_injrule *r, char *why, size_t whylen)
{
	static const struct {
		const char *s;
		enum ct_inj_cop op;
	} ops[] = {{"==", CT_INJ_EQ}, {"!=", CT_INJ_NE}, {"<", CT_INJ_LT}, {">", CT_INJ_GT}};
	if (strncmp(v, "arg", 3) || v[3] < '1' || v[3] > '6')
		WHY("if=%s: the condition is argK OP V, K 1..6 (if=arg1==3)", v);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		size_t n = strlen(ops[i].s);
		if (strncmp(v + 4, ops[i].s, n))
			continue;
		if (!parse_int(v + 4 + n, &r->cval))
			WHY("if=%s: '%s' is not an integer", v, v + 4 + n);
		r->carg = (unsigned)(v[3] - '0');
		r->cop = ops[i].op;
		return 0;
	}
	WHY("if=%s: the operator is one of ==, !=, <, >", v);
bad:
	return -1;
}

int ct_injrule_parse(const char *text, struct ct_injrule *r, char *why, size_t whylen)
{
	memset(r, 0, sizeof(*r));
	char *copy = xstrdup(text);
	const char *at = strrchr(text, '@');
	if (!at || at == text) {
		snprintf(why, whylen, "not REGEX@ACTION[,SELECTOR...]");
		free(copy);
		return -1;
	}
	r->text = xstrdup(text);
	r->regex = xmalloc((size_t)(at - text) + 1);
	memcpy(r->regex, text, (size_t)(at - text));
	r->regex[at - text] = 0;
	regex_t re;
	if (regcomp(&re, r->regex, REG_EXTENDED | REG_NOSUB))
		WHY("bad regex '%s'", r->regex);
	regfree(&re);
	bool seen_cnt = false;
	char *save = NULL;
	for (char *it = strtok_r(copy + (at - text) + 1, ",", &save); it;
	     it = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(it, '=');
		if (!eq || eq == it || !eq[1])
			WHY("'%s' is not KEY=VALUE", it);
		*eq = 0;
		const char *k = it, *v = eq + 1;
		if (!strcmp(k, "return") || !strcmp(k, "retval")) {
			if (r->acts & (CT_INJ_A_RETURN | CT_INJ_A_RETVAL | CT_INJ_A_THROW))
				WHY("one of return=, retval= and throw=, once");
			if (!parse_int(v, &r->value))
				WHY("%s=%s: not an integer", k, v);
			r->acts |= k[3] == 'u' ? CT_INJ_A_RETURN : CT_INJ_A_RETVAL;
		} else if (!strcmp(k, "errno")) {
			if (r->acts & CT_INJ_A_ERRNO)
				WHY("errno= twice");
			if (!(r->err = errno_of(v)))
				WHY("errno=%s: not an errno name (ENOMEM) or number 1..4095", v);
			r->acts |= CT_INJ_A_ERRNO;
		} else if (!strcmp(k, "signal")) {
			if (r->acts & CT_INJ_A_SIGNAL)
				WHY("signal= twice");
			if (!(r->sig = signal_of(v)))
				WHY("signal=%s: not a signal name (SIGUSR1, USR1) or number 1..64",
				    v);
			r->acts |= CT_INJ_A_SIGNAL;
		} else if (!strcmp(k, "throw")) {
			if (r->acts & (CT_INJ_A_RETURN | CT_INJ_A_RETVAL | CT_INJ_A_THROW))
				WHY("one of return=, retval= and throw=, once");
			const char *t = strncmp(v, "std::", 5) ? v : v + 5;
			size_t tl = strlen(t);
			if (!strcmp(t, "bad_alloc")) {
				r->value = 1;
			} else if (!strncmp(t, "runtime_error(", 14) && t[tl - 1] == ')') {
				r->value = 2;
				r->msg = xmalloc(tl - 14);
				memcpy(r->msg, t + 14, tl - 15);
				r->msg[tl - 15] = 0;
			} else if (!strcmp(t, "runtime_error")) {
				r->value = 2;
			} else {
				WHY("throw=%s: std::bad_alloc or std::runtime_error(MESSAGE)", v);
			}
			r->acts |= CT_INJ_A_THROW;
		} else if (!strcmp(k, "nth") || !strcmp(k, "every") || !strcmp(k, "after")) {
			if (seen_cnt)
				WHY("one of nth=, every= and after=, once");
			seen_cnt = true;
			if (!parse_count(v, &r->n) || (k[0] != 'a' && !r->n))
				WHY("%s=%s: not a count (%s)", k, v,
				    k[0] == 'a' ? "0 or more" : "1 or more");
			r->cnt = k[0] == 'n'   ? CT_INJ_NTH
				 : k[0] == 'e' ? CT_INJ_EVERY
					       : CT_INJ_AFTER;
		} else if (!strcmp(k, "prob")) {
			char *end;
			errno = 0;
			double p = strtod(v, &end);
			if (r->has_prob)
				WHY("prob= twice");
			if (errno || *end || !(p > 0 && p <= 1))
				WHY("prob=%s: not a probability in (0, 1]", v);
			r->has_prob = true;
			r->prob = (uint64_t)(p * 4294967296.0 + 0.5);
		} else if (!strcmp(k, "if")) {
			if (r->carg)
				WHY("if= twice");
			if (parse_if(v, r, why, whylen) < 0)
				goto bad;
		} else {
			WHY("unknown '%s=' (actions: return=, retval=, errno=, signal=; selectors: "
			    "nth=, every=, after=, prob=, if=)",
			    k);
		}
	}
	if (!r->acts)
		WHY("no action (return=V, retval=V, errno=E, signal=SIG or throw=E)");
	free(copy);
	return 0;
bad:
	free(copy);
	ct_injrule_free(r);
	return -1;
}

/* ---- the options ---------------------------------------------------------- */

static int add_rule(struct ct_injopt *o, const char *text, const char *where, struct ct_error *err)
{
	char why[512];
	struct ct_injrule r;
	if (o->nrules == CT_INJ_MAX_RULES) {
		ct_set_err(err, "%s: at most %d injection rules", where, CT_INJ_MAX_RULES);
		return -1;
	}
	if (ct_injrule_parse(text, &r, why, sizeof(why)) < 0) {
		ct_set_err(err, "%s '%s': %s", where, text, why);
		return -1;
	}
	r.where = xstrdup(where);
	o->rules = xrealloc(o->rules, (o->nrules + 1) * sizeof(*o->rules));
	o->rules[o->nrules++] = r;
	return 0;
}

static int read_file(struct ct_injopt *o, const char *path, struct ct_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		ct_set_err(err, "--inject-file %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > (1 << 20)) {
		ct_set_err(err, "--inject-file %s: not a regular file of at most 1 MiB", path);
		close(fd);
		return -1;
	}
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		ct_set_err(err, "--inject-file %s: %s", path, strerror(errno));
		return -1;
	}
	char line[4096];
	int rc = 0;
	for (unsigned no = 1; rc == 0 && fgets(line, sizeof(line), f); no++) {
		size_t n = strlen(line);
		if (n == sizeof(line) - 1 && line[n - 1] != '\n') {
			ct_set_err(err, "--inject-file %s:%u: line too long", path, no);
			rc = -1;
			break;
		}
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = 0;
		char *s = line;
		while (isspace((unsigned char)*s))
			s++;
		if (!*s || *s == '#')
			continue;
		char where[PATH_MAX + 64];
		snprintf(where, sizeof(where), "--inject-file %s:%u:", path, no);
		rc = add_rule(o, s, where, err);
	}
	fclose(f);
	return rc;
}

int ct_injopt_option(struct ct_injopt *o, int opt, const char *arg, struct ct_error *err)
{
	if (opt == CT_INJ_OPT)
		return add_rule(o, arg, "--inject", err);
	if (opt == CT_INJ_FILE_OPT)
		return read_file(o, arg, err);
	if (!parse_count(arg, &o->seed)) {
		ct_set_err(err, "--seed=%s: not a number (0 or more)", arg);
		return -1;
	}
	o->has_seed = true;
	return 0;
}

int ct_injopt_check(const struct ct_injopt *o, struct ct_error *err)
{
	if (o->has_seed && !o->nrules) {
		ct_set_err(err, "--seed without --inject or --inject-file");
		return -1;
	}
	return 0;
}

/* ---- the table ------------------------------------------------------------ */

/* what each front end can do */
static unsigned caps_of(unsigned fe)
{
	unsigned all = CT_INJ_A_RETURN | CT_INJ_A_RETVAL | CT_INJ_A_ERRNO | CT_INJ_A_SIGNAL |
		       CT_INJ_A_THROW;
	unsigned c = all;
	if (fe & CT_MOD_FE_CYG)
		c &= CT_INJ_A_ERRNO | CT_INJ_A_SIGNAL;
	if (fe & CT_MOD_FE_MCOUNT)
		c &= CT_INJ_A_RETVAL | CT_INJ_A_ERRNO | CT_INJ_A_SIGNAL;
	return c;
}

struct prep {
	const struct ct_injopt *o;
	FILE *out;
	regex_t *rx;
	bool *used;
	struct ct_error *err;
	struct ct_u64map done;
	const struct ct_modfound *m;
	unsigned caps;
	bool regs; /* its front end sees the argument registers */
	bool a64;  /* an aarch64 module (no -mfentry there, nor a thrower) */
	bool refused;
	/* --libcall=/--no-libcall= patterns (has_sel): a library's function
	 * they leave unhooked under the name a rule matches is never reached
	 * by that name (lib: the module is a library) */
	struct ct_lcsel sel;
	bool has_sel, lib;
	bool *unhooked; /* by rule: it matched such a name */
};

static void refuse(struct prep *p, const struct ct_injrule *r, const char *fn)
{
	const char *fe = p->m->fe & CT_MOD_FE_CYG ? "-finstrument-functions" : "plain -pg (mcount)";
	const char *can =
		p->m->fe & CT_MOD_FE_CYG
			? "it can inject errno= and signal= (retval= needs -pg, -pg "
			  "-mfentry or -fpatchable-function-entry; return= and throw= need one "
			  "of the last two)"
			: "it can inject retval=, errno= and signal= (return= and throw= need "
			  "-pg -mfentry or -fpatchable-function-entry)";
	/* aarch64: no -mfentry; -pg's registers at _mcount are not the
	 * arguments (doc/args.md, "AArch64") */
	if (p->a64)
		can = p->m->fe & CT_MOD_FE_CYG
			      ? "it can inject errno= and signal= (on aarch64 retval= needs -pg "
				"or -fpatchable-function-entry=2, return=, throw= and if= the "
				"latter)"
			      : "it can inject retval=, errno= and signal= (on aarch64 return=, "
				"throw= and if= need -fpatchable-function-entry=2)";
	const char *cannot = !(r->acts & ~p->caps)         ? "cannot see arguments (if=)"
			     : (r->acts & CT_INJ_A_RETURN) ? "cannot skip a body (return=)"
			     : (r->acts & CT_INJ_A_THROW)
				     ? "cannot throw in place of a body (throw=)"
				     : "cannot replace a return value (retval=)";
	ct_set_err(p->err, "%s '%s': %s in %s is built with %s, which %s; %s", r->where, r->text,
		   fn, p->m->path, fe, cannot, can);
	p->refused = true;
}

static void one_sym(struct prep *p, const char *symname, uint64_t value)
{
	/* every name of a function counts (malloc is libc's __libc_malloc
	 * too): an alias that selects more writes its line again, with the
	 * rules of all its names, which the runtime takes last */
	void **slot = ct_u64map_slot(&p->done, value);
	uint32_t before = (uint32_t)(uintptr_t)*slot;
	if (p->refused)
		return;
	char *dm = ct_demangle(symname);
	const char *name = dm ? dm : symname;
	if (p->lib && p->has_sel && !ct_lcsel_wants(&p->sel, symname)) {
		for (size_t k = 0; k < p->o->nrules; k++)
			if (!regexec(&p->rx[k], name, 0, NULL, 0))
				p->unhooked[k] = true;
		free(dm);
		return;
	}
	uint32_t mask = 0;
	for (size_t k = 0; k < p->o->nrules; k++) {
		if (regexec(&p->rx[k], name, 0, NULL, 0))
			continue;
		const struct ct_injrule *r = &p->o->rules[k];
		if ((r->acts & ~p->caps) || (r->carg && !p->regs)) {
			refuse(p, r, name);
			break;
		}
		mask |= 1u << k;
		p->used[k] = true;
	}
	if ((mask | before) != before && !p->refused) {
		fprintf(p->out, "f %" PRIx64 " %" PRIx32 "\n", value, mask | before);
		*slot = (void *)(uintptr_t)(mask | before);
	}
	free(dm);
}

static void dyn_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	if (defined && !ifunc && value)
		one_sym(ctx, name, value);
}

static bool libcalls_on;

static int do_module(void *ctx, const struct ct_modfound *m)
{
	struct prep *p = ctx;
	bool lib = !m->instrumented && !m->main_;
	/* a module's own functions are reached through its front end; a
	 * library's through the library-call hook (doc/libcall.md) */
	if (lib ? !libcalls_on : !m->instrumented)
		return 0;
	int rc;
	struct ct_symtab *st = ct_specout_module(p->out, m, p->err, &rc);
	if (!st)
		return rc;
	p->m = m;
	p->lib = lib;
	p->caps = lib ? caps_of(0) : caps_of(m->fe);
	p->a64 = ct_elf_machine(m->path) == EM_AARCH64;
	/* (aarch64's _mcount has the link register in x0, and the prologue
	 * before it may have moved the others) */
	p->regs = lib || !(m->fe & (CT_MOD_FE_CYG | (p->a64 ? CT_MOD_FE_MCOUNT : 0)));
	ct_u64map_init(&p->done);
	for (size_t i = 0; i < st->nsyms; i++)
		one_sym(p, st->syms[i].name, st->syms[i].value);
	if (lib)
		ct_dynsym_funcs(m->path, dyn_sym, p);
	ct_u64map_free(&p->done);
	ct_symtab_free(st);
	if (p->refused)
		return -2;
	return ferror(p->out) ? -1 : 0;
}

int ct_injopt_resolve(const struct ct_injopt *o, const char *prog, char *const *libs, size_t nlibs,
		      bool libcalls, const struct ct_libcall_opts *lco, char **text, size_t *len,
		      struct ct_msgs *warn, struct ct_error *err)
{
	int rc = -1;
	struct prep p = {0};
	p.o = o;
	p.err = err;
	libcalls_on = libcalls;
	p.has_sel = libcalls && ct_lcsel_init(&p.sel, lco);
	p.rx = xcalloc(o->nrules, sizeof(*p.rx));
	p.used = xcalloc(o->nrules, sizeof(*p.used));
	p.unhooked = xcalloc(o->nrules, sizeof(*p.unhooked));
	size_t nrx = 0;
	for (; nrx < o->nrules; nrx++)
		if (regcomp(&p.rx[nrx], o->rules[nrx].regex, REG_EXTENDED | REG_NOSUB)) {
			snprintf(err->msg, sizeof(err->msg), "%s: bad regex '%s'",
				 o->rules[nrx].where, o->rules[nrx].regex);
			goto out;
		}
	*text = NULL;
	*len = 0;
	p.out = open_memstream(text, len);
	if (!p.out) {
		snprintf(err->msg, sizeof(err->msg), "--inject: %s", strerror(errno));
		goto out;
	}
	fprintf(p.out, "calltrace-inject 1\nseed %" PRIu64 "\n", o->seed);
	if (ct_injopt_throws(o) && ct_injopt_thrower) {
		fputs("thrower ", p.out);
		ct_specout_text(p.out, ct_injopt_thrower);
		fputc('\n', p.out);
	}
	for (size_t i = 0; i < o->nrules; i++) {
		const struct ct_injrule *r = &o->rules[i];
		fprintf(p.out,
			"rule %u %" PRIx64 " %d %d %u %" PRIu64 " %" PRIu64 " %u %u %" PRIx64 "\n",
			r->acts, r->value, r->err, r->sig, (unsigned)r->cnt, r->n,
			r->has_prob ? r->prob + 1 : 0, r->carg, (unsigned)r->cop, r->cval);
	}
	for (size_t i = 0; i < o->nrules; i++) {
		if (!o->rules[i].msg)
			continue;
		fprintf(p.out, "message %zu ", i);
		ct_specout_text(p.out, o->rules[i].msg);
		fputc('\n', p.out);
	}
	int w = ct_modules_walk(prog, libs, nlibs, "--args-lib", do_module, &p, err);
	if (fclose(p.out) != 0 && w >= 0) {
		snprintf(err->msg, sizeof(err->msg), "--inject: %s", strerror(errno));
		goto out;
	}
	if (w == -2) {
		rc = 2;
		goto out;
	}
	if (w < 0)
		goto out;
	for (size_t i = 0; i < o->nrules; i++)
		if (!p.used[i] && p.unhooked[i])
			ct_msg_add(warn, CT_MSG_WARN,
				   "%s '%s' matches only library functions that the --libcall/"
				   "--no-libcall patterns leave unhooked: it never acts",
				   o->rules[i].where, o->rules[i].text);
		else if (!p.used[i])
			ct_msg_add(warn, CT_MSG_WARN, "%s '%s' matches no function%s",
				   o->rules[i].where, o->rules[i].text,
				   libcalls ? ""
					    : " (a library's functions: with library calls on)");
	rc = 0;
out:
	for (size_t i = 0; i < nrx; i++)
		regfree(&p.rx[i]);
	free(p.rx);
	free(p.used);
	free(p.unhooked);
	if (p.has_sel)
		ct_lcsel_free(&p.sel);
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int ct_injopt_write(const char *text, size_t len, const char *dir, int dfd, char *path,
		    size_t pathlen, struct ct_error *err)
{
	FILE *f = ct_specout_create(dir, dfd, CT_INJECT_FILE, path, pathlen, err);
	if (!f)
		return -1;
	bool ok = fwrite(text, 1, len, f) == len;
	if (fclose(f) != 0 || !ok) {
		snprintf(err->msg, sizeof(err->msg), "cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

const char *ct_injopt_thrower;

bool ct_injopt_throws(const struct ct_injopt *o)
{
	for (size_t i = 0; i < o->nrules; i++)
		if (o->rules[i].acts & CT_INJ_A_THROW)
			return true;
	return false;
}

void ct_injopt_free(struct ct_injopt *o)
{
	for (size_t i = 0; i < o->nrules; i++)
		ct_injrule_free(&o->rules[i]);
	free(o->rules);
	memset(o, 0, sizeof(*o));
}
