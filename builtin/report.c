/* SPDX-License-Identifier: MIT */
/*
 * calltrace report: a flat profile, one row per function.
 *
 *   calls  the number of calls (every activation, recursive ones included)
 *   total  inclusive time, counted once per outermost activation: while a
 *          function is active on a thread, its recursive calls add nothing
 *   self   inclusive time minus the inclusive time of its direct (shown)
 *          callees, summed over all calls
 *   avg/min/max  over the inclusive time of each call
 *
 * Functions are keyed by name, so the same function seen in several
 * processes (fork) or at several addresses is one row.  Threads are read one
 * after the other, so memory is bounded by functions x stack depth, not by
 * the length of the trace.  --diff is report_diff.c's (report.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "builtin/builtin.h"
#include "builtin/report.h"
#include "counts.h"
#include "filter.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "progress.h"
#include "session.h"
#include "srcline.h"
#include "util.h"
#include "view.h"

enum { OPT_FORMAT = 256, OPT_LIMIT, OPT_DIFF, OPT_DIFF_POLICY, OPT_SORT_COLUMN };

static const char head[] = "usage: calltrace report [options]\n"
			   "\n"
			   "Flat profile of the recorded calls: one row per function.\n"
			   "\n"
			   "options:\n";

static const char tail[] =
	"\n"
	"columns:\n"
	"  Total time  inclusive time, counted once per outermost activation\n"
	"              (the calls a recursive function makes to itself add nothing)\n"
	"  Self time   inclusive time minus that of the direct callees shown,\n"
	"              summed over all calls; time of callees left out by -N, -D\n"
	"              or -t counts as the caller's own\n"
	"  Calls       number of calls, recursive ones included\n"
	"  Average, Min, Max  over the inclusive time of each call\n"
	"Times have the tracer's own cost, measured when recording, taken out\n"
	"(see doc/overhead.md; at least 0); --raw shows them as recorded.  -t\n"
	"compares the recorded (raw) durations, as replay does.\n"
	"A call left by longjmp or an exception ends where the frame was found\n"
	"gone; a call still open when its thread ended (crash, kill, exit) counts\n"
	"with its time up to the end of the thread's events.  Rows are per\n"
	"function name: the same function in several processes is one row.\n"
	"A function marked * has a recorded time more than 5 times its corrected\n"
	"one: its time is mostly the tracer's cost, and what is left is an\n"
	"estimate.  The last lines say how much cost was taken out.\n"
	"A recording made with record --sample has three more columns:\n"
	"  Smp total   sampled inclusive time (samples x period, counted once per\n"
	"              outermost activation, as Total time)\n"
	"  Smp self    sampled time the function itself ran, its callees' (as\n"
	"              shown) taken out: the tracer's cost is not estimated\n"
	"  Samples     the samples of Smp self: its error is about 1/sqrt(Samples)\n"
	"A recording made with record --sched has one more:\n"
	"  Off-CPU     of Total time, the time the thread was switched out\n"
	"              (blocked, sleeping or preempted) inside the calls, counted\n"
	"              once per outermost activation: Total time less Off-CPU\n"
	"              is the time on a CPU\n";

/* ---- aggregation ---------------------------------------------------- */

/* --by-args: the row of a call with captured arguments, "name(values)" */
static uint32_t args_row(struct report *r, const struct ct_func *fn, const struct ct_event *ev)
{
	char vals[2048];
	ct_event_args_text(r->s, ev->thread->proc, ev->args, false, vals, sizeof(vals));
	size_t n = fn->has_params ? ct_args_bare_len(fn->name, fn->namelen) : fn->namelen;
	size_t q = fn->has_params ? ct_args_quals_off(fn->name, fn->namelen) : fn->namelen;
	/* the qualifiers stay: "K::get(0x7ffc10) const" */
	char *key = xasprintf("%.*s(%s)%.*s", (int)n, fn->name, vals, (int)(fn->namelen - q),
			      fn->name + q);
	int64_t id = ct_names_find(&r->names, key);
	if (id >= 0) {
		free(key);
		return (uint32_t)id;
	}
	r->keys_made = xrealloc(r->keys_made, (r->nkeys_made + 1) * sizeof(char *));
	r->keys_made[r->nkeys_made++] = key;
	return ct_report_intern(r, key);
}

uint32_t ct_report_intern(struct report *r, const char *name)
{
	uint32_t id = ct_names_intern(&r->names, name);
	if (r->names.n > r->capstats) {
		size_t old = r->capstats, cap = r->names.cap;
		r->stats = ct_grow_zeroed(r->stats, old, cap, sizeof(*r->stats));
		r->active = ct_grow_zeroed(r->active, old, cap, sizeof(*r->active));
		r->capstats = cap;
	}
	return id;
}

