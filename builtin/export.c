/* SPDX-License-Identifier: MIT */
/*
 * calltrace export: the recorded calls in a format other tools read.
 *
 *   chrome  Chrome Trace Event Format JSON (chrome://tracing, Perfetto):
 *           one complete ("X") event per call, written at its exit, so
 *           memory is bounded by the stack depth; metadata ("M") events
 *           name each process and thread
 *   folded  folded stacks for flamegraph.pl / speedscope
 *           (builtin/export_folded.c)
 *   callgrind  the Callgrind profile format, for KCachegrind and
 *           callgrind_annotate (builtin/export_callgrind.c)
 *   dot     the call graph for Graphviz, from callgrind's aggregates
 *           (builtin/export_dot.c)
 *   mermaid the same graph as a Mermaid flowchart (builtin/export_mermaid.c)
 *   perfetto  Perfetto's protobuf trace: see builtin/export_perfetto.c
 *
 *   html   one self-contained HTML report (builtin/export_html.c)
 *
 * Threads are read one after the other through the filter (-F/-N/-D/-t).
 *
 * Times are those report shows (doc/overhead.md): the tracer's own cost
 * taken out, as recorded with --raw.  Each event is first placed on its
 * thread's corrected clock (lib/read/tclock.h), which every format then uses
 * for start times, -r and the timelines; the aggregated formats (folded,
 * callgrind, html's profiles) add up each call's corrected time as report
 * does (sums unclamped, shown as at least 0).  Each output says which
 * times it holds, where its format has room for it.
 *
 * -r START~END keeps the calls that overlap the half-open range
 * [START, END) (an empty side is open); their times are clipped to it:
 * chrome slices start and end within it, folded and callgrind count only
 * the part of each self / inclusive time inside it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argspec.h"
#include "builtin/builtin.h"
#include "builtin/export.h"
#include "builtin/export_perfetto.h"
#include "builtin/export_counts.h"
#include "builtin/export_html.h"
#include "filter.h"
#include "message.h"
#include "output.h"
#include "progress.h"
#include "session.h"
#include "srcline.h"
#include "util.h"
#include "view.h"

enum { OPT_FORMAT = 256, OPT_FOLDED_VALUE, OPT_BY, OPT_FOLDED_FRAMES, OPT_CALLSITE, OPT_MODE };

/* folded: a stack deeper than this many frames is written as its outermost
 * half, one "[… K frames]" frame for the K left out, and its innermost
 * half, so that deep recursion makes output linear in the number of
 * stacks, not quadratic (--folded-frames; doc/export.md) */
#define FOLDED_FRAMES 128

static const struct ct_opt options[] = {
	{"format", OPT_FORMAT, "chrome|perfetto|folded|callgrind|html|dot|mermaid",
	 "the output's format (required)"},
	{"output", 'o', "FILE",
	 "write to FILE (default: standard output), made\n"
	 "mode 0600 whatever the umask (it holds what was\n"
	 "captured); a link of another user is not followed"},
	{"mode", OPT_MODE, "MODE", "FILE's permission bits, in octal (default 0600)"},
	CT_OPT_DATA,
	{"by", OPT_BY, "V",
	 "folded: each stack's value: self (self time in ns,\n"
	 "default), calls, or samples (self samples: record\n"
	 "--sample)"},
	{"folded-value", OPT_FOLDED_VALUE, "V", "the same as --by (its older name)"},
	{"folded-frames", OPT_FOLDED_FRAMES, "N",
	 "a stack of more than N frames keeps its N/2\n"
	 "outermost and innermost ones around a frame\n"
	 "\"[\u2026 K frames]\" (default 128; 0: no limit)"},
	CT_OPT_TIDS,
	CT_OPT_CALL_FILTERS("only calls at depth < N (counted as in replay)"),
	/* the text starts with a space: two after an option 23 columns wide */
	{"range", 'r', "START~END",
	 " only calls overlapping this time range (since the\n"
	 "start of the recording, e.g. 10ms~20ms, 1.5s~, ~500us,\n"
	 "or timestamps as replay -f time prints them), their\n"
	 "times clipped to it"},
	CT_OPT_RAWTIMES,
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	{"callsite", OPT_CALLSITE, NULL,
	 "html: a caller/callee row per call site\n"
	 "(record --callsite; chrome and perfetto carry\n"
	 "call sites whenever the recording has them)"},
	CT_OPT_HELP,
	CT_OPT_END,
};

