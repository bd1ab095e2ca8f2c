/* SPDX-License-Identifier: MIT */
/*
 * calltrace report --diff: two recordings compared (report.h).
 *
 * The base recording (-d) is read as report reads it; the other one
 * (--diff DIR, "new") with the same options through a second view, opened
 * by begin and read by end, while the base's session is still open (the
 * names point into the sessions).  Rows are matched by the names report
 * prints, never by address: two builds of a program place functions
 * anywhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/report.h"
#include "message.h"
#include "output.h"

/* a row: its id among the base's names (which gained the other's), and
 * whether each side has the function */
struct drow {
	uint32_t id;
	bool inb, inn;
};

static bool has_row(const struct ct_fstat *st)
{
	return st->calls || st->frames;
}

/* a figure of a side: total, self or calls */
static int64_t dfig(const struct ct_fstat *st, enum skey k)
{
	return k == K_SELF    ? (int64_t)st->self
	       : k == K_CALLS ? (int64_t)st->calls
			      : (int64_t)st->total;
}

/* the difference in percent of the base; false when the base is 0 and
 * the new figure is not (no percentage) */
static bool dpercent(int64_t b, int64_t n, double *pct)
{
	if (!b) {
		*pct = 0;
		return !n;
	}
	*pct = 100.0 * (double)(n - b) / (double)b;
	return true;
}

static struct report *dsort_r;
static const struct drow *dsort_rows;

/* the sort value of a row for key k: the base's or the new figure, or
 * the difference (its size unless no-abs; in percent with the percent
 * policy, a new function above every percentage) */
static double dkey(const struct report *r, const struct drow *w, enum skey k)
{
	const struct diff *d = r->diff;
	int64_t b = dfig(&r->stats[w->id], k), n = dfig(&d->ostats[w->id], k);
	if (d->column == 0)
		return (double)b;
	if (d->column == 1)
		return (double)n;
	double v = (double)(n - b);
	if (d->pct == DP_PERCENT && !dpercent(b, n, &v))
		v = 1e300;
	return d->noabs || v >= 0 ? v : -v;
}

