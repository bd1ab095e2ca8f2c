/* SPDX-License-Identifier: MIT */
/* `record -F/-N/--hide/-D/-t`: see recfilter.h; the file's format is
 * runtime/filter.c's. */
#include "recfilter.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "demangle.h"
#include "error.h"
#include "filter.h"
#include "libcallopt.h"
#include "modfind.h"
#include "sizefilt.h"
#include "specout.h"
#include "symtab.h"
#include "util.h"

static char *dupn(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = xstrdup(s);
}

bool ct_recfilter_active(const struct ct_recfilter *f)
{
	return f->ninc || f->nexc || f->nhide || f->max_depth || f->min_time || f->ntrig ||
	       f->trace_off || f->nsigs || f->range || f->max_size || f->min_fsize;
}

/* ---- triggers and windows -------------------------------------------------- */

/* read=KIND: the reference tool's names, by CT_READ_* */
static const char *const read_kinds[CT_READ_KINDS] = {
	[CT_READ_STATM] = "proc/statm",      [CT_READ_PGFAULT] = "page-fault",
	[CT_READ_PMU_CYCLE] = "pmu-cycle",   [CT_READ_PMU_CACHE] = "pmu-cache",
	[CT_READ_PMU_BRANCH] = "pmu-branch",
};

/* the CT_READ_* of "read=KIND" (a[0..n)), 0 when it is none */
static unsigned read_kind(const char *a, size_t n)
{
	if (n < 5 || memcmp(a, "read=", 5))
		return 0;
	for (unsigned k = 1; k < CT_READ_KINDS; k++)
		if (n - 5 == strlen(read_kinds[k]) && !memcmp(a + 5, read_kinds[k], n - 5))
			return k;
	return 0;
}

/* one trigger action; NULL, or what is wrong */
static const char *check_action(const char *a, size_t n)
{
	if (n >= 5 && !memcmp(a, "read=", 5))
		return read_kind(a, n) ? NULL
				       : "read=KIND wants proc/statm, page-fault, pmu-cycle, "
					 "pmu-cache or pmu-branch";
	static const char *const plain[] = {"trace_on",       "trace_off", "trace_on=call",
					    "trace_off=call", "finish",    "snapshot",
					    "backtrace"};
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (n == strlen(plain[i]) && !memcmp(a, plain[i], n))
			return NULL;
	char buf[64];
	if (n >= sizeof(buf))
		return "unknown action";
	memcpy(buf, a, n);
	buf[n] = 0;
	if (!strncmp(buf, "depth=", 6)) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(buf + 6, &end, 10);
		return buf[6] >= '0' && buf[6] <= '9' && !errno && !*end && v >= 1 && v <= 1000000
			       ? NULL
			       : "depth=N wants N from 1 to 1000000";
	}
	/* time=0: everything under the function, whatever -t says */
	if (!strncmp(buf, "time=", 5))
		return ct_parse_duration(buf + 5) >= 0
			       ? NULL
			       : "time=TIME wants a time such as 10us (or 0)";
	return "unknown action (trace_on, trace_off, trace_on=call, trace_off=call, depth=N, "
	       "time=TIME, finish, snapshot, backtrace, read=KIND)";
}

static int parse_trigger(struct ct_recfilter *f, const char *arg, struct ct_error *err)
{
	const char *at = strrchr(arg, '@');
	if (!at || at == arg || !at[1]) {
		ct_set_err(err, "-T: want 'REGEX@ACTION[,ACTION...]', not '%s'", arg);
		return -1;
	}
	char *re = dupn(arg, (size_t)(at - arg));
	regex_t r;
	int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char buf[256];
		regerror(rc, &r, buf, sizeof(buf));
		ct_set_err(err, "-T '%s': bad regex '%s': %s", arg, re, buf);
		free(re);
		return -1;
	}
	regfree(&r);
	free(re);
	for (const char *a = at + 1;;) {
		const char *c = strchr(a, ',');
		size_t n = c ? (size_t)(c - a) : strlen(a);
		const char *why = check_action(a, n);
		if (why) {
			ct_set_err(err, "-T '%s': '%.*s': %s", arg, (int)n, a, why);
			return -1;
		}
		if (!c)
			break;
		a = c + 1;
	}
	push(&f->trig, &f->ntrig, arg);
	return 0;
}

