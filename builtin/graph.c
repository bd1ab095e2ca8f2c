/* SPDX-License-Identifier: MIT */
/*
 * calltrace graph: the call tree aggregated by call path.
 *
 * Every distinct call path (the chain of function names from an outermost
 * frame down to a call) is one node, keyed by (parent node, function name),
 * with its number of calls, total (inclusive) time and self time.  The tree
 * is bounded by the number of distinct paths, not by the length of the
 * trace; it is built while streaming each thread and printed without
 * recursion (an explicit stack), so 100,000-deep recursion is fine.
 *
 * With FUNC: the backtraces of FUNC (each distinct path to an outermost
 * activation of FUNC: recursive calls of FUNC are inside it) and FUNC's
 * callee tree, the subtrees of those activations merged into one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "calltree.h"
#include "counts.h"
#include "filter.h"
#include "findfunc.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "progress.h"
#include "session.h"
#include "srcline.h"
#include "util.h"
#include "view.h"

#define NONE CT_TREE_NONE

static inline uint64_t ct_absdiff(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}
/* deeper nodes are drawn with their depth as a number instead of bars, so
 * that the output stays linear in the number of nodes */
#define MAX_INDENT 64
/* a backtrace deeper than BT_OUTER + BT_INNER + 1 frames shows its outermost
 * BT_OUTER and innermost BT_INNER frames around "[… K frames]", so that the
 * backtraces stay linear in the number of nodes too */
#define BT_OUTER CT_TREE_TOP
#define BT_INNER 32

#define STR_(x) #x
#define STR(x) STR_(x)

enum { OPT_FORMAT = 256, OPT_DIFF };

static const char head[] =
	"usage: calltrace graph [options] [FUNC]\n"
	"\n"
	"The recorded calls as a tree aggregated by call path: each distinct\n"
	"path from an outermost function down to a call is shown once, with its\n"
	"calls, total and self time.  With FUNC: the distinct paths that reached\n"
	"FUNC (backtraces), then FUNC's callee tree.  FUNC is the name as shown,\n"
	"or without its parameters, or the plain name, or a regex: the first of\n"
	"these that names exactly one function (\"sum\" finds sum_squares when it\n"
	"is the only match; several are listed, none: the closest suggested).\n"
	"\n"
	"options:\n";

/* clang-format off */
static const char tail[] =
	"\n"
	"Children are sorted by total time (descending), ties by name.  Self time\n"
	"is total time minus that of the direct callees.  Times have the\n"
	"tracer's own cost, measured when recording, taken out (see\n"
	"doc/overhead.md); --raw shows them as recorded.  A line marked * has a\n"
	"recorded time more than 5 times its corrected one: mostly the tracer's\n"
	"cost.  Nodes deeper than " STR(MAX_INDENT) " levels are drawn as\n"
	"\"[DEPTH] +-name\" instead of with bars.  A recording made with\n"
	"record --sched has an OFF-CPU column: of the total time, the time the\n"
	"thread was switched out (blocked, sleeping or preempted).\n";
/* clang-format on */

struct graph {
	struct ct_filter *filt;
	struct ct_names names; /* function names and their ids */

	struct ct_tree tree; /* and the open calls of the thread being read */
	bool no_time;
	/* -f: the columns before the tree, in order (uftrace graph's fields
	 * and calls); fields_set false: the usual ones */
	enum gfield { GF_TOTAL, GF_SELF, GF_CALL, GF_ADDR } fields[4];
	size_t nfields;
	bool fields_set;
	uint64_t *addrs; /* by name id: the first address seen (-f addr) */
	size_t naddrs;
	bool srcline;          /* --srcline: each function's file:line */
	struct ct_proc **srcp; /* by name id: the process of addrs[] */
	struct ct_session *s;
	bool sched;           /* record --sched: an off-CPU column */
	bool counts;          /* a recording of call counts only: the tree of arcs */
	bool sampled;         /* record --sample: the sampled columns */
	bool count_sampled;   /* record --count --sample: the times are sampled */
	struct ct_counts cnt; /* its counts */
	/* --diff: the other recording; after reading it, its figures per
	 * node of this tree (which gained the paths only it has), and
	 * the nodes of each side */
	const char *diff;
	struct graph *other; /* its graph and view, open until the end */
	struct ct_view *ov;
	struct ct_tnode *onodes;
	bool *inb, *inn;
	int argc;
	char **argv;
};

