/* SPDX-License-Identifier: MIT */
/*
 * calltrace export --format=html: the aggregates of a trace in one HTML
 * file that a browser opens offline.
 *
 * While the trace streams by, three aggregates are kept, each bounded by
 * the program's structure and not by the length of the trace:
 *
 *   call paths  one node per distinct path from an outermost call (keyed by
 *               parent node and function), with calls, total and self time:
 *               the flame graph
 *   functions   calls, total (once per outermost activation, as report and
 *               callers count it), self, and the sum of the inclusive times
 *               of its calls (for the average): the flat profile
 *   edges       per (caller, callee) pair the calls and the time spent in
 *               the callee on behalf of the caller (outermost activation of
 *               the edge, as callers): the caller/callee sections
 *
 * What is embedded is then bounded further, so that a trace of any size
 * gives a page a browser draws quickly: the flame graph keeps the
 * MAX_NODES call paths with the most time, none deeper than MAX_DEPTH and,
 * when there are more than MAX_NODES paths, none below MIN_FRACTION of the
 * total time; the paths left out are summed into one "(other)" node per
 * parent.  At most MAX_FNS functions (those
 * with the most time, and every function the kept paths name) and
 * MAX_EDGES edges between them are embedded.  The page says what was
 * left out.
 *
 * The call paths held in memory are bounded too: once there are
 * MAX_PATHS_HELD of them (CALLTRACE_HTML_PATHS_HELD in the environment
 * sets another number), a path not seen before is counted in an "(other)"
 * node of its parent path, with everything it calls, so that a trace whose
 * every call has a path of its own (a tree of recursive calls) still
 * needs bounded memory.
 *
 * The data is a JSON document in a <script type="application/json">
 * element, written with '<', '>' and '&' escaped so that no string can end
 * the element.  The libraries (d3, d3-flame-graph) and the page's own
 * script and style were embedded at build time (gen/html_assets.c, made by
 * tools/embed-html.sh from web/).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/export_html.h"
#include "builtin/html_assets.h"
#include "builtin/html_timeline.h"
#include "offcpu.h"
#include "output.h"
#include "overhead.h"
#include "util.h"

#define MAX_NODES 3000
#define MIN_FRACTION 0.0005 /* of the total time: 0.05 % */
#define MAX_DEPTH 400
#define MAX_FNS 20000
#define MAX_EDGES 60000
#define MAX_PATHS_HELD (1u << 20)
#define ROOT UINT32_MAX
#define OTHER_FN UINT32_MAX     /* hnode.fn of an "(other)" node */
#define INSIDE (UINT32_MAX - 1) /* hframe.node of a call inside an "(other)" */

const char ct_html_missing_hint[] =
	"this calltrace was built without the HTML report's JavaScript libraries "
	"(web/node_modules was missing at build time): run 'sh tools/install-deps.sh' "
	"(it installs nodejs and npm and runs 'npm ci' in web/), then 'make'";

bool ct_html_available(void)
{
	return ct_html_lib_js_len > 0;
}

/* times are sums of the calls' durations on their threads' corrected
 * clocks (lib/read/overhead.h): they nest as the calls do */
struct hnode {
	uint32_t parent; /* node index + 1, 0 for an outermost call */
	uint32_t fn;
	uint32_t depth;
	uint64_t calls;
	uint64_t total, self; /* self: total less the callees' */
	uint64_t rtotal;      /* total on the recorded clock */
	uint64_t stotal;      /* record --sample: its sampled time (ns) */
};

struct hfn {
	uint64_t calls;
	uint64_t total, self, incl_sum;
	uint64_t rtotal; /* total on the recorded clock */
	uint32_t active; /* open activations on the current thread */
	const char *file;
	int line;
};