/* --srcline: where the function of id was first seen */
static void note_src(struct report *r, uint32_t id, struct ct_proc *p, uint64_t addr)
{
	if (id >= r->nsrc) {
		size_t n = r->nsrc ? 2 * r->nsrc : 256;
		while (n <= id)
			n *= 2;
		r->srcp = ct_grow_zeroed(r->srcp, r->nsrc, n, sizeof(*r->srcp));
		r->srca = ct_grow_zeroed(r->srca, r->nsrc, n, sizeof(*r->srca));
		r->nsrc = n;
	}
	if (!r->srcp[id]) {
		r->srcp[id] = p;
		r->srca[id] = ct_addr_untag(addr);
	}
}

/* --srcline: " [f.c:3]" after the function's name, or "" */
const char *ct_report_src_note(const struct report *r, uint32_t id)
{
	static char buf[512];
	const char *l = r->srcline && id < r->nsrc && r->srcp[id]
				? ct_srcline_func(r->s, r->srcp[id], r->srca[id])
				: NULL;
	if (!l)
		return "";
	snprintf(buf, sizeof(buf), " [%s]", ct_tx(l));
	return buf;
}

static inline void account_enter(struct report *r, struct ct_func *fn, const struct ct_event *ev)
{
	if (fn->user < 0) {
		fn->user = ct_report_intern(r, fn->name);
		if (__builtin_expect(r->srcline, 0))
			note_src(r, (uint32_t)fn->user, ev->thread->proc, fn->addr);
	}
	uint32_t id = (uint32_t)fn->user;
	if (__builtin_expect(r->by_args && ev->args && ev->args->has_args, 0))
		id = args_row(r, fn, ev);
	*CT_PUSH(r->stack, r->depth, r->capstack) = (struct ct_fframe){.id = id, .child = 0};
	r->active[id]++;
}

/* the exit of the innermost open call (r->depth > 0), counted for the
 * function on the stack: the reader's events are well nested, so that is
 * the exit's own function */
static inline __attribute__((always_inline)) void account_exit(struct report *r,
							       const struct ct_event *ev)
{
	struct ct_fframe f = r->stack[--r->depth];
	ct_fstat_exit(&r->stats[f.id], &r->active[f.id], &f,
		      r->depth ? &r->stack[r->depth - 1] : NULL, ev);
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct report *r = ctx;
	if (fe->ev.kind == CT_ENTER) {
		account_enter(r, fe->fn, &fe->ev);
		return;
	}
	if (fe->fn->user < 0)
		fe->fn->user = ct_report_intern(r, fe->fn->name);
	if (!r->depth)
		return; /* an exit without its entry: cannot happen after the reader */
	account_exit(r, &fe->ev);
}

/* after each thread: forget what is left open (only after an error) */
static void thread_reset(struct report *r)
{
	while (r->depth) {
		struct ct_fframe f = r->stack[--r->depth];
		if (r->active[f.id])
			r->active[f.id]--;
	}
}

/* ---- output --------------------------------------------------------- */

static struct report *sort_r;