/* the id of name; NONE when absent and !add */
static uint32_t intern(struct graph *g, const char *name, bool add)
{
	if (add)
		return ct_names_intern(&g->names, name);
	int64_t id = ct_names_find(&g->names, name);
	return id < 0 ? NONE : (uint32_t)id;
}

/* one event of a call shown (fn: its function, for an entry) */
static void one_event(struct graph *g, struct ct_func *fn, const struct ct_event *ev)
{
	if (ev->kind == CT_ENTER) {
		if (fn->user < 0) {
			fn->user = intern(g, fn->name, true);
			if ((g->fields_set || g->srcline) && fn->addr) {
				size_t id = (size_t)fn->user;
				if (id >= g->naddrs) {
					size_t n = g->naddrs ? 2 * g->naddrs : 256;
					while (n <= id)
						n *= 2;
					g->addrs = ct_grow_zeroed(g->addrs, g->naddrs, n,
								  sizeof(*g->addrs));
					g->srcp = ct_grow_zeroed(g->srcp, g->naddrs, n,
								 sizeof(*g->srcp));
					g->naddrs = n;
				}
				if (!g->addrs[id]) {
					g->addrs[id] = ct_addr_untag(fn->addr);
					g->srcp[id] = ev->thread->proc;
				}
			}
		}
		ct_tree_enter(&g->tree, (uint32_t)fn->user);
	} else if (ev->kind == CT_EXIT) {
		ct_tree_exit(&g->tree, ev);
	}
}

/* without filters every event comes here, its function from the table */
static void unfiltered(void *ctx, struct ct_thread *t, const struct ct_event *evs, int nev)
{
	struct graph *g = ctx;
	for (int i = 0; i < nev; i++)
		one_event(g,
			  evs[i].kind == CT_ENTER ? ct_filter_func(g->filt, t->proc, evs[i].addr)
						  : NULL,
			  &evs[i]);
}

/* with -F/-N/--hide/-D/-t/--no-libcall/-r: the calls the filters show, a
 * hidden call's callees under its nearest shown caller, the calls that
 * overlap the range whole (lib/read/filter.h) */
static void emit(void *ctx, const struct ct_fevent *fe)
{
	if (fe->ev.kind != CT_MARK)
		one_event(ctx, fe->fn, &fe->ev);
}

static int read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct graph *g = ctx;
	ct_tree_thread_reset(&g->tree);
	int rc = ct_view_read_thread(v, t, NULL, emit, g);
	ct_tree_thread_reset(&g->tree);
	return rc;
}

/* ---- output --------------------------------------------------------- */

static const struct graph *sort_g;
static const struct ct_tree *sort_t;

/* by total time (descending), then name; with --no-time by first call */
static int cmp_nodes(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct ct_tnode *na = &sort_t->n[ia], *nb = &sort_t->n[ib];
	if (sort_g->onodes && !sort_g->no_time) {
		/* --diff: by the size of the total's difference */
		uint64_t da = ct_absdiff(sort_g->onodes[ia].total, na->total);
		uint64_t db = ct_absdiff(sort_g->onodes[ib].total, nb->total);
		if (da != db)
			return da > db ? -1 : 1;
		int c = strcmp(sort_g->names.v[na->name], sort_g->names.v[nb->name]);
		if (c)
			return c;
	} else if (!sort_g->no_time) {
		return ct_tree_cmp(sort_t, sort_g->names.v, ia, ib);
	}
	return ia < ib ? -1 : ia > ib;
}

/* the node's time is mostly the tracer's (lib/read/overhead.h): its line
 * is marked as report marks such a function, and a legend follows */
static bool mostly_cost(const struct graph *g, const struct ct_tnode *n)
{
	bool times = !g->no_time;
	if (g->fields_set) { /* -f: only when a time is shown */
		times = false;
		for (size_t i = 0; i < g->nfields; i++)
			times |= g->fields[i] == GF_TOTAL || g->fields[i] == GF_SELF;
	}
	return times && !g->onodes && ct_mostly_cost(n->total, n->rtotal);
}

#define COST_MARK " *"
static const char cost_legend[] =
	"* mostly the tracer's own cost: recorded more than 5x the corrected time, "
	"which is then mostly estimate (doc/overhead.md)\n";

/* --diff: a node's figures, base, new, difference; "-" for a side
 * without the path */