static const char head[] =
	"usage: calltrace export --format=FMT [options]\n"
	"\n"
	"Write the recorded calls in a format other tools read.\n"
	"\n"
	"formats:\n"
	"  chrome   Chrome Trace Event Format JSON, for chrome://tracing or\n"
	"           ui.perfetto.dev: one complete event per call\n"
	"  perfetto Perfetto's protobuf trace (TrackEvent slices, interned names),\n"
	"           for ui.perfetto.dev: half the size of chrome, faster to write\n"
	"  folded   folded stacks (\"main;outer;inner VALUE\"), for flamegraph.pl\n"
	"           or speedscope; one line per distinct stack, sorted\n"
	"  callgrind  Callgrind profile (events: ns), for KCachegrind or\n"
	"           callgrind_annotate: self time per function, calls and\n"
	"           inclusive time per caller/callee pair\n"
	"  html     one self-contained HTML report for a browser (no server, no\n"
	"           network): flame graph, sortable flat profile, callers and\n"
	"           callees of each function, the recording's info\n"
	"  dot      the call graph for Graphviz (dot -Tsvg): a node per function\n"
	"           with its self time, an edge per caller/callee pair with its\n"
	"           calls and inclusive time\n"
	"  mermaid  the same call graph as a Mermaid flowchart (uftrace dump\n"
	"           --mermaid), for Markdown pages and mermaid.live\n"
	"\n"
	"options:\n";

/* a call [start, end) overlaps the range [lo, hi); a call of no duration
 * overlaps when it is inside the range */
bool ct_export_in_range(const struct exporter *x, const struct ct_event *ev)
{
	uint64_t end = ev->time >= ev->start ? ev->time : ev->start;
	if (ev->start >= x->hi)
		return false;
	return end > x->lo || (end == ev->start && ev->start >= x->lo);
}

/* the call's start and end, clipped to the range */
static void clip(const struct exporter *x, const struct ct_event *ev, uint64_t *b, uint64_t *e)
{
	uint64_t end = ev->time >= ev->start ? ev->time : ev->start;
	*b = ev->start > x->lo ? ev->start : x->lo;
	*e = end < x->hi ? end : x->hi;
	if (*e < *b)
		*e = *b;
}


/* what a call counts in the aggregates (folded, callgrind, html): its
 * duration as report counts it when it lies inside the range, the part of
 * it inside the range on the thread's corrected clock when the range cuts
 * it (range_clock: the same bounds for every call of the thread, so that
 * the parts still nest), 0 when it is outside */
uint64_t ct_export_incl(const struct exporter *x, const struct ct_event *ev)
{
	if (!ct_export_in_range(x, ev))
		return 0;
	uint64_t b = ev->cstart, e = ev->ctime;
	if (ev->start < x->lo && x->c_lo > b)
		b = x->c_lo;
	if (ev->time > x->hi && x->c_hi < e)
		e = x->c_hi;
	return e > b ? e - b : 0;
}

/* -r: where lo and hi fall on the thread's corrected clock, found at the
 * first event at or after each: the clock there less the recorded time
 * since the bound, never before the event before it */
static void range_clock(struct exporter *x, const struct ct_event *ev)
{
	if (x->c_lo == UINT64_MAX && ev->time >= x->lo) {
		uint64_t back = ev->time - x->lo;
		x->c_lo = ev->ctime - (back < ev->ctime - x->c_prev ? back : ev->ctime - x->c_prev);
	}
	if (x->c_hi == UINT64_MAX && ev->time >= x->hi) {
		uint64_t back = ev->time - x->hi;
		x->c_hi = ev->ctime - (back < ev->ctime - x->c_prev ? back : ev->ctime - x->c_prev);
	}
	x->c_prev = ev->ctime;
}