static uint64_t keyval(const struct ct_fstat *st, enum skey k)
{
	switch (k) {
	case K_TOTAL:
		return st->total;
	case K_SELF:
		return st->self;
	case K_CALLS:
		return st->calls;
	case K_AVG:
		return ct_avg(st);
	case K_MIN:
		return st->min;
	case K_MAX:
		return st->max;
	case K_SAVG:
		return st->calls ? st->self / st->calls : 0;
	case K_SMIN:
		return st->smin;
	case K_SMAX:
		return st->smax;
	case K_STOTAL:
		return st->stotal_ns;
	case K_SSELF:
		return st->sself_ns;
	case K_OFFCPU:
		return st->offcpu;
	case K_NAME:
		break;
	}
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct report *r = sort_r;
	for (size_t i = 0; i < r->nkeys; i++) {
		enum skey k = r->keys[i];
		if (k == K_NAME) {
			int c = strcmp(r->names.v[ia], r->names.v[ib]);
			if (c)
				return c;
			continue;
		}
		uint64_t va = keyval(&r->stats[ia], k), vb = keyval(&r->stats[ib], k);
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	int c = strcmp(r->names.v[ia], r->names.v[ib]);
	return c ? c : (ia < ib ? -1 : ia > ib);
}

/* a CSV row's first columns: pid and tid (--per-thread), the name */
static void csv_row_start(const struct report *r, const struct ct_thread *t, int pid, uint32_t row)
{
	if (t)
		fprintf(r->out, "%d,%d,", pid, t->tid);
	ct_csv_string(r->out, r->names.v[row]);
}

/* a JSON table's opening: the thread's object (--per-thread), else whole */
static void json_table_start(const struct report *r, const struct ct_thread *t, int pid,
			     const char *whole)
{
	if (t)
		fprintf(r->out, "%s{\"pid\":%d,\"tid\":%d,\"functions\":[",
			r->first_table ? "" : ",\n", pid, t->tid);
	else
		fputs(whole, r->out);
}

/* record --sample: a row's sampled figures, CSV columns */
static void csv_samples(FILE *out, const struct ct_fstat *st)
{
	fprintf(out, ",%llu,%llu,%llu,%llu", (unsigned long long)st->stotal,
		(unsigned long long)st->sself, (unsigned long long)st->stotal_ns,
		(unsigned long long)st->sself_ns);
}

/* record --sample: a row's sampled figures, JSON members */
static void json_samples(FILE *out, const struct ct_fstat *st)
{
	fprintf(out,
		",\"samples_total\":%llu,\"samples_self\":%llu,"
		"\"sampled_total_ns\":%llu,\"sampled_self_ns\":%llu",
		(unsigned long long)st->stotal, (unsigned long long)st->sself,
		(unsigned long long)st->stotal_ns, (unsigned long long)st->sself_ns);
}

/* the i-th row's object, up to its name */
static void json_row_start(const struct report *r, size_t i, uint32_t row)
{
	fputs(i ? ",\n{\"name\":" : "\n{\"name\":", r->out);
	ct_json_string(r->out, r->names.v[row]);
}

/* print_table for a recording of call counts: the calls column alone, and
 * with record --sample the sampled times */
static void print_counts(struct report *r, const struct ct_thread *t, const uint32_t *rows,
			 size_t n, int pid)
{
	FILE *out = r->out;
	switch (r->fmt) {
	case FMT_TEXT:
		if (t)
			fprintf(out, "%s# thread %d (process %d)\n", r->first_table ? "" : "\n",
				t->tid, pid);
		if (r->sampled)
			fputs("  Total time   Self time       Calls    Samples  Function\n"
			      "  ==========  ==========  ==========  =========  "
			      "====================\n",
			      out);
		else
			fputs("       Calls  Function\n"
			      "  ==========  ====================\n",
			      out);
		for (size_t i = 0; i < n; i++) {
			const struct ct_fstat *st = &r->stats[rows[i]];
			char b[2][64];
			if (r->sampled)
				fprintf(out, "  %s  %s  %10llu  %9llu  %s\n",
					ct_format_duration(st->stotal_ns, b[0], sizeof(b[0])),
					ct_format_duration(st->sself_ns, b[1], sizeof(b[1])),
					(unsigned long long)st->calls,
					(unsigned long long)st->sself, ct_tx(r->names.v[rows[i]]));
			else
				fprintf(out, "  %10llu  %s\n", (unsigned long long)st->calls,
					ct_tx(r->names.v[rows[i]]));
		}
		break;
	case FMT_CSV:
		for (size_t i = 0; i < n; i++) {
			const struct ct_fstat *st = &r->stats[rows[i]];
			csv_row_start(r, t, pid, rows[i]);
			fprintf(out, ",%llu", (unsigned long long)st->calls);
			if (r->sampled)
				csv_samples(out, st);
			fputc('\n', out);
		}
		break;
	case FMT_JSON:
		json_table_start(r, t, pid, "{\"counts_only\":true,\"functions\":[");
		for (size_t i = 0; i < n; i++) {
			const struct ct_fstat *st = &r->stats[rows[i]];
			json_row_start(r, i, rows[i]);
			fprintf(out, ",\"calls\":%llu", (unsigned long long)st->calls);
			if (r->sampled)
				json_samples(out, st);
			fputc('}', out);
		}
		fputs(t ? "]}" : "]", out);
		if (!t && !r->sampled)
			fputs("}\n", out);
		break;
	}
}

/* print the table of what was gathered since the last one; t is the thread
 * with --per-thread */
static void print_table(struct report *r, const struct ct_thread *t)
{
	FILE *out = r->out;
	uint32_t *rows = xmalloc((r->names.n ? r->names.n : 1) * sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < r->names.n; i++) {
		if (!r->stats[i].calls && !r->stats[i].frames)
			continue;
		rows[n++] = (uint32_t)i;
	}
	sort_r = r;
	ct_qsort(rows, n, sizeof(*rows), cmp_rows);
	if (r->limit && n > r->limit)
		n = r->limit;

	int pid = t && t->proc ? t->proc->pid : 0;
	if (r->counts) {
		print_counts(r, t, rows, n, pid);
		r->first_table = false;
		free(rows);
		return;
	}
	switch (r->fmt) {
	case FMT_TEXT:
		if (r->fields_set) {
			ct_report_print_fields(r, t, rows, n, pid);
			break;
		}
		if (t)
			fprintf(out, "%s# thread %d%s%s (process %d)\n", r->first_table ? "" : "\n",
				t->tid, t->name ? " " : "", t->name ? ct_tx(t->name) : "", pid);
		fputs("  Total time   Self time       Calls    Average        Min        Max", out);
		if (r->sched)
			fputs("     Off-CPU", out);
		fputs(r->sampled ? "   Smp total    Smp self    Samples  Function" : "  Function",
		      out);
		fputs(r->srcline ? " [Source]\n" : "\n", out);
		fputs("  ==========  ==========  ==========  ========== ========== ==========",
		      out);
		if (r->sched)
			fputs("  ==========", out);
		fputs(r->sampled ? "  ==========  ==========  =========  ====================\n"
				 : "  ====================\n",
		      out);
		bool marked = false;
		for (size_t i = 0; i < n; i++) {
			const struct ct_fstat *st = &r->stats[rows[i]];
			char b[6][64], sb[2][64], smp[96] = "", off[80] = "";
			bool mark = mostly_cost(st);
			marked |= mark;
			if (r->sampled)
				snprintf(smp, sizeof(smp), "  %s  %s  %9llu",
					 ct_format_duration(st->stotal_ns, sb[0], sizeof(sb[0])),
					 ct_format_duration(st->sself_ns, sb[1], sizeof(sb[1])),
					 (unsigned long long)st->sself);
			if (r->sched)
				snprintf(off, sizeof(off), "  %s",
					 ct_format_duration(st->offcpu, b[5], sizeof(b[5])));
			fprintf(out, "  %s  %s  %10llu %s %s %s%s%s  %s%s%s\n",
				ct_format_duration(st->total, b[0], sizeof(b[0])),
				ct_format_duration(st->self, b[1], sizeof(b[1])),
				(unsigned long long)st->calls,
				ct_format_duration(ct_avg(st), b[2], sizeof(b[2])),
				ct_format_duration(st->min, b[3], sizeof(b[3])),
				ct_format_duration(st->max, b[4], sizeof(b[4])), off, smp,
				ct_tx(r->names.v[rows[i]]), ct_report_src_note(r, rows[i]),
				mark ? COST_MARK : "");
		}
		if (marked)
			fputs(COST_LEGEND, out);
		break;
	case FMT_CSV: /* the header was printed by cmd_report */
		for (size_t i = 0; i < n; i++) {
			const struct ct_fstat *st = &r->stats[rows[i]];
			csv_row_start(r, t, pid, rows[i]);
			fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu",
				(unsigned long long)st->calls, (unsigned long long)st->total,
				(unsigned long long)st->self, (unsigned long long)(ct_avg(st)),
				(unsigned long long)st->min, (unsigned long long)st->max);
			if (r->sched)
				fprintf(out, ",%llu", (unsigned long long)st->offcpu);
			if (r->sampled)
				csv_samples(out, st);
			fputc('\n', out);
		}
		break;
	case FMT_JSON:
		json_table_start(r, t, pid, "{\"functions\":[");
		for (size_t i = 0; i < n; i++) {
			const struct ct_fstat *st = &r->stats[rows[i]];
			json_row_start(r, i, rows[i]);
			fprintf(out,
				",\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu,"
				"\"avg_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu,"
				"\"mostly_cost\":%s",
				(unsigned long long)st->calls, (unsigned long long)st->total,
				(unsigned long long)st->self, (unsigned long long)(ct_avg(st)),
				(unsigned long long)st->min, (unsigned long long)st->max,
				mostly_cost(st) ? "true" : "false");
			if (r->sched)
				fprintf(out, ",\"offcpu_ns\":%llu", (unsigned long long)st->offcpu);
			if (r->sampled)
				json_samples(out, st);
			fputc('}', out);
		}
		/* the object is closed by end(), after the tracer's cost */
		fputs(t ? "]}" : "]", out);
		break;
	}
	r->first_table = false;
	free(rows);
}

