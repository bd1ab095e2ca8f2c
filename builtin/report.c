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
 * the length of the trace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "builtin/builtin.h"
#include "counts.h"
#include "filter.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "progress.h"
#include "session.h"
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
	"estimate.  The last lines say how much cost was taken out.\n";

/* ---- aggregation ---------------------------------------------------- */

struct fstat {
	uint64_t calls, total, self, sum, min, max;
	uint64_t rtotal; /* total on the recorded clock */
	uint64_t frames; /* calls entered before the stream (not counted) */
};

struct frame {
	uint32_t id;
	uint64_t child; /* inclusive time of direct callees */
	uint64_t rchild;
};

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };
enum skey { K_TOTAL, K_SELF, K_CALLS, K_AVG, K_MIN, K_MAX, K_NAME };

struct report {
	struct ct_session *s;
	struct ct_filter *filt;
	struct ct_names names; /* function names and their ids */

	struct fstat *stats; /* per id */
	uint32_t *active;    /* per id: open activations on the current thread */
	size_t capstats;

	struct frame *stack;
	size_t depth, capstack;

	enum fmt fmt;
	enum skey keys[8];
	size_t nkeys;
	size_t limit; /* 0: all */
	bool per_thread;
	bool first_table;
	FILE *out;
	bool by_args;
	bool list_functions;  /* the names alone (the shell completion) */
	bool keys_given;      /* -s */
	bool counts;          /* a recording of call counts only: calls, no times */
	struct ct_counts cnt; /* its counts */
	char **keys_made;     /* --by-args: the "name(values)" strings */
	size_t nkeys_made;
	struct diff *diff; /* --diff (below): the other recording when its dir is set */
};

/* --diff-policy: how the differences are shown */
enum dpct { DP_BOTH, DP_PERCENT, DP_VALUE };

struct diff {
	const char *dir; /* the other recording */
	bool noabs;      /* sort by the signed difference, not its size */
	bool compact;    /* the differences alone, not the two figures */
	enum dpct pct;
	int column; /* --sort-column: 0 base, 1 new, 2 the difference */
	bool policy_given;
	bool counts; /* a recording of call counts only on either side */
	int argc;    /* the command line, parsed again for the other view */
	char **argv;
	int *tids; /* --tid: threads of either recording */
	size_t ntids;
	struct report o;   /* the other recording's figures */
	struct ct_view ov; /* and its view */
	bool opened;
	struct fstat *ostats;   /* the other's figures per id of the base's names */
	char lost_note[2][320]; /* which recording lost events (ct_view's lost_note) */
};

static uint32_t intern(struct report *r, const char *name);

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
	return intern(r, key);
}

static uint32_t intern(struct report *r, const char *name)
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

static inline void account_enter(struct report *r, struct ct_func *fn, const struct ct_event *ev)
{
	if (fn->user < 0)
		fn->user = intern(r, fn->name);
	uint32_t id = (uint32_t)fn->user;
	if (__builtin_expect(r->by_args && ev->args && ev->args->has_args, 0))
		id = args_row(r, fn, ev);
	*CT_PUSH(r->stack, r->depth, r->capstack) = (struct frame){.id = id, .child = 0};
	r->active[id]++;
}

/* the exit of the innermost open call (r->depth > 0), counted for the
 * function on the stack: the reader's events are well nested, so that is
 * the exit's own function */
static inline __attribute__((always_inline)) void account_exit(struct report *r,
							       const struct ct_event *ev)
{
	struct frame f = r->stack[--r->depth];
	uint32_t id = f.id;
	uint64_t incl = ct_event_dur(ev);
	struct fstat *st = &r->stats[id];
	if (r->active[id])
		r->active[id]--;
	if (__builtin_expect(ct_call_counted(ev), 1)) {
		if (!st->calls || incl < st->min)
			st->min = incl;
		if (incl > st->max)
			st->max = incl;
		st->calls++;
		st->sum += incl;
	} else {
		st->frames++;
	}
	if (!r->active[id]) {
		st->total += incl;
		st->rtotal += ct_event_raw_dur(ev);
	}
	st->self += ct_call_self(incl, f.child);
	if (r->depth)
		r->stack[r->depth - 1].child += incl;
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct report *r = ctx;
	if (fe->ev.kind == CT_ENTER) {
		account_enter(r, fe->fn, &fe->ev);
		return;
	}
	if (fe->fn->user < 0)
		fe->fn->user = intern(r, fe->fn->name);
	if (!r->depth)
		return; /* an exit without its entry: cannot happen after the reader */
	account_exit(r, &fe->ev);
}