/* the times the outputs say they hold */
const char *ct_export_times_note(const struct exporter *x)
{
	return x->raw ? "times as recorded, the tracer's own cost included (--raw)"
		      : "times corrected for the tracer's own cost (doc/overhead.md; --raw: as "
			"recorded)";
}

void ct_export_quoted(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			putc_unlocked('\\', out);
		putc_unlocked(c < 0x20 || c == 0x7f ? '?' : c, out);
	}
}

const char *ct_export_dur(uint64_t ns, char *b, size_t n)
{
	const char *d = ct_format_duration(ns, b, n);
	while (*d == ' ')
		d++;
	return d;
}

uint64_t ct_export_heaviest(const struct exporter *x)
{
	uint64_t most = 1;
	for (size_t e = 0; e < x->nedges; e++)
		if (x->edges[e].incl > most)
			most = x->edges[e].incl;
	return most;
}

/* ---- chrome ---------------------------------------------------------- */


static void chrome_sep(struct exporter *x)
{
	fputs_unlocked(x->first_event ? "\n" : ",\n", x->out);
	x->first_event = false;
}

/* text appended at p (no printf: it was most of the export's time) */
static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	size_t n = 0;
	do
		tmp[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_int(char *p, int v)
{
	if (v < 0) {
		*p++ = '-';
		return put_u64(p, -(uint64_t)v);
	}
	return put_u64(p, (uint64_t)v);
}

/* chrome's times are microseconds, and its readers disagree on how to read
 * them: speedscope (and chrome://tracing) hold them in doubles and end a
 * slice at ts + dur; Perfetto rounds ts * 1000 and dur * 1000 to whole ns
 * each (llround) and ends a slice at their sum.  So they are written in
 * units of 1/2048 us (0.49 ns), the nearest to the time in ns:
 * - every value, and every end ts + dur, up to 2^42 us (50 days) is exact
 *   in a double, and the rounding is monotonic: what nests in ns nests in
 *   the doubles too;
 * - a time is within 0.245 ns of its ns, and a duration (the difference of
 *   two) within 0.49 ns of its own: Perfetto's rounding gives back the
 *   exact ns of both, so its slices nest as ours do.
 * (Units of 1/1024 us rounded down, before, made Perfetto end a slice up to
 * 1 ns after its parent or next sibling began: tests/e2e/nest.sh.) */
static uint64_t chrome_units(uint64_t ns)
{
	return (uint64_t)((((unsigned __int128)ns << 11) + 500) / 1000);
}

/* units of 1/2048 us, written exactly in decimal (up to 11 decimals:
 * 1/2048 = 0.00048828125) */
static char *chrome_us(char *p, uint64_t units)
{
	p = put_u64(p, units >> 11);
	uint64_t frac = (units & 2047) * 48828125; /* in 1e-11 us */
	if (!frac)
		return p;
	*p++ = '.';
	char d[11];
	for (int i = 10; i >= 0; i--, frac /= 10)
		d[i] = (char)('0' + frac % 10);
	int n = 11;
	while (d[n - 1] == '0')
		n--;
	memcpy(p, d, (size_t)n);
	return p + n;
}

/* calltrace_mark(): an instant event on the thread */
static void chrome_mark(struct exporter *x, const struct ct_fevent *fe)
{
	if (!ct_export_in_range(x, &fe->ev))
		return;
	chrome_sep(x);
	fputs_unlocked("{\"ph\":\"i\",\"s\":\"t\",\"name\":", x->out);
	ct_json_string(x->out, (const char *)(uintptr_t)fe->ev.addr);
	char buf[128], *p = buf;
	p = chrome_us(put_str(p, ",\"ts\":"), chrome_units(fe->ev.time));
	p = put_int(put_str(p, ",\"pid\":"), x->pid);
	p = put_int(put_str(p, ",\"tid\":"), x->tid);
	*p++ = '}';
	fwrite_unlocked(buf, 1, (size_t)(p - buf), x->out);
}

static void chrome_exit(struct exporter *x, const struct ct_fevent *fe)
{
	FILE *out = x->out;
	const struct ct_event *ev = &fe->ev;
	if (!ct_export_in_range(x, ev))
		return;
	uint64_t b, e;
	clip(x, ev, &b, &e);
	uint64_t end = ev->time >= ev->start ? ev->time : ev->start;
	const char *clipped = NULL;
	if (b > ev->start && e < end)
		clipped = "both";
	else if (b > ev->start)
		clipped = "start";
	else if (e < end)
		clipped = "end";
	const char *how = NULL;
	if (ev->flags & CT_EVF_UNFINISHED)
		how = "unfinished";
	else if (ev->flags & CT_EVF_SYNTHETIC)
		how = "unwound";
	chrome_sep(x);
	fputs_unlocked("{\"ph\":\"X\",\"name\":", out);
	ct_json_string(out, fe->fn->name);
	char buf[256], *p = buf;
	uint64_t ub = chrome_units(b);
	p = chrome_us(put_str(p, ",\"ts\":"), ub);
	p = chrome_us(put_str(p, ",\"dur\":"), chrome_units(e) - ub);
	p = put_int(put_str(p, ",\"pid\":"), x->pid);
	p = put_int(put_str(p, ",\"tid\":"), x->tid);
	/* captured arguments and return value (record -A/-R/-a) */
	char av[1024], rv[1024]; /* not "= \"\"": that would clear 2 KB per event */
	av[0] = rv[0] = '\0';
	if (__builtin_expect(ev->args != NULL, 0)) {
		ct_event_args_text(x->s, ev->thread->proc, ev->args, false, av, sizeof(av));
		if (!how)
			ct_event_args_text(x->s, ev->thread->proc, ev->args, true, rv, sizeof(rv));
	}
	bool has_av = ev->args && ev->args->has_args;
	/* record --callsite: where it was called from (lib/read/srcline.h) */
	const char *cs =
		ev->site ? ct_srcline_site_or_addr(x->s, ev->thread->proc, ev->site) : NULL;
	{
		/* its time and self time as report counts them (the tracer's
		 * cost taken out but with --raw): the slice is placed on the
		 * recorded clock */
		p = put_u64(put_str(p, ",\"args\":{\"time_ns\":"), x->net);
		p = put_u64(put_str(p, ",\"self_ns\":"), x->self_net);
		const char *sep = ",";
		if (how)
			p = put_str(put_str(put_str(p, ",\"end\":\""), how), "\"");
		if (clipped) {
			p = put_str(put_str(put_str(put_str(p, sep), "\"clipped\":\""), clipped),
				    "\"");
			sep = ",";
		}
		if (has_av || *rv || cs) {
			/* the strings may be long: write what is buffered first */
			fwrite_unlocked(buf, 1, (size_t)(p - buf), out);
			p = buf;
			if (cs) {
				fprintf(out, "%s\"callsite\":", sep);
				ct_json_string(out, cs);
				sep = ",";
			}
			if (has_av) {
				fprintf(out, "%s\"arguments\":", sep);
				ct_json_string(out, av);
				sep = ",";
			}
			if (*rv) {
				fprintf(out, "%s\"return\":", sep);
				ct_json_string(out, rv);
			}
		}
		*p++ = '}';
	}
	*p++ = '}';
	fwrite_unlocked(buf, 1, (size_t)(p - buf), out);
}

static void chrome_metadata(struct exporter *x, const bool *want)
{
	FILE *out = x->out;
	struct ct_session *s = x->s;
	for (size_t i = 0; i < s->nprocs; i++) {
		struct ct_proc *p = s->procs[i];
		bool any = false;
		for (size_t j = 0; j < s->nthreads; j++)
			if (s->threads[j]->proc == p && (!want || want[s->threads[j]->index]))
				any = true;
		if (!any)
			continue;
		/* after an exec, the same pid: name it after its last image */
		bool later = false;
		for (size_t j = i + 1; j < s->nprocs; j++)
			if (s->procs[j]->pid == p->pid)
				later = true;
		if (later)
			continue;
		chrome_sep(x);
		fprintf(out,
			"{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"args\":{\"name\":",
			p->pid);
		ct_json_string(out, ct_basename(p->exe));
		fputs("}}", out);
	}
	for (size_t j = 0; j < s->nthreads; j++) {
		struct ct_thread *t = s->threads[j];
		if (want && !want[t->index])
			continue;
		int pid = t->proc ? t->proc->pid : 0;
		char name[300];
		ct_thread_label(t, name, sizeof(name));
		chrome_sep(x);
		fprintf(out,
			"{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%d,"
			"\"args\":{\"name\":",
			pid, t->tid);
		ct_json_string(out, name);
		fputs("}}", out);
	}
}

/* ---- html ------------------------------------------------------------ */

/* a call's exit for the HTML report: its time for the aggregates, and its
 * place on the timeline, clipped to the range */
static void html_exit(struct exporter *x, const struct ct_fevent *fe)
{
	const struct ct_event *ev = &fe->ev;
	bool in = ct_export_in_range(x, ev);
	uint64_t b = 0, e = 0;
	if (in)
		clip(x, ev, &b, &e);
	ct_html_exit(x->html, x->net, in, ct_call_counted(ev), b, e,
		     in ? ev->samples * ev->thread->proc->sample_ns : 0);
}

/* ---- reading --------------------------------------------------------- */

static void emit_callgrind(struct exporter *x, const struct ct_fevent *fe)
{
	if (fe->ev.kind == CT_ENTER)
		ct_cg_enter(x, fe->fn);
	else if (fe->ev.kind == CT_EXIT && x->depth)
		ct_cg_exit(x, &fe->ev);
}

static void emit_folded(struct exporter *x, const struct ct_fevent *fe)
{
	if (fe->ev.kind == CT_ENTER)
		ct_folded_enter(x, fe->fn);
	else if (fe->ev.kind == CT_EXIT && x->depth)
		ct_folded_exit(x, &fe->ev);
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct exporter *x = ctx;
	const struct ct_event *ev = &fe->ev;
	range_clock(x, ev);
	if (ev->kind == CT_EXIT && ct_export_in_range(x, ev))
		x->in_range++;
	if (x->fmt == FMT_CALLGRIND || x->fmt == FMT_DOT || x->fmt == FMT_MERMAID) {
		emit_callgrind(x, fe);
		return;
	}
	if (x->fmt == FMT_FOLDED) {
		emit_folded(x, fe);
		return;
	}
	/* the timelines: calls placed on the recorded clock, each with its
	 * duration and self time on the corrected one */
	if (ev->kind == CT_ENTER) {
		*CT_PUSH(x->tchild, x->tdepth, x->tcap) = 0;
	} else if (ev->kind == CT_EXIT && x->tdepth) {
		x->net = ct_export_incl(x, ev);
		x->self_net = ct_call_self(x->net, x->tchild[--x->tdepth]);
		if (x->tdepth)
			x->tchild[x->tdepth - 1] += x->net;
	}
	if (x->fmt == FMT_PERFETTO) {
		ct_perfetto_event(x->perfetto, fe, x->net, x->self_net);
		return;
	}
	if (x->fmt == FMT_HTML) {
		if (fe->ev.kind == CT_ENTER)
			ct_html_enter(x->html, fe->fn,
				      x->callsite && fe->ev.site
					      ? ct_srcline_site_or_addr(x->s, fe->ev.thread->proc,
									fe->ev.site)
					      : NULL);
		else if (fe->ev.kind == CT_MARK)
			ct_html_mark(x->html, &fe->ev, ct_export_in_range(x, &fe->ev));
		else
			html_exit(x, fe);
		return;
	}
	if (x->fmt == FMT_CHROME) {
		if (fe->ev.kind == CT_EXIT)
			chrome_exit(x, fe);
		else if (fe->ev.kind == CT_MARK)
			chrome_mark(x, fe);
		return;
	}
	if (x->fmt == FMT_CALLGRIND)
		emit_callgrind(x, fe);
	else
		emit_folded(x, fe);
}

static int read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct exporter *x = ctx;
	x->tdepth = 0;
	x->c_lo = x->c_hi = UINT64_MAX;
	x->c_prev = 0;
	x->pid = t->proc ? t->proc->pid : 0;
	x->tid = t->tid;
	x->proc = t->proc;
	if (x->html)
		ct_html_thread(x->html, t);
	int rc = ct_view_read_thread(v, t, NULL, emit, x);
	if (x->html)
		ct_html_thread_end(x->html);
	x->depth = 0; /* what is left open (only after an error) */
	return rc;
}