/* no filter: every event counts, and an exit is that of the call on top
 * of the stack, with no lookup; an entry of the function entered last (a
 * recursion, a loop) takes it again without a call.  The stack and the
 * rows are kept in locals (a row's stores could be the report's depth, for
 * the compiler: it would load it again after each), the report's own
 * fields taken up again after account_enter's general way, which may grow
 * them: a function's first entry, a row per arguments, a full stack */
static void unfiltered(void *ctx, struct ct_thread *t, const struct ct_event *evs, int n)
{
	struct report *r = ctx;
	struct ct_func *fn = NULL;
	uint64_t addr = 0;
	struct ct_fframe *stack = r->stack;
	size_t depth = r->depth, cap = r->capstack;
	struct ct_fstat *stats = r->stats;
	uint32_t *active = r->active;
	const bool by_args = r->by_args;
	for (int i = 0; i < n; i++) {
		const struct ct_event *ev = &evs[i];
		if (ev->kind == CT_ENTER) {
			if (!fn || ev->addr != addr) {
				addr = ev->addr;
				fn = ct_filter_func(r->filt, t->proc, addr);
			}
			if (__builtin_expect(fn->user < 0 || by_args || depth == cap, 0)) {
				r->depth = depth;
				account_enter(r, fn, ev);
				stack = r->stack;
				depth = r->depth;
				cap = r->capstack;
				stats = r->stats;
				active = r->active;
				continue;
			}
			uint32_t id = (uint32_t)fn->user;
			stack[depth++] = (struct ct_fframe){.id = id, .child = 0};
			active[id]++;
		} else if (depth) {
			struct ct_fframe f = stack[--depth];
			ct_fstat_exit(&stats[f.id], &active[f.id], &f,
				      depth ? &stack[depth - 1] : NULL, ev);
		}
	}
	r->depth = depth;
}