/* after each thread: forget what is left open (only after an error) */
static void thread_reset(struct report *r)
{
	while (r->depth) {
		struct frame f = r->stack[--r->depth];
		if (r->active[f.id])
			r->active[f.id]--;
	}
}

/* ---- output --------------------------------------------------------- */

static uint64_t ct_avg(const struct fstat *st)
{
	return st->calls ? st->sum / st->calls : 0;
}

/* the function's time is mostly the tracer's (lib/read/overhead.h): marked
 * so that nobody optimises the tracer's cost */
static bool mostly_cost(const struct fstat *st)
{
	return ct_mostly_cost(st->total, st->rtotal);
}

/* the marker after such a function's name, and the line under a table
 * that has one */
#define COST_MARK " *"
static const char cost_legend[] =
	"* mostly the tracer's own cost: recorded more than 5x the corrected time, "
	"which is then mostly estimate (doc/overhead.md)\n";

static struct report *sort_r;

static uint64_t keyval(const struct fstat *st, enum skey k)
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

/* the i-th row's object, up to its name */
static void json_row_start(const struct report *r, size_t i, uint32_t row)
{
	fputs(i ? ",\n{\"name\":" : "\n{\"name\":", r->out);
	ct_json_string(r->out, r->names.v[row]);
}

/* print_table for a recording of call counts: the calls column alone */
static void print_counts(struct report *r, const struct ct_thread *t, const uint32_t *rows,
			 size_t n, int pid)
{
	FILE *out = r->out;
	switch (r->fmt) {
	case FMT_TEXT:
		if (t)
			fprintf(out, "%s# thread %d (process %d)\n", r->first_table ? "" : "\n",
				t->tid, pid);
		fputs("       Calls  Function\n"
		      "  ==========  ====================\n",
		      out);
		for (size_t i = 0; i < n; i++)
			fprintf(out, "  %10llu  %s\n", (unsigned long long)r->stats[rows[i]].calls,
				ct_tx(r->names.v[rows[i]]));
		break;
	case FMT_CSV:
		for (size_t i = 0; i < n; i++) {
			csv_row_start(r, t, pid, rows[i]);
			fprintf(out, ",%llu\n", (unsigned long long)r->stats[rows[i]].calls);
		}
		break;
	case FMT_JSON:
		json_table_start(r, t, pid, "{\"counts_only\":true,\"functions\":[");
		for (size_t i = 0; i < n; i++) {
			json_row_start(r, i, rows[i]);
			fprintf(out, ",\"calls\":%llu}",
				(unsigned long long)r->stats[rows[i]].calls);
		}
		fputs(t ? "]}" : "]}\n", out);
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
		if (t)
			fprintf(out, "%s# thread %d%s%s (process %d)\n", r->first_table ? "" : "\n",
				t->tid, t->name ? " " : "", t->name ? ct_tx(t->name) : "", pid);
		fputs("  Total time   Self time       Calls    Average        Min        Max"
		      "  Function\n"
		      "  ==========  ==========  ==========  ========== ========== =========="
		      "  ====================\n",
		      out);
		bool marked = false;
		for (size_t i = 0; i < n; i++) {
			const struct fstat *st = &r->stats[rows[i]];
			char b[6][64];
			bool mark = mostly_cost(st);
			marked |= mark;
			fprintf(out, "  %s  %s  %10llu %s %s %s  %s%s\n",
				ct_format_duration(st->total, b[0], sizeof(b[0])),
				ct_format_duration(st->self, b[1], sizeof(b[1])),
				(unsigned long long)st->calls,
				ct_format_duration(ct_avg(st), b[2], sizeof(b[2])),
				ct_format_duration(st->min, b[3], sizeof(b[3])),
				ct_format_duration(st->max, b[4], sizeof(b[4])),
				ct_tx(r->names.v[rows[i]]), mark ? COST_MARK : "");
		}
		if (marked)
			fputs(cost_legend, out);
		break;
	case FMT_CSV: /* the header was printed by cmd_report */
		for (size_t i = 0; i < n; i++) {
			const struct fstat *st = &r->stats[rows[i]];
			csv_row_start(r, t, pid, rows[i]);
			fprintf(out, ",%llu,%llu,%llu,%llu,%llu,%llu\n",
				(unsigned long long)st->calls, (unsigned long long)st->total,
				(unsigned long long)st->self, (unsigned long long)(ct_avg(st)),
				(unsigned long long)st->min, (unsigned long long)st->max);
		}
		break;
	case FMT_JSON:
		json_table_start(r, t, pid, "{\"functions\":[");
		for (size_t i = 0; i < n; i++) {
			const struct fstat *st = &r->stats[rows[i]];
			json_row_start(r, i, rows[i]);
			fprintf(out,
				",\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu,"
				"\"avg_ns\":%llu,\"min_ns\":%llu,\"max_ns\":%llu,"
				"\"mostly_cost\":%s}",
				(unsigned long long)st->calls, (unsigned long long)st->total,
				(unsigned long long)st->self, (unsigned long long)(ct_avg(st)),
				(unsigned long long)st->min, (unsigned long long)st->max,
				mostly_cost(st) ? "true" : "false");
		}
		/* the object is closed by end(), after the tracer's cost */
		fputs(t ? "]}" : "]", out);
		break;
	}
	r->first_table = false;
	free(rows);
}