static void print_diff_row(const struct graph *g, FILE *out, const struct ct_tnode *n, uint32_t i)
{
	const struct ct_tnode *o = &g->onodes[i];
	char b[64], sd[72];
	if (!g->no_time) {
		for (int side = 0; side < 2; side++) {
			if (!(side ? g->inn[i] : g->inb[i]))
				fprintf(out, "  %10s", "-");
			else
				fprintf(out, "  %s",
					ct_format_duration(side ? o->total : n->total, b,
							   sizeof(b)));
		}
		uint64_t d = ct_absdiff(o->total, n->total);
		ct_format_duration(d, b, sizeof(b));
		snprintf(sd, sizeof(sd), "%c%s", o->total < n->total ? '-' : '+',
			 b + strspn(b, " "));
		fprintf(out, "  %11s", sd);
	}
	for (int side = 0; side < 2; side++) {
		if (!(side ? g->inn[i] : g->inb[i]))
			fprintf(out, "  %10s", "-");
		else
			fprintf(out, "  %10llu", (unsigned long long)(side ? o->calls : n->calls));
	}
	fprintf(out, "  %+10lld  ", (long long)o->calls - (long long)n->calls);
}

static void print_row(const struct graph *g, FILE *out, const struct ct_tnode *n)
{
	if (g->onodes) {
		print_diff_row(g, out, n, (uint32_t)(n - g->tree.n));
		return;
	}
	if (g->fields_set) {
		char b[64];
		for (size_t i = 0; i < g->nfields; i++) {
			switch (g->fields[i]) {
			case GF_TOTAL:
			case GF_SELF:
				fprintf(out, "  %s",
					ct_format_duration(g->fields[i] == GF_TOTAL ? n->total
										    : n->self,
							   b, sizeof(b)));
				break;
			case GF_CALL:
				fprintf(out, "  %8llu", (unsigned long long)n->calls);
				break;
			case GF_ADDR: {
				uint64_t a = n->name < g->naddrs ? g->addrs[n->name] : 0;
				if (a)
					fprintf(out, "  %12" PRIx64, a);
				else
					fprintf(out, "  %12s", "");
				break;
			}
			}
		}
		fputs("  ", out);
		return;
	}
	if (g->no_time) {
		fprintf(out, "  %8llu  ", (unsigned long long)n->calls);
		return;
	}
	char b[3][64];
	fprintf(out, "  %s  %s  %8llu  ", ct_format_duration(n->total, b[0], sizeof(b[0])),
		ct_format_duration(n->self, b[1], sizeof(b[1])), (unsigned long long)n->calls);
	if (g->sampled)
		fprintf(out, "%s  %s  %8llu  ", ct_format_duration(n->stotal, b[0], sizeof(b[0])),
			ct_format_duration(n->sself, b[1], sizeof(b[1])),
			(unsigned long long)n->sself_n);
	if (g->sched)
		fprintf(out, "%s  ", ct_format_duration(n->offcpu, b[2], sizeof(b[2])));
}

static void print_header(const struct graph *g, FILE *out, const char *last)
{
	if (g->onodes && g->no_time)
		fprintf(out, "  BASE CALLS   NEW CALLS  CALLS DIFF  %s\n", last);
	else if (g->onodes)
		fprintf(out,
			"  BASE TOTAL   NEW TOTAL   TOTAL DIFF  BASE CALLS   NEW CALLS  CALLS DIFF "
			" "
			"%s\n",
			last);
	else if (g->fields_set) {
		static const char *const heads[] = {"TOTAL TIME", " SELF TIME", "   CALLS",
						    "     ADDRESS"};
		for (size_t i = 0; i < g->nfields; i++)
			fprintf(out, "  %s", heads[g->fields[i]]);
		fprintf(out, "  %s\n", last);
	} else if (g->no_time)
		fprintf(out, "     CALLS  %s\n", last);
	else {
		fputs("  TOTAL TIME   SELF TIME     CALLS", out);
		if (g->sampled)
			fputs("   SMP TOTAL    SMP SELF   SAMPLES", out);
		if (g->sched)
			fputs("     OFF-CPU", out);
		fprintf(out, "  %s\n", last);
	}
}

/* --srcline: " [f.c:3]" after a function's name */
static void src_note(const struct graph *g, uint32_t name, FILE *out)
{
	if (!g->srcline || name >= g->naddrs || !g->srcp[name])
		return;
	const char *l = ct_srcline_func(g->s, g->srcp[name], g->addrs[name]);
	if (l)
		fprintf(out, " [%s]", ct_tx(l));
}