struct hedge {
	uint32_t caller, callee; /* caller ROOT for an outermost call */
	uint64_t calls;
	uint64_t time;    /* in the callee, outermost activation of the edge */
	uint64_t time_fn; /* the same, outermost activation of the callee:
			  * what the callee's callers table counts, so that
			  * it adds up to the callee's total */
	uint32_t active;
	/* export --callsite: its call site (id in sites + 1, 0: none) and the
	 * next edge of the same pair from another (index + 1, 0: none) */
	uint32_t site, next;
};

struct hframe {
	uint32_t node, fn, edge;
	uint64_t child; /* inclusive time of the direct callees */
};

struct ct_html {
	struct ct_session *s;
	struct ct_proc *proc;
	int argc;
	char **argv;
	size_t nthreads;

	struct ct_names names;
	struct hfn *fns;
	size_t capfns;

	struct hnode *nodes;
	size_t nnodes, capnodes;
	struct ct_u64map bypath; /* (parent << 32 | fn) -> node index + 1 */

	struct hedge *edges;
	size_t nedges, capedges;
	struct ct_u64map byedge; /* (caller << 32 | callee) -> edge index + 1 */
	struct ct_names sites;   /* export --callsite: call sites as text */

	struct hframe *stack;
	size_t depth, capstack;
	size_t max_held;   /* MAX_PATHS_HELD, or CALLTRACE_HTML_PATHS_HELD */
	bool paths_capped; /* max_held was reached */
	bool raw;          /* --raw: the times as recorded */
	bool sampled;      /* record --sample: the sampled flame graph too */
	struct ct_timeline *tl;
};

struct ct_html *ct_html_new(struct ct_session *s, int argc, char **argv, bool raw, uint64_t lo,
			    uint64_t hi)
{
	struct ct_html *h = xcalloc(1, sizeof(*h));
	h->s = s;
	h->argc = argc;
	h->argv = argv;
	h->raw = raw;
	for (size_t i = 0; i < s->nprocs; i++)
		h->sampled |= s->procs[i]->sample_ns != 0;
	uint64_t dur = s->end_clock > s->start_clock ? ct_session_ns(s, s->end_clock) : 0;
	if (hi < dur)
		dur = hi;
	h->tl = ct_timeline_new(dur > lo ? dur - lo : 0);
	h->max_held = MAX_PATHS_HELD;
	const char *env = getenv("CALLTRACE_HTML_PATHS_HELD");
	if (env && *env) {
		char *end;
		unsigned long v = strtoul(env, &end, 10);
		if (!*end && v > 0 && v <= MAX_PATHS_HELD * 64ul)
			h->max_held = v;
	}
	ct_names_init(&h->names);
	ct_names_init(&h->sites);
	ct_u64map_init(&h->bypath);
	ct_u64map_init(&h->byedge);
	return h;
}

void ct_html_free(struct ct_html *h)
{
	if (!h)
		return;
	ct_names_free(&h->names);
	ct_names_free(&h->sites);
	ct_u64map_free(&h->bypath);
	ct_u64map_free(&h->byedge);
	free(h->fns);
	free(h->nodes);
	free(h->edges);
	free(h->stack);
	ct_timeline_free(h->tl);
	free(h);
}

void ct_html_thread(struct ct_html *h, struct ct_thread *t)
{
	h->proc = t->proc;
	h->nthreads++;
	ct_timeline_thread(h->tl, t);
	uint64_t *from, *to;
	size_t n = ct_offcpu_spans(h->s, t, &from, &to);
	ct_timeline_offcpu(h->tl, from, to, n);
	free(from);
	free(to);
}

void ct_html_mark(struct ct_html *h, const struct ct_event *ev, bool in)
{
	if (in)
		ct_timeline_mark(h->tl, ev->time, (const char *)(uintptr_t)ev->addr);
}

/* ---- aggregation ------------------------------------------------------- */

