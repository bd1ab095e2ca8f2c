/* SPDX-License-Identifier: MIT */
/*
 * calltrace export of call counts (record --count; see export_counts.h).
 * Counts know arcs, not call paths, so:
 *
 *   folded     one line per arc: "caller;callee CALLS", and "callee CALLS"
 *              for the calls with no traced caller (flamegraph.pl draws
 *              each function's callees above it, one level deep)
 *   callgrind  events: Calls.  Each function's own cost is its calls; each
 *              call edge has its calls, and as its inclusive cost the same
 *              number (the callee's calls along that arc)
 *
 * Functions are merged by name over the threads selected, as the other
 * exports do.
 */
#include <stdlib.h>
#include <string.h>

#include "builtin/export_counts.h"
#include "counts.h"
#include "message.h"
#include "util.h"
#include "view.h"

struct earc {
	uint32_t caller, callee; /* names ids; caller CT_COUNT_ROOT: none */
	uint64_t calls;
	uint64_t sself; /* record --sample: self samples along the arc */
};

static const struct ct_counts *sort_c;

static int cmp_name(uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	if (a == CT_COUNT_ROOT || b == CT_COUNT_ROOT)
		return a == CT_COUNT_ROOT ? -1 : 1;
	return strcmp(sort_c->names.v[a], sort_c->names.v[b]);
}

/* by caller, then callee (names) */
static int cmp_earc(const void *pa, const void *pb)
{
	const struct earc *a = pa, *b = pb;
	int r = cmp_name(a->caller, b->caller);
	return r ? r : cmp_name(a->callee, b->callee);
}

static int cmp_id(const void *a, const void *b)
{
	return cmp_name(*(const uint32_t *)a, *(const uint32_t *)b);
}

/* a name for callgrind: one line */
static void cg_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

int ct_export_counts(struct ct_view *v, FILE *out, bool callgrind, bool samples)
{
	struct ct_counts c;
	if (ct_view_counts_load(v, &c)) {
		ct_counts_free(&c);
		return 1;
	}
	struct earc *arcs = NULL;
	size_t n = 0, cap = 0;
	for (size_t k = 0; k < c.nthreads; k++)
		for (size_t i = 0; i < c.threads[k].narcs; i++) {
			const struct ct_count_arc *a = &c.threads[k].arcs[i];
			*CT_PUSH(arcs, n, cap) =
				(struct earc){a->caller, a->callee, a->calls, a->sself};
		}
	sort_c = &c;
	if (n)
		qsort(arcs, n, sizeof(*arcs), cmp_earc);
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		if (w && !cmp_earc(&arcs[w - 1], &arcs[i])) {
			arcs[w - 1].calls += arcs[i].calls;
			arcs[w - 1].sself += arcs[i].sself;
		} else
			arcs[w++] = arcs[i];
	}
	n = w;
	if (!callgrind) {
		for (size_t i = 0; i < n; i++) {
			uint64_t val = samples ? arcs[i].sself : arcs[i].calls;
			if (!val)
				continue;
			if (arcs[i].caller != CT_COUNT_ROOT)
				fprintf(out, "%s;", c.names.v[arcs[i].caller]);
			fprintf(out, "%s %llu\n", c.names.v[arcs[i].callee],
				(unsigned long long)val);
		}
	} else {
		uint64_t *calls = xcalloc(c.names.n ? c.names.n : 1, sizeof(*calls));
		for (size_t i = 0; i < n; i++)
			calls[arcs[i].callee] += arcs[i].calls;
		uint64_t total = 0;
		for (size_t i = 0; i < c.names.n; i++)
			total += calls[i];
		fprintf(out,
			"# callgrind format\nversion: 1\ncreator: calltrace (record --count)\n"
			"positions: line\nevents: Calls\nsummary: %llu\n",
			(unsigned long long)total);
		/* functions in name order, each with its arcs out (arcs are
		 * sorted by caller name: the functions without callees come
		 * between them) */
		uint32_t *ids = xmalloc((c.names.n ? c.names.n : 1) * sizeof(*ids));
		size_t nids = 0;
		for (size_t i = 0; i < c.names.n; i++)
			if (calls[i])
				ids[nids++] = (uint32_t)i;
		if (nids)
			qsort(ids, nids, sizeof(*ids), cmp_id);
		size_t ai = 0;
		while (ai < n && arcs[ai].caller == CT_COUNT_ROOT)
			ai++;
		for (size_t i = 0; i < nids; i++) {
			uint32_t f = ids[i];
			/* no source lines: line 1 of an unknown file, as the
			 * callgrind export of times does for a function without
			 * DWARF (callgrind_annotate wants both) */
			fputs("\nfl=???\nfn=", out);
			cg_name(out, c.names.v[f]);
			fprintf(out, "\n1 %llu\n", (unsigned long long)calls[f]);
			while (ai < n && cmp_name(arcs[ai].caller, f) < 0)
				ai++;
			for (; ai < n && arcs[ai].caller == f; ai++) {
				fputs("cfn=", out);
				cg_name(out, c.names.v[arcs[ai].callee]);
				fprintf(out, "\ncalls=%llu 1\n1 %llu\n",
					(unsigned long long)arcs[ai].calls,
					(unsigned long long)arcs[ai].calls);
			}
		}
		free(ids);
		free(calls);
	}
	ct_view_counts_lost(&c);
	free(arcs);
	ct_counts_free(&c);
	return 0;
}
