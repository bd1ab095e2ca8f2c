/* SPDX-License-Identifier: MIT */
/*
 * calltrace callers: the hierarchical profile (gprof's call graph): for each
 * function, its callers and its direct callees.
 *
 *   function  calls, total (inclusive, once per outermost activation, as in
 *             report) and self time (inclusive minus direct callees)
 *   caller    calls made from that caller, and the time spent in the
 *             function on behalf of that caller
 *   callee    calls made to that child, and the time spent in the child on
 *             behalf of this function
 *
 * An edge (caller, callee) counts every call made along it, recursive ones
 * included; its time counts only the outermost activation of that edge on a
 * thread, so that a recursive edge (f -> f, or f -> g -> f -> g) does not
 * count its nested time again.  Outermost calls have the caller "<root>".
 *
 * Functions and edges are keyed by name (hash maps), so memory is bounded
 * by distinct functions and pairs plus the stack depth.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
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

#define ROOT UINT32_MAX

enum { OPT_FORMAT = 256 };

static const char head[] =
	"usage: calltrace callers [options] [FUNC]\n"
	"\n"
	"Call graph profile (as gprof's): for each function (or only FUNC), its\n"
	"callers and its direct callees, with calls and time along each edge.\n"
	"\n"
	"options:\n";

static const char tail[] = "\n"
			   "In each block the callers come first (indented), then the function,\n"
			   "then its callees (indented).  Outermost calls have the caller <root>.\n"
			   "Edge time counts the outermost activation of the edge only: recursive\n"
			   "calls along the same edge add calls but no time.  Times have the\n"
			   "tracer's own cost, measured when recording, taken out (see\n"
			   "doc/overhead.md); --raw shows them as recorded.  -t compares the\n"
			   "recorded (raw) durations, as replay does.\n";

struct fstat {
	uint64_t calls, total, self;
	uint32_t active;
	/* record --sample: sampled total and self (ns), self's samples */
	uint64_t stotal, sself, sself_n;
};

struct edge {
	uint32_t caller, callee;
	uint64_t calls, time;
	uint32_t active;
	uint64_t stime; /* record --sample: its sampled time (ns) */
	/* --callsite: the call site (its id in sites + 1, 0: none), and the
	 * next edge of the same caller and callee from another (index + 1,
	 * 0: none) */
	uint32_t site, next;
};

struct frame {
	uint32_t id;
	uint32_t edge;
	uint64_t child;  /* inclusive time of direct callees */
	uint64_t schild; /* their samples */
};

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };
enum skey { K_TOTAL, K_SELF, K_CALLS, K_NAME };

struct callers {
	bool sorted; /* -s given */

	struct ct_names names; /* function names and their ids */
	struct fstat *stats;   /* per id */
	size_t capstats;

	struct edge *edges;
	size_t nedges, capedges;
	struct ct_u64map byedge; /* caller << 32 | callee -> index + 1 */

	struct frame *stack;
	size_t depth, capstack;

	enum fmt fmt;
	enum skey key;
	bool no_time;
	bool counts;                  /* a recording of call counts only: no times at all */
	bool sampled;                 /* record --sample: the sampled columns */
	bool count_sampled;           /* record --count --sample: the times are sampled */
	uint64_t samples, samples_ns; /* (count_sampled) all, for the note */
	uint64_t samples_over;        /* ... the periods beyond each taken's first */
	struct ct_counts cnt;         /* its counts */
	bool by_site;                 /* --callsite: an edge per call site */
	bool had_site;                /* some call had one (record --callsite) */
	struct ct_names sites;        /* call sites as text, "main.c:12" (lib/read/srcline.h) */
	struct ct_session *s;
};

static uint32_t intern(struct callers *c, const char *name)
{
	uint32_t id = ct_names_intern(&c->names, name);
	if (c->names.n > c->capstats) {
		c->stats = ct_grow_zeroed(c->stats, c->capstats, c->names.cap, sizeof(*c->stats));
		c->capstats = c->names.cap;
	}
	return id;
}

/* --callsite: the edge of edge e's caller and callee (just added: the
 * first of them) from the call site of ev (e, or one linked after it) */