struct pending {
	uint32_t node, depth;
	bool last;
};

/* the tree under t's root, depth-first, children sorted; true when a
 * line was marked (mostly_cost) */
static bool print_tree(const struct graph *g, const struct ct_tree *t, FILE *out)
{
	bool marked = false;
	struct pending *stack = NULL;
	size_t nstack = 0, capstack = 0;
	bool *more = NULL; /* by depth: the node drawn there has later siblings */
	size_t capmore = 0;
	uint32_t *kids = NULL;
	size_t capkids = 0;
	uint32_t root = 0, depth = 0; /* the node whose children come next */

	sort_g = g;
	sort_t = t;
	for (;;) {
		/* push the children of root (sorted) in reverse order */
		size_t nk = 0;
		for (uint32_t c = t->n[root].first_child; c != NONE; c = t->n[c].next_sibling) {
			if (nk == capkids) {
				capkids = capkids ? 2 * capkids : 64;
				kids = xrealloc(kids, capkids * sizeof(*kids));
			}
			kids[nk++] = c;
		}
		ct_qsort(kids, nk, sizeof(*kids), cmp_nodes);
		for (size_t k = nk; k-- > 0;) {
			if (nstack == capstack) {
				capstack = capstack ? 2 * capstack : 64;
				stack = xrealloc(stack, capstack * sizeof(*stack));
			}
			stack[nstack++] = (struct pending){.node = kids[k],
							   .depth = depth,
							   .last = k == nk - 1};
		}
		if (!nstack)
			break;
		struct pending p = stack[--nstack];
		if (p.depth >= capmore) {
			capmore = 2 * (size_t)p.depth + 64;
			more = xrealloc(more, capmore * sizeof(*more));
		}
		more[p.depth] = !p.last;
		const struct ct_tnode *n = &t->n[p.node];
		print_row(g, out, n);
		if (p.depth > MAX_INDENT) {
			fprintf(out, "[%u] +-", p.depth);
		} else if (p.depth > 0) {
			for (uint32_t d = 1; d < p.depth; d++)
				fputs(more[d] ? "| " : "  ", out);
			fputs("+-", out);
		}
		ct_text_put(out, g->names.v[n->name]);
		src_note(g, n->name, out);
		if (g->onodes && !g->inb[p.node])
			fputs(" [new]", out);
		else if (g->onodes && !g->inn[p.node])
			fputs(" [vanished]", out);
		if (mostly_cost(g, n)) {
			fputs(COST_MARK, out);
			marked = true;
		}
		putc('\n', out);
		root = p.node;
		depth = p.depth + 1;
	}
	free(stack);
	free(more);
	free(kids);
	return marked;
}

/* the backtraces and callee tree of function id f; true when a line was
 * marked (mostly_cost) */