static uint32_t fn_id(struct ct_html *h, struct ct_func *fn)
{
	if (fn->user >= 0)
		return (uint32_t)fn->user;
	uint32_t id = ct_names_intern(&h->names, fn->name);
	if (h->names.n > h->capfns) {
		size_t old = h->capfns;
		h->capfns = h->names.cap;
		h->fns = xrealloc(h->fns, h->capfns * sizeof(*h->fns));
		memset(h->fns + old, 0, (h->capfns - old) * sizeof(*h->fns));
	}
	struct hfn *f = &h->fns[id];
	if (!f->file && fn->addr && h->proc) {
		const struct ct_sym_info *si = ct_session_resolve(h->s, h->proc, fn->addr);
		if (si && si->file) {
			f->file = si->file;
			f->line = si->line;
		}
	}
	fn->user = id;
	return id;
}

static uint32_t node_of(struct ct_html *h, uint32_t parent, uint32_t fn, uint32_t depth)
{
	uint64_t key = (uint64_t)parent << 32 | fn;
	if (h->nnodes >= h->max_held && fn != OTHER_FN) {
		void *v = ct_u64map_get(&h->bypath, key);
		if (v)
			return (uint32_t)((uintptr_t)v - 1);
		/* no more paths: the parent's "(other)" */
		h->paths_capped = true;
		return node_of(h, parent, OTHER_FN, depth);
	}
	bool added;
	uint32_t id = ct_u64map_index(&h->bypath, key, h->nnodes, &added);
	if (added)
		*CT_PUSH(h->nodes, h->nnodes, h->capnodes) =
			(struct hnode){.parent = parent, .fn = fn, .depth = depth};
	return id;
}

static uint32_t edge_of(struct ct_html *h, uint32_t caller, uint32_t callee, const char *site)
{
	bool added;
	uint32_t e =
		ct_u64map_index(&h->byedge, (uint64_t)caller << 32 | callee, h->nedges, &added);
	uint32_t sid = site ? ct_names_intern(&h->sites, site) + 1 : 0;
	if (added)
		*CT_PUSH(h->edges, h->nedges, h->capedges) =
			(struct hedge){.caller = caller, .callee = callee, .site = sid};
	/* export --callsite: the pair's edge from that site */
	while (h->edges[e].site != sid) {
		if (!h->edges[e].next) {
			h->edges[e].next = (uint32_t)h->nedges + 1;
			*CT_PUSH(h->edges, h->nedges, h->capedges) =
				(struct hedge){.caller = caller, .callee = callee, .site = sid};
			return (uint32_t)h->nedges - 1;
		}
		e = h->edges[e].next - 1;
	}
	return e;
}

void ct_html_enter(struct ct_html *h, struct ct_func *fn, const char *site)
{
	uint32_t id = fn_id(h, fn);
	const struct hframe *top = h->depth ? &h->stack[h->depth - 1] : NULL;
	uint32_t node;
	if (top && (top->node == INSIDE || h->nodes[top->node].fn == OTHER_FN))
		node = INSIDE; /* counted in that "(other)" */
	else
		node = node_of(h, top ? top->node + 1 : 0, id, (uint32_t)h->depth);
	uint32_t edge = edge_of(h, top ? top->fn : ROOT, id, site);
	*CT_PUSH(h->stack, h->depth, h->capstack) =
		(struct hframe){.node = node, .fn = id, .edge = edge};
	h->fns[id].active++;
	h->edges[edge].active++;
}