static uint32_t site_edge(struct callers *c, uint32_t e, bool added, const struct ct_event *ev)
{
	uint32_t sid = 0;
	if (ev->site) {
		c->had_site = true;
		sid = ct_names_intern(&c->sites,
				      ct_srcline_site_or_addr(c->s, ev->thread->proc, ev->site)) +
		      1;
	}
	if (added) { /* the first of its caller and callee */
		c->edges[e].site = sid;
		return e;
	}
	while (c->edges[e].site != sid) {
		if (!c->edges[e].next) {
			struct edge n = {.caller = c->edges[e].caller,
					 .callee = c->edges[e].callee,
					 .site = sid};
			c->edges[e].next = (uint32_t)c->nedges + 1;
			*CT_PUSH(c->edges, c->nedges, c->capedges) = n;
			return (uint32_t)c->nedges - 1;
		}
		e = c->edges[e].next - 1;
	}
	return e;
}

static void account_enter(struct callers *c, struct ct_func *fn, const struct ct_event *ev)
{
	if (fn->user < 0)
		fn->user = intern(c, fn->name);
	uint32_t id = (uint32_t)fn->user;
	uint32_t caller = c->depth ? c->stack[c->depth - 1].id : ROOT;
	bool added; /* the edge from caller */
	uint32_t e = ct_u64map_index(&c->byedge, (uint64_t)caller << 32 | id, c->nedges, &added);
	if (added)
		*CT_PUSH(c->edges, c->nedges, c->capedges) =
			(struct edge){.caller = caller, .callee = id};
	if (c->by_site)
		e = site_edge(c, e, added, ev);
	*CT_PUSH(c->stack, c->depth, c->capstack) = (struct frame){.id = id, .edge = e, .child = 0};
	c->stats[id].active++;
	c->edges[e].active++;
}

static void account_exit(struct callers *c, const struct ct_event *ev)
{
	struct frame f = c->stack[--c->depth];
	uint64_t incl = ct_event_dur(ev);
	struct fstat *st = &c->stats[f.id];
	struct edge *e = &c->edges[f.edge];
	bool counted = ct_call_counted(ev);
	if (st->active)
		st->active--;
	if (e->active)
		e->active--;
	st->calls += counted;
	if (!st->active)
		st->total += incl;
	st->self += ct_call_self(incl, f.child);
	e->calls += counted;
	if (!e->active)
		e->time += incl;
	/* record --sample: the samples the same way */
	uint64_t per = ev->thread->proc->sample_ns, smp = ev->samples;
	uint64_t sself = smp - (f.schild < smp ? f.schild : smp);
	if (!st->active)
		st->stotal += smp * per;
	st->sself += sself * per;
	st->sself_n += sself;
	if (!e->active)
		e->stime += smp * per;
	if (c->depth) {
		c->stack[c->depth - 1].child += incl;
		c->stack[c->depth - 1].schild += smp;
	}
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct callers *c = ctx;
	if (fe->ev.kind == CT_ENTER)
		account_enter(c, fe->fn, &fe->ev);
	else if (c->depth)
		account_exit(c, &fe->ev);
}

static void thread_reset(struct callers *c)
{
	while (c->depth) {
		struct frame f = c->stack[--c->depth];
		if (c->stats[f.id].active)
			c->stats[f.id].active--;
		if (c->edges[f.edge].active)
			c->edges[f.edge].active--;
	}
}

static int read_thread(void *ctx, struct ct_view *v, struct ct_thread *t)
{
	struct callers *c = ctx;
	int rc = ct_view_read_thread(v, t, NULL, emit, c);
	thread_reset(c);
	return rc;
}

/* ---- output --------------------------------------------------------- */

static struct callers *sort_c;

