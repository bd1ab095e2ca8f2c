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
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "filter.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "progress.h"
#include "session.h"
#include "util.h"

#define CMD "callers"
#define ROOT UINT32_MAX

enum {
	OPT_TID = 256,
	OPT_NO_DEMANGLE,
	OPT_FORMAT,
	OPT_NO_TIME,
	OPT_RAW,
};

static const struct option long_options[] = {
	{"data", required_argument, NULL, 'd'},
	{"sort", required_argument, NULL, 's'},
	{"tid", required_argument, NULL, OPT_TID},
	{"filter", required_argument, NULL, 'F'},
	{"notrace", required_argument, NULL, 'N'},
	{"depth", required_argument, NULL, 'D'},
	{"time-filter", required_argument, NULL, 't'},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"no-demangle", no_argument, NULL, OPT_NO_DEMANGLE},
	{"no-time", no_argument, NULL, OPT_NO_TIME},
	{"raw", no_argument, NULL, OPT_RAW},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: calltrace callers [options] [FUNC]\n"
		"\n"
		"Call graph profile (as gprof's): for each function (or only FUNC), its\n"
		"callers and its direct callees, with calls and time along each edge.\n"
		"\n"
		"options:\n"
		"  -d, --data DIR        the recording (default calltrace.data)\n"
		"  -s, --sort KEY        total (default), self, calls (descending) or name\n"
		"                        (ascending); with --no-time the default is calls\n"
		"      --tid TID[,TID..] only these threads\n"
		"  -F, --filter REGEX    only functions matching REGEX and what they call\n"
		"  -N, --notrace REGEX   leave out functions matching REGEX and what they call\n"
		"  -D, --depth N         only calls at depth < N\n"
		"  -t, --time-filter TIME  leave out calls shorter than TIME (e.g. 10us)\n"
		"      --format FMT      text (default), csv or json\n"
		"      --no-demangle     show C++ names as in the binary\n"
		"      --no-time         no time columns (text only)\n"
		"      --raw             times as recorded, the tracer's own cost included\n"
		"  -h, --help            this help\n"
		"\n"
		"In each block the callers come first (indented), then the function,\n"
		"then its callees (indented).  Outermost calls have the caller <root>.\n"
		"Edge time counts the outermost activation of the edge only: recursive\n"
		"calls along the same edge add calls but no time.  Times have the\n"
		"tracer's own cost, measured when recording, taken out (see\n"
		"doc/overhead.md); --raw shows them as recorded.  -t compares the\n"
		"recorded (raw) durations, as replay does.\n");
}

struct fstat {
	uint64_t calls, total, self;
	uint32_t active;
};

struct edge {
	uint32_t caller, callee;
	uint64_t calls, time;
	uint32_t active;
};

struct frame {
	uint32_t id;
	uint32_t edge;
	int64_t child; /* inclusive (net) time of direct callees */
};

enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };
enum skey { K_TOTAL, K_SELF, K_CALLS, K_NAME };

struct callers {
	struct ct_session *s;
	struct ct_progress progress;
	struct ct_filter *filt;
	struct ct_overhead ovh; /* of the thread being read; zero with --raw */
	bool raw;

	struct ct_names names;  /* function names and their ids */
	struct fstat *stats;    /* per id */
	size_t capstats;

	struct edge *edges;
	size_t nedges, capedges;
	struct ct_u64map byedge; /* caller << 32 | callee -> index + 1 */

	struct frame *stack;
	size_t depth, capstack;

	enum fmt fmt;
	enum skey key;
	bool no_time;
};

static uint32_t intern(struct callers *c, const char *name)
{
	uint32_t id = ct_names_intern(&c->names, name);
	if (c->names.n > c->capstats) {
		size_t old = c->capstats;
		c->capstats = c->names.cap;
		c->stats = xrealloc(c->stats, c->capstats * sizeof(*c->stats));
		memset(c->stats + old, 0, (c->capstats - old) * sizeof(*c->stats));
	}
	return id;
}