static const struct {
	const char *name;
	int sig;
} signames[] = {{"HUP", SIGHUP},   {"INT", SIGINT},     {"QUIT", SIGQUIT}, {"USR1", SIGUSR1},
		{"USR2", SIGUSR2}, {"ALRM", SIGALRM},   {"TERM", SIGTERM}, {"CONT", SIGCONT},
		{"TSTP", SIGTSTP}, {"WINCH", SIGWINCH}, {"PROF", SIGPROF}, {"URG", SIGURG}};

static int parse_signal(struct ct_recfilter *f, const char *arg, struct ct_error *err)
{
	const char *at = strchr(arg, '@');
	if (!at) {
		ct_set_err(err, "--signal: want 'SIG@ACTION' (e.g. USR1@trace_on), not '%s'", arg);
		return -1;
	}
	size_t n = (size_t)(at - arg);
	const char *s = arg;
	if (n > 3 && !strncmp(s, "SIG", 3)) {
		s += 3;
		n -= 3;
	}
	int sig = 0;
	for (size_t i = 0; i < sizeof(signames) / sizeof(signames[0]); i++)
		if (strlen(signames[i].name) == n && !strncmp(signames[i].name, s, n))
			sig = signames[i].sig;
	if (!sig && n && n < 3 && strspn(s, "0123456789") >= n) {
		sig = atoi(s);
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGSEGV || sig == SIGBUS ||
		    sig == SIGILL || sig == SIGFPE || sig > 64)
			sig = 0;
	}
	if (!sig) {
		ct_set_err(err,
			   "--signal '%s': unknown or unusable signal '%.*s' (e.g. USR1, USR2, "
			   "HUP, or a number)",
			   arg, (int)(at - arg), arg);
		return -1;
	}
	static const char *const actions[] = {"trace_on", "trace_off", "toggle", "finish"};
	int act = -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(at + 1, actions[i]))
			act = i;
	if (act < 0) {
		ct_set_err(err,
			   "--signal '%s': unknown action '%s' (trace_on, trace_off, toggle, "
			   "finish)",
			   arg, at + 1);
		return -1;
	}
	if (f->nsigs == sizeof(f->sigs) / sizeof(f->sigs[0])) {
		ct_set_err(err, "--signal: at most %zu", sizeof(f->sigs) / sizeof(f->sigs[0]));
		return -1;
	}
	f->sigs[f->nsigs].sig = sig;
	f->sigs[f->nsigs].action = act;
	f->nsigs++;
	return 0;
}

static int parse_range(struct ct_recfilter *f, const char *arg, struct ct_error *err)
{
	const char *t = strchr(arg, '~');
	if (!t) {
		ct_set_err(err,
			   "--time-range: want START~END (times since the start, e.g. 5s~10s, "
			   "~2s, 1.5s~), not '%s'",
			   arg);
		return -1;
	}
	char *a = dupn(arg, (size_t)(t - arg));
	int64_t s = *a ? ct_parse_duration(a) : 0, e = t[1] ? ct_parse_duration(t + 1) : 0;
	free(a);
	if (s < 0 || e < 0 || (!t[1] && !s) || (t[1] && e <= s)) {
		ct_set_err(err,
			   "--time-range '%s': want times such as 5s~10s, with START before END",
			   arg);
		return -1;
	}
	f->range = true;
	f->range_start = (uint64_t)s;
	f->range_end = (uint64_t)e;
	return 0;
}