static int read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct report *r = ctx;
	int rc = ct_view_read_thread(v, t, NULL, emit, r);
	thread_reset(r);
	if (rc == 0 && r->task) {
		ct_report_task_row(r, t);
		return rc;
	}
	if (rc == 0 && r->per_thread) {
		print_table(r, t);
		if (r->names.n)
			memset(r->stats, 0, r->names.n * sizeof(*r->stats));
	}
	return rc;
}

static int parse_keys(struct report *r, const char *arg)
{
	/* ours, then uftrace's names of the same keys */
	static const struct {
		const char *name;
		enum skey k;
	} names[] = {
		{"total", K_TOTAL},   {"self", K_SELF},     {"calls", K_CALLS},
		{"avg", K_AVG},       {"min", K_MIN},       {"max", K_MAX},
		{"name", K_NAME},     {"stotal", K_STOTAL}, {"sself", K_SSELF},
		{"self-avg", K_SAVG}, {"self-min", K_SMIN}, {"self-max", K_SMAX},
		{"call", K_CALLS},    {"func", K_NAME},     {"total-avg", K_AVG},
		{"total-min", K_MIN}, {"total-max", K_MAX}, {"offcpu", K_OFFCPU},
	};
	r->nkeys = 0;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t k;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strlen(names[k].name) == len && !strncmp(p, names[k].name, len))
				break;
		if (k == sizeof(names) / sizeof(names[0]) ||
		    r->nkeys == sizeof(r->keys) / sizeof(r->keys[0]))
			return -1;
		r->keys[r->nkeys++] = names[k].k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	{"sort", 's', "KEY[,KEY]",
	 "sort by total, self, calls, avg, min, max, stotal,\n"
	 "sself (sampled: record --sample), offcpu (record\n"
	 "--sched; descending) or name\n"
	 "(ascending); default total"},
	CT_OPT_TIDS,
	{"per-thread", CT_OPT_PER_THREAD, NULL, "one table per thread"},
	{"output-fields", 'f', "FIELDS",
	 "the text table's columns, in order: total, self,\n"
	 "call, total-avg, total-min, total-max, self-avg,\n"
	 "self-min, self-max; +FIELDS adds to the usual\n"
	 "total,self,call,total-avg,total-min,total-max;\n"
	 "all: every one; none: names alone"},
	CT_OPT_FLAG("srcline", struct report, srcline,
		    "each function's file:line after its name, from\n"
		    "its DWARF declaration: 'leaf [leaf.c:8]' (text)"),
	CT_OPT_FLAG("task", struct report, task,
		    "one row per thread (task): its calls' time, its\n"
		    "number of calls, its tid and name"),
	CT_OPT_CALL_FILTERS("only calls at depth < N (counted as in replay)"),
	CT_OPT_RANGE,
	{"format", OPT_FORMAT, "text|csv|json", "the output's format (default text)"},
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_PAGER,
	{"limit", OPT_LIMIT, "N", "at most N rows (per table; 0: all)"},
	CT_OPT_RAWTIMES,
	CT_OPT_GROUP("comparing two recordings (--diff):"),
	{"diff", OPT_DIFF, "DIR",
	 "compare with the recording DIR (new) against -d's\n"
	 "(base): each function's figures in both, matched by\n"
	 "name, their differences; [new] and [vanished] mark\n"
	 "functions of one recording only"},
	{"diff-policy", OPT_DIFF_POLICY, "POLICY",
	 "words, comma-separated: abs (default): sort by the\n"
	 "difference's size; no-abs: by its sign, increases\n"
	 "first; percent or no-percent: the difference in\n"
	 "percent or as a value alone (default both); full\n"
	 "(default): the base's and the new figures too;\n"
	 "compact: the differences alone"},
	{"sort-column", OPT_SORT_COLUMN, "0|1|2",
	 "sort by the base's figure (0), the new one (1) or\n"
	 "the difference (2, default)"},
	CT_OPT_GROUP(""),
	CT_OPT_FLAG("by-args", struct report, by_args,
		    "one row per function and argument values, e.g.\n"
		    "'gcd(48, 18)' (record -A/-a); calls without\n"
		    "captured arguments stay under the plain name"),
	/* hidden: the names of the functions called, one a line, sorted
	 * (the bash completion's function names) */
	CT_OPT_FLAG("list-functions", struct report, list_functions, NULL),
	CT_OPT_HELP,
	CT_OPT_END,
};