/* the view's own options */
static int option(struct ct_view *v, int c, const char *arg, struct ct_error *err)
{
	struct exporter *x = v->ctx;
	static const char *const fmts[] =
		{[FMT_CHROME] = "chrome",       [FMT_FOLDED] = "folded",
		 [FMT_CALLGRIND] = "callgrind", [FMT_PERFETTO] = "perfetto",
		 [FMT_HTML] = "html",           [FMT_DOT] = "dot",
		 [FMT_MERMAID] = "mermaid"};
	unsigned long n;

	switch (c) {
	case OPT_CALLSITE:
		x->callsite = true;
		return 0;
	case 'o':
		/* "-": the standard output, as without -o */
		x->output = strcmp(arg, "-") ? arg : NULL;
		return 0;
	case OPT_MODE: {
		char *end;
		errno = 0;
		n = strtoul(arg, &end, 8);
		if (!*arg || *end || errno || n > 0777 || strspn(arg, "01234567") != strlen(arg)) {
			ct_set_err(err,
				   "--mode: want permission bits in octal (0 to 0777, e.g. 0644), "
				   "not '%s'",
				   arg);
			return -1;
		}
		x->mode = (unsigned)n;
		x->mode_given = true;
		return 0;
	}
	case OPT_FORMAT:
		for (size_t i = FMT_CHROME; i < sizeof(fmts) / sizeof(fmts[0]); i++)
			if (!strcmp(arg, fmts[i])) {
				x->fmt = (enum fmt)i;
				return 0;
			}
		ct_set_err(err,
			   "--format: want chrome, perfetto, folded, callgrind, html, dot or "
			   "mermaid, "
			   "not "
			   "'%s'",
			   arg);
		return -1;
	case OPT_BY:
	case OPT_FOLDED_VALUE:
		if (strcmp(arg, "self") && strcmp(arg, "calls") && strcmp(arg, "samples")) {
			ct_set_err(err, "--by: want self, calls or samples, not '%s'", arg);
			return -1;
		}
		x->value_calls = !strcmp(arg, "calls");
		x->value_samples = !strcmp(arg, "samples");
		return 0;
	case OPT_FOLDED_FRAMES:
		if (ct_parse_uint(arg, 1u << 20, &n) < 0 || n == 1) {
			ct_set_err(err,
				   "--folded-frames: want 0 (no limit) or a number from 2 to "
				   "1048576, not '%s'",
				   arg);
			return -1;
		}
		x->outer = (uint32_t)(n / 2);
		x->inner = (uint32_t)(n - n / 2);
		return 0;
	case 'r':
		if (ct_range_option(arg, &x->range, err) < 0)
			return -1;
		x->range_text = arg;
		return 0;
	}
	return -1; /* not reached: getopt gives the table's options only */
}