static int parse_size(struct ct_recfilter *f, const char *arg, struct ct_error *err)
{
	char *end;
	errno = 0;
	double v = strtod(arg, &end);
	uint64_t mul = 0;
	if (!strcmp(end, "K") || !strcmp(end, "KiB") || !strcmp(end, "k"))
		mul = 1ull << 10;
	else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
		mul = 1ull << 20;
	else if (!strcmp(end, "G") || !strcmp(end, "GiB"))
		mul = 1ull << 30;
	if (errno || end == arg || !mul || !(v > 0) || v * (double)mul > 1e18 ||
	    v * (double)mul < 4096) {
		ct_set_err(err,
			   "--max-size: want a size with its unit, K, M or G (e.g. 500M), of at "
			   "least 4K, not '%s'",
			   arg);
		return -1;
	}
	f->max_size = (uint64_t)(v * (double)mul);
	return 0;
}

unsigned ct_recfilter_gate(const struct ct_recfilter *f, uint64_t elapsed, uint64_t bytes)
{
	if (f->max_size && bytes >= f->max_size)
		return CT_GATE_OVER;
	if (f->range) {
		if (elapsed < f->range_start)
			return CT_GATE_BEFORE;
		if (f->range_end && elapsed >= f->range_end)
			return CT_GATE_OVER;
	}
	return CT_GATE_OPEN;
}

/* -F/-N 'REGEX@if:argN OP VALUE' (the reference tool's condition): the
 * filter holds only for the calls whose N-th integer argument compares so */
struct rf_cond {
	unsigned arg; /* 1..6 */
	unsigned op;  /* 0 ==, 1 !=, 2 >, 3 >=, 4 <, 5 <= */
	int64_t val;
};

/* where the condition of a -F/-N option starts ("@if:"), or NULL */
static const char *cond_at(const char *arg)
{
	const char *c = NULL;
	for (const char *q = arg; (q = strstr(q, "@if:")); q++)
		c = q;
	return c;
}

static int parse_cond(const char *opt, const char *arg, const char *c, struct rf_cond *out,
		      struct ct_error *err)
{
	static const char *const ops[] = {"==", "!=", ">=", "<=", ">", "<"};
	static const unsigned opn[] = {0, 1, 3, 5, 2, 4};
	const char *s = c + 4;
	char *end;
	if (c == arg) {
		ct_set_err(err, "%s '%s': a regex is needed before '@if:'", opt, arg);
		return -1;
	}
	if (strncmp(s, "arg", 3) || s[3] < '1' || s[3] > '6' || (s[4] >= '0' && s[4] <= '9')) {
		ct_set_err(err,
			   "%s '%s': the condition is argN OP VALUE, N 1..6 (the register "
			   "arguments: if:arg1==3)",
			   opt, arg);
		return -1;
	}
	out->arg = (unsigned)(s[3] - '0');
	s += 4;
	size_t k = 0;
	while (k < 6 && strncmp(s, ops[k], strlen(ops[k])))
		k++;
	if (k == 6) {
		ct_set_err(err, "%s '%s': the operator is one of ==, !=, >, >=, <, <=", opt, arg);
		return -1;
	}
	out->op = opn[k];
	s += strlen(ops[k]);
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (!*s || *end || errno) {
		ct_set_err(err, "%s '%s': '%s' is not an integer (decimal, or 0x for hex)", opt,
			   arg, s);
		return -1;
	}
	out->val = v;
	return 0;
}

static const char *opt_name(int opt)
{
	return opt == 'F'   ? "-F"
	       : opt == 'N' ? "-N"
	       : opt == 'H' ? "--hide"
	       : opt == 'D' ? "-D"
			    : "-t";
}

