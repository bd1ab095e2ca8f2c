/* SPDX-License-Identifier: MIT */
/*
 * calltrace export: the recorded calls in a format other tools read.
 *
 *   chrome  Chrome Trace Event Format JSON (chrome://tracing, Perfetto):
 *           one complete ("X") event per call, written at its exit, so
 *           memory is bounded by the stack depth; metadata ("M") events
 *           name each process and thread
 *   folded  folded stacks for flamegraph.pl / speedscope: one line per
 *           distinct stack "main;outer;middle VALUE", the value being the
 *           self time in ns or the number of calls.  Stacks are nodes of a
 *           tree held in a hash map keyed by (parent node, function name),
 *           so memory is bounded by the number of distinct stacks.
 *   callgrind  the Callgrind profile format (KCachegrind,
 *           callgrind_annotate): per function its self time, per
 *           (caller, callee) pair the number of calls and their inclusive
 *           time, both in hash maps, so memory is bounded by the number of
 *           distinct functions and pairs.  A recursive call's inclusive
 *           time is counted on its own call edge, as callgrind does.
 *   perfetto  Perfetto's protobuf trace: see builtin/export_perfetto.c
 *
 *   html   one self-contained HTML report (builtin/export_html.c)
 *
 * Threads are read one after the other through the filter (-F/-N/-D/-t).
 *
 * Times are those report shows (doc/overhead.md): the tracer's own cost
 * taken out, as recorded with --raw.  Each event is first placed on its
 * thread's corrected clock (lib/tclock.h), which every format then uses
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
#include "builtin/export_perfetto.h"
#include "builtin/export_counts.h"
#include "builtin/export_html.h"
#include "filter.h"
#include "message.h"
#include "output.h"
#include "progress.h"
#include "session.h"
#include "srcline.h"
#include "tclock.h"
#include "util.h"
#include "view.h"

enum { OPT_FORMAT = 256, OPT_FOLDED_VALUE, OPT_FOLDED_FRAMES, OPT_CALLSITE };

/* folded: a stack deeper than this many frames is written as its outermost
 * half, one "[… K frames]" frame for the K left out, and its innermost
 * half, so that deep recursion makes output linear in the number of
 * stacks, not quadratic (--folded-frames; doc/export.md) */
#define FOLDED_FRAMES 128