/* the view's own options */
static int option(struct ct_view *v, int c, const char *arg, struct ct_error *err)
{
	struct report *r = v->ctx;
	static const char *const fmts[] = {"text", "csv", "json"};
	unsigned long n;
	int i;

	switch (c) {
	case 's':
		r->keys_given = true;
		if (parse_keys(r, arg) < 0) {
			ct_set_err(err,
				   "-s: want keys among total, self, calls, avg, min, max, stotal, "
				   "sself, self-avg, self-min, self-max, offcpu, name (or "
				   "uftrace's call, "
				   "func, total-avg, total-min, total-max), not '%s'",
				   arg);
			return -1;
		}
		return 0;
	case 'f':
		if (ct_report_parse_fields(r, arg) < 0) {
			ct_set_err(err,
				   "-f: want fields among total, total-avg, total-min, total-max, "
				   "self, self-avg, self-min, self-max, call (or all, none, "
				   "+FIELDS), not '%s'",
				   arg);
			return -1;
		}
		return 0;
	case OPT_FORMAT:
		i = ct_view_choice("--format", arg, fmts, 3, "text, csv or json", err);
		if (i >= 0)
			r->fmt = (enum fmt)i;
		return i < 0 ? -1 : 0;
	case OPT_LIMIT:
		if (ct_parse_uint(arg, (unsigned long)SIZE_MAX, &n) < 0) {
			ct_set_err(err, "--limit: bad number '%s'", arg);
			return -1;
		}
		r->limit = n;
		return 0;
	case OPT_DIFF:
		r->diff->dir = arg;
		return 0;
	case OPT_DIFF_POLICY:
		r->diff->policy_given = true;
		if (ct_report_parse_policy(r->diff, arg) < 0) {
			ct_set_err(err,
				   "--diff-policy: want words among abs, no-abs, percent, "
				   "no-percent, full, compact, not '%s'",
				   arg);
			return -1;
		}
		return 0;
	case OPT_SORT_COLUMN:
		if (ct_parse_uint(arg, 2, &n) < 0) {
			ct_set_err(err, "--sort-column: want 0, 1 or 2, not '%s'", arg);
			return -1;
		}
		r->diff->column = (int)n;
		return 0;
	}
	return -1; /* not reached: getopt gives the table's options only */
}

/* a recording of call counts (record --count): the calls of each function
 * are those of the arcs into it; the tables are printed here (per thread)
 * or by end() */
static int count_begin(struct report *r, struct ct_view *v)
{
	r->counts = true;
	if (r->task)
		return ct_error("--task: %s holds call counts only (record --count): no "
				"times per thread",
				v->dir)
			       ? 1
			       : 1;
	if (r->by_args)
		return ct_error("--by-args: %s holds call counts only (record --count): no "
				"arguments",
				v->dir)
			       ? 2
			       : 2;
	if (ct_view_counts_load(v, &r->cnt))
		return 1;
	/* record --count --sample: the times are the samples' */
	r->sampled = r->cnt.sampled;
	for (size_t i = 0; i < r->nkeys && r->keys_given; i++)
		if (r->keys[i] != K_CALLS && r->keys[i] != K_NAME && !r->sampled)
			return ct_error("-s: %s holds call counts only (record --count): sort by "
					"calls or name",
					v->dir)
				       ? 2
				       : 2;
	if (!r->keys_given) {
		r->keys[0] = r->sampled ? K_TOTAL : K_CALLS;
		r->nkeys = 1;
	}
	if (r->list_functions)
		r->per_thread = false; /* the names alone, from end() */
	else if (r->per_thread && r->fmt == FMT_JSON)
		fputs("{\"threads\":[", stdout);
	if (r->fmt == FMT_CSV && !r->list_functions) {
		fputs(r->per_thread ? "pid,tid,function,calls" : "function,calls", stdout);
		fputs(r->sampled ? ",samples_total,samples_self,sampled_total_ns,sampled_self_ns\n"
				 : "\n",
		      stdout);
	}
	for (size_t k = 0; k < r->cnt.nthreads; k++) {
		const struct ct_count_thread *ct = &r->cnt.threads[k];
		uint64_t per = ct->sample_ns;
		for (size_t i = 0; i < ct->narcs; i++) {
			const struct ct_count_arc *a = &ct->arcs[i];
			uint32_t id = ct_report_intern(r, r->cnt.names.v[a->callee]);
			struct ct_fstat *st = &r->stats[id];
			st->calls += a->calls;
			st->sself += a->sself;
			st->sself_ns += a->sself * per;
			st->self = st->sself_ns; /* (the sort keys) */
		}
		for (size_t i = 0; i < ct->nfsmp; i++) {
			uint32_t id = ct_report_intern(r, r->cnt.names.v[ct->fsmp[i].fn]);
			struct ct_fstat *st = &r->stats[id];
			st->stotal += ct->fsmp[i].stotal;
			st->stotal_ns += ct->fsmp[i].stotal * per;
			st->total = st->stotal_ns;
		}
		r->csamples += ct->samples;
		r->csamples_ns += ct->samples * per;
		r->csamples_out += ct->samples_out;
		r->csamples_out_ns += ct->samples_out * per;
		r->csamples_hooks += ct->samples_hooks;
		r->csamples_over += ct->samples_over;
		r->csamples_hooks_ns += ct->samples_hooks * per;
		if (r->per_thread) {
			struct ct_proc p = {.pid = ct->pid, .gen = ct->gen};
			struct ct_thread t = {.proc = &p, .tid = ct->tid};
			print_table(r, &t);
			if (r->names.n)
				memset(r->stats, 0, r->names.n * sizeof(*r->stats));
		}
	}
	ct_view_counts_lost(&r->cnt);
	return 0;
}