/* no filter: every event counts, and an exit is that of the call on top
 * of the stack, with no lookup */
static void unfiltered(void *ctx, struct ct_thread *t, const struct ct_event *evs, int n)
{
	struct report *r = ctx;
	for (int i = 0; i < n; i++) {
		const struct ct_event *ev = &evs[i];
		if (ev->kind == CT_ENTER)
			account_enter(r, ct_filter_func(r->filt, t->proc, ev->addr), ev);
		else if (r->depth)
			account_exit(r, ev);
	}
}

static int read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct report *r = ctx;
	int rc = ct_view_read_thread(v, t, NULL, emit, r);
	thread_reset(r);
	if (rc == 0 && r->per_thread) {
		print_table(r, t);
		if (r->names.n)
			memset(r->stats, 0, r->names.n * sizeof(*r->stats));
	}
	return rc;
}

static int parse_keys(struct report *r, const char *arg)
{
	static const char *const names[] = {"total", "self", "calls", "avg", "min", "max", "name"};
	r->nkeys = 0;
	const char *p = arg;
	for (;;) {
		size_t len = strcspn(p, ",");
		size_t k;
		for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (strlen(names[k]) == len && !strncmp(p, names[k], len))
				break;
		if (k == sizeof(names) / sizeof(names[0]) ||
		    r->nkeys == sizeof(r->keys) / sizeof(r->keys[0]))
			return -1;
		r->keys[r->nkeys++] = (enum skey)k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* --diff (below) */
static bool diffing(const struct report *r);
static int parse_policy(struct diff *d, const char *arg);
static int diff_check(struct ct_view *v);
static int diff_begin(struct report *r, struct ct_view *v);
static int diff_end(struct report *r, struct ct_view *v);

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	{"sort", 's', "KEY[,KEY]",
	 "sort by total, self, calls, avg, min, max (descending)\n"
	 "or name (ascending); default total"},
	CT_OPT_TIDS,
	{"per-thread", CT_OPT_PER_THREAD, NULL, "one table per thread"},
	CT_OPT_CALL_FILTERS("only calls at depth < N (counted as in replay)"),
	CT_OPT_RANGE,
	{"format", OPT_FORMAT, "text|csv|json", "the output's format (default text)"},
	CT_OPT_DEMANGLE,
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
				   "-s: want keys among total, self, calls, avg, min, max, name, "
				   "not '%s'",
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
		if (parse_policy(r->diff, arg) < 0) {
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
	if (r->by_args)
		return ct_error("--by-args: %s holds call counts only (record --count): no "
				"arguments",
				v->dir)
			       ? 2
			       : 2;
	for (size_t i = 0; i < r->nkeys && r->keys_given; i++)
		if (r->keys[i] != K_CALLS && r->keys[i] != K_NAME)
			return ct_error("-s: %s holds call counts only (record --count): sort by "
					"calls or name",
					v->dir)
				       ? 2
				       : 2;
	if (!r->keys_given) {
		r->keys[0] = K_CALLS;
		r->nkeys = 1;
	}
	if (ct_view_counts_load(v, &r->cnt))
		return 1;
	if (r->list_functions)
		r->per_thread = false; /* the names alone, from end() */
	else if (r->per_thread && r->fmt == FMT_JSON)
		fputs("{\"threads\":[", stdout);
	if (r->fmt == FMT_CSV && !r->list_functions)
		fputs(r->per_thread ? "pid,tid,function,calls\n" : "function,calls\n", stdout);
	for (size_t k = 0; k < r->cnt.nthreads; k++) {
		const struct ct_count_thread *ct = &r->cnt.threads[k];
		for (size_t i = 0; i < ct->narcs; i++) {
			uint32_t id = intern(r, r->cnt.names.v[ct->arcs[i].callee]);
			r->stats[id].calls += ct->arcs[i].calls;
		}
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
		return diff_begin(r, v);
	if (v->counts)
		return count_begin(r, v);
	if (r->list_functions)
		return 0;
	if (r->per_thread && r->fmt == FMT_JSON)
		fputs("{\"threads\":[", stdout);
	if (r->fmt == FMT_CSV)
		fputs(r->per_thread
			      ? "pid,tid,function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns\n"
			      : "function,calls,total_ns,self_ns,avg_ns,min_ns,max_ns\n",
		      stdout);
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

/* a duration as ct_format_duration writes it, without its leading blanks */
static const char *dur(uint64_t ns, char *buf, size_t len)
{
	ct_format_duration(ns, buf, len);
	return buf + strspn(buf, " ");
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
		return diff_end(r, v);
	if (r->counts) {
		/* no times: the tables as they were */
		if (!r->per_thread)
			print_table(r, NULL);
		else if (r->fmt == FMT_JSON)
			fputs("]}\n", stdout);
		return 0;
	}
	if (!r->per_thread)
		print_table(r, NULL);
	else if (r->fmt == FMT_JSON)
		fputs("]", stdout);
	if (r->fmt == FMT_JSON)
		json_cost(v, stdout);
	else if (r->fmt == FMT_TEXT)
		print_cost(v, stdout);
	return 0;
}

/* ---- --diff: two recordings compared ---------------------------------
 *
 * The base recording (-d) is read as report reads it; the other one
 * (--diff DIR, "new") with the same options through a second view, opened
 * by begin and read by end, while the base's session is still open (the
 * names point into the sessions).  Rows are matched by the names report
 * prints, never by address: two builds of a program place functions
 * anywhere. */

static bool diffing(const struct report *r)
{
	return r->diff && r->diff->dir;
}

/* a row: its id among the base's names (which gained the other's), and
 * whether each side has the function */
struct drow {
	uint32_t id;
	bool inb, inn;
};

static bool has_row(const struct fstat *st)
{
	return st->calls || st->frames;
}

/* a figure of a side: total, self or calls */
static int64_t dfig(const struct fstat *st, enum skey k)
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
		const struct fstat *b = &r->stats[w->id], *o = &d->ostats[w->id];
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
		fputs(cost_legend, out);
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

static void json_side(FILE *out, const struct fstat *st, bool in, bool counts)
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
		const struct fstat *b = &r->stats[w->id], *o = &d->ostats[w->id];
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
			intern(r, o->names.v[i]);
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
			uint32_t id = intern(r, r->cnt.names.v[ct->arcs[i].callee]);
			r->stats[id].calls += ct->arcs[i].calls;
		}
	}
	ct_view_counts_lost(&r->cnt);
	return 0;
}

/* begin, with --diff: the other recording opened with the same options,
 * the threads --tid names in either chosen; 0, or an exit status */
static int diff_begin(struct report *r, struct ct_view *v)
{
	struct diff *d = r->diff;
	struct ct_view *ov = &d->ov;
	*ov = (struct ct_view){.head = head,
			       .tail = tail,
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
static int diff_end(struct report *r, struct ct_view *v)
{
	struct diff *d = r->diff;
	struct ct_view *ov = &d->ov;
	int rc = ov->counts ? 0 : ct_view_read(ov, read_thread, &d->o);
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
static int diff_check(struct ct_view *v)
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

static int parse_policy(struct diff *d, const char *arg)
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
}

static char outbuf[1 << 16];

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
			    .check = diff_check};
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