int ct_recfilter_option(struct ct_recfilter *f, int opt, const char *arg, struct ct_error *err)
{
	switch (opt) {
	case 'T':
		return parse_trigger(f, arg, err);
	case CT_RF_SIGNAL:
		return parse_signal(f, arg, err);
	case CT_RF_RANGE:
		return parse_range(f, arg, err);
	case CT_RF_MAXSIZE:
		return parse_size(f, arg, err);
	case 'Z':
		return ct_size_filter_parse(arg, &f->min_fsize, err);
	case CT_RF_TRACE:
		if (strcmp(arg, "on") && strcmp(arg, "off")) {
			ct_set_err(err, "--trace: want on or off, not '%s'", arg);
			return -1;
		}
		f->trace_off = !strcmp(arg, "off");
		return 0;
	}
	if (opt == 'F' || opt == 'N' || opt == 'H') {
		regex_t r;
		const char *c = cond_at(arg);
		if (c && opt == 'H') {
			ct_set_err(err, "--hide '%s': only -F and -N take a condition (@if:)", arg);
			return -1;
		}
		struct rf_cond cd;
		if (c && parse_cond(opt_name(opt), arg, c, &cd, err) < 0)
			return -1;
		char *re = c ? dupn(arg, (size_t)(c - arg)) : NULL;
		int bad = ct_regex_option(&r, opt_name(opt), re ? re : arg, err);
		free(re);
		if (bad < 0)
			return -1;
		regfree(&r);
		if (opt == 'F')
			push(&f->inc, &f->ninc, arg);
		else if (opt == 'N')
			push(&f->exc, &f->nexc, arg);
		else
			push(&f->hide, &f->nhide, arg);
		return 0;
	}
	if (opt == 'D' || opt == 't') {
		/* the views' parser: the same spelling, the same messages */
		struct ct_filter vf;
		ct_filter_init(&vf, NULL);
		int rc = ct_filter_option(&vf, opt, arg, err);
		if (rc == 0 && opt == 'D' && vf.max_depth > CT_RECFILTER_DEPTH_MAX) {
			ct_set_err(err, "-D: at most %u when recording, not '%s'",
				   CT_RECFILTER_DEPTH_MAX, arg);
			rc = -1;
		}
		if (rc == 0 && opt == 'D')
			f->max_depth = vf.max_depth;
		if (rc == 0 && opt == 't')
			f->min_time = vf.min_time; /* 0: none */
		ct_filter_free(&vf);
		return rc;
	}
	ct_set_err(err, "unknown filter option -%c", opt);
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
	describe_list(&s, &len, "-T", f->trig, f->ntrig);
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
	if (f->trace_off) {
		s = xrealloc(s, len + 16);
		len += (size_t)sprintf(s + len, "%s--trace=off", len ? " " : "");
	}
	for (size_t i = 0; i < f->nsigs; i++) {
		static const char *const an[] = {"trace_on", "trace_off", "toggle", "finish"};
		snprintf(buf, sizeof(buf), "%s--signal=%d@%s", len ? " " : "", f->sigs[i].sig,
			 an[f->sigs[i].action]);
		s = xrealloc(s, len + strlen(buf) + 1);
		len += (size_t)sprintf(s + len, "%s", buf);
	}
	if (f->range) {
		snprintf(buf, sizeof(buf), "%s--time-range=%" PRIu64 "ns~", len ? " " : "",
			 f->range_start);
		if (f->range_end)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%" PRIu64 "ns",
				 f->range_end);
		s = xrealloc(s, len + strlen(buf) + 1);
		len += (size_t)sprintf(s + len, "%s", buf);
	}
	if (f->max_size) {
		snprintf(buf, sizeof(buf), "%s--max-size=%" PRIu64, len ? " " : "", f->max_size);
		s = xrealloc(s, len + strlen(buf) + 1);
		len += (size_t)sprintf(s + len, "%s", buf);
	}
	if (f->min_fsize) {
		snprintf(buf, sizeof(buf), "%s-Z %" PRIu64, len ? " " : "", f->min_fsize);
		s = xrealloc(s, len + strlen(buf) + 1);
		len += (size_t)sprintf(s + len, "%s", buf);
	}
	return s;
}