static uint32_t edge_of(struct callers *c, uint32_t caller, uint32_t callee)
{
	void **slot = ct_u64map_slot(&c->byedge, (uint64_t)caller << 32 | callee);
	if (*slot)
		return (uint32_t)((uintptr_t)*slot - 1);
	if (c->nedges == c->capedges) {
		c->capedges = c->capedges ? 2 * c->capedges : 256;
		c->edges = xrealloc(c->edges, c->capedges * sizeof(*c->edges));
	}
	uint32_t e = (uint32_t)c->nedges++;
	c->edges[e] = (struct edge){.caller = caller, .callee = callee};
	*slot = (void *)(uintptr_t)(e + 1);
	return e;
}

static void account_enter(struct callers *c, struct ct_func *fn)
{
	if (fn->user < 0)
		fn->user = intern(c, fn->name);
	uint32_t id = (uint32_t)fn->user;
	uint32_t caller = c->depth ? c->stack[c->depth - 1].id : ROOT;
	uint32_t e = edge_of(c, caller, id);
	if (c->depth == c->capstack) {
		c->capstack = c->capstack ? 2 * c->capstack : 256;
		c->stack = xrealloc(c->stack, c->capstack * sizeof(*c->stack));
	}
	c->stack[c->depth++] = (struct frame){.id = id, .edge = e, .child = 0};
	c->stats[id].active++;
	c->edges[e].active++;
}