void ct_html_exit(struct ct_html *h, uint64_t incl, bool in, bool counted, uint64_t start,
		  uint64_t end, uint64_t sampled)
{
	if (!h->depth)
		return;
	struct hframe f = h->stack[--h->depth];
	struct hfn *fn = &h->fns[f.fn];
	struct hedge *e = &h->edges[f.edge];
	if (fn->active)
		fn->active--;
	if (e->active)
		e->active--;
	struct hnode *n = f.node != INSIDE ? &h->nodes[f.node] : NULL;
	uint64_t self = ct_call_self(incl, f.child);
	/* the recorded time inside the range: [start, end) is on the
	 * recorded clock, clipped to it */
	uint64_t raw = in && end > start ? end - start : 0;
	counted = counted && in;
	if (n) {
		/* a path's self and its callees' totals add up to its total */
		n->total += incl;
		n->rtotal += raw;
		n->self += self;
		n->calls += counted;
		n->stotal += sampled;
	}
	fn->self += self;
	if (counted)
		fn->incl_sum += incl;
	if (!fn->active) {
		fn->total += incl;
		fn->rtotal += raw;
		e->time_fn += incl;
	}
	if (!e->active)
		e->time += incl;
	fn->calls += counted;
	e->calls += counted;
	if (in)
		ct_timeline_call(h->tl, f.fn, (uint32_t)h->depth, start, end, incl);
	if (h->depth)
		h->stack[h->depth - 1].child += incl;
}

void ct_html_thread_end(struct ct_html *h)
{
	while (h->depth) {
		struct hframe f = h->stack[--h->depth];
		if (h->fns[f.fn].active)
			h->fns[f.fn].active--;
		if (h->edges[f.edge].active)
			h->edges[f.edge].active--;
	}
	h->proc = NULL;
}

/* ---- writing ----------------------------------------------------------- */

static void html_text(FILE *out, const char *s)
{
	static const char special[] = "<>&\"";
	static const char *const entity[] = {"&lt;", "&gt;", "&amp;", "&quot;"};
	for (; *s; s++) {
		const char *p = strchr(special, *s);
		if (p)
			fputs(entity[p - special], out);
		else
			putc_unlocked(*s, out);
	}
}

/* the orders' steps: the smaller first, the larger first */
static int up(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

static int down(uint64_t a, uint64_t b)
{
	return up(b, a);
}

/* the first step that orders, else 0 */
static int by(int first, int second, int third)
{
	return first ? first : second ? second : third;
}

/* what the index orders sort */
static const struct hnode *sort_nodes;
static const struct hfn *sort_fns;

/* more time first; a parent before its children (less deep on a tie) */
static int cmp_node_rank(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
	const struct hnode *p = &sort_nodes[i], *q = &sort_nodes[k];
	return by(down(p->total, q->total), up(p->depth, q->depth), up(i, k));
}

static int cmp_fn_rank(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
	const struct hfn *p = &sort_fns[i], *q = &sort_fns[k];
	return by(down(p->total, q->total), down(p->calls, q->calls), up(i, k));
}

static int cmp_edge_time(const void *a, const void *b)
{
	const struct hedge *p = a, *q = b;
	int r = by(down(p->time, q->time), down(p->calls, q->calls), up(p->caller, q->caller));
	return r ? r : up(p->callee, q->callee);
}

/* "(other)": the paths under one kept parent that were left out */
struct other {
	uint64_t calls, total, self, paths, stotal;
};

static void write_info(struct ct_html *h, FILE *out)
{
	struct ct_session *s = h->s;
	fputs("\"info\":{\"command\":", out);
	ct_json_string_script(out, s->command ? s->command : "");
	fputs(",\"start_time\":", out);
	ct_json_string_script(out, s->start_time ? s->start_time : "");
	fputs(",\"exit_status\":", out);
	ct_json_string_script(out, s->exit_status ? s->exit_status : "");
	fprintf(out, ",\"complete\":%s", s->complete ? "true" : "false");
	/* which times the report holds (doc/overhead.md) */
	fprintf(out, ",\"times\":\"%s\"", h->raw ? "recorded" : "corrected");
	uint64_t dur = s->end_clock > s->start_clock ? ct_session_ns(s, s->end_clock) : 0;
	fprintf(out, ",\"duration_ns\":%" PRIu64, dur);
	fputs(",\"clock\":", out);
	ct_json_string_script(out, s->clock_name ? s->clock_name : "?");
	fprintf(out, ",\"clock_hz\":%.0f", s->clock_hz);
	fprintf(out, ",\"processes\":%zu,\"threads\":%zu,\"threads_shown\":%zu", s->nprocs,
		s->nthreads, h->nthreads);
	fprintf(out, ",\"events\":%" PRIu64 ",\"event_bytes\":%" PRIu64, s->events, s->ev_bytes);
	fprintf(out, ",\"lost\":%" PRIu64 ",\"unmatched\":%" PRIu64, s->lost, s->unmatched);
	fputs(",\"pids\":[", out);
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct ct_proc *p = s->procs[i];
		fprintf(out, "%s{\"pid\":%d,\"exe\":", i ? "," : "", p->pid);
		ct_json_string_script(out, p->exe ? p->exe : "");
		size_t nt = 0;
		for (size_t j = 0; j < s->nthreads; j++)
			nt += s->threads[j]->proc == p;
		fprintf(out, ",\"threads\":%zu}", nt);
	}
	/* each thread, with its name (pthread_setname_np, PR_SET_NAME) */
	fputs("],\"tlist\":[", out);
	for (size_t j = 0; j < s->nthreads; j++) {
		const struct ct_thread *t = s->threads[j];
		fprintf(out, "%s{\"pid\":%d,\"tid\":%d,\"name\":", j ? "," : "", t->proc->pid,
			t->tid);
		ct_json_string_script(out, t->name ? t->name : "");
		fputc('}', out);
	}
	fputs("],\"export\":", out);
	/* the export command line, as typed (options only) */
	char *cmd = xstrdup("calltrace export");
	for (int i = 1; i < h->argc; i++) {
		char *n = xasprintf("%s %s", cmd, h->argv[i]);
		free(cmd);
		cmd = n;
	}
	ct_json_string_script(out, cmd);
	free(cmd);
	putc_unlocked('}', out);
}