/* what the options must give before the recording is opened */
static int check(struct ct_view *v)
{
	struct exporter *x = v->ctx;
	if (x->fmt == FMT_NONE) {
		/* the message, then the help (each written whole) */
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (f)
			ct_view_usage(v, f);
		if (!f || fclose(f) != 0)
			len = 0;
		ct_error("--format is required (chrome, perfetto, folded, callgrind, html, dot or "
			 "mermaid)");
		ct_print_raw(text ? text : "", len);
		free(text);
		return 2;
	}
	if (x->mode_given && !x->output) {
		ct_error("--mode: only with -o FILE (standard output is not a file of ours)");
		return 2;
	}
	if (x->fmt == FMT_HTML && !ct_html_available())
		return ct_error("--format=html: %s", ct_html_missing_hint);
	if (x->fmt == FMT_PERFETTO && !x->output && isatty(1)) {
		/* binary: it would only garble the terminal */
		ct_error("--format=perfetto writes a binary trace, not to a terminal: "
			 "write it to a file with -o FILE (or pipe it)");
		return 2;
	}
	/* a recording of call counts (record --count): export_counts.c */
	v->counts_ok = x->fmt == FMT_FOLDED || x->fmt == FMT_CALLGRIND;
	return 0;
}

static char outbuf[1 << 16];