static const char *name_of(const struct callers *c, uint32_t id)
{
	return id == ROOT ? "<root>" : c->names.v[id];
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

/* the figure sorted by (0 for all when by name) */
static uint64_t sort_value(enum skey key, uint64_t total, uint64_t self, uint64_t calls)
{
	return key == K_TOTAL ? total : key == K_SELF ? self : key == K_CALLS ? calls : 0;
}

static int cmp_funcs(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct callers *c = sort_c;
	const struct fstat *sa = &c->stats[ia], *sb = &c->stats[ib];
	int r = cmp_u64(sort_value(c->key, sa->total, sa->self, sa->calls),
			sort_value(c->key, sb->total, sb->self, sb->calls));
	return r ? r : strcmp(c->names.v[ia], c->names.v[ib]);
}

/* edges of a block: callers (other = caller) or callees (other = callee) */
static bool sort_by_caller;

static int cmp_edges(const void *a, const void *b)
{
	const struct callers *c = sort_c;
	const struct edge *ea = &c->edges[*(const uint32_t *)a];
	const struct edge *eb = &c->edges[*(const uint32_t *)b];
	uint32_t oa = sort_by_caller ? ea->caller : ea->callee;
	uint32_t ob = sort_by_caller ? eb->caller : eb->callee;
	/* an edge's time is both its total and its self */
	int r = cmp_u64(sort_value(c->key, ea->time, ea->time, ea->calls),
			sort_value(c->key, eb->time, eb->time, eb->calls));
	if (!r)
		r = strcmp(name_of(c, oa), name_of(c, ob));
	if (!r && ea->site != eb->site) /* --callsite */
		r = !ea->site   ? -1
		    : !eb->site ? 1
				: strcmp(c->sites.v[ea->site - 1], c->sites.v[eb->site - 1]);
	return r;
}

/* the other end of an edge as shown: with --callsite, "main [main.c:12]" */
static const char *other_name(const struct callers *c, const struct edge *e, uint32_t other,
			      char *buf, size_t len)
{
	if (!e->site)
		return name_of(c, other);
	snprintf(buf, len, "%s [%s]", name_of(c, other), c->sites.v[e->site - 1]);
	return buf;
}

static void text_edge(const struct callers *c, FILE *out, const struct edge *e, uint32_t other)
{
	char b[64], nb[4096];
	if (!c->no_time)
		fprintf(out, "  %s  %10s", ct_format_duration(e->time, b, sizeof(b)), "");
	fprintf(out, "  %10llu", (unsigned long long)e->calls);
	if (c->sampled && !c->no_time)
		fprintf(out, "  %s  %10s  %9s", ct_format_duration(e->stime, b, sizeof(b)), "", "");
	fprintf(out, "      %s\n", ct_tx(other_name(c, e, other, nb, sizeof(nb))));
}

static void print_edges(struct callers *c, FILE *out, const uint32_t *list, size_t n, bool callers,
			bool *first)
{
	for (size_t i = 0; i < n; i++) {
		const struct edge *e = &c->edges[list[i]];
		uint32_t other = callers ? e->caller : e->callee;
		char nb[4096];
		switch (c->fmt) {
		case FMT_TEXT:
			text_edge(c, out, e, other);
			break;
		case FMT_CSV:
			ct_csv_string(out, name_of(c, callers ? e->callee : e->caller));
			fputs(callers ? ",caller," : ",callee,", out);
			ct_csv_string(out, other_name(c, e, other, nb, sizeof(nb)));
			if (c->counts)
				fprintf(out, ",%llu\n", (unsigned long long)e->calls);
			else if (c->sampled)
				fprintf(out, ",%llu,%llu,%llu,,\n", (unsigned long long)e->calls,
					(unsigned long long)e->time, (unsigned long long)e->stime);
			else
				fprintf(out, ",%llu,%llu\n", (unsigned long long)e->calls,
					(unsigned long long)e->time);
			break;
		case FMT_JSON:
			fputs(*first ? "{\"name\":" : ",{\"name\":", out);
			*first = false;
			ct_json_string(out, name_of(c, other));
			if (e->site) { /* --callsite */
				fputs(",\"site\":", out);
				ct_json_string(out, c->sites.v[e->site - 1]);
			}
			if (c->counts)
				fprintf(out, ",\"calls\":%llu}", (unsigned long long)e->calls);
			else if (c->sampled)
				fprintf(out,
					",\"calls\":%llu,\"time_ns\":%llu,\"sampled_ns\":%llu}",
					(unsigned long long)e->calls, (unsigned long long)e->time,
					(unsigned long long)e->stime);
			else
				fprintf(out, ",\"calls\":%llu,\"time_ns\":%llu}",
					(unsigned long long)e->calls, (unsigned long long)e->time);
			break;
		}
	}
}

static void print_all(struct callers *c, FILE *out, int64_t only)
{
	uint32_t *funcs = xmalloc((c->names.n ? c->names.n : 1) * sizeof(*funcs));
	size_t nf = 0;
	for (size_t i = 0; i < c->names.n; i++)
		if ((c->stats[i].calls || c->stats[i].total) && (only < 0 || (int64_t)i == only))
			funcs[nf++] = (uint32_t)i;
	sort_c = c;
	ct_qsort(funcs, nf, sizeof(*funcs), cmp_funcs);

	/* edges grouped by callee (for the callers) and by caller (callees) */
	size_t ne = c->nedges;
	uint32_t *by_callee = xmalloc((ne ? ne : 1) * sizeof(uint32_t));
	uint32_t *by_caller = xmalloc((ne ? ne : 1) * sizeof(uint32_t));
	size_t *start_in = xcalloc(c->names.n + 1, sizeof(size_t));
	size_t *start_out = xcalloc(c->names.n + 2, sizeof(size_t));
	/* counting sort; ROOT goes to slot nnames of start_out */
	for (size_t i = 0; i < ne; i++) {
		start_in[c->edges[i].callee + 1]++;
		uint32_t k = c->edges[i].caller == ROOT ? (uint32_t)c->names.n : c->edges[i].caller;
		start_out[k + 1]++;
	}
	for (size_t i = 0; i < c->names.n; i++)
		start_in[i + 1] += start_in[i];
	for (size_t i = 0; i <= c->names.n; i++)
		start_out[i + 1] += start_out[i];
	size_t *fill_in = xmalloc((c->names.n + 1) * sizeof(size_t));
	size_t *fill_out = xmalloc((c->names.n + 2) * sizeof(size_t));
	memcpy(fill_in, start_in, (c->names.n + 1) * sizeof(size_t));
	memcpy(fill_out, start_out, (c->names.n + 2) * sizeof(size_t));
	for (size_t i = 0; i < ne; i++) {
		by_callee[fill_in[c->edges[i].callee]++] = (uint32_t)i;
		uint32_t k = c->edges[i].caller == ROOT ? (uint32_t)c->names.n : c->edges[i].caller;
		by_caller[fill_out[k]++] = (uint32_t)i;
	}

	if (c->fmt == FMT_TEXT) {
		if (c->no_time)
			fputs("       Calls  Function\n"
			      "  ==========  ====================\n",
			      out);
		else if (c->sampled)
			fputs("  Total time   Self time       Calls   Smp total    Smp self    "
			      "Samples  Function\n"
			      "  ==========  ==========  ==========  ==========  ==========  "
			      "=========  ====================\n",
			      out);
		else
			fputs("  Total time   Self time       Calls  Function\n"
			      "  ==========  ==========  ==========  ====================\n",
			      out);
	} else if (c->fmt == FMT_CSV) {
		fputs(c->counts    ? "function,relation,other,calls\n"
		      : c->sampled ? "function,relation,other,calls,time_ns,sampled_ns,"
				     "sampled_self_ns,samples_self\n"
				   : "function,relation,other,calls,time_ns\n",
		      out);
	} else {
		fputs(c->counts ? "{\"counts_only\":true,\"functions\":[" : "{\"functions\":[",
		      out);
	}
	for (size_t i = 0; i < nf; i++) {
		uint32_t id = funcs[i];
		const struct fstat *st = &c->stats[id];
		uint32_t *in = by_callee + start_in[id];
		size_t nin = start_in[id + 1] - start_in[id];
		uint32_t *outl = by_caller + start_out[id];
		size_t nout = start_out[id + 1] - start_out[id];
		sort_by_caller = true;
		ct_qsort(in, nin, sizeof(*in), cmp_edges);
		sort_by_caller = false;
		ct_qsort(outl, nout, sizeof(*outl), cmp_edges);
		bool first = true;
		char b[2][64];
		switch (c->fmt) {
		case FMT_TEXT:
			if (i)
				fputs(c->no_time ? "  ----------------------------------\n"
						 : "  ------------------------------------------"
						   "----------------------\n",
				      out);
			print_edges(c, out, in, nin, true, &first);
			if (!c->no_time)
				fprintf(out, "  %s  %s",
					ct_format_duration(st->total, b[0], sizeof(b[0])),
					ct_format_duration(st->self, b[1], sizeof(b[1])));
			fprintf(out, "  %10llu", (unsigned long long)st->calls);
			if (c->sampled && !c->no_time)
				fprintf(out, "  %s  %s  %9llu",
					ct_format_duration(st->stotal, b[0], sizeof(b[0])),
					ct_format_duration(st->sself, b[1], sizeof(b[1])),
					(unsigned long long)st->sself_n);
			fprintf(out, "  %s\n", ct_tx(c->names.v[id]));
			print_edges(c, out, outl, nout, false, &first);
			break;
		case FMT_CSV:
			print_edges(c, out, in, nin, true, &first);
			ct_csv_string(out, c->names.v[id]);
			if (c->counts)
				fprintf(out, ",self,,%llu\n", (unsigned long long)st->calls);
			else if (c->sampled)
				fprintf(out, ",self,,%llu,%llu,%llu,%llu,%llu\n",
					(unsigned long long)st->calls,
					(unsigned long long)st->total,
					(unsigned long long)st->stotal,
					(unsigned long long)st->sself,
					(unsigned long long)st->sself_n);
			else
				fprintf(out, ",self,,%llu,%llu\n", (unsigned long long)st->calls,
					(unsigned long long)st->total);
			print_edges(c, out, outl, nout, false, &first);
			break;
		case FMT_JSON:
			fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
			ct_json_string(out, c->names.v[id]);
			if (c->counts)
				fprintf(out, ",\"calls\":%llu,\"callers\":[",
					(unsigned long long)st->calls);
			else
				fprintf(out, ",\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu,",
					(unsigned long long)st->calls,
					(unsigned long long)st->total,
					(unsigned long long)st->self);
			if (c->sampled)
				fprintf(out,
					"\"sampled_total_ns\":%llu,\"sampled_self_ns\":%llu,"
					"\"samples_self\":%llu,",
					(unsigned long long)st->stotal,
					(unsigned long long)st->sself,
					(unsigned long long)st->sself_n);
			if (!c->counts)
				fputs("\"callers\":[", out);
			print_edges(c, out, in, nin, true, &first);
			fputs("],\"callees\":[", out);
			first = true;
			print_edges(c, out, outl, nout, false, &first);
			fputs("]}", out);
			break;
		}
	}
	if (c->fmt == FMT_JSON)
		fprintf(out, "]%s}\n", c->count_sampled ? ",\"times\":\"sampled\"" : "");
	else if (c->fmt == FMT_TEXT && c->count_sampled) {
		char b[64];
		ct_format_duration(c->samples_ns, b, sizeof(b));
		fprintf(out,
			"\n# times sampled (record --count --sample): samples x period, the calls "
			"exact; %llu samples, %s of the threads' CPU time\n",
			(unsigned long long)c->samples, b + strspn(b, " "));
		ct_view_print_taken(c->samples, c->samples_over, false, out);
	}
	free(funcs);
	free(by_callee);
	free(by_caller);
	free(start_in);
	free(start_out);
	free(fill_in);
	free(fill_out);
}

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	{"sort", 's', "KEY",
	 "total (default), self, calls (descending) or name\n"
	 "(ascending); with --no-time the default is calls"},
	CT_OPT_TIDS,
	CT_OPT_CALL_FILTERS("only calls at depth < N"),
	CT_OPT_RANGE,
	{"format", OPT_FORMAT, "text|csv|json", "the output's format (default text)"},
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_PAGER,
	CT_OPT_FLAG("no-time", struct callers, no_time, "no time columns (text only)"),
	CT_OPT_FLAG("callsite", struct callers, by_site,
		    "a row per call site of each caller and callee,\n"
		    "'main [main.c:12]' (record --callsite)"),
	CT_OPT_RAWTIMES,
	CT_OPT_HELP,
	CT_OPT_END,
};

