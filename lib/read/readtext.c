/* SPDX-License-Identifier: MIT */
/* The text of a read= trigger's values (readtext.h). */
#include "readtext.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltrace/format.h"
#include "util.h"

static const struct {
	const char *name;
	unsigned n;
	const char *field[3];
	const char *unit;
} kinds[CT_READ_KINDS] = {
	[CT_READ_STATM] = {"proc/statm", 3, {"size", "rss", "shared"}, "KB"},
	[CT_READ_PGFAULT] = {"page-fault", 2, {"major", "minor"}, ""},
	[CT_READ_PMU_CYCLE] = {"pmu-cycle", 2, {"cycle", "instructions"}, ""},
	[CT_READ_PMU_CACHE] = {"pmu-cache", 2, {"refers", "misses"}, ""},
	[CT_READ_PMU_BRANCH] = {"pmu-branch", 2, {"branch", "misses"}, ""},
};

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* part of all, in percent (all > 0) */
static unsigned pct(uint64_t part, uint64_t all)
{
	return (unsigned)((double)part * 100.0 / (double)all + 0.5);
}

bool ct_reads_text(struct ct_reads *r, size_t depth, unsigned arg, const unsigned char *p,
		   unsigned len, char *buf, size_t blen)
{
	unsigned k = arg & 0xff;
	bool at_exit = (arg & CT_READ_AT_EXIT) != 0;
	if (k < 1 || k >= CT_READ_KINDS || (arg & ~(0xffu | CT_READ_AT_EXIT)) ||
	    len != 2 * kinds[k].n)
		return false;
	uint64_t v[3] = {0};
	for (unsigned i = 0; i < kinds[k].n; i++)
		v[i] = rd64(p + 8 * i);
	/* the entries of calls that ended without their exit (longjmp, a
	 * frame left out) go: none is deeper than a record now */
	while (r->n && (r->e[r->n - 1].depth > depth ||
			(r->e[r->n - 1].depth == depth && !at_exit && r->e[r->n - 1].kind == k)))
		r->n--;
	const struct ct_read_at *before = NULL;
	if (at_exit)
		for (size_t i = r->n; i-- > 0 && r->e[i].depth == depth;)
			if (r->e[i].kind == k) {
				before = &r->e[i];
				break;
			}
	size_t o = 0;
#define PUT(...)                                                                  \
	do {                                                                      \
		int m_ = snprintf(buf + o, o < blen ? blen - o : 0, __VA_ARGS__); \
		if (m_ > 0)                                                       \
			o += (size_t)m_;                                          \
	} while (0)
	PUT("%s:%s (", before ? "diff" : "read", kinds[k].name);
	for (unsigned i = 0; i < kinds[k].n; i++) {
		if (before)
			PUT("%s%s=%+" PRId64 "%s", i ? ", " : "", kinds[k].field[i],
			    (int64_t)(v[i] - before->v[i]), kinds[k].unit);
		else
			PUT("%s%s=%" PRIu64 "%s", i ? ", " : "", kinds[k].field[i], v[i],
			    kinds[k].unit);
	}
	if (before) {
		uint64_t a = v[0] - before->v[0], b = v[1] - before->v[1];
		if (k == CT_READ_PMU_CYCLE && a)
			PUT(", IPC=%.2f", (double)b / (double)a);
		else if ((k == CT_READ_PMU_CACHE || k == CT_READ_PMU_BRANCH) && a && b <= a)
			PUT(", %s=%u%%", k == CT_READ_PMU_CACHE ? "hit" : "predict", pct(a - b, a));
	}
	PUT(")");
#undef PUT
	if (before) {
		/* taken (the others of this call stay, for their own exits) */
		size_t i = (size_t)(before - r->e);
		memmove(&r->e[i], &r->e[i + 1], (r->n - i - 1) * sizeof(*r->e));
		r->n--;
	} else if (!at_exit) {
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 16;
			r->e = xrealloc(r->e, r->cap * sizeof(*r->e));
		}
		struct ct_read_at *e = &r->e[r->n++];
		e->depth = depth;
		e->kind = k;
		e->n = kinds[k].n;
		memcpy(e->v, v, sizeof(v));
	}
	return true;
}

void ct_reads_free(struct ct_reads *r)
{
	free(r->e);
	memset(r, 0, sizeof(*r));
}