/* the heads of a JSON per-thread report and of CSV */
static int begin(void *ctx, struct ct_view *v)
{
	struct report *r = ctx;
	r->per_thread = v->per_thread;
	r->s = v->s;
	r->filt = &v->filt;
	r->out = stdout;
	if (diffing(r) && !r->list_functions)
		return ct_report_diff_begin(r, v);
	if (v->counts)
		return count_begin(r, v);
	if (r->list_functions)
		return 0;
	if (r->per_thread && r->fmt == FMT_JSON)
		fputs("{\"threads\":[", stdout);
	for (size_t i = 0; i < v->s->nprocs; i++)
		r->sampled |= v->s->procs[i]->sample_ns != 0;
	r->sched = v->s->sched;
	for (size_t i = 0; i < r->nkeys && r->keys_given && !r->sched; i++)
		if (r->keys[i] == K_OFFCPU)
			return ct_error("-s: %s has no context switches (record --sched) to sort "
					"by",
					v->dir)
				       ? 2
				       : 2;
	for (size_t i = 0; i < r->nkeys && r->keys_given && !r->sampled; i++)
		if (r->keys[i] == K_STOTAL || r->keys[i] == K_SSELF)
			return ct_error("-s: %s has no samples (record --sample) to sort by",
					v->dir)
				       ? 2
				       : 2;
	if (r->fmt == FMT_CSV && !r->task) {
		fputs(r->per_thread ? "pid,tid,function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns"
				    : "function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns",
		      stdout);
		if (r->sched)
			fputs(",offcpu_ns", stdout);
		fputs(r->sampled ? ",samples_total,samples_self,sampled_total_ns,sampled_self_ns\n"
				 : "\n",
		      stdout);
	}
	return 0;
}

/* --list-functions: the names of the functions called, sorted, one a line
 * (a name with a line break in it left out) */
static void list_functions(struct report *r)
{
	sort_r = r;
	r->nkeys = 1;
	r->keys[0] = K_NAME;
	uint32_t *ix = ct_sorted_indexes(r->names.n, cmp_rows);
	for (size_t i = 0; i < r->names.n; i++) {
		const char *name = r->names.v[ix[i]];
		if (r->stats[ix[i]].calls && !strpbrk(name, "\n\r"))
			printf("%s\n", name);
	}
	free(ix);
}

/* how sure the times are (text, after the tables): the tracer's cost the
 * corrected clocks took out of the threads read, its share of their
 * recorded time, and what could not be taken out (doc/overhead.md) */
static void print_cost(const struct ct_view *v, FILE *out)
{
	const struct ct_cost *c = &v->cost;
	char b[3][64];
	if (v->raw) {
		fputs("\n# times as recorded (--raw): the tracer's own cost is in them\n", out);
		return;
	}
	fprintf(out, "\n# tracer's cost taken out: %s", dur(c->taken, b[0], sizeof(b[0])));
	if (c->span)
		fprintf(out, ", %.1f %% of the %s the threads recorded\n",
			100.0 * (double)c->taken / (double)c->span,
			dur(c->span, b[1], sizeof(b[1])));
	else
		fputs(" (the threads recorded no time)\n", out);
	fprintf(out,
		"# clipped: %s (estimated cost beyond the time that passed: the clock "
		"stood still)\n",
		dur(c->clipped, b[2], sizeof(b[2])));
}

/* record --sample: how many samples the sampled columns stand on */
static void print_samples(const struct ct_view *v, FILE *out)
{
	char b[2][64];
	fprintf(out,
		"# sampled: %llu samples, %s of the threads' CPU time; %llu (%s) outside any "
		"recorded call\n",
		(unsigned long long)v->samples, dur(v->samples_ns, b[0], sizeof(b[0])),
		(unsigned long long)v->samples_out, dur(v->samples_out_ns, b[1], sizeof(b[1])));
	ct_view_print_taken(v->samples, v->samples_over, false, out);
}

/* the same in JSON, the report object's last fields */
static void json_cost(const struct ct_view *v, FILE *out)
{
	fprintf(out,
		",\n\"times\":\"%s\",\"cost\":{\"taken_ns\":%llu,\"clipped_ns\":%llu,"
		"\"span_ns\":%llu}}\n",
		v->raw ? "recorded" : "corrected", (unsigned long long)v->cost.taken,
		(unsigned long long)v->cost.clipped, (unsigned long long)v->cost.span);
}