/* the view's own options */
static int option(struct ct_view *v, int o, const char *arg, struct ct_error *err)
{
	struct callers *c = v->ctx;
	static const char *const keys[] =
		{[K_TOTAL] = "total", [K_SELF] = "self", [K_CALLS] = "calls", [K_NAME] = "name"};
	static const char *const fmts[] = {"text", "csv", "json"};
	int i;

	switch (o) {
	case 's':
		c->sorted = true;
		i = ct_view_choice("-s", arg, keys, 4, "total, self, calls or name", err);
		if (i >= 0)
			c->key = (enum skey)i;
		return i < 0 ? -1 : 0;
	case OPT_FORMAT:
		i = ct_view_choice("--format", arg, fmts, 3, "text, csv or json", err);
		if (i >= 0)
			c->fmt = (enum fmt)i;
		return i < 0 ? -1 : 0;
	}
	return -1; /* not reached: getopt gives the table's options only */
}

/* a recording of call counts (record --count): its arcs are the edges */
static int count_begin(struct callers *c, struct ct_view *v)
{
	if (ct_view_counts_load(v, &c->cnt))
		return 1;
	/* record --count --sample: the times are the samples' */
	c->count_sampled = c->cnt.sampled;
	if (c->sorted && (c->key == K_TOTAL || c->key == K_SELF) && !c->count_sampled)
		return ct_error("-s: %s holds call counts only (record --count): sort by calls "
				"or name",
				v->dir)
			       ? 2
			       : 2;
	c->counts = !c->count_sampled;
	c->no_time |= !c->count_sampled;
	if (!c->sorted && c->no_time)
		c->key = K_CALLS;
	for (size_t k = 0; k < c->cnt.nthreads; k++) {
		const struct ct_count_thread *ct = &c->cnt.threads[k];
		uint64_t per = ct->sample_ns;
		c->samples += ct->samples;
		c->samples_over += ct->samples_over;
		c->samples_ns += ct->samples * per;
		for (size_t i = 0; i < ct->nfsmp; i++) {
			uint32_t id = intern(c, c->cnt.names.v[ct->fsmp[i].fn]);
			c->stats[id].total += ct->fsmp[i].stotal * per;
		}
		for (size_t i = 0; i < ct->narcs; i++) {
			const struct ct_count_arc *a = &ct->arcs[i];
			uint32_t callee = intern(c, c->cnt.names.v[a->callee]);
			uint32_t caller = a->caller == CT_COUNT_ROOT
						  ? ROOT
						  : intern(c, c->cnt.names.v[a->caller]);
			bool added;
			uint32_t e = ct_u64map_index(&c->byedge, (uint64_t)caller << 32 | callee,
						     c->nedges, &added);
			if (added)
				*CT_PUSH(c->edges, c->nedges, c->capedges) =
					(struct edge){.caller = caller, .callee = callee};
			c->edges[e].calls += a->calls;
			c->edges[e].time += a->stotal * per;
			c->stats[callee].calls += a->calls;
			c->stats[callee].self += a->sself * per;
		}
	}
	ct_view_counts_lost(&c->cnt);
	return 0;
}