static bool print_func(const struct graph *g, uint32_t f, const char *fname, FILE *out)
{
	bool marked = false;
	const struct ct_tree *t = &g->tree;
	/* under[i]: node i has an ancestor named f (parents come first) */
	bool *under = xcalloc(t->len, sizeof(*under));
	uint32_t *outer = xmalloc(t->len * sizeof(*outer));
	size_t nouter = 0;
	for (size_t i = 1; i < t->len; i++) {
		uint32_t p = t->n[i].parent;
		under[i] = p && (under[p] || t->n[p].name == f);
		if (t->n[i].name == f && !under[i])
			outer[nouter++] = (uint32_t)i;
	}
	sort_g = g;
	sort_t = t;
	ct_qsort(outer, nouter, sizeof(*outer), cmp_nodes);

	fprintf(out, "# Backtraces of %s\n", ct_tx(fname));
	print_header(g, out, "BACKTRACE");
	uint32_t path[BT_OUTER + BT_INNER + 1]; /* a backtrace that is not cut */
	for (size_t k = 0; k < nouter; k++) {
		const struct ct_tnode *nd = &t->n[outer[k]];
		bool cut = nd->depth > BT_OUTER + BT_INNER + 1;
		size_t np = 0;
		for (uint32_t i = outer[k]; i && np < (cut ? BT_INNER : nd->depth);
		     i = t->n[i].parent)
			path[np++] = i;
		print_row(g, out, nd);
		if (cut) {
			/* the outermost frames, then the count of those left out */
			uint32_t top[BT_OUTER];
			size_t nt = 0;
			for (uint32_t i = nd->top; i && nt < BT_OUTER; i = t->n[i].parent)
				top[nt++] = i;
			while (nt-- > 0)
				fprintf(out, "%s > ", ct_tx(g->names.v[t->n[top[nt]].name]));
			fprintf(out, "[\u2026 %u frames] > ", nd->depth - BT_OUTER - BT_INNER);
		}
		while (np-- > 0)
			fprintf(out, "%s%s", ct_tx(g->names.v[t->n[path[np]].name]),
				np ? " > " : "");
		if (mostly_cost(g, nd)) {
			fputs(COST_MARK, out);
			marked = true;
		}
		putc('\n', out);
	}

	/* the callee tree: the subtrees of the outermost activations merged */
	struct ct_tree m;
	ct_tree_init(&m);
	uint32_t(*work)[2] = NULL;
	size_t nwork = 0, capwork = 0;
	for (size_t k = 0; k < nouter; k++) {
		uint32_t d = ct_tree_child(&m, 0, f);
		if (nwork == capwork) {
			capwork = capwork ? 2 * capwork : 64;
			work = xrealloc(work, capwork * sizeof(*work));
		}
		work[nwork][0] = outer[k];
		work[nwork++][1] = d;
		while (nwork) {
			uint32_t src = work[nwork - 1][0], dst = work[nwork - 1][1];
			nwork--;
			m.n[dst].calls += t->n[src].calls;
			m.n[dst].total += t->n[src].total;
			m.n[dst].rtotal += t->n[src].rtotal;
			m.n[dst].stotal += t->n[src].stotal;
			m.n[dst].sself += t->n[src].sself;
			m.n[dst].sself_n += t->n[src].sself_n;
			m.n[dst].offcpu += t->n[src].offcpu;
			m.n[dst].self += t->n[src].self;
			for (uint32_t c = t->n[src].first_child; c != NONE;
			     c = t->n[c].next_sibling) {
				if (nwork == capwork) {
					capwork = capwork ? 2 * capwork : 64;
					work = xrealloc(work, capwork * sizeof(*work));
				}
				work[nwork][0] = c;
				work[nwork++][1] = ct_tree_child(&m, dst, t->n[c].name);
			}
		}
	}
	fprintf(out, "\n# Call graph of %s\n", ct_tx(fname));
	print_header(g, out, "FUNCTION");
	marked |= print_tree(g, &m, out);
	free(work);
	ct_tree_free(&m);
	free(under);
	free(outer);
	return marked;
}

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	{"tid", CT_OPT_TID, "TID[,TID..]", "only these threads (default: all, aggregated)"},
	CT_OPT_RANGE,
	{"format", OPT_FORMAT, "text", "the output's format (the only one for now)"},
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_PAGER,
	{"output-fields", 'f', "FIELDS",
	 "the columns before the tree, in order: total, self,\n"
	 "call, addr (default total,self,call; +FIELDS adds\n"
	 "to it; none: no columns)"},
	CT_OPT_FLAG("srcline", struct graph, srcline,
		    "each function's file:line after its name, from its\n"
		    "DWARF declaration: '+-leaf [leaf.c:8]'"),
	CT_OPT_FLAG("no-time", struct graph, no_time,
		    "print calls only, children in the order of their\n"
		    "first call (stable output, for tests)"),
	CT_OPT_CALL_FILTERS("only calls at depth < N (counted as in replay)"),
	CT_OPT_RAWTIMES,
	{"diff", OPT_DIFF, "DIR",
	 "compare with the recording DIR (new) against -d's\n"
	 "(base): each call path's figures in both, matched\n"
	 "by the names on the path; [new] and [vanished] mark\n"
	 "paths of one recording only (the whole tree: no FUNC)"},
	CT_OPT_HELP,
	CT_OPT_END,
};

/* -f FIELD[,FIELD..]: "+FIELDS" adds to the usual total,self,call,
 * "none" shows none; -1 with err filled on an unknown name */
