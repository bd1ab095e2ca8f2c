/* SPDX-License-Identifier: MIT */
/* The filters' set-up, shared by the views (filter.h): the filter's
 * lifetime, the -F/-N/--hide/-C/-T/-L regexes and which matched nothing,
 * the options' parsing (ct_filter_option, -r ranges, thread lists).  The
 * per-function decisions and the stages over the events are filter.c's. */
#include "filter.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "output.h"
#include "sizefilt.h"

void ct_filter_init(struct ct_filter *f, struct ct_session *s)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	ct_u64map_init(&f->procs);
}

void ct_filter_free(struct ct_filter *f)
{
	for (size_t i = 0; i < f->ninc; i++)
		regfree(&f->inc[i]);
	for (size_t i = 0; i < f->nexc; i++)
		regfree(&f->exc[i]);
	for (size_t i = 0; i < f->nhid; i++)
		regfree(&f->hid[i]);
	for (size_t i = 0; i < f->ntrig; i++)
		regfree(&f->trig[i].re);
	for (size_t i = 0; i < f->ncal; i++)
		regfree(&f->cal[i]);
	for (size_t i = 0; i < f->nloc; i++)
		regfree(&f->loc[i]);
	free(f->loc);
	free(f->loc_text);
	free(f->loc_used);
	free(f->cal);
	free(f->cal_text);
	free(f->cal_used);
	free(f->trig);
	free(f->inc);
	free(f->exc);
	free(f->hid);
	free(f->re_text);
	free(f->re_used);
	for (size_t i = 0; i < f->procs.cap; i++) {
		if (!f->procs.used[i])
			continue;
		struct ct_u64map *m = f->procs.vals[i];
		for (size_t j = 0; j < m->cap; j++) {
			if (!m->used[j])
				continue;
			struct ct_func *fn = m->vals[j];
			if (fn->text != fn->name)
				free((char *)fn->text);
			free(fn);
		}
		ct_u64map_free(m);
		free(m);
	}
	ct_u64map_free(&f->procs);
	memset(f, 0, sizeof(*f));
}

/* keep the text of a regex, -F, -N or --hide (H), for ct_filter_warn_unused:
 * in the order -F, -N, --hide, each in the order given */
static void note_regex(struct ct_filter *f, int kind, const char *re)
{
	size_t at = kind == 'F' ? f->ninc - 1 : kind == 'N' ? f->ninc + f->nexc - 1 : f->nre;
	f->re_text = xrealloc(f->re_text, (f->nre + 1) * sizeof(*f->re_text));
	f->re_used = xrealloc(f->re_used, (f->nre + 1) * sizeof(*f->re_used));
	memmove(f->re_text + at + 1, f->re_text + at, (f->nre - at) * sizeof(*f->re_text));
	memmove(f->re_used + at + 1, f->re_used + at, (f->nre - at) * sizeof(*f->re_used));
	f->re_text[at] = re;
	f->re_used[at] = false;
	f->nre++;
}

void ct_filter_warn_unused(const struct ct_filter *f, struct ct_msgs *warn)
{
	for (size_t i = 0; i < f->nre; i++) {
		if (f->re_used[i])
			continue;
		const char *opt = i < f->ninc ? "-F" : i < f->ninc + f->nexc ? "-N" : "--hide";
		ct_msg_add(warn, CT_MSG_WARN, "%s '%s' matches no function called in the recording",
			   opt, f->re_text[i]);
	}
	for (size_t i = 0; i < f->nloc; i++)
		if (!f->loc_used[i])
			ct_msg_add(warn, CT_MSG_WARN,
				   "-L '%s' matches no source file or module of a function called "
				   "in the recording",
				   f->loc_text[i]);
	/* (none let a call through: ct_filter_caller_empty names them all) */
	for (size_t i = 0; i < f->ncal && f->c_kept; i++)
		if (!f->cal_used[i])
			ct_msg_add(warn, CT_MSG_WARN,
				   "-C '%s' matches no function called in the recording",
				   f->cal_text[i]);
	for (size_t i = 0; i < f->ntrig; i++)
		if (!f->trig[i].used)
			ct_msg_add(warn, CT_MSG_WARN,
				   "-T '%s' matches no function called in the recording",
				   f->trig[i].text);
}

int ct_filter_add_regex(struct ct_filter *f, bool exclude, const char *re, struct ct_error *err)
{
	regex_t **arr = exclude ? &f->exc : &f->inc;
	size_t *n = exclude ? &f->nexc : &f->ninc;
	regex_t r;
	int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char buf[256];
		regerror(rc, &r, buf, sizeof(buf));
		ct_set_err(err, "bad regex '%s': %s", re, buf);
		return -1;
	}
	*arr = xrealloc(*arr, (*n + 1) * sizeof(regex_t));
	(*arr)[(*n)++] = r;
	note_regex(f, exclude ? 'N' : 'F', re);
	/* functions already cached keep their old match: options come first */
	return 0;
}