static int begin(void *ctx, struct ct_view *v)
{
	struct callers *c = ctx;
	if (v->counts)
		return count_begin(c, v);
	if (c->no_time && !c->sorted)
		c->key = K_CALLS;
	c->s = v->s;
	for (size_t i = 0; i < v->s->nprocs; i++)
		c->sampled |= v->s->procs[i]->sample_ns != 0;
	return 0;
}

/* a function that was called (ct_find_function's filter) */
static bool called(void *ctx, uint32_t id)
{
	const struct callers *c = ctx;
	return c->stats[id].calls != 0;
}

/* all functions, or the one asked for */
static int end(void *ctx, struct ct_view *v, int rc)
{
	struct callers *c = ctx;
	int64_t id = -1;
	if (rc < 0)
		return 0;
	if (v->arg) {
		struct ct_error e;
		id = ct_find_function(&c->names, v->arg, called, c, &e);
		if (id < 0 && v->filt.r_ranged && !v->filt.r_kept)
			return 1; /* no call in the -r range: ct_view_finish says so */
		if (id < 0)
			return ct_error("%s", e.msg);
	}
	if (c->by_site && !c->had_site)
		ct_warn(c->counts ? "--callsite: %s holds call counts only (record --count): no "
				    "call sites"
				  : "--callsite: %s has no call sites (record it with record "
				    "--callsite)",
			v->dir);
	print_all(c, stdout, id);
	if (c->fmt == FMT_TEXT && c->sampled && !c->counts)
		ct_view_print_taken(v->samples, v->samples_over, true, stdout);
	return 0;
}

static char outbuf[1 << 16];

int cmd_callers(int argc, char **argv)
{
	struct callers c = {.fmt = FMT_TEXT, .key = K_TOTAL};
	/* clang-format off */
	struct ct_view v = {.head = head, .tail = tail, .opts = options, .option = option,
			    .ctx = &c, .takes_arg = true, .outbuf = outbuf,
			    .outbuf_len = sizeof(outbuf), .begin = begin,
			    .read = read_thread, .end = end, .counts_ok = true};
	/* clang-format on */

	ct_names_init(&c.names);
	ct_names_init(&c.sites);
	ct_u64map_init(&c.byedge);
	int status = ct_view_run(&v, argc, argv);
	free(c.stats);
	free(c.edges);
	free(c.stack);
	ct_names_free(&c.names);
	ct_names_free(&c.sites);
	ct_u64map_free(&c.byedge);
	ct_counts_free(&c.cnt);
	return status;
}