static int parse_fields(struct graph *g, const char *arg, struct ct_error *err)
{
	static const char *const names[] = {"total", "self", "call", "addr"};
	g->fields_set = true;
	g->nfields = 0;
	if (!strcmp(arg, "none"))
		return 0;
	if (*arg == '+') {
		for (int i = GF_TOTAL; i <= GF_CALL; i++)
			g->fields[g->nfields++] = (enum gfield)i;
		arg++;
	}
	for (const char *p = arg;;) {
		size_t len = strcspn(p, ",");
		size_t k;
		for (k = 0; k < 4; k++)
			if (strlen(names[k]) == len && !strncmp(p, names[k], len))
				break;
		if (k == 4) {
			ct_set_err(err,
				   "-f: want fields among total, self, call, addr (or none, "
				   "+FIELDS), not '%s'",
				   arg);
			return -1;
		}
		bool dup = false;
		for (size_t i = 0; i < g->nfields; i++)
			dup |= g->fields[i] == (enum gfield)k;
		if (!dup)
			g->fields[g->nfields++] = (enum gfield)k;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* the view's own options: --format, which has one value; --diff */
static int option(struct ct_view *v, int c, const char *arg, struct ct_error *err)
{
	static const char *const fmts[] = {"text"};
	if (c == 'f')
		return parse_fields(v->ctx, arg, err);
	if (c == OPT_DIFF) {
		((struct graph *)v->ctx)->diff = arg;
		return 0;
	}
	return ct_view_choice("--format", arg, fmts, 1, "text", err) < 0 ? -1 : 0;
}

/* ---- a recording of call counts (record --count) ---------------------------- */

/* the most nodes the tree of arcs is expanded to */
#define COUNT_NODES 100000

struct carc {
	uint32_t caller, callee; /* ids of g->cnt.names; caller n: none */
	uint64_t calls;
	uint64_t stotal, sself; /* record --sample: the arc's samples' ns */
};

static const struct graph *sort_cg;

static int cmp_carc(const void *pa, const void *pb)
{
	const struct carc *a = pa, *b = pb;
	if (a->caller != b->caller)
		return a->caller < b->caller ? -1 : 1;
	if (a->callee != b->callee)
		return a->callee < b->callee ? -1 : 1;
	return 0;
}

/* a caller's arcs: most calls first, then by name */
static int cmp_carc_out(const void *pa, const void *pb)
{
	const struct carc *a = pa, *b = pb;
	if (a->caller != b->caller)
		return a->caller < b->caller ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(sort_cg->cnt.names.v[a->callee], sort_cg->cnt.names.v[b->callee]);
}

/* The counts know arcs, not paths: the tree is the arcs expanded from the
 * outermost calls, each node with the calls of its arc (from every path
 * that reaches its caller), a function already on the path shown but not
 * expanded again (recursion).  The same as a full recording's tree where
 * each function is reached by one path. */
static int count_begin(struct graph *g, struct ct_view *v)
{
	/* no times to show: the calls alone, as --no-time (the header line
	 * says so); with record --sample the sampled times */
	g->counts = true;
	for (size_t i = 0; i < g->nfields && g->fields_set; i++)
		if (g->fields[i] == GF_TOTAL || g->fields[i] == GF_SELF)
			return ct_error("-f: %s holds call counts only (record --count): no "
					"times, only the call and addr fields",
					v->dir)
				       ? 1
				       : 1;
	if (ct_view_counts_load(v, &g->cnt))
		return 1;
	struct ct_counts *c = &g->cnt;
	g->count_sampled = c->sampled;
	g->no_time |= !c->sampled;
	uint32_t none = (uint32_t)c->names.n;
	struct carc *arcs = NULL;
	size_t n = 0, cap = 0;
	for (size_t k = 0; k < c->nthreads; k++)
		for (size_t i = 0; i < c->threads[k].narcs; i++) {
			const struct ct_count_arc *a = &c->threads[k].arcs[i];
			uint64_t per = c->threads[k].sample_ns;
			*CT_PUSH(arcs, n, cap) =
				(struct carc){a->caller == CT_COUNT_ROOT ? none : a->caller,
					      a->callee, a->calls, a->stotal * per, a->sself * per};
		}
	if (n)
		qsort(arcs, n, sizeof(*arcs), cmp_carc);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && !cmp_carc(&arcs[w - 1], &arcs[i])) {
			arcs[w - 1].calls += arcs[i].calls;
			arcs[w - 1].stotal += arcs[i].stotal;
			arcs[w - 1].sself += arcs[i].sself;
		} else {
			arcs[w++] = arcs[i];
		}
	}
	n = w;
	sort_cg = g;
	if (n)
		qsort(arcs, n, sizeof(*arcs), cmp_carc_out);
	size_t *start = xcalloc(none + 2, sizeof(*start));
	for (size_t i = 0; i < n; i++)
		start[arcs[i].caller + 1]++;
	for (size_t i = 0; i <= none; i++)
		start[i + 1] += start[i];
	/* depth-first from the root; fn[node]: its function (a cnt id) */
	uint32_t *fn = NULL, *todo = NULL;
	size_t nfn = 0, capfn = 0, ntodo = 0, captodo = 0;
	*CT_PUSH(fn, nfn, capfn) = none;
	*CT_PUSH(todo, ntodo, captodo) = 0;
	bool cut = false;
	while (ntodo) {
		uint32_t node = todo[--ntodo];
		uint32_t f = fn[node];
		size_t from = start[f], to = start[f + 1];
		uint32_t first_new = (uint32_t)g->tree.len;
		for (size_t i = from; i < to; i++) {
			if (g->tree.len >= COUNT_NODES) {
				cut = true;
				break;
			}
			uint32_t id = intern(g, c->names.v[arcs[i].callee], true);
			uint32_t child = ct_tree_child(&g->tree, node, id);
			g->tree.n[child].calls += arcs[i].calls;
			g->tree.n[child].total += arcs[i].stotal;
			g->tree.n[child].self += arcs[i].sself;
			while (nfn < g->tree.len)
				*CT_PUSH(fn, nfn, capfn) = arcs[i].callee;
		}
		/* the new children are expanded unless on their own path */
		for (uint32_t ch = (uint32_t)g->tree.len; ch-- > first_new;) {
			bool rec = false;
			for (uint32_t up = g->tree.n[ch].parent; up && !rec;
			     up = g->tree.n[up].parent)
				rec = fn[up] == fn[ch];
			if (!rec)
				*CT_PUSH(todo, ntodo, captodo) = ch;
		}
	}
	if (cut)
		ct_warn("the tree of arcs was cut at %d nodes", COUNT_NODES);
	ct_view_counts_lost(c);
	free(fn);
	free(todo);
	free(start);
	free(arcs);
	return 0;
}