void ct_recfilter_free(struct ct_recfilter *f)
{
	char **lists[] = {f->inc, f->exc, f->hide, f->trig};
	size_t ns[] = {f->ninc, f->nexc, f->nhide, f->ntrig};
	for (int k = 0; k < 4; k++) {
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
	/* -N: it matches where threads start (main, std::thread's _M_run):
	 * the name, for a warning */
	char *entry[2];
	unsigned cond; /* -F/-N: 1 + its condition's index (if:), 0: none */
};

struct prep {
	FILE *out;
	struct rx *rx;
	size_t nrx;
	struct rx *trx; /* -T, in order: the first that matches a function wins */
	size_t ntrx;
	struct ct_error *err;
	struct ct_u64map done; /* the module's offsets written */
	bool main_mod;         /* the module is the program's executable */
	const char *lib;       /* a library whose functions are library calls'
				* targets: its name as the views print it
				* after "@" ("libc.so.6"), else NULL */
	struct dname *dn;      /* its dynamic symbols' decisions */
	size_t ndn, capdn;
	uint64_t min_fsize; /* -Z */
	bool noregs;        /* the module's hooks do not see registers (if:) */
	const char *mpath;  /* its path */
	bool refused;       /* a condition on a function of such a module */
};

/* a library's dynamic symbol and what the options say of it: names at one
 * address decided apart get "n" lines (write_named) */
struct dname {
	uint64_t value;
	uint32_t val; /* CT_FL_* | trigger << CT_FL_TRIG_SHIFT */
	char *name;
};

/* a text field: bytes <= ' ', DEL and '%' as %XX */

static uint32_t one_sym(struct prep *p, const char *symname, uint64_t value, uint64_t size);
static void dyn_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc);
static void write_named(struct prep *p);

static int do_module(void *ctx, const struct ct_modfound *m)
{
	struct prep *p = ctx;
	/* every module, instrumented or not: the hooks of an instrumented
	 * caller name the functions inlined into it by their address, which
	 * may be a copy in an uninstrumented library (std::string's methods
	 * in libstdc++, say) */
	int rc;
	struct ct_symtab *st = ct_specout_module(p->out, m, p->err, &rc);
	if (!st)
		return rc;
	ct_u64map_init(&p->done);
	p->main_mod = m->main_;
	p->noregs = m->instrumented && !m->regs;
	p->mpath = m->path;
	p->lib = NULL;
	if (!m->instrumented && !m->main_) {
		const char *n = m->name ? m->name : m->path;
		const char *sl = strrchr(n, '/');
		p->lib = sl ? sl + 1 : n;
	}
	for (size_t i = 0; i < st->nsyms; i++)
		one_sym(p, st->syms[i].name, st->syms[i].value, st->syms[i].size);
	/* a library's functions are library calls' targets (doc/libcall.md):
	 * known by their dynamic symbols' names, which the table above may
	 * have under another alias (printf as _IO_printf) */
	if (!m->instrumented && !m->main_) {
		ct_dynsym_funcs(m->path, dyn_sym, p);
		write_named(p);
	}
	ct_u64map_free(&p->done);
	ct_symtab_free(st);
	return p->refused || ferror(p->out) ? -1 : 0;
}

/* -N r matches the function symname (qualified name q): is it one where
 * a thread starts?  main, and std::thread's _State_impl<...>::_M_run() (every
 * std::thread's); a thread that starts in a -N call records nothing */
static void note_entry(struct prep *p, struct rx *r, const char *symname, const char *q)
{
	static const char th[] = "std::thread::_State_impl<", run[] = "::_M_run()";
	size_t n = strlen(q);
	if (!r->entry[0] && p->main_mod && !strcmp(symname, "main"))
		r->entry[0] = xstrdup("main");
	else if (!r->entry[1] && !strncmp(q, th, sizeof(th) - 1) && n > sizeof(run) - 1 &&
		 !strcmp(q + n - (sizeof(run) - 1), run))
		r->entry[1] = xstrdup("std::thread::_State_impl<...>::_M_run()");
}

/* one function symbol of the module being written: its line, if the
 * options name it; what they say of it */