static int cmp_drows(const void *a, const void *b)
{
	const struct drow *wa = &dsort_rows[*(const uint32_t *)a];
	const struct drow *wb = &dsort_rows[*(const uint32_t *)b];
	const struct report *r = dsort_r;
	const char *na = r->names.v[wa->id], *nb = r->names.v[wb->id];
	for (size_t i = 0; i < r->nkeys; i++) {
		enum skey k = r->keys[i];
		if (k == K_NAME) {
			int c = strcmp(na, nb);
			if (c)
				return c;
			continue;
		}
		double va = dkey(r, wa, k), vb = dkey(r, wb, k);
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	int c = strcmp(na, nb);
	return c ? c : (wa->id < wb->id ? -1 : wa->id > wb->id);
}

/* a signed duration right-aligned in w columns: "+18.000 ms" */
static void put_sdur(FILE *out, int64_t d, int w)
{
	char b[64], s[72];
	uint64_t m = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
	snprintf(s, sizeof(s), "%c%s", d < 0 ? '-' : '+', dur(m, b, sizeof(b)));
	fprintf(out, "%*s", w, s);
}

static void put_pct(FILE *out, int64_t b, int64_t n)
{
	double p;
	if (dpercent(b, n, &p))
		fprintf(out, "%+9.2f%%", p);
	else
		fprintf(out, "%10s", "N/A");
}

/* one group of columns (a figure): the base and the new (full), the
 * difference and its percentage (as the policy says); "-" for a side
 * without the function */
static void put_group(FILE *out, const struct diff *d, const struct drow *w, int64_t b, int64_t n,
		      bool time)
{
	char buf[64];
	if (!d->compact) {
		for (int side = 0; side < 2; side++) {
			bool in = side ? w->inn : w->inb;
			int64_t v = side ? n : b;
			if (!in)
				fprintf(out, "  %10s", "-");
			else if (time)
				fprintf(out, "  %s",
					ct_format_duration((uint64_t)v, buf, sizeof(buf)));
			else
				fprintf(out, "  %10lld", (long long)v);
		}
	}
	if (d->pct != DP_PERCENT) {
		fputs("  ", out);
		if (time)
			put_sdur(out, n - b, 11);
		else
			fprintf(out, "%+11lld", (long long)(n - b));
	}
	if (d->pct != DP_VALUE) {
		fputs("  ", out);
		put_pct(out, b, n);
	}
}

/* a group's width and its title line and rule */
static int group_width(const struct diff *d)
{
	return (d->compact ? 0 : 24) + (d->pct != DP_PERCENT ? 13 : 0) +
	       (d->pct != DP_VALUE ? 12 : 0);
}

static void put_title(FILE *out, const struct diff *d, const char *what)
{
	char t[96];
	int w = group_width(d) - 2;
	if (d->compact && d->pct != DP_BOTH)
		snprintf(t, sizeof(t), "%s", what);
	else
		snprintf(t, sizeof(t), "%s (%s%s%s)", what, d->compact ? "" : "base / new / ",
			 d->pct != DP_PERCENT ? "diff" : "",
			 d->pct == DP_BOTH      ? " / %"
			 : d->pct == DP_PERCENT ? "%"
						: "");
	fprintf(out, "  %*s", w, t);
}

static void put_rule(FILE *out, const struct diff *d)
{
	int w = group_width(d) - 2;
	fputs("  ", out);
	for (int i = 0; i < w; i++)
		fputc('=', out);
}

static const char *mark_of(const struct drow *w)
{
	return !w->inb ? " [new]" : !w->inn ? " [vanished]" : "";
}

static const char *status_of(const struct drow *w)
{
	return !w->inb ? "new" : !w->inn ? "vanished" : "both";
}

/* what a recording ran: its first process's program, else the first word
 * of its command line */
static const char *prog_of(const struct ct_session *s, char *buf, size_t len)
{
	if (s->nprocs && s->procs[0]->exe)
		return ct_basename(s->procs[0]->exe);
	const char *c = s->command ? s->command : "?";
	size_t n = strcspn(c, " ");
	snprintf(buf, len, "%.*s", (int)n, c);
	return ct_basename(buf);
}

static void diff_text(struct report *r, const struct ct_view *v, const struct drow *rows,
		      const uint32_t *ix, size_t n)
{
	struct diff *d = r->diff;
	FILE *out = r->out;
	fprintf(out, "#\n# calltrace diff\n#  [0] base: %s", ct_tx(v->dir));
	fprintf(out, "   (%s)\n", ct_tx(v->s->command ? v->s->command : "?"));
	fprintf(out, "#  [1] new:  %s", ct_tx(d->ov.dir));
	fprintf(out, "   (%s)\n#\n", ct_tx(d->ov.s->command ? d->ov.s->command : "?"));
	if (!d->counts) {
		put_title(out, d, "Total time");
		put_title(out, d, "Self time");
	}
	put_title(out, d, "Calls");
	fputs("  Function\n", out);
	for (int g = d->counts ? 2 : 0; g < 3; g++)
		put_rule(out, d);
	fputs("  ====================\n", out);
	bool marked = false;
	for (size_t i = 0; i < n; i++) {
		const struct drow *w = &rows[ix[i]];
		const struct ct_fstat *b = &r->stats[w->id], *o = &d->ostats[w->id];
		if (!d->counts) {
			put_group(out, d, w, (int64_t)b->total, (int64_t)o->total, true);
			put_group(out, d, w, (int64_t)b->self, (int64_t)o->self, true);
		}
		put_group(out, d, w, (int64_t)b->calls, (int64_t)o->calls, false);
		bool mark =
			!d->counts && ((w->inb && mostly_cost(b)) || (w->inn && mostly_cost(o)));
		marked |= mark;
		fprintf(out, "  %s%s%s\n", ct_tx(r->names.v[w->id]), mark ? COST_MARK : "",
			mark_of(w));
	}
	if (marked)
		fputs(COST_LEGEND, out);
}

static void csv_pct(FILE *out, int64_t b, int64_t n)
{
	double p;
	if (dpercent(b, n, &p))
		fprintf(out, ",%.2f", p);
	else
		fputs(",", out);
}

static void diff_csv(struct report *r, const struct drow *rows, const uint32_t *ix, size_t n)
{
	struct diff *d = r->diff;
	FILE *out = r->out;
	static const enum skey figs[] = {K_CALLS, K_TOTAL, K_SELF};
	size_t nfigs = d->counts ? 1 : 3;
	fputs(d->counts ? "function,status,calls_base,calls_new,calls_diff,calls_pct\n"
			: "function,status,calls_base,calls_new,calls_diff,calls_pct,"
			  "total_ns_base,total_ns_new,total_ns_diff,total_pct,"
			  "self_ns_base,self_ns_new,self_ns_diff,self_pct\n",
	      out);
	for (size_t i = 0; i < n; i++) {
		const struct drow *w = &rows[ix[i]];
		ct_csv_string(out, r->names.v[w->id]);
		fprintf(out, ",%s", status_of(w));
		for (size_t f = 0; f < nfigs; f++) {
			int64_t b = dfig(&r->stats[w->id], figs[f]);
			int64_t o = dfig(&d->ostats[w->id], figs[f]);
			fprintf(out, ",%lld,%lld,%lld", (long long)b, (long long)o,
				(long long)(o - b));
			csv_pct(out, b, o);
		}
		fputc('\n', out);
	}
}

static void json_side(FILE *out, const struct ct_fstat *st, bool in, bool counts)
{
	if (!in) {
		fputs("null", out);
		return;
	}
	if (counts) {
		fprintf(out, "{\"calls\":%llu}", (unsigned long long)st->calls);
		return;
	}
	fprintf(out,
		"{\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu,\"avg_ns\":%llu,"
		"\"min_ns\":%llu,\"max_ns\":%llu,\"mostly_cost\":%s}",
		(unsigned long long)st->calls, (unsigned long long)st->total,
		(unsigned long long)st->self, (unsigned long long)ct_avg(st),
		(unsigned long long)st->min, (unsigned long long)st->max,
		mostly_cost(st) ? "true" : "false");
}

static void json_pct(FILE *out, const char *key, int64_t b, int64_t n)
{
	double p;
	if (dpercent(b, n, &p))
		fprintf(out, ",\"%s\":%.2f", key, p);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void json_rec(FILE *out, const char *dir, const struct ct_session *s)
{
	fputs("{\"dir\":", out);
	ct_json_string(out, dir);
	fputs(",\"command\":", out);
	ct_json_string(out, s->command ? s->command : "");
	fputc('}', out);
}

static void json_cost_of(FILE *out, const struct ct_cost *c)
{
	fprintf(out, "{\"taken_ns\":%llu,\"clipped_ns\":%llu,\"span_ns\":%llu}",
		(unsigned long long)c->taken, (unsigned long long)c->clipped,
		(unsigned long long)c->span);
}

static void diff_json(struct report *r, const struct ct_view *v, const struct drow *rows,
		      const uint32_t *ix, size_t n)
{
	struct diff *d = r->diff;
	FILE *out = r->out;
	fputs("{\"base\":", out);
	json_rec(out, v->dir, v->s);
	fputs(",\"new\":", out);
	json_rec(out, d->ov.dir, d->ov.s);
	if (d->counts)
		fputs(",\"counts_only\":true", out);
	fputs(",\"functions\":[", out);
	for (size_t i = 0; i < n; i++) {
		const struct drow *w = &rows[ix[i]];
		const struct ct_fstat *b = &r->stats[w->id], *o = &d->ostats[w->id];
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		ct_json_string(out, r->names.v[w->id]);
		fprintf(out, ",\"status\":\"%s\",\"base\":", status_of(w));
		json_side(out, b, w->inb, d->counts);
		fputs(",\"new\":", out);
		json_side(out, o, w->inn, d->counts);
		fprintf(out, ",\"diff\":{\"calls\":%lld",
			(long long)o->calls - (long long)b->calls);
		json_pct(out, "calls_pct", (int64_t)b->calls, (int64_t)o->calls);
		if (!d->counts) {
			fprintf(out, ",\"total_ns\":%lld,\"self_ns\":%lld",
				(long long)o->total - (long long)b->total,
				(long long)o->self - (long long)b->self);
			json_pct(out, "total_pct", (int64_t)b->total, (int64_t)o->total);
			json_pct(out, "self_pct", (int64_t)b->self, (int64_t)o->self);
		}
		fputs("}}", out);
	}
	fputs("]", out);
	if (!d->counts) {
		fprintf(out, ",\n\"times\":\"%s\",\"cost\":{\"base\":",
			v->raw ? "recorded" : "corrected");
		json_cost_of(out, &v->cost);
		fputs(",\"new\":", out);
		json_cost_of(out, &d->ov.cost);
		fputc('}', out);
	}
	fputs("}\n", out);
}

/* the text footer: the tracer's cost taken out of each recording */
static void diff_cost(const struct report *r, const struct ct_view *v, FILE *out)
{
	const struct ct_cost *c[2] = {&v->cost, &r->diff->ov.cost};
	char b[4][64];
	if (v->raw) {
		fputs("\n# times as recorded (--raw): the tracer's own cost is in them\n", out);
		return;
	}
	fputs("\n# tracer's cost taken out:", out);
	for (int i = 0; i < 2; i++)
		fprintf(out, "%s %s %s (%.1f %% of %s)", i ? "," : "", i ? "new" : "base",
			dur(c[i]->taken, b[0], sizeof(b[0])),
			c[i]->span ? 100.0 * (double)c[i]->taken / (double)c[i]->span : 0.0,
			dur(c[i]->span, b[1], sizeof(b[1])));
	fprintf(out, "\n# clipped: base %s, new %s\n", dur(c[0]->clipped, b[2], sizeof(b[2])),
		dur(c[1]->clipped, b[3], sizeof(b[3])));
}

/* the rows of both recordings matched by name, sorted, printed; a warning
 * first when the two look like different programs */
static void print_diff(struct report *r, const struct ct_view *v)
{
	struct diff *d = r->diff;
	struct report *o = &d->o;
	/* the other's names into the base's table: one id per name */
	for (size_t i = 0; i < o->names.n; i++)
		if (has_row(&o->stats[i]))
			ct_report_intern(r, o->names.v[i]);
	d->ostats = xcalloc(r->names.n ? r->names.n : 1, sizeof(*d->ostats));
	for (size_t i = 0; i < o->names.n; i++)
		if (has_row(&o->stats[i]))
			d->ostats[ct_names_find(&r->names, o->names.v[i])] = o->stats[i];
	struct drow *rows = xmalloc((r->names.n ? r->names.n : 1) * sizeof(*rows));
	size_t n = 0, nb = 0, nn = 0, both = 0;
	for (size_t i = 0; i < r->names.n; i++) {
		struct drow w = {(uint32_t)i, has_row(&r->stats[i]), has_row(&d->ostats[i])};
		if (!w.inb && !w.inn)
			continue;
		nb += w.inb;
		nn += w.inn;
		both += w.inb && w.inn;
		rows[n++] = w;
	}
	char pb[2][256];
	const char *p0 = prog_of(v->s, pb[0], sizeof(pb[0]));
	const char *p1 = prog_of(d->ov.s, pb[1], sizeof(pb[1]));
	size_t least = nb < nn ? nb : nn;
	/* two builds of a program share most functions, whatever their
	 * programs' names: fewer than half of the smaller side's is another
	 * program (the names said to help) */
	if (least && both * 2 < least)
		ct_warn("%s (%s) and %s (%s) share %zu function(s) of %zu and %zu: unrelated "
			"programs? compared anyway",
			ct_tx(v->dir), ct_tx(p0), ct_tx(d->ov.dir), ct_tx(p1), both, nb, nn);
	dsort_r = r;
	dsort_rows = rows;
	uint32_t *ix = ct_sorted_indexes(n, cmp_drows);
	if (r->limit && n > r->limit)
		n = r->limit;
	if (r->fmt == FMT_TEXT) {
		diff_text(r, v, rows, ix, n);
		if (!d->counts)
			diff_cost(r, v, r->out);
	} else if (r->fmt == FMT_CSV) {
		diff_csv(r, rows, ix, n);
	} else {
		diff_json(r, v, rows, ix, n);
	}
	free(ix);
	free(rows);
}

/* --tid with --diff: the threads of s that the list names; *n counts them,
 * found[i] is set for each TID s holds */
static bool *diff_threads(const struct ct_session *s, const struct diff *d, bool *found, size_t *n)
{
	bool *want = xcalloc(s->nthreads ? s->nthreads : 1, sizeof(*want));
	*n = 0;
	for (size_t i = 0; i < d->ntids; i++)
		for (size_t j = 0; j < s->nthreads; j++)
			if (s->threads[j]->tid == d->tids[i]) {
				want[s->threads[j]->index] = true;
				found[i] = true;
				(*n)++;
			}
	return want;
}

/* a side read whole (call counts, or every thread wanted): its figures */
static int diff_counts(struct report *r, struct ct_view *v)
{
	if (ct_view_counts_load(v, &r->cnt))
		return 1;
	for (size_t k = 0; k < r->cnt.nthreads; k++) {
		const struct ct_count_thread *ct = &r->cnt.threads[k];
		bool want = !r->diff->ntids;
		for (size_t i = 0; i < r->diff->ntids; i++)
			want |= ct->tid == r->diff->tids[i];
		if (!want)
			continue;
		for (size_t i = 0; i < ct->narcs; i++) {
			uint32_t id = ct_report_intern(r, r->cnt.names.v[ct->arcs[i].callee]);
			r->stats[id].calls += ct->arcs[i].calls;
		}
	}
	ct_view_counts_lost(&r->cnt);
	return 0;
}

/* begin, with --diff: the other recording opened with the same options,
 * the threads --tid names in either chosen; 0, or an exit status */
int ct_report_diff_begin(struct report *r, struct ct_view *v)
{
	struct diff *d = r->diff;
	struct ct_view *ov = &d->ov;
	*ov = (struct ct_view){.head = v->head,
			       .tail = v->tail,
			       .opts = v->opts,
			       .option = v->option,
			       .ctx = &d->o,
			       .unfiltered = v->unfiltered,
			       .counts_ok = true};
	d->o = (struct report){.fmt = r->fmt, .first_table = true, .diff = d};
	ct_names_init(&d->o.names);
	d->opened = true;
	if (ct_view_parse(ov, d->argc, d->argv) >= 0)
		return 1; /* not reached: the same command line parsed before */
	ov->dir = d->dir;
	free(ov->tids);
	ov->tids = NULL;
	ov->ntids = 0;
	if (ct_view_open(ov))
		return 1;
	ov->progress.on = v->progress.on;
	/* "N events were lost while recording; ...": in which */
	snprintf(d->lost_note[0], sizeof(d->lost_note[0]),
		 "times around them are wrong (in %s, the base)", ct_tx(v->dir));
	snprintf(d->lost_note[1], sizeof(d->lost_note[1]),
		 "times around them are wrong (in %s, the new recording)", ct_tx(ov->dir));
	v->lost_note = d->lost_note[0];
	ov->lost_note = d->lost_note[1];
	d->o.s = ov->s;
	d->o.filt = &ov->filt;
	d->o.out = r->out;
	if (d->ntids) {
		bool *found = xcalloc(d->ntids, sizeof(*found));
		size_t n0 = 0, n1 = 0;
		if (!v->counts)
			v->want = diff_threads(v->s, d, found, &n0);
		if (!ov->counts)
			ov->want = diff_threads(ov->s, d, found, &n1);
		int status = 0;
		for (size_t i = 0; i < d->ntids; i++)
			if (!found[i] && !v->counts && !ov->counts)
				status = ct_error("no thread %d in %s or %s", d->tids[i], v->dir,
						  ov->dir);
		free(found);
		if (status)
			return status;
		if (!v->counts && !n0)
			ct_warn("--tid: no thread of %s named: its side is empty", v->dir);
		if (!ov->counts && !n1)
			ct_warn("--tid: no thread of %s named: its side is empty", ov->dir);
	}
	if (v->counts && diff_counts(r, v))
		return 1;
	if (ov->counts && diff_counts(&d->o, ov))
		return 1;
	return 0;
}

/* end, with --diff: the other recording read, then the diff printed;
 * 0, or 1 after the other's error */
int ct_report_diff_end(struct report *r, struct ct_view *v)
{
	struct diff *d = r->diff;
	struct ct_view *ov = &d->ov;
	int rc = ov->counts ? 0 : ct_view_read(ov, v->read, &d->o);
	/* a regex that matched a function in either recording was used */
	for (size_t i = 0; i < ov->filt.nre && i < v->filt.nre; i++) {
		v->filt.re_used[i] |= ov->filt.re_used[i];
		ov->filt.re_used[i] = true;
	}
	if (ct_view_finish(ov, rc, NULL, NULL))
		return 1;
	print_diff(r, v);
	return 0;
}

/* check, with --diff: the options that make no sense with it, and the
 * other recording there (bad usage otherwise, exit 2) */
int ct_report_diff_check(struct ct_view *v)
{
	struct report *r = v->ctx;
	struct diff *d = r->diff;
	if (!d->dir) {
		if (d->policy_given || d->column != 2)
			return ct_usage_error("--diff-policy and --sort-column need --diff");
		return 0;
	}
	if (r->list_functions)
		return 0; /* the base's names alone */
	if (v->per_thread)
		return ct_usage_error("--per-thread with --diff: the threads of two runs do not "
				      "correspond");
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, d->dir, &err) < 0) {
		ct_error("--diff: %s", err.msg);
		return 2;
	}
	ct_session_close(s);
	d->counts = ct_counts_only(v->dir) || ct_counts_only(d->dir);
	for (size_t i = 0; i < r->nkeys && r->keys_given; i++)
		if (r->keys[i] != K_TOTAL && r->keys[i] != K_SELF && r->keys[i] != K_CALLS &&
		    r->keys[i] != K_NAME)
			return ct_usage_error("-s with --diff: want keys among total, self, calls, "
					      "name");
	if (d->counts) {
		for (size_t i = 0; i < r->nkeys && r->keys_given; i++)
			if (r->keys[i] != K_CALLS && r->keys[i] != K_NAME)
				return ct_usage_error("-s: %s holds call counts only (record "
						      "--count): sort by calls or name",
						      ct_counts_only(v->dir) ? v->dir : d->dir);
		if (!r->keys_given) {
			r->keys[0] = K_CALLS;
			r->nkeys = 1;
		}
	}
	/* the threads --tid names are chosen in either recording (begin) */
	d->tids = v->tids;
	d->ntids = v->ntids;
	v->tids = NULL;
	v->ntids = 0;
	return 0;
}

int ct_report_parse_policy(struct diff *d, const char *arg)
{
	static const char *const words[] = {"abs",        "no-abs", "percent",
					    "no-percent", "full",   "compact"};
	bool pct = false, nopct = false;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t k;
		for (k = 0; k < sizeof(words) / sizeof(words[0]); k++)
			if (strlen(words[k]) == len && !strncmp(p, words[k], len))
				break;
		switch (k) {
		case 0:
		case 1:
			d->noabs = k == 1;
			break;
		case 2:
			pct = true;
			nopct = false;
			break;
		case 3:
			nopct = true;
			pct = false;
			break;
		case 4:
		case 5:
			d->compact = k == 5;
			break;
		default:
			return -1;
		}
		if (!p[len])
			break;
		p += len + 1;
	}
	if (pct || nopct)
		d->pct = pct ? DP_PERCENT : DP_VALUE;
	return 0;
}