static int begin(void *ctx, struct ct_view *v)
{
	struct graph *g = ctx;
	g->filt = &v->filt;
	g->s = v->s;
	if (v->counts)
		return count_begin(g, v);
	for (size_t i = 0; i < v->s->nprocs && !g->diff; i++)
		g->sampled |= v->s->procs[i]->sample_ns != 0;
	return 0;
}

/* --diff: what makes no sense with it (bad usage), and the other
 * recording there (exit 2 otherwise) */
static int diff_check(struct ct_view *v)
{
	struct graph *g = v->ctx;
	if (!g->diff)
		return 0;
	if (g->fields_set)
		return ct_usage_error("-f with --diff: the columns of --diff are fixed");
	if (v->arg)
		return ct_usage_error("--diff compares the whole tree: no FUNC ('%s')", v->arg);
	if (v->ntids)
		return ct_usage_error("--tid with --diff: the threads of two runs differ (report "
				      "--diff takes it)");
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, g->diff, &err) < 0) {
		ct_error("--diff: %s", err.msg);
		return 2;
	}
	ct_session_close(s);
	if (ct_counts_only(v->dir) || ct_counts_only(g->diff)) {
		ct_usage_error("--diff: %s holds call counts only (record --count): the tree of "
			       "arcs is not compared",
			       ct_counts_only(v->dir) ? v->dir : g->diff);
		return 2;
	}
	return 0;
}

/* --diff: the other recording read with the same options, its tree's
 * paths matched by name into this one; 0, or 1 after its error */