static uint32_t one_sym(struct prep *p, const char *symname, uint64_t value, uint64_t size)
{
	/* the names the views match (demangle.h): never the return type */
	char *dm = ct_demangle(symname);
	/* a library call's name, as the views print it: "NAME@libc.so.6" */
	char *ln = p->lib ? xasprintf("%s@%s", dm ? dm : symname, p->lib) : NULL;
	struct ct_match_names mn;
	ct_match_names_init(&mn, ln ? ln : dm ? dm : symname);
	unsigned flags = 0;
	for (size_t k = 0; k < p->nrx; k++) {
		if (flags & p->rx[k].flag)
			continue;
		if (ct_match_names_regex(&mn, &p->rx[k].re)) {
			flags |= p->rx[k].flag;
			p->rx[k].used = true;
			if (p->rx[k].cond && p->noregs && !p->refused) {
				ct_set_err(p->err,
					   "%s '%s': %s in %s is built with "
					   "-finstrument-functions, "
					   "whose hooks do not see arguments (if:): build with -pg "
					   "-mfentry, -pg or -fpatchable-function-entry",
					   p->rx[k].opt, p->rx[k].text, mn.v[0], p->mpath);
				p->refused = true;
			}
			if (p->rx[k].cond)
				flags |= p->rx[k].cond
					 << (p->rx[k].flag == CT_FL_INC ? CT_FL_ICOND_SHIFT
									: CT_FL_XCOND_SHIFT);
			if (p->rx[k].flag == CT_FL_EXC)
				note_entry(p, &p->rx[k], symname, mn.v[0]);
		}
	}
	size_t trig = 0;
	for (size_t k = 0; k < p->ntrx && !trig; k++) {
		if (ct_match_names_regex(&mn, &p->trx[k].re)) {
			trig = k + 1;
			p->trx[k].used = true;
		}
	}
	ct_match_names_free(&mn);
	free(ln);
	free(dm);
	/* -Z: a function smaller than SIZE is hidden as --hide hides it
	 * (not a library call's target: the views do not know its size) */
	if (!p->lib && ct_size_filtered(p->min_fsize, size))
		flags |= CT_FL_HIDE;
	/* a hidden function that nothing else names needs no hook;
	 * its size says which hook calls are its own */
	if (flags == CT_FL_HIDE && !trig) {
		flags |= CT_FL_NOHOOK;
		if (size && size < 0x10000)
			flags |= (unsigned)size << CT_FL_TRIG_SHIFT;
	}
	if (!trig && !flags)
		return 0;
	uint32_t val = flags | (uint32_t)trig << CT_FL_TRIG_SHIFT;
	void **slot = ct_u64map_slot(&p->done, value);
	if (*slot)
		return val; /* an alias at the same address said it first */
	*slot = (void *)1;
	if (trig)
		fprintf(p->out, "f %" PRIx64 " %x %zx\n", value, flags, trig);
	else
		fprintf(p->out, "f %" PRIx64 " %x\n", value, flags);
	return val;
}

static void dyn_sym(void *ctx, const char *name, uint64_t value, bool defined, bool ifunc)
{
	/* an IFUNC's calls go to the implementation its resolver chose: the
	 * runtime gives it the decisions made at the IFUNC's own address
	 * (runtime/libcall.c) */
	(void)ifunc;
	struct prep *p = ctx;
	if (!defined)
		return;
	uint32_t val = one_sym(p, name, value, 0);
	if (p->ndn == p->capdn) {
		p->capdn = p->capdn ? 2 * p->capdn : 256;
		p->dn = xrealloc(p->dn, p->capdn * sizeof(*p->dn));
	}
	p->dn[p->ndn++] = (struct dname){value, val, xstrdup(name)};
}