static void write_data(struct ct_html *h, FILE *out)
{
	size_t nn = h->nnodes, nf = h->names.n;

	/* the flame graph's nodes: the most time first, then the bounds */
	uint64_t grand = 0, sgrand = 0;
	size_t npaths = 0;
	for (size_t i = 0; i < nn; i++) {
		grand += h->nodes[i].parent ? 0 : (uint64_t)h->nodes[i].total;
		sgrand += h->nodes[i].parent ? 0 : h->nodes[i].stotal;
		npaths += h->nodes[i].calls > 0;
	}
	sort_nodes = h->nodes;
	uint32_t *order = ct_sorted_indexes(nn, cmp_node_rank);
	/* keep[i]: output index + 1 of node i, 0 when left out */
	uint32_t *keep = xcalloc(nn ? nn : 1, sizeof(*keep));
	/* small enough as it is: every path, however short */
	double min_time = npaths > MAX_NODES ? MIN_FRACTION * (double)grand : 0;
	size_t nkept = 0;
	for (size_t k = 0; k < nn && nkept < MAX_NODES; k++) {
		const struct hnode *n = &h->nodes[order[k]];
		if (n->depth >= MAX_DEPTH || (double)n->total < min_time || !n->calls ||
		    n->fn == OTHER_FN)
			continue;
		keep[order[k]] = 1;
		nkept++;
	}
	/* a kept node's ancestors are kept (they have at least its time, so
	 * this adds nothing unless the data is inconsistent) */
	for (size_t i = 0; i < nn; i++)
		if (keep[i])
			for (uint32_t p = h->nodes[i].parent; p && !keep[p - 1];
			     p = h->nodes[p - 1].parent)
				keep[p - 1] = 1;
	free(order);

	/* functions: the most time first; those named by kept paths too */
	sort_fns = h->fns;
	uint32_t *forder = ct_sorted_indexes(nf, cmp_fn_rank);
	bool *fwant = xcalloc(nf ? nf : 1, sizeof(*fwant));
	size_t nfcalled = 0;
	for (size_t i = 0; i < nf; i++)
		nfcalled += h->fns[i].calls > 0;
	for (size_t k = 0, nw = 0; k < nf && nw < MAX_FNS; k++)
		if (h->fns[forder[k]].calls) {
			fwant[forder[k]] = true;
			nw++;
		}
	for (size_t i = 0; i < nn; i++)
		if (keep[i])
			fwant[h->nodes[i].fn] = true;
	ct_timeline_want(h->tl, fwant);
	/* fout[id]: output index + 1 of function id */
	uint32_t *fout = xcalloc(nf ? nf : 1, sizeof(*fout));
	size_t nfout = 0;
	fputs("\"fns\":[", out);
	for (size_t k = 0; k < nf; k++) {
		uint32_t id = forder[k];
		if (!fwant[id])
			continue;
		const struct hfn *f = &h->fns[id];
		fout[id] = (uint32_t)++nfout;
		fputs(nfout > 1 ? ",\n[" : "\n[", out);
		ct_json_string_script(out, h->names.v[id]);
		fprintf(out, ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", f->calls,
			f->total, f->self, f->incl_sum);
		if (f->file) {
			char *loc =
				f->line ? xasprintf("%s:%d", f->file, f->line) : xstrdup(f->file);
			ct_json_string_script(out, loc);
			free(loc);
		} else {
			fputs("\"\"", out);
		}
		/* mostly the tracer's cost (lib/read/overhead.h): marked */
		fputs(ct_mostly_cost(f->total, f->rtotal) ? ",true]" : ",false]", out);
	}
	fputs("],\n", out);

	/* the kept paths in creation order (parents first), then one
	 * "(other)" per parent for the paths left out */
	struct other *other = xcalloc(nn + 1, sizeof(*other)); /* by parent + 1 */
	size_t nout = 0, nleft = 0;
	fputs("\"tree\":[", out);
	for (size_t i = 0; i < nn; i++) {
		const struct hnode *n = &h->nodes[i];
		if (!keep[i]) {
			if (!n->calls && !n->total)
				continue; /* outside the range only */
			/* summed into the "(other)" of its nearest kept node
			 * when its parent is kept (a deeper one is inside
			 * that node's time already) */
			if (!n->parent || keep[n->parent - 1]) {
				struct other *o = &other[n->parent];
				o->calls += n->calls;
				o->total += (uint64_t)n->total;
				o->self += (uint64_t)n->total;
				o->stotal += n->stotal;
				o->paths++;
			}
			nleft++;
			continue;
		}
		keep[i] = (uint32_t)++nout;
		fprintf(out, "%s[%ld,%u,%" PRIu64 ",%" PRId64 ",%" PRId64 ",%s",
			nout > 1 ? ",\n" : "\n", n->parent ? (long)keep[n->parent - 1] - 1 : -1L,
			fout[n->fn] - 1, n->calls, n->total, n->self,
			ct_mostly_cost(n->total, n->rtotal) ? "true" : "false");
		/* record --sample: the path's sampled time */
		if (h->sampled)
			fprintf(out, ",%" PRIu64, n->stotal);
		putc_unlocked(']', out);
	}
	size_t nother = 0;
	for (size_t p = 0; p <= nn; p++) {
		const struct other *o = &other[p];
		if (!o->paths)
			continue;
		nother++;
		fprintf(out, "%s[%ld,-1,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
			nout + nother > 1 ? ",\n" : "\n", p ? (long)keep[p - 1] - 1 : -1L, o->calls,
			o->total, o->self, o->paths);
		if (h->sampled)
			fprintf(out, ",%" PRIu64, o->stotal);
		putc_unlocked(']', out);
	}
	fputs("],\n", out);
	free(other);

	/* edges between embedded functions, the most time first */
	struct hedge *ed = xmalloc((h->nedges ? h->nedges : 1) * sizeof(*ed));
	size_t ne = 0, nedges_all = 0;
	for (size_t i = 0; i < h->nedges; i++) {
		const struct hedge *e = &h->edges[i];
		if (!e->calls)
			continue;
		nedges_all++;
		if ((e->caller != ROOT && !fout[e->caller]) || !fout[e->callee])
			continue;
		ed[ne++] = *e;
	}
	ct_qsort(ed, ne, sizeof(*ed), cmp_edge_time);
	if (ne > MAX_EDGES)
		ne = MAX_EDGES;
	fputs("\"edges\":[", out);
	for (size_t i = 0; i < ne; i++) {
		fprintf(out, "%s[%ld,%u,%" PRIu64 ",%" PRId64 ",%" PRId64, i ? ",\n" : "\n",
			ed[i].caller == ROOT ? -1L : (long)fout[ed[i].caller] - 1,
			fout[ed[i].callee] - 1, ed[i].calls, ed[i].time, ed[i].time_fn);
		if (h->sites.n) /* export --callsite: the index in "sites", or -1 */
			fprintf(out, ",%ld", (long)ed[i].site - 1);
		fputs("]", out);
	}
	fputs("],\n", out);
	if (h->sites.n) {
		fputs("\"sites\":[", out);
		for (size_t i = 0; i < h->sites.n; i++) {
			fputs(i ? "," : "", out);
			ct_json_string_script(out, h->sites.v[i]);
		}
		fputs("],\n", out);
	}
	free(ed);
	ct_timeline_write(h->tl, out, fout);

	fprintf(out,
		"\"limits\":{\"paths\":%zu,\"paths_shown\":%zu,\"paths_folded\":%zu,"
		"\"other_nodes\":%zu,\"max_paths\":%d,\"min_fraction\":%g,\"max_depth\":%d,"
		"\"functions\":%zu,\"functions_shown\":%zu,\"max_functions\":%d,"
		"\"edges\":%zu,\"edges_shown\":%zu,\"max_edges\":%d,\"total_ns\":%" PRIu64 ","
		"\"paths_capped\":%s,\"max_paths_held\":%zu},\n",
		npaths, nout, nleft, nother, MAX_NODES, min_time > 0 ? MIN_FRACTION : 0.0,
		MAX_DEPTH, nfcalled, nfout, MAX_FNS, nedges_all, ne, MAX_EDGES, grand,
		h->paths_capped ? "true" : "false", h->max_held);
	/* record --sample: the sampled flame graph's total (samples x period,
	 * the tree's 7th figures) */
	if (h->sampled)
		fprintf(out, "\"sampled\":{\"total_ns\":%" PRIu64 "},\n", sgrand);
	free(keep);
	free(forder);
	free(fwant);
	free(fout);
}

/* text, then an embedded file */
static void embed(FILE *out, const char *text, const unsigned char *file, size_t len)
{
	fputs(text, out);
	fwrite(file, 1, len, out);
}

int ct_html_write(struct ct_html *h, FILE *out)
{
	const char *title = h->s->command ? h->s->command : "calltrace";
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"calltrace export --format=html\">\n",
	      out);
	fputs("<title>calltrace: ", out);
	html_text(out, title);
	embed(out, "</title>\n<!--\n", ct_html_notices, ct_html_notices_len);
	embed(out, "\n-->\n<style>\n", ct_html_lib_css, ct_html_lib_css_len);
	embed(out, "\n", ct_html_app_css, ct_html_app_css_len);
	fputs("\n</style>\n</head>\n<body>\n"
	      "<noscript>This report needs JavaScript.</noscript>\n"
	      "<div id=\"app\"></div>\n"
	      "<script type=\"application/json\" id=\"ct-data\">{",
	      out);
	write_data(h, out);
	write_info(h, out);
	embed(out, "}</script>\n<script>\n", ct_html_lib_js, ct_html_lib_js_len);
	embed(out, "\n</script>\n<script>\n", ct_html_app_js, ct_html_app_js_len);
	fputs("\n</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -1 : 0;
}