int ct_regex_option(regex_t *r, const char *opt, const char *re, struct ct_error *err)
{
	int rc = regcomp(r, re, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char buf[256];
		regerror(rc, r, buf, sizeof(buf));
		ct_set_err(err, "%s: bad regex '%s': %s", opt, re, buf);
		return -1;
	}
	return 0;
}

int ct_parse_uint(const char *arg, unsigned long max, unsigned long *out)
{
	if (!arg || *arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	char *end;
	unsigned long v = strtoul(arg, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

int ct_filter_option(struct ct_filter *f, int opt, const char *arg, struct ct_error *err)
{
	struct ct_error e;
	unsigned long v;
	int64_t ns;

	switch (opt) {
	case 'F':
	case 'N':
		if (ct_filter_add_regex(f, opt == 'N', arg, &e) < 0) {
			ct_set_err(err, "-%c: %s", opt, e.msg);
			return -1;
		}
		return 0;
	case 'H': {
		regex_t r;
		if (ct_regex_option(&r, "--hide", arg, err) < 0)
			return -1;
		f->hid = xrealloc(f->hid, (f->nhid + 1) * sizeof(regex_t));
		f->hid[f->nhid++] = r;
		note_regex(f, 'H', arg);
		return 0;
	}
	case 'C': {
		regex_t r;
		if (ct_regex_option(&r, "-C", arg, err) < 0)
			return -1;
		f->cal = xrealloc(f->cal, (f->ncal + 1) * sizeof(regex_t));
		f->cal_text = xrealloc(f->cal_text, (f->ncal + 1) * sizeof(*f->cal_text));
		f->cal_used = xrealloc(f->cal_used, (f->ncal + 1) * sizeof(*f->cal_used));
		f->cal[f->ncal] = r;
		f->cal_text[f->ncal] = arg;
		f->cal_used[f->ncal++] = false;
		return 0;
	}
	case 'L': {
		regex_t r;
		if (ct_regex_option(&r, "-L", arg, err) < 0)
			return -1;
		f->loc = xrealloc(f->loc, (f->nloc + 1) * sizeof(regex_t));
		f->loc_text = xrealloc(f->loc_text, (f->nloc + 1) * sizeof(*f->loc_text));
		f->loc_used = xrealloc(f->loc_used, (f->nloc + 1) * sizeof(*f->loc_used));
		f->loc[f->nloc] = r;
		f->loc_text[f->nloc] = arg;
		f->loc_used[f->nloc++] = false;
		return 0;
	}
	case 'D':
		if (ct_parse_uint(arg, UINT32_MAX - 1, &v) < 0 || v == 0) {
			ct_set_err(err, "-D: want a depth >= 1, not '%s'", arg);
			return -1;
		}
		f->max_depth = (uint32_t)v;
		return 0;
	case 't':
		ns = ct_parse_duration(arg);
		if (ns < 0) {
			ct_set_err(err, "-t: want a time such as 10us, 1.5ms, 2s, not '%s'", arg);
			return -1;
		}
		f->min_time = (uint64_t)ns;
		return 0;
	case 'T': {
		struct ct_vtrig t;
		char also, *re;
		if (ct_vtrig_parse(arg, &t, &also, &re, err) < 0)
			return -1;
		/* filter, notrace, hide: -F, -N, --hide of the regex */
		int rc = also ? ct_filter_option(f, also, re, err) : 0;
		free(re);
		if (rc < 0) {
			regfree(&t.re);
			return -1;
		}
		if (t.on || t.off || t.on_call || t.off_call || t.depth) {
			f->trig = xrealloc(f->trig, (f->ntrig + 1) * sizeof(*f->trig));
			f->trig[f->ntrig++] = t;
		} else {
			regfree(&t.re);
		}
		return 0;
	}
	case 'Z':
		return ct_size_filter_parse(arg, &f->min_size, err);
	case 'r':
		if (ct_range_option(arg, &f->r, err) < 0)
			return -1;
		f->r_ranged = true;
		f->r_text = arg;
		return 0;
	}
	ct_set_err(err, "unknown filter option -%c", opt);
	return -1;
}

bool ct_filter_active(const struct ct_filter *f)
{
	return (f->ninc || f->nloc) || f->nexc || f->nhid || f->max_depth || f->min_time ||
	       f->r_ranged || f->no_libcall || f->ntrig || f->ncal || f->min_size;
}

/* a filter -C comes after (its calls are among those these let through) */
static bool before_caller(const struct ct_filter *f)
{
	return (f->ninc || f->nloc) || f->nexc || f->nhid || f->max_depth || f->no_libcall ||
	       f->ntrig || f->min_size;
}

bool ct_filter_caller_empty(const struct ct_filter *f, struct ct_msgs *msgs)
{
	if (!f->ncal || f->c_kept)
		return false;
	char *all = xstrdup("");
	for (size_t i = 0; i < f->ncal; i++) {
		char *n = xasprintf("%s%s'%s'", all, i ? ", " : "", f->cal_text[i]);
		free(all);
		all = n;
	}
	ct_msg_add(msgs, CT_MSG_ERROR, "-C %s: no call of a matching function%s", all,
		   before_caller(f) ? " among the calls the other filters show"
				    : " in the recording");
	free(all);
	return true;
}

/* one side of -r: a time with a unit (or a whole number: ns) since the
 * start, or a timestamp SEC.NSEC (a fraction, no unit) */
static int range_side(const char *a, size_t n, uint64_t *v, bool *abs)
{
	char *t = xasprintf("%.*s", (int)n, a);
	bool dot = strchr(t, '.') != NULL;
	bool unit = n && !((t[n - 1] >= '0' && t[n - 1] <= '9') || t[n - 1] == '.');
	*abs = dot && !unit;
	if (*abs) { /* seconds with their fraction: parsed as "SECs" */
		char *s = xasprintf("%ss", t);
		free(t);
		t = s;
	}
	int64_t ns = ct_parse_duration(t);
	free(t);
	if (ns < 0)
		return -1;
	*v = (uint64_t)ns;
	return 0;
}

int ct_range_parse(const char *arg, struct ct_range *r)
{
	const char *tilde = strchr(arg, '~');
	if (!tilde || strchr(tilde + 1, '~'))
		return -1;
	memset(r, 0, sizeof(*r));
	r->hi = UINT64_MAX;
	if (tilde > arg && range_side(arg, (size_t)(tilde - arg), &r->lo, &r->lo_abs) < 0)
		return -1;
	if (tilde[1] && range_side(tilde + 1, strlen(tilde + 1), &r->hi, &r->hi_abs) < 0)
		return -1;
	return tilde[1] && r->lo_abs == r->hi_abs && r->hi < r->lo ? -1 : 0;
}

int ct_range_option(const char *arg, struct ct_range *r, struct ct_error *err)
{
	if (ct_range_parse(arg, r) == 0)
		return 0;
	ct_set_err(err,
		   "--range: want START~END, times since the start of the recording with a "
		   "unit (10ms~20ms) or timestamps as replay -f time prints them "
		   "(5230.123456789~), either side may be empty; not '%s'",
		   arg);
	return -1;
}

int ct_range_resolve(struct ct_range *r, const struct ct_session *s, const char *text,
		     struct ct_error *err)
{
	uint64_t base = ct_session_mono_start(s);
	if (r->lo_abs)
		r->lo = r->lo > base ? r->lo - base : 0;
	if (r->hi_abs)
		r->hi = r->hi > base ? r->hi - base : 0;
	r->lo_abs = r->hi_abs = false;
	if (r->hi < r->lo) {
		ct_set_err(err, "--range '%s': END comes before START", text ? text : "");
		return -1;
	}
	return 0;
}

int ct_parse_tid_list(const char *arg, int **tids, size_t *ntids)
{
	const char *p = arg;
	if (!p || !*p)
		return -1;
	for (;;) {
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		char *end;
		long v = strtol(p, &end, 10);
		if (errno || v <= 0 || v > INT_MAX)
			return -1;
		*tids = xrealloc(*tids, (*ntids + 1) * sizeof(**tids));
		(*tids)[(*ntids)++] = (int)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

bool *ct_select_threads(const struct ct_session *s, const int *tids, size_t ntids, size_t *missing,
			struct ct_msgs *msgs)
{
	*missing = 0;
	if (!ntids)
		return NULL;
	bool *want = xcalloc(s->nthreads ? s->nthreads : 1, sizeof(*want));
	for (size_t i = 0; i < ntids; i++) {
		bool found = false;
		for (size_t j = 0; j < s->nthreads; j++) {
			if (s->threads[j]->tid == tids[i]) {
				want[s->threads[j]->index] = true;
				found = true;
			}
		}
		if (!found) {
			ct_msg_add(msgs, CT_MSG_ERROR, "no thread %d in %s", tids[i],
				   s->dir ? s->dir : "the recording");
			(*missing)++;
		}
	}
	return want;
}