static void account_exit(struct callers *c, const struct ct_event *ev)
{
	struct frame f = c->stack[--c->depth];
	/* sums of net times, unclamped (see overhead.h): uint64_t wraps */
	int64_t net = ct_overhead_net(&c->ovh, ev);
	struct fstat *st = &c->stats[f.id];
	struct edge *e = &c->edges[f.edge];
	if (st->active)
		st->active--;
	if (e->active)
		e->active--;
	st->calls++;
	if (!st->active)
		st->total += (uint64_t)net;
	st->self += (uint64_t)ct_wrap_sub(net, f.child > 0 ? f.child : 0);
	e->calls++;
	if (!e->active)
		e->time += (uint64_t)net;
	if (c->depth)
		c->stack[c->depth - 1].child = ct_wrap_add(c->stack[c->depth - 1].child, net);
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct callers *c = ctx;
	if (fe->ev.kind == CT_ENTER)
		account_enter(c, fe->fn);
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

static int read_thread(struct callers *c, struct ct_thread *t, struct ct_error *err)
{
	struct ct_stream *st;
	if (ct_stream_open(c->s, t, &st, err) < 0)
		return -1;
	struct ct_filter_thread ft;
	ct_filter_thread_init(&ft);
	if (!c->raw)
		ct_overhead_of(c->s, t->proc, &c->ovh);
	struct ct_event evs[256];
	int rc;
	while ((rc = ct_stream_read(st, evs, 256, err)) > 0) {
		ct_progress_update(&c->progress, c->s->bytes_read);
		for (int i = 0; i < rc; i++)
			ct_filter_push(c->filt, &ft, &evs[i], emit, c);
	}
	ct_stream_close(st);
	ct_filter_thread_end(c->filt, &ft, emit, c);
	ct_filter_thread_free(&ft);
	thread_reset(c);
	return rc < 0 ? -1 : 0;
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

static int cmp_funcs(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct callers *c = sort_c;
	const struct fstat *sa = &c->stats[ia], *sb = &c->stats[ib];
	int r = 0;
	switch (c->key) {
	case K_TOTAL:
		r = cmp_u64(sa->total, sb->total);
		break;
	case K_SELF:
		r = cmp_u64(sa->self, sb->self);
		break;
	case K_CALLS:
		r = cmp_u64(sa->calls, sb->calls);
		break;
	case K_NAME:
		break;
	}
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
	int r = 0;
	switch (c->key) {
	case K_TOTAL:
	case K_SELF:
		r = cmp_u64(ea->time, eb->time);
		break;
	case K_CALLS:
		r = cmp_u64(ea->calls, eb->calls);
		break;
	case K_NAME:
		break;
	}
	return r ? r : strcmp(name_of(c, oa), name_of(c, ob));
}

static void text_edge(const struct callers *c, FILE *out, const struct edge *e, uint32_t other)
{
	char b[64];
	if (!c->no_time)
		fprintf(out, "  %s  %10s", ct_format_duration(e->time, b, sizeof(b)), "");
	fprintf(out, "  %10llu      %s\n", (unsigned long long)e->calls, ct_tx(name_of(c, other)));
}

static void print_edges(struct callers *c, FILE *out, const uint32_t *list, size_t n,
			bool callers, bool *first)
{
	for (size_t i = 0; i < n; i++) {
		const struct edge *e = &c->edges[list[i]];
		uint32_t other = callers ? e->caller : e->callee;
		switch (c->fmt) {
		case FMT_TEXT:
			text_edge(c, out, e, other);
			break;
		case FMT_CSV:
			ct_csv_string(out, name_of(c, callers ? e->callee : e->caller));
			fputs(callers ? ",caller," : ",callee,", out);
			ct_csv_string(out, name_of(c, other));
			fprintf(out, ",%llu,%llu\n", (unsigned long long)e->calls,
				(unsigned long long)e->time);
			break;
		case FMT_JSON:
			fputs(*first ? "{\"name\":" : ",{\"name\":", out);
			*first = false;
			ct_json_string(out, name_of(c, other));
			fprintf(out, ",\"calls\":%llu,\"time_ns\":%llu}",
				(unsigned long long)e->calls, (unsigned long long)e->time);
			break;
		}
	}
}

static void print_all(struct callers *c, FILE *out, int64_t only)
{
	for (size_t i = 0; i < c->names.n; i++) {
		ct_clamp_sum(&c->stats[i].total);
		ct_clamp_sum(&c->stats[i].self);
	}
	for (size_t i = 0; i < c->nedges; i++)
		ct_clamp_sum(&c->edges[i].time);
	uint32_t *funcs = xmalloc((c->names.n ? c->names.n : 1) * sizeof(*funcs));
	size_t nf = 0;
	for (size_t i = 0; i < c->names.n; i++)
		if (c->stats[i].calls && (only < 0 || (int64_t)i == only))
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
		else
			fputs("  Total time   Self time       Calls  Function\n"
			      "  ==========  ==========  ==========  ====================\n",
			      out);
	} else if (c->fmt == FMT_CSV) {
		fputs("function,relation,other,calls,time_ns\n", out);
	} else {
		fputs("{\"functions\":[", out);
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
			fprintf(out, "  %10llu  %s\n", (unsigned long long)st->calls,
				ct_tx(c->names.v[id]));
			print_edges(c, out, outl, nout, false, &first);
			break;
		case FMT_CSV:
			print_edges(c, out, in, nin, true, &first);
			ct_csv_string(out, c->names.v[id]);
			fprintf(out, ",self,,%llu,%llu\n", (unsigned long long)st->calls,
				(unsigned long long)st->total);
			print_edges(c, out, outl, nout, false, &first);
			break;
		case FMT_JSON:
			fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
			ct_json_string(out, c->names.v[id]);
			fprintf(out, ",\"calls\":%llu,\"total_ns\":%llu,\"self_ns\":%llu,\"callers\":[",
				(unsigned long long)st->calls, (unsigned long long)st->total,
				(unsigned long long)st->self);
			print_edges(c, out, in, nin, true, &first);
			fputs("],\"callees\":[", out);
			first = true;
			print_edges(c, out, outl, nout, false, &first);
			fputs("]}", out);
			break;
		}
	}
	if (c->fmt == FMT_JSON)
		fputs("]}\n", out);
	free(funcs);
	free(by_callee);
	free(by_caller);
	free(start_in);
	free(start_out);
	free(fill_in);
	free(fill_out);
}

static char outbuf[1 << 16];