static const struct ct_opt options[] = {
	{"format", OPT_FORMAT, "chrome|perfetto|folded|callgrind|html",
	 "the output's format (required)"},
	{"output", 'o', "FILE", "write to FILE (default: standard output)"},
	CT_OPT_DATA,
	{"folded-value", OPT_FOLDED_VALUE, "V", "self (self time in ns, default) or calls"},
	{"folded-frames", OPT_FOLDED_FRAMES, "N",
	 "a stack of more than N frames keeps its N/2\n"
	 "outermost and innermost ones around a frame\n"
	 "\"[\u2026 K frames]\" (default 128; 0: no limit)"},
	CT_OPT_TIDS,
	CT_OPT_FILTER,
	CT_OPT_NOTRACE,
	CT_OPT_HIDEFR,
	CT_OPT_NOLIBCALL,
	CT_OPT_DEPTH("only calls at depth < N (counted as in replay)"),
	CT_OPT_TIME,
	/* the text starts with a space: two after an option 23 columns wide */
	{"range", 'r', "START~END",
	 " only calls overlapping this time range (since the\n"
	 "start of the recording, e.g. 10ms~20ms, 1.5s~, ~500us),\n"
	 "their times clipped to it"},
	CT_OPT_RAWTIMES,
	CT_OPT_DEMANGLE,
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
	"\n"
	"options:\n";

enum fmt { FMT_NONE, FMT_CHROME, FMT_FOLDED, FMT_CALLGRIND, FMT_PERFETTO, FMT_HTML };

/* a stack in the folded output: a node of the tree of stacks */
struct node {
	uint32_t parent; /* node id + 1, 0 for a root */
	uint32_t name;   /* name id */
	uint32_t depth;  /* 0 for a root */
	uint32_t top;    /* node id + 1 of its ancestor (or itself) at depth
			  * outer - 1 (the innermost frame of a cut stack's
			  * outer part); 0 while it is shallower */
	uint64_t calls;
	int64_t self; /* a sum of corrected times: may be below 0 (overhead.h) */
};

/* callgrind: a (caller, callee) pair */
struct edge {
	uint32_t caller, callee; /* name ids */
	uint64_t calls;
	int64_t incl;
};

struct frame {
	uint32_t node; /* folded: node id; callgrind: name id */
	int64_t child; /* inclusive time of the direct callees */
};

struct exporter {
	struct ct_session *s;
	struct ct_filter *filt;
	const char *output; /* -o FILE, or NULL: stdout */
	enum fmt fmt;
	bool value_calls;
	uint32_t outer, inner; /* folded: the frames kept of a deep stack;
				* both 0: all of them */
	FILE *out;
	int argc; /* the command line, named in the HTML report */
	char **argv;

	/* -r: the range [lo, hi) in ns; 0 and UINT64_MAX when open */
	uint64_t lo, hi;

	/* the times shown (doc/overhead.md): the thread's corrected clock,
	 * the recorded one with --raw; the exit being handled's corrected
	 * duration as report counts it */
	bool raw;
	bool timed; /* events go through the clock: timelines, html, -r */
	struct ct_tclock clock;
	int64_t net;

	struct ct_perfetto *perfetto;
	bool callsite; /* --callsite: html's edges split by call site */

	/* chrome */
	bool first_event;
	int pid, tid;

	/* folded: names by hash (chained), nodes by (parent, name) */
	struct ct_names names; /* function names and their ids */
	struct node *nodes;
	size_t nnodes, capnodes;
	struct ct_u64map bykey; /* (parent << 32 | name) -> node id + 1 */

	/* callgrind: by name id its source file, line and self time; the
	 * edges, found by (caller << 32 | callee) in bykey */
	const char **files;
	int *lines;
	int64_t *self;
	int64_t *rootdef; /* by name id: what its outermost calls' costs came
			   * out above their corrected times (cg_exit) */
	size_t capfn;
	struct edge *edges;
	size_t nedges, capedges;
	struct ct_proc *proc; /* the thread's process, to resolve files */

	struct frame *stack;
	size_t depth, capstack;

	struct ct_html *html; /* html */
};

/* a call [start, end) overlaps the range [lo, hi); a call of no duration
 * overlaps when it is inside the range */
static bool in_range(const struct exporter *x, const struct ct_event *ev)
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
 * corrected duration as report counts it (x->net, may be below 0) when it
 * lies inside the range, the part of its (corrected) time inside it when
 * the range cuts it, 0 when it is outside */
static int64_t incl_of(const struct exporter *x, const struct ct_event *ev)
{
	if (!in_range(x, ev))
		return 0;
	uint64_t b, e;
	clip(x, ev, &b, &e);
	if (b == ev->start && e == ev->time)
		return x->net;
	return (int64_t)(e - b);
}

/* the times the outputs say they hold */
static const char *times_note(const struct exporter *x)
{
	return x->raw ? "times as recorded, the tracer's own cost included (--raw)"
		      : "times corrected for the tracer's own cost (doc/overhead.md; --raw: as "
			"recorded)";
}

static uint32_t intern(struct exporter *x, const char *name)
{
	return ct_names_intern(&x->names, name);
}

static uint32_t node_of(struct exporter *x, uint32_t parent, uint32_t name)
{
	bool added;
	uint32_t id = ct_u64map_index(&x->bykey, (uint64_t)parent << 32 | name, x->nnodes, &added);
	if (!added)
		return id;
	struct node *n = CT_PUSH(x->nodes, x->nnodes, x->capnodes);
	const struct node *up = parent ? &x->nodes[parent - 1] : NULL;
	*n = (struct node){.parent = parent, .name = name, .depth = up ? up->depth + 1 : 0};
	if (x->outer && n->depth + 1 == x->outer)
		n->top = id + 1;
	else if (x->outer && n->depth + 1 > x->outer)
		n->top = up->top;
	return id;
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

/* microseconds with 3 decimals, from ns */
static char *chrome_us(char *p, uint64_t ns)
{
	p = put_u64(p, ns / 1000);
	unsigned frac = (unsigned)(ns % 1000);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100);
	p[2] = (char)('0' + frac / 10 % 10);
	p[3] = (char)('0' + frac % 10);
	return p + 4;
}

/* calltrace_mark(): an instant event on the thread */
static void chrome_mark(struct exporter *x, const struct ct_fevent *fe)
{
	if (!in_range(x, &fe->ev))
		return;
	chrome_sep(x);
	fputs_unlocked("{\"ph\":\"i\",\"s\":\"t\",\"name\":", x->out);
	ct_json_string(x->out, (const char *)(uintptr_t)fe->ev.addr);
	char buf[128], *p = buf;
	p = chrome_us(put_str(p, ",\"ts\":"), fe->ev.time);
	p = put_int(put_str(p, ",\"pid\":"), x->pid);
	p = put_int(put_str(p, ",\"tid\":"), x->tid);
	*p++ = '}';
	fwrite_unlocked(buf, 1, (size_t)(p - buf), x->out);
}

static void chrome_exit(struct exporter *x, const struct ct_fevent *fe)
{
	FILE *out = x->out;
	const struct ct_event *ev = &fe->ev;
	if (!in_range(x, ev))
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
	p = chrome_us(put_str(p, ",\"ts\":"), b);
	p = chrome_us(put_str(p, ",\"dur\":"), e - b);
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
	/* record --callsite: where it was called from (lib/srcline.h) */
	const char *cs =
		ev->site ? ct_srcline_site_or_addr(x->s, ev->thread->proc, ev->site) : NULL;
	if (how || clipped || has_av || *rv || cs) {
		const char *sep = "";
		p = put_str(p, ",\"args\":{");
		if (how) {
			p = put_str(put_str(put_str(p, "\"end\":\""), how), "\"");
			sep = ",";
		}
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

/* ---- folded ---------------------------------------------------------- */

static void folded_enter(struct exporter *x, struct ct_func *fn)
{
	if (fn->user < 0)
		fn->user = intern(x, fn->name);
	uint32_t parent = x->depth ? x->stack[x->depth - 1].node + 1 : 0;
	uint32_t id = node_of(x, parent, (uint32_t)fn->user);
	*CT_PUSH(x->stack, x->depth, x->capstack) = (struct frame){.node = id, .child = 0};
}

static void folded_exit(struct exporter *x, const struct ct_event *ev)
{
	struct frame f = x->stack[--x->depth];
	int64_t incl = incl_of(x, ev);
	struct node *n = &x->nodes[f.node];
	if (in_range(x, ev))
		n->calls++;
	/* unclamped, so that the self times of a stack and its callees add up
	 * to its total (folded_print makes them at least 0) */
	n->self = ct_wrap_add(n->self, ct_wrap_sub(incl, f.child));
	if (x->depth)
		x->stack[x->depth - 1].child = ct_wrap_add(x->stack[x->depth - 1].child, incl);
}

/* a stack whose self time came out below 0 (corrected times: the
 * correction took out more than its calls' own time) shows 0, and the
 * rest is taken out of its caller's: every value is at least 0 and the
 * values of a stack and its callees still add up to its total, as report
 * shows it.  Nodes come after their parents. */
static void folded_settle(struct exporter *x)
{
	for (size_t i = x->nnodes; i-- > 0;) {
		struct node *n = &x->nodes[i];
		if (n->self >= 0)
			continue;
		if (n->parent)
			x->nodes[n->parent - 1].self =
				ct_wrap_add(x->nodes[n->parent - 1].self, n->self);
		n->self = 0;
	}
}

struct fline {
	char *stack;
	uint64_t value;
};

static int cmp_fline(const void *a, const void *b)
{
	return strcmp(((const struct fline *)a)->stack, ((const struct fline *)b)->stack);
}

/* append the frames from node k (id + 1) up n levels, outermost first, at
 * buf + pos; the new position */
static size_t put_frames(const struct exporter *x, char **tx, uint32_t k, uint32_t n, char *buf,
			 size_t pos)
{
	size_t len = 0;
	uint32_t j = k;
	for (uint32_t i = 0; i < n; i++, j = x->nodes[j - 1].parent)
		len += strlen(tx[x->nodes[j - 1].name]) + 1;
	size_t end = pos + len;
	j = k;
	for (uint32_t i = 0; i < n; i++, j = x->nodes[j - 1].parent) {
		const char *name = tx[x->nodes[j - 1].name];
		size_t l = strlen(name);
		end -= l + 1;
		memcpy(buf + end, name, l);
		buf[end + l] = ';';
	}
	return pos + len;
}

static void folded_print(struct exporter *x)
{
	folded_settle(x);
	/* the names as text (output.h), ';' (the frame separator) as ':' */
	char **tx = xmalloc((x->names.n ? x->names.n : 1) * sizeof(*tx));
	size_t longest = 16;
	for (size_t i = 0; i < x->names.n; i++) {
		tx[i] = ct_text_dup(x->names.v[i]);
		for (char *c = tx[i]; *c; c++)
			if (*c == ';')
				*c = ':';
		size_t l = strlen(tx[i]);
		if (l > longest)
			longest = l;
	}
	struct fline *lines = xmalloc((x->nnodes ? x->nnodes : 1) * sizeof(*lines));
	size_t n = 0;
	size_t cap = 256;
	char *buf = xmalloc(cap);
	for (size_t i = 0; i < x->nnodes; i++) {
		const struct node *nd = &x->nodes[i];
		if (!nd->calls)
			continue;
		uint32_t frames = nd->depth + 1;
		bool cut = x->outer && frames > x->outer + x->inner + 1;
		size_t room = (size_t)(cut ? x->outer + x->inner + 1 : frames) * (longest + 1) + 64;
		if (room > cap) {
			cap = 2 * room;
			buf = xrealloc(buf, cap);
		}
		size_t pos;
		if (!cut) {
			pos = put_frames(x, tx, (uint32_t)i + 1, frames, buf, 0);
		} else {
			pos = put_frames(x, tx, nd->top, x->outer, buf, 0);
			pos += (size_t)snprintf(buf + pos, cap - pos, "[\u2026 %u frames];",
						frames - x->outer - x->inner);
			pos = put_frames(x, tx, (uint32_t)i + 1, x->inner, buf, pos);
		}
		buf[pos - 1] = 0; /* the last ';' */
		lines[n++] = (struct fline){xstrdup(buf),
					    x->value_calls ? nd->calls : (uint64_t)nd->self};
	}
	free(buf);
	ct_qsort(lines, n, sizeof(*lines), cmp_fline);
	for (size_t i = 0; i < n; i++) {
		/* cut stacks that differ only in frames left out are one */
		uint64_t v = lines[i].value;
		while (i + 1 < n && !strcmp(lines[i].stack, lines[i + 1].stack)) {
			free(lines[i].stack);
			v += lines[++i].value;
		}
		fputs_unlocked(lines[i].stack, x->out);
		fprintf(x->out, " %llu\n", (unsigned long long)v);
		free(lines[i].stack);
	}
	free(lines);
	for (size_t i = 0; i < x->names.n; i++)
		free(tx[i]);
	free(tx);
}

/* ---- callgrind ------------------------------------------------------- */

static void cg_enter(struct exporter *x, struct ct_func *fn)
{
	if (fn->user < 0)
		fn->user = intern(x, fn->name);
	uint32_t id = (uint32_t)fn->user;
	if (x->names.n > x->capfn) {
		size_t old = x->capfn;
		x->capfn = x->names.cap;
		x->files = xrealloc(x->files, x->capfn * sizeof(*x->files));
		x->lines = xrealloc(x->lines, x->capfn * sizeof(*x->lines));
		x->self = xrealloc(x->self, x->capfn * sizeof(*x->self));
		x->rootdef = xrealloc(x->rootdef, x->capfn * sizeof(*x->rootdef));
		memset(x->files + old, 0, (x->capfn - old) * sizeof(*x->files));
		memset(x->lines + old, 0, (x->capfn - old) * sizeof(*x->lines));
		memset(x->self + old, 0, (x->capfn - old) * sizeof(*x->self));
		memset(x->rootdef + old, 0, (x->capfn - old) * sizeof(*x->rootdef));
	}
	if (!x->files[id] && fn->addr && x->proc) {
		const struct ct_sym_info *si = ct_session_resolve(x->s, x->proc, fn->addr);
		if (si && si->file) {
			x->files[id] = si->file;
			x->lines[id] = si->line > 0 ? si->line : 0;
		}
	}
	*CT_PUSH(x->stack, x->depth, x->capstack) = (struct frame){.node = id, .child = 0};
}

/* a call's costs as the format wants them: its self cost and the
 * inclusive cost on its call edge at least 0, and the inclusive cost its
 * self cost plus its callees' inclusive costs, so that the costs add up
 * (callgrind_annotate's program total is main's inclusive cost).  With
 * corrected times a call's time less its callees' can come out below 0
 * (noise): it then costs 0 itself and its inclusive cost is its callees',
 * which its caller's self cost makes up for; a call's inclusive cost is
 * its corrected time otherwise, so main's is report's total. */
static void cg_exit(struct exporter *x, const struct ct_event *ev)
{
	struct frame f = x->stack[--x->depth];
	int64_t incl = incl_of(x, ev);
	int64_t self = ct_wrap_sub(incl, f.child);
	if (self < 0)
		self = 0;
	int64_t out = ct_wrap_add(self, f.child);
	x->self[f.node] = ct_wrap_add(x->self[f.node], self);
	if (!x->depth) {
		/* an outermost call whose callees' costs came out above its
		 * corrected time: cg_settle takes the excess back */
		int64_t want = incl > 0 ? incl : 0;
		if (out > want)
			x->rootdef[f.node] = ct_wrap_add(x->rootdef[f.node], out - want);
		return;
	}
	if (!in_range(x, ev))
		return;
	struct frame *caller = &x->stack[x->depth - 1];
	caller->child = ct_wrap_add(caller->child, out);
	bool added;
	uint32_t i = ct_u64map_index(&x->bykey, (uint64_t)caller->node << 32 | f.node, x->nedges,
				     &added);
	if (added)
		*CT_PUSH(x->edges, x->nedges, x->capedges) =
			(struct edge){.caller = caller->node, .callee = f.node};
	struct edge *e = &x->edges[i];
	e->calls++;
	e->incl = ct_wrap_add(e->incl, out);
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *p = a, *q = b;
	if (p->caller != q->caller)
		return p->caller < q->caller ? -1 : 1;
	if (p->callee != q->callee)
		return p->callee < q->callee ? -1 : 1;
	return 0;
}

/* a name on one line, as text (output.h: no newline or other control
 * character is left to end it) */
static void cg_name(FILE *out, const char *s)
{
	ct_text_put(out, s);
	putc_unlocked('\n', out);
}

/* "key=(id)", with the name the first time (name compression) */
static void cg_ref(FILE *out, const char *key, uint32_t id, bool *seen, const char *name)
{
	fprintf(out, "%s=(%u)", key, id + 1);
	if (seen[id]) {
		putc_unlocked('\n', out);
		return;
	}
	seen[id] = true;
	putc_unlocked(' ', out);
	cg_name(out, name);
}

/* the excess of outermost calls (a deficit their callers could not
 * absorb): taken off the root function's call edges, largest first, and
 * off the largest self costs, so that a root's inclusive cost is its
 * corrected time (report's total) and the self costs still add up to the
 * roots' inclusive costs; the functions whose self cost gives the excess
 * show that much less inclusive time than report */
static void cg_settle(struct exporter *x, size_t nfn)
{
	for (size_t r = 0; r < nfn; r++) {
		int64_t d = x->rootdef ? x->rootdef[r] : 0;
		for (int64_t left = d; left > 0;) {
			struct edge *big = NULL;
			for (size_t e = 0; e < x->nedges; e++)
				if (x->edges[e].caller == r && x->edges[e].incl > 0 &&
				    (!big || x->edges[e].incl > big->incl))
					big = &x->edges[e];
			if (!big)
				break;
			int64_t t = big->incl < left ? big->incl : left;
			big->incl -= t;
			left -= t;
		}
		for (int64_t left = d; left > 0;) {
			size_t big = nfn;
			for (size_t i = 0; i < nfn; i++)
				if (x->self[i] > 0 && (big == nfn || x->self[i] > x->self[big]))
					big = i;
			if (big == nfn)
				break;
			int64_t t = x->self[big] < left ? x->self[big] : left;
			x->self[big] -= t;
			left -= t;
		}
	}
}

static void callgrind_print(struct exporter *x)
{
	FILE *out = x->out;
	size_t nfn = x->names.n;
	/* file ids: one per distinct file name, interned after the functions */
	uint32_t *fileid = xmalloc((nfn ? nfn : 1) * sizeof(*fileid));
	struct ct_names files;
	ct_names_init(&files);
	for (size_t i = 0; i < nfn; i++)
		fileid[i] = ct_names_intern(&files, x->files && x->files[i] ? x->files[i] : "???");
	const char **filenames = files.v;
	bool *fn_seen = xcalloc(nfn ? nfn : 1, sizeof(*fn_seen));
	bool *fl_seen = xcalloc(files.n ? files.n : 1, sizeof(*fl_seen));

	fputs("# callgrind format\nversion: 1\ncreator: calltrace\n", out);
	fprintf(out, "# calltrace: %s\n", times_note(x));
	fprintf(out, "desc: Times: %s\n",
		x->raw ? "as recorded (calltrace export --raw)"
		       : "corrected for the tracer's own cost (calltrace export --raw: as "
			 "recorded)");
	fputs("cmd: ", out);
	cg_name(out, x->s->command ? x->s->command : "");
	fputs("positions: line\nevents: ns\n", out);
	if (x->self)
		cg_settle(x, nfn);
	uint64_t total = 0;
	for (size_t i = 0; i < nfn; i++)
		total += x->self ? ct_clamp0(x->self[i]) : 0;
	fprintf(out, "summary: %llu\n", (unsigned long long)total);

	ct_qsort(x->edges, x->nedges, sizeof(*x->edges), cmp_edge);
	size_t e = 0;
	for (uint32_t i = 0; i < nfn; i++) {
		/* costs sit on the function's own line (its declaration): the
		 * trace has no lines within it, and line 0 makes
		 * callgrind_annotate complain */
		int line = x->lines && x->lines[i] > 0 ? x->lines[i] : 1;
		putc_unlocked('\n', out);
		cg_ref(out, "fl", fileid[i], fl_seen, filenames[fileid[i]]);
		cg_ref(out, "fn", i, fn_seen, x->names.v[i]);
		fprintf(out, "%d %llu\n", line,
			(unsigned long long)(x->self ? ct_clamp0(x->self[i]) : 0));
		for (; e < x->nedges && x->edges[e].caller == i; e++) {
			const struct edge *ed = &x->edges[e];
			/* as callgrind: the callee's file only when it differs
			 * (callgrind_annotate strips the cwd from fl= but not
			 * from cfi=, so a needless cfi= would split a function) */
			if (fileid[ed->callee] != fileid[i])
				cg_ref(out, "cfi", fileid[ed->callee], fl_seen,
				       filenames[fileid[ed->callee]]);
			cg_ref(out, "cfn", ed->callee, fn_seen, x->names.v[ed->callee]);
			int cline = x->lines && x->lines[ed->callee] > 0 ? x->lines[ed->callee] : 1;
			fprintf(out, "calls=%llu %d\n%d %llu\n", (unsigned long long)ed->calls,
				cline, line, (unsigned long long)ct_clamp0(ed->incl));
		}
	}
	free(fn_seen);
	free(fl_seen);
	free(fileid);
	ct_names_free(&files);
}

/* ---- html ------------------------------------------------------------ */

/* a call's exit for the HTML report: its time for the aggregates, and its
 * place on the timeline, clipped to the range */
static void html_exit(struct exporter *x, const struct ct_fevent *fe)
{
	const struct ct_event *ev = &fe->ev;
	bool in = in_range(x, ev);
	uint64_t b = 0, e = 0;
	if (in)
		clip(x, ev, &b, &e);
	ct_html_exit(x->html, incl_of(x, ev), in, b, e);
}

/* ---- reading --------------------------------------------------------- */

static void emit_callgrind(struct exporter *x, const struct ct_fevent *fe)
{
	if (fe->ev.kind == CT_ENTER)
		cg_enter(x, fe->fn);
	else if (fe->ev.kind == CT_EXIT && x->depth)
		cg_exit(x, &fe->ev);
}

static void emit_folded(struct exporter *x, const struct ct_fevent *fe)
{
	if (fe->ev.kind == CT_ENTER)
		folded_enter(x, fe->fn);
	else if (fe->ev.kind == CT_EXIT && x->depth)
		folded_exit(x, &fe->ev);
}

static void emit(void *ctx, const struct ct_fevent *orig)
{
	struct exporter *x = ctx;
	/* the event at its place on the thread's corrected clock (the
	 * recorded one with --raw): every format below shows these times */
	const struct ct_fevent *fe = orig;
	if (!x->timed) {
		/* folded, callgrind without -r: only the corrected durations */
		if (fe->ev.kind == CT_EXIT)
			x->net = ct_overhead_net(&x->clock.o, &fe->ev);
		if (x->fmt == FMT_CALLGRIND)
			emit_callgrind(x, fe);
		else
			emit_folded(x, fe);
		return;
	}
	struct ct_fevent c = *orig;
	fe = &c;
	if (c.ev.kind == CT_ENTER)
		c.ev.time = c.ev.start = ct_tclock_enter(&x->clock, &orig->ev);
	else if (c.ev.kind == CT_EXIT)
		ct_tclock_exit(&x->clock, &orig->ev, &c.ev.start, &c.ev.time, &x->net);
	else
		c.ev.time = c.ev.start = ct_tclock_mark(&x->clock, &orig->ev);
	if (x->fmt == FMT_PERFETTO) {
		ct_perfetto_event(x->perfetto, fe);
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
			ct_html_mark(x->html, &fe->ev, in_range(x, &fe->ev));
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
	struct ct_overhead o = {0};
	if (!v->raw)
		ct_overhead_of(v->s, t->proc, &o);
	x->raw = v->raw;
	ct_tclock_thread(&x->clock, &o);
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
static int option(struct ct_view *v, int c, const char *arg)
{
	struct exporter *x = v->ctx;
	static const char *const fmts[] = {[FMT_CHROME] = "chrome",
					   [FMT_FOLDED] = "folded",
					   [FMT_CALLGRIND] = "callgrind",
					   [FMT_PERFETTO] = "perfetto",
					   [FMT_HTML] = "html"};
	unsigned long n;

	switch (c) {
	case OPT_CALLSITE:
		x->callsite = true;
		return 0;
	case 'o':
		x->output = arg;
		return 0;
	case OPT_FORMAT:
		for (size_t i = FMT_CHROME; i < sizeof(fmts) / sizeof(fmts[0]); i++)
			if (!strcmp(arg, fmts[i])) {
				x->fmt = (enum fmt)i;
				return 0;
			}
		ct_error("--format: want chrome, perfetto, folded, callgrind or html, not '%s'",
			 arg);
		return -1;
	case OPT_FOLDED_VALUE:
		if (strcmp(arg, "self") && strcmp(arg, "calls")) {
			ct_error("--folded-value: want self or calls, not '%s'", arg);
			return -1;
		}
		x->value_calls = !strcmp(arg, "calls");
		return 0;
	case OPT_FOLDED_FRAMES:
		if (ct_parse_uint(arg, 1u << 20, &n) < 0 || n == 1) {
			ct_error("--folded-frames: want 0 (no limit) or a number from 2 to "
				 "1048576, "
				 "not '%s'",
				 arg);
			return -1;
		}
		x->outer = (uint32_t)(n / 2);
		x->inner = (uint32_t)(n - n / 2);
		return 0;
	case 'r':
		if (ct_parse_range(arg, &x->lo, &x->hi) < 0) {
			ct_error("--range: want START~END (durations since the start of the "
				 "recording, either may be empty, e.g. 10ms~20ms), not '%s'",
				 arg);
			return -1;
		}
		return 0;
	}
	return -1; /* not reached: getopt gives the table's options only */
}

/* what the options must give before the recording is opened */
static int check(struct ct_view *v)
{
	struct exporter *x = v->ctx;
	if (x->fmt == FMT_NONE) {
		ct_error("--format is required (chrome, perfetto, folded, callgrind or html)");
		ct_view_usage(v, stderr);
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
	bool narrowed = ct_filter_active(&v->filt) || x->lo || x->hi != UINT64_MAX;
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
	if (v->counts && x->fmt == FMT_FOLDED && !x->value_calls)
		return ct_error("%s holds call counts only (record --count): no self time; use "
				"--folded-value=calls",
				v->dir)
			       ? 2
			       : 2;
	if (v->counts && (x->lo || x->hi != UINT64_MAX))
		return ct_error("-r: %s holds call counts only (record --count): no times", v->dir)
			       ? 2
			       : 2;
	if (x->callsite && x->fmt != FMT_HTML)
		return ct_error("--callsite: only with --format=html (chrome and perfetto carry "
				"the call sites of a recording that has them)")
			       ? 2
			       : 2;
	warn_big(x, v);
	x->out = stdout;
	if (x->output && !(x->out = fopen(x->output, "w")))
		return ct_error("%s: %s", x->output, strerror(errno));
	setvbuf(x->out, outbuf, _IOFBF, sizeof(outbuf));
	v->out = x->out;
	v->out_path = x->output;
	x->s = v->s;
	x->filt = &v->filt;
	/* calltrace_mark(): instant events, marks on the HTML timeline */
	v->s->marks = x->fmt == FMT_CHROME || x->fmt == FMT_PERFETTO || x->fmt == FMT_HTML;
	x->raw = v->raw;
	x->timed = x->fmt == FMT_CHROME || x->fmt == FMT_PERFETTO || x->fmt == FMT_HTML || x->lo ||
		   x->hi != UINT64_MAX;
	if (x->fmt == FMT_HTML)
		x->html = ct_html_new(v->s, x->argc, x->argv, v->raw, x->lo, x->hi);
	if (x->fmt == FMT_CHROME) {
		fputs("{\"traceEvents\":[", x->out);
		chrome_metadata(x, v->want);
	}
	if (x->fmt == FMT_PERFETTO)
		x->perfetto = ct_perfetto_start(x->out, v->s, v->want, x->lo, x->hi, times_note(x));
	return 0;
}

/* each format's tail, or the whole of it when it is written at the end */
static int end(void *ctx, struct ct_view *v, int rc)
{
	struct exporter *x = ctx;
	if (v->counts)
		return rc == 0 ? ct_export_counts(v, x->out, x->fmt == FMT_CALLGRIND) : 0;
	if (x->fmt == FMT_CHROME) {
		/* otherData: shown by the viewers' metadata dialogs */
		fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"calltrace_times\":", x->out);
		ct_json_string(x->out, x->raw ? "recorded" : "corrected");
		fputs(",\"calltrace_note\":", x->out);
		ct_json_string(x->out, times_note(x));
		fputs("}}\n", x->out);
	} else if (x->fmt == FMT_PERFETTO)
		ct_perfetto_finish(x->perfetto);
	else if (rc == 0 && x->fmt == FMT_CALLGRIND)
		callgrind_print(x);
	else if (rc == 0 && x->fmt == FMT_HTML)
		ct_html_write(x->html, x->out);
	else if (rc == 0)
		folded_print(x);
	return 0;
}

int cmd_export(int argc, char **argv)
{
	/* clang-format off */
	struct exporter x = {.fmt = FMT_NONE, .first_event = true, .lo = 0, .hi = UINT64_MAX,
			     .outer = FOLDED_FRAMES / 2, .inner = FOLDED_FRAMES - FOLDED_FRAMES / 2};
	struct ct_view v = {.head = head, .opts = options, .option = option, .ctx = &x,
			    .check = check, .begin = begin, .read = read_thread, .end = end};
	/* clang-format on */

	ct_names_init(&x.names);
	ct_u64map_init(&x.bykey);
	ct_tclock_init(&x.clock);
	x.argc = argc;
	x.argv = argv;
	int status = ct_view_run(&v, argc, argv);
	free(x.nodes);
	free(x.stack);
	free(x.files);
	free(x.lines);
	free(x.self);
	free(x.rootdef);
	free(x.edges);
	ct_html_free(x.html);
	ct_tclock_free(&x.clock);
	ct_names_free(&x.names);
	ct_u64map_free(&x.bykey);
	return status;
}