/* the output opened, each format's head */
/* the timeline formats grow with every call: said before writing when the
 * file will pass what their viewers open (the estimate is from the threads'
 * stream sizes: an upper bound when filters or -r narrow it) */
static void warn_big(const struct exporter *x, const struct ct_view *v)
{
	const struct ct_session *s = v->s;
	if ((x->fmt != FMT_CHROME && x->fmt != FMT_PERFETTO) || !s->events || !s->ev_bytes)
		return;
	uint64_t bytes = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (!v->want || v->want[s->threads[i]->index])
			bytes += s->threads[i]->bytes;
	double events = (double)bytes * (double)s->events / (double)s->ev_bytes;
	double calls = events / 2, out = calls * (x->fmt == FMT_CHROME ? 80 : 42);
	bool narrowed = ct_filter_active(&v->filt) || x->range_text;
	if (x->fmt == FMT_CHROME && (out > 500e6 || calls > 1e6))
		ct_warn("%s%.0f calls, about %.0f MB of Chrome JSON: Chrome's trace viewer stops "
			"near 500 MB and speedscope near 1 M events; narrow it with -r START~END, "
			"-t TIME, -D N or --tid, or write --format=folded (speedscope, "
			"flamegraph.pl), perfetto or html",
			narrowed ? "up to " : "", calls, out / 1e6);
	else if (x->fmt == FMT_PERFETTO && out > 1e9)
		ct_warn("%s%.0f calls, about %.0f MB of Perfetto trace: the Perfetto UI holds "
			"traces near 1-2 GB in the browser; narrow it with -r START~END, -t TIME, "
			"-D N or --tid, or write --format=folded or html",
			narrowed ? "up to " : "", calls, out / 1e6);
}