int cmd_callers(int argc, char **argv)
{
	const char *dir = "calltrace.data";
	const char *only = NULL;
	bool demangle = true, sorted = false;
	int *tids = NULL;
	size_t ntids = 0;
	struct ct_filter filt;
	struct callers c = {.fmt = FMT_TEXT, .key = K_TOTAL};
	int status = 2, o;

	ct_filter_init(&filt, NULL);
	ct_names_init(&c.names);
	ct_u64map_init(&c.byedge);
	optind = 1;
	opterr = 0;
	while ((o = getopt_long(argc, argv, ":d:s:F:N:D:t:h", long_options, NULL)) != -1) {
		switch (o) {
		case 'd':
			dir = optarg;
			break;
		case 's':
			sorted = true;
			if (!strcmp(optarg, "total"))
				c.key = K_TOTAL;
			else if (!strcmp(optarg, "self"))
				c.key = K_SELF;
			else if (!strcmp(optarg, "calls"))
				c.key = K_CALLS;
			else if (!strcmp(optarg, "name"))
				c.key = K_NAME;
			else {
				ct_error(
					"-s: want total, self, calls or name, "
					"not '%s'",
					optarg);
				goto usage_err;
			}
			break;
		case OPT_TID:
			if (ct_parse_tid_list(optarg, &tids, &ntids) < 0) {
				ct_error("--tid: bad thread list '%s'",
					optarg);
				goto usage_err;
			}
			break;
		case 'F':
		case 'N':
		case 'D':
		case 't':
			if (ct_filter_option(&filt, o, optarg) < 0)
				goto usage_err;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "text"))
				c.fmt = FMT_TEXT;
			else if (!strcmp(optarg, "csv"))
				c.fmt = FMT_CSV;
			else if (!strcmp(optarg, "json"))
				c.fmt = FMT_JSON;
			else {
				ct_error(
					"--format: want text, csv or json, "
					"not '%s'",
					optarg);
				goto usage_err;
			}
			break;
		case OPT_NO_DEMANGLE:
			demangle = false;
			break;
		case OPT_NO_TIME:
			c.no_time = true;
			break;
		case OPT_RAW:
			c.raw = true;
			break;
		case 'h':
			usage(stdout);
			status = 0;
			goto out;
		case ':':
			ct_error("option '%s' needs an argument",
				argv[optind - 1]);
			goto usage_err;
		default:
			ct_error("unknown option '%s'",
				argv[optind - 1]);
			goto usage_err;
		}
	}
	if (optind < argc)
		only = argv[optind++];
	if (optind < argc) {
		ct_error("unexpected argument '%s'", argv[optind]);
		goto usage_err;
	}
	if (c.no_time && !sorted)
		c.key = K_CALLS;

	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));

	struct ct_error err = {{0}};
	struct ct_session *s;
	if (ct_session_open(&s, dir, &err) < 0) {
		ct_error("%s", err.msg);
		status = 1;
		goto out;
	}
	s->demangle = demangle;
	filt.s = s;
	c.s = s;
	c.filt = &filt;
	bool *want = ct_select_threads(s, tids, ntids);

	int rc = 0;
	ct_progress_start(&c.progress, "calltrace callers", s->ev_bytes);
	for (size_t i = 0; i < s->nthreads && rc == 0; i++) {
		struct ct_thread *t = s->threads[i];
		if (want && !want[t->index])
			continue;
		rc = read_thread(&c, t, &err);
		ct_progress_end(&c.progress);
	}
	status = 0;
	if (rc == 0) {
		int64_t id = -1;
		if (only) {
			id = ct_names_find(&c.names, only);
			if (id < 0 || !c.stats[id].calls) {
				ct_error("no calls of '%s' in the trace",
					only);
				status = 1;
			}
		}
		if (status == 0)
			print_all(&c, stdout, id);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ct_error("writing the output: %s", strerror(errno));
		status = 1;
	}
	if (ct_view_end(s, rc, &err))
		status = 1;
	free(want);
	ct_filter_free(&filt);
	ct_session_close(s);
	goto done;

usage_err:
	usage(stderr);
	status = 2;
out:
	ct_filter_free(&filt);
done:
	free(tids);
	free(c.stats);
	free(c.edges);
	free(c.stack);
	ct_names_free(&c.names);
	ct_u64map_free(&c.byedge);
	return status;
}