static int by_value(const void *a, const void *b)
{
	const struct dname *x = a, *y = b;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* names of one library function that the options decide apart (-N
 * '^strtol$' where strtoimax is the same function): the "f" line holds
 * one alias's decisions, so each decided name gets an "n" line and the
 * runtime records the calls through each name's slots apart (libcall.c) */
static void write_named(struct prep *p)
{
	qsort(p->dn, p->ndn, sizeof(*p->dn), by_value);
	for (size_t i = 0, j; i < p->ndn; i = j) {
		bool apart = false;
		for (j = i + 1; j < p->ndn && p->dn[j].value == p->dn[i].value; j++)
			apart |= p->dn[j].val != p->dn[i].val;
		for (size_t k = i; apart && k < j; k++) {
			if (!p->dn[k].val)
				continue;
			fprintf(p->out, "n %" PRIx64 " %x ", p->dn[k].value, p->dn[k].val);
			ct_specout_text(p->out, p->dn[k].name);
			fputc('\n', p->out);
		}
	}
	for (size_t i = 0; i < p->ndn; i++)
		free(p->dn[i].name);
	p->ndn = 0;
}

int ct_recfilter_prepare(const struct ct_recfilter *f, const char *prog, const char *dir, int dfd,
			 double hz, char *path, size_t pathlen, struct ct_msgs *warn,
			 struct ct_error *err)
{
	return ct_recfilter_prepare_as(f, prog, dir, dfd, CT_FILTER_FILE, hz, path, pathlen, warn,
				       err);
}

int ct_recfilter_prepare_as(const struct ct_recfilter *f, const char *prog, const char *dir,
			    int dfd, const char *name, double hz, char *path, size_t pathlen,
			    struct ct_msgs *warn, struct ct_error *err)
{
	int rc = -1;
	struct prep p = {0};
	p.err = err;
	p.min_fsize = f->min_fsize;
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
	struct rf_cond *conds = xcalloc(n ? n : 1, sizeof(*conds));
	unsigned nconds = 0;
	for (size_t l = 0; l < 3; l++) {
		for (size_t i = 0; i < lists[l].n; i++) {
			struct rx *r = &p.rx[p.nrx];
			const char *c = cond_at(lists[l].v[i]);
			char *re = c ? dupn(lists[l].v[i], (size_t)(c - lists[l].v[i])) : NULL;
			int bad =
				regcomp(&r->re, re ? re : lists[l].v[i], REG_EXTENDED | REG_NOSUB);
			free(re);
			if (bad) {
				snprintf(err->msg, sizeof(err->msg), "%s: bad regex '%s'",
					 lists[l].opt, lists[l].v[i]);
				free(conds);
				goto out;
			}
			r->text = lists[l].v[i];
			r->opt = lists[l].opt;
			r->flag = lists[l].flag;
			p.nrx++;
			if (c && lists[l].flag != CT_FL_HIDE) {
				if (nconds == CT_FL_COND_MAX ||
				    parse_cond(r->opt, r->text, c, &conds[nconds], err) < 0) {
					if (nconds == CT_FL_COND_MAX)
						snprintf(err->msg, sizeof(err->msg),
							 "%s '%s': more than %u conditions (if:)",
							 r->opt, r->text, CT_FL_COND_MAX);
					free(conds);
					goto out;
				}
				r->cond = ++nconds;
			}
		}
	}
	p.out = ct_specout_create(dir, dfd, name, path, pathlen, err);
	if (!p.out) {
		free(conds);
		goto out;
	}

	uint64_t ticks = f->min_time ? (uint64_t)((double)f->min_time * hz / 1e9 + 0.5) : 0;
	if (f->min_time && !ticks)
		ticks = 1;
	fprintf(p.out, "calltrace-filter 1\ndepth %u\ntime %" PRIu64 " %" PRIu64 "\ninc %d\n",
		f->max_depth, f->min_time, ticks, f->ninc ? 1 : 0);
	fprintf(p.out, "trace %d\ngate %d\n", f->trace_off ? 0 : 1,
		f->range || f->max_size ? 1 : 0);
	/* the conditions (if:): cond I ARG OP VALUE (VALUE hex, two's
	 * complement) */
	for (unsigned i = 0; i < nconds; i++)
		fprintf(p.out, "cond %u %u %u %" PRIx64 "\n", i, conds[i].arg, conds[i].op,
			(uint64_t)conds[i].val);
	free(conds);
	/* regexes over names: an image exec'd from a program this file does
	 * not cover asks record for a file of its own (runtime/filter.c) */
	fprintf(p.out, "names %d\n", n || f->ntrig || f->min_fsize ? 1 : 0);
	for (size_t i = 0; i < f->nsigs; i++)
		fprintf(p.out, "signal %d %d\n", f->sigs[i].sig, f->sigs[i].action);
	/* -T: a trig line each (ticks for time=), and its regex */
	p.trx = xcalloc(f->ntrig ? f->ntrig : 1, sizeof(*p.trx));
	for (size_t i = 0; i < f->ntrig; i++) {
		const char *at = strrchr(f->trig[i], '@');
		char *re = dupn(f->trig[i], (size_t)(at - f->trig[i]));
		int bad = regcomp(&p.trx[i].re, re, REG_EXTENDED | REG_NOSUB);
		free(re);
		if (bad) {
			snprintf(err->msg, sizeof(err->msg), "-T: bad regex in '%s'", f->trig[i]);
			fclose(p.out);
			goto out;
		}
		p.trx[i].text = f->trig[i];
		p.trx[i].opt = "-T";
		p.ntrx = i + 1;
		fprintf(p.out, "trig %zu", i);
		for (const char *a = at + 1;;) {
			const char *c = strchr(a, ',');
			size_t an = c ? (size_t)(c - a) : strlen(a);
			if (an == 8 && !memcmp(a, "trace_on", 8))
				fputs(" on", p.out);
			else if (an == 9 && !memcmp(a, "trace_off", 9))
				fputs(" off", p.out);
			else if (an == 13 && !memcmp(a, "trace_on=call", 13))
				fputs(" on=call", p.out);
			else if (an == 14 && !memcmp(a, "trace_off=call", 14))
				fputs(" off=call", p.out);
			else if (an == 6 && !memcmp(a, "finish", 6))
				fputs(" finish", p.out);
			else if (an == 8 && !memcmp(a, "snapshot", 8))
				fputs(" snapshot", p.out);
			else if (an == 9 && !memcmp(a, "backtrace", 9))
				fputs(" backtrace", p.out);
			else if (an > 6 && !memcmp(a, "depth=", 6))
				fprintf(p.out, " depth=%lu", strtoul(a + 6, NULL, 10));
			else if (read_kind(a, an))
				fprintf(p.out, " read=%u", read_kind(a, an));
			else if (an > 5 && !memcmp(a, "time=", 5)) {
				char *tm = dupn(a + 5, an - 5);
				int64_t ns = ct_parse_duration(tm);
				free(tm);
				uint64_t tk = (uint64_t)((double)ns * hz / 1e9 + 0.5);
				fprintf(p.out, " time=%" PRIu64, tk || !ns ? tk : 1);
			}
			if (!c)
				break;
			a = c + 1;
		}
		fputc('\n', p.out);
	}
	if (ct_modules_walk(prog, f->libs, f->nlibs, "--args-lib", do_module, &p, err) < 0) {
		fclose(p.out);
		if (p.refused)
			rc = -2; /* a condition that cannot be tested: a usage error */
		goto out;
	}
	if (fclose(p.out) != 0) {
		snprintf(err->msg, sizeof(err->msg), "cannot write %s: %s", path, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < p.nrx; i++)
		if (!p.rx[i].used)
			ct_msg_add(warn, CT_MSG_WARN, "%s '%s' matches no function", p.rx[i].opt,
				   p.rx[i].text);
	for (size_t i = 0; i < p.nrx; i++)
		for (int k = 0; k < 2; k++)
			if (p.rx[i].entry[k])
				ct_msg_add(warn, CT_MSG_WARN,
					   "-N '%s' matches %s, where %s starts: it records "
					   "nothing "
					   "(--hide leaves out the function's own frame)",
					   p.rx[i].text, p.rx[i].entry[k],
					   k ? "every std::thread" : "the program");
	for (size_t i = 0; i < p.ntrx; i++)
		if (!p.trx[i].used)
			ct_msg_add(warn, CT_MSG_WARN, "-T '%s' matches no function", p.trx[i].text);
	rc = 0;
out:
	for (size_t i = 0; i < p.nrx; i++) {
		regfree(&p.rx[i].re);
		free(p.rx[i].entry[0]);
		free(p.rx[i].entry[1]);
	}
	for (size_t i = 0; i < p.ntrx; i++)
		regfree(&p.trx[i].re);
	free(p.trx);
	free(p.dn);
	free(p.rx);
	return rc;
}