static int end(void *ctx, struct ct_view *v, int rc)
{
	struct report *r = ctx;
	if (rc != 0)
		return 0;
	if (r->list_functions) {
		list_functions(r);
		return 0;
	}
	if (diffing(r))
		return ct_report_diff_end(r, v);
	if (r->counts) {
		/* no times but the samples': the tables as they were */
		if (!r->per_thread)
			print_table(r, NULL);
		else if (r->fmt == FMT_JSON)
			fputs(r->sampled ? "]" : "]}\n", stdout);
		if (r->sampled && r->fmt == FMT_JSON)
			printf(",\n\"samples\":{\"all\":%llu,\"all_ns\":%llu,\"taken\":%llu,"
			       "\"outside\":%llu,\"outside_ns\":%llu,\"hooks\":%llu,"
			       "\"hooks_ns\":%llu},\"times\":\"sampled\"}\n",
			       (unsigned long long)r->csamples, (unsigned long long)r->csamples_ns,
			       (unsigned long long)ct_view_taken(r->csamples, r->csamples_over),
			       (unsigned long long)r->csamples_out,
			       (unsigned long long)r->csamples_out_ns,
			       (unsigned long long)r->csamples_hooks,
			       (unsigned long long)r->csamples_hooks_ns);
		else if (r->sampled && r->fmt == FMT_TEXT) {
			char b[3][64];
			printf("\n# times sampled (record --count --sample): samples x period, the "
			       "calls exact; %llu samples, %s of the threads' CPU time; %llu (%s) "
			       "outside any call, %llu (%s) in the tracer's hooks, charged to no "
			       "call\n",
			       (unsigned long long)r->csamples,
			       dur(r->csamples_ns, b[0], sizeof(b[0])),
			       (unsigned long long)r->csamples_out,
			       dur(r->csamples_out_ns, b[1], sizeof(b[1])),
			       (unsigned long long)r->csamples_hooks,
			       dur(r->csamples_hooks_ns, b[2], sizeof(b[2])));
			ct_view_print_taken(r->csamples, r->csamples_over, false, stdout);
		}
		return 0;
	}
	if (r->task)
		ct_report_print_tasks(r);
	else if (!r->per_thread)
		print_table(r, NULL);
	else if (r->fmt == FMT_JSON)
		fputs("]", stdout);
	if (r->fmt == FMT_JSON && r->sampled && !r->task)
		printf(",\n\"samples\":{\"all\":%llu,\"all_ns\":%llu,\"taken\":%llu,"
		       "\"outside\":%llu,\"outside_ns\":%llu}",
		       (unsigned long long)v->samples, (unsigned long long)v->samples_ns,
		       (unsigned long long)ct_view_taken(v->samples, v->samples_over),
		       (unsigned long long)v->samples_out, (unsigned long long)v->samples_out_ns);
	if (r->fmt == FMT_JSON)
		json_cost(v, stdout);
	else if (r->fmt == FMT_TEXT)
		print_cost(v, stdout);
	if (r->fmt == FMT_TEXT && r->sampled)
		print_samples(v, stdout);
	return 0;
}

/* what a report took */
static void report_free(struct report *r)
{
	free(r->stats);
	free(r->active);
	free(r->stack);
	ct_names_free(&r->names);
	ct_counts_free(&r->cnt);
	for (size_t i = 0; i < r->nkeys_made; i++)
		free(r->keys_made[i]);
	free(r->keys_made);
	free(r->tasks);
	free(r->srcp);
	free(r->srca);
}

static char outbuf[1 << 16];

/* the options that do not go together, then --diff's */
static int check(struct ct_view *v)
{
	struct report *r = v->ctx;
	if (r->task && (v->per_thread || r->by_args || r->fields_set || diffing(r)))
		return ct_usage_error("--task: one row per thread, not with %s",
				      v->per_thread   ? "--per-thread"
				      : r->by_args    ? "--by-args"
				      : r->fields_set ? "-f (its columns are fixed)"
						      : "--diff");
	if (r->fields_set && diffing(r))
		return ct_usage_error("-f with --diff: the columns of --diff are set by "
				      "--diff-policy");
	return ct_report_diff_check(v);
}

int cmd_report(int argc, char **argv)
{
	static struct diff d;
	d = (struct diff){.column = 2, .argc = argc, .argv = argv};
	struct report r = {.fmt = FMT_TEXT,
			   .keys = {K_TOTAL},
			   .nkeys = 1,
			   .first_table = true,
			   .diff = &d};
	/* clang-format off */
	struct ct_view v = {.head = head, .tail = tail, .opts = options, .option = option,
			    .ctx = &r, .unfiltered = unfiltered, .outbuf = outbuf,
			    .outbuf_len = sizeof(outbuf), .begin = begin,
			    .read = read_thread, .end = end, .counts_ok = true,
			    .check = check};
	/* clang-format on */

	ct_names_init(&r.names);
	int status = ct_view_run(&v, argc, argv);
	if (d.opened) {
		ct_view_close(&d.ov);
		report_free(&d.o);
	}
	free(d.ostats);
	free(d.tids);
	report_free(&r);
	return status;
}