static int diff_read(struct graph *g, struct ct_view *v)
{
	struct graph *og = g->other = xcalloc(1, sizeof(*og));
	struct ct_view *ov = g->ov = xcalloc(1, sizeof(*ov));
	*ov = (struct ct_view){.head = head,
			       .tail = tail,
			       .opts = options,
			       .option = option,
			       .ctx = og,
			       .takes_arg = true,
			       .unfiltered = unfiltered};
	ct_names_init(&og->names);
	ct_tree_init(&og->tree);
	if (ct_view_parse(ov, g->argc, g->argv) >= 0)
		return 1; /* not reached: parsed before */
	ov->dir = g->diff;
	if (ct_view_open(ov))
		return 1;
	ov->progress.on = v->progress.on;
	og->filt = &ov->filt;
	int rc = ct_view_read(ov, read_thread, og);
	if (ct_view_finish(ov, rc, NULL, NULL))
		return 1;
	const struct graph o = *og; /* (read only from here) */
	size_t nbase = g->tree.len;
	uint32_t *map = xmalloc(o.tree.len * sizeof(*map));
	map[0] = 0;
	/* a node's parent comes before it */
	for (size_t i = 1; i < o.tree.len; i++)
		map[i] = ct_tree_child(&g->tree, map[o.tree.n[i].parent],
				       intern(g, o.names.v[o.tree.n[i].name], true));
	g->onodes = xcalloc(g->tree.len, sizeof(*g->onodes));
	g->inb = xcalloc(g->tree.len, sizeof(*g->inb));
	g->inn = xcalloc(g->tree.len, sizeof(*g->inn));
	for (size_t i = 0; i < nbase; i++)
		g->inb[i] = true;
	for (size_t i = 0; i < o.tree.len; i++) {
		g->onodes[map[i]] = o.tree.n[i];
		g->inn[map[i]] = true;
	}
	free(map);
	printf("# calltrace graph --diff\n#  [0] base: %s   (%s)\n", ct_tx(v->dir),
	       ct_tx(v->s->command ? v->s->command : "?"));
	printf("#  [1] new:  %s   (%s)\n#\n", ct_tx(ov->dir),
	       ct_tx(ov->s->command ? ov->s->command : "?"));
	return 0;
}

/* record --sample with the POSIX timer's clock: on how many takings the
 * Samples column stands (report's and callers' last line too) */
static void print_taken(const struct graph *g, const struct ct_view *v)
{
	uint64_t all = v->samples, over = v->samples_over;
	if (g->counts) {
		all = over = 0;
		for (size_t k = 0; k < g->cnt.nthreads; k++) {
			all += g->cnt.threads[k].samples;
			over += g->cnt.threads[k].samples_over;
		}
	}
	if (g->sampled || g->count_sampled)
		ct_view_print_taken(all, over, true, stdout);
}

static int end(void *ctx, struct ct_view *v, int rc)
{
	struct graph *g = ctx;
	if (rc < 0)
		return 0;
	if (g->diff && diff_read(g, v))
		return 1;
	g->sched = v->s->sched && !g->no_time && !g->onodes;
	if (g->count_sampled)
		fputs("# Call counts (record --count) and times sampled (--sample: samples x "
		      "period): the arcs from the outermost calls, each with its calls and "
		      "samples from every path\n",
		      stdout);
	else if (g->counts)
		fputs("# Call counts only (record --count), no times: the arcs from the "
		      "outermost calls, each with its calls from every path\n",
		      stdout);
	if (!v->arg) {
		fputs("# Function Call Graph\n", stdout);
		print_header(g, stdout, "FUNCTION");
		if (print_tree(g, &g->tree, stdout))
			fputs(cost_legend, stdout);
		print_taken(g, v);
		return 0;
	}
	struct ct_error e;
	int64_t f = ct_find_function(&g->names, v->arg, NULL, NULL, &e);
	if (f < 0 && v->filt.r_ranged && !v->filt.r_kept)
		return 1; /* no call in the -r range: ct_view_finish says so */
	if (f < 0)
		return ct_error("%s", e.msg);
	if (print_func(g, (uint32_t)f, g->names.v[f], stdout))
		fputs(cost_legend, stdout);
	print_taken(g, v);
	return 0;
}

static char outbuf[1 << 16];

int cmd_graph(int argc, char **argv)
{
	struct graph g = {0};
	/* clang-format off */
	struct ct_view v = {.head = head, .tail = tail, .opts = options, .option = option,
			    .ctx = &g, .takes_arg = true, .unfiltered = unfiltered,
			    .outbuf = outbuf, .outbuf_len = sizeof(outbuf),
			    .begin = begin, .read = read_thread, .end = end,
			    .counts_ok = true, .check = diff_check};
	/* clang-format on */

	g.argc = argc;
	g.argv = argv;
	ct_names_init(&g.names);
	ct_tree_init(&g.tree);
	int status = ct_view_run(&v, argc, argv);
	ct_tree_free(&g.tree);
	ct_names_free(&g.names);
	ct_counts_free(&g.cnt);
	if (g.ov) {
		ct_view_close(g.ov);
		ct_tree_free(&g.other->tree);
		ct_names_free(&g.other->names);
	}
	free(g.ov);
	free(g.other);
	free(g.onodes);
	free(g.addrs);
	free(g.srcp);
	free(g.inb);
	free(g.inn);
	return status;
}