static int begin(void *ctx, struct ct_view *v)
{
	struct exporter *x = ctx;
	bool sampled = false;
	for (size_t i = 0; i < v->s->nprocs; i++)
		sampled |= v->s->procs[i]->sample_ns != 0;
	if (x->value_samples && (x->fmt != FMT_FOLDED || !sampled))
		return ct_error(x->fmt != FMT_FOLDED ? "--by=samples: only with --format=folded"
						     : "--by=samples: %s has no samples (record "
						       "--sample)",
				v->dir)
			       ? 2
			       : 2;
	if (v->counts && x->fmt == FMT_FOLDED && !x->value_calls && !x->value_samples)
		return ct_error("%s holds call counts only (record --count): no self time; use "
				"--by=calls (or --by=samples with record --sample)",
				v->dir)
			       ? 2
			       : 2;
	if (v->counts && x->range_text)
		return ct_error("-r: %s holds call counts only (record --count): no times", v->dir)
			       ? 2
			       : 2;
	if (x->range_text) {
		struct ct_error e;
		if (ct_range_resolve(&x->range, v->s, x->range_text, &e) < 0)
			return ct_usage_error("%s", e.msg);
		x->lo = x->range.lo;
		x->hi = x->range.hi;
	}
	if (x->callsite && x->fmt != FMT_HTML)
		return ct_error("--callsite: only with --format=html (chrome and perfetto carry "
				"the call sites of a recording that has them)")
			       ? 2
			       : 2;
	warn_big(x, v);
	x->out = stdout;
	const char *why;
	if (x->output && !(x->out = ct_output_create(x->output, x->mode, &why)))
		return ct_error("%s: %s", ct_tx(x->output), why);
	setvbuf(x->out, outbuf, _IOFBF, sizeof(outbuf));
	v->out = x->out;
	v->out_path = x->output;
	x->s = v->s;
	x->filt = &v->filt;
	/* calltrace_mark(): instant events, marks on the HTML timeline */
	v->s->marks = x->fmt == FMT_CHROME || x->fmt == FMT_PERFETTO || x->fmt == FMT_HTML;
	x->raw = v->raw;
	if (x->fmt == FMT_HTML)
		x->html = ct_html_new(v->s, x->argc, x->argv, v->raw, x->lo, x->hi);
	if (x->fmt == FMT_CHROME) {
		fputs("{\"traceEvents\":[", x->out);
		chrome_metadata(x, v->want);
	}
	if (x->fmt == FMT_PERFETTO)
		x->perfetto = ct_perfetto_start(x->out, v->s, v->want, x->lo, x->hi,
						ct_export_times_note(x));
	return 0;
}

/* each format's tail, or the whole of it when it is written at the end */
static int end(void *ctx, struct ct_view *v, int rc)
{
	struct exporter *x = ctx;
	if (v->counts)
		return rc == 0 ? ct_export_counts(v, x->out, x->fmt == FMT_CALLGRIND,
						  x->value_samples)
			       : 0;
	if (x->fmt == FMT_CHROME) {
		/* otherData: shown by the viewers' metadata dialogs */
		fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"calltrace_times\":", x->out);
		ct_json_string(x->out, x->raw ? "recorded" : "corrected");
		fputs(",\"calltrace_note\":", x->out);
		ct_json_string(x->out, ct_export_times_note(x));
		fputs("}}\n", x->out);
	} else if (x->fmt == FMT_PERFETTO)
		ct_perfetto_finish(x->perfetto);
	else if (rc == 0 && x->fmt == FMT_CALLGRIND)
		ct_cg_print(x);
	else if (rc == 0 && x->fmt == FMT_DOT)
		ct_dot_print(x);
	else if (rc == 0 && x->fmt == FMT_MERMAID)
		ct_mermaid_print(x);
	else if (rc == 0 && x->fmt == FMT_HTML)
		ct_html_write(x->html, x->out);
	else if (rc == 0)
		ct_folded_print(x);
	if (rc == 0 && x->range_text && !x->in_range) {
		ct_view_range_empty(v, x->range_text);
		return 1;
	}
	return 0;
}

int cmd_export(int argc, char **argv)
{
	/* clang-format off */
	struct exporter x = {.fmt = FMT_NONE, .first_event = true, .lo = 0, .hi = UINT64_MAX,
			     .outer = FOLDED_FRAMES / 2, .inner = FOLDED_FRAMES - FOLDED_FRAMES / 2,
			     .mode = 0600};
	struct ct_view v = {.head = head, .opts = options, .option = option, .ctx = &x,
			    .check = check, .begin = begin, .read = read_thread, .end = end,
			    .own_range = true};
	/* clang-format on */

	ct_names_init(&x.names);
	ct_u64map_init(&x.bykey);
	x.argc = argc;
	x.argv = argv;
	int status = ct_view_run(&v, argc, argv);
	free(x.nodes);
	free(x.stack);
	free(x.files);
	free(x.lines);
	free(x.self);
	free(x.tchild);
	free(x.edges);
	ct_html_free(x.html);
	ct_names_free(&x.names);
	ct_u64map_free(&x.bykey);
	return status;
}
