/* SPDX-License-Identifier: MIT */
/* The text of read= triggers' values (lib/read/readtext.c): the entry's
 * values, the difference at the exit of the same call (by depth and
 * kind), several kinds on one call, a recursion, a call left without its
 * exit, records of an unknown kind or size. */
#include <string.h>

#include "calltrace/format.h"
#include "check.h"
#include "readtext.h"

/* a CT_EXT_READ payload of n values */
static const unsigned char *payload(const uint64_t *v, unsigned n)
{
	static unsigned char b[24];
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < 8; j++)
			b[8 * i + j] = (unsigned char)(v[i] >> (8 * j));
	return b;
}

static const char *text(struct ct_reads *r, size_t depth, unsigned arg, const uint64_t *v,
			unsigned n)
{
	static char buf[256];
	if (!ct_reads_text(r, depth, arg, payload(v, n), 2 * n, buf, sizeof(buf)))
		return "(none)";
	return buf;
}

#define IS(got, want) CHECK(!strcmp(got, want), "'%s', not '%s'", got, want)

int main(void)
{
	struct ct_reads r = {0};
	uint64_t s0[] = {6808, 776, 712}, s1[] = {6812, 776, 700};
	uint64_t p0[] = {0, 188}, p1[] = {0, 189};
	/* two kinds on one call at depth 2: each exit finds its own entry */
	IS(text(&r, 2, CT_READ_STATM, s0, 3),
	   "read:proc/statm (size=6808KB, rss=776KB, shared=712KB)");
	IS(text(&r, 2, CT_READ_PGFAULT, p0, 2), "read:page-fault (major=0, minor=188)");
	IS(text(&r, 2, CT_READ_STATM | CT_READ_AT_EXIT, s1, 3),
	   "diff:proc/statm (size=+4KB, rss=+0KB, shared=-12KB)");
	IS(text(&r, 2, CT_READ_PGFAULT | CT_READ_AT_EXIT, p1, 2),
	   "diff:page-fault (major=+0, minor=+1)");
	CHECK(r.n == 0, "%zu entries left", r.n);

	/* a recursion: each level's exit its own entry's */
	uint64_t a[] = {0, 10}, b[] = {0, 15}, c[] = {0, 17}, d[] = {0, 30};
	text(&r, 1, CT_READ_PGFAULT, a, 2);
	text(&r, 2, CT_READ_PGFAULT, b, 2);
	IS(text(&r, 2, CT_READ_PGFAULT | CT_READ_AT_EXIT, c, 2),
	   "diff:page-fault (major=+0, minor=+2)");
	IS(text(&r, 1, CT_READ_PGFAULT | CT_READ_AT_EXIT, d, 2),
	   "diff:page-fault (major=+0, minor=+20)");

	/* a call left by longjmp (no exit record): the next one at its depth
	 * or above does not take its values */
	text(&r, 3, CT_READ_PGFAULT, a, 2);
	IS(text(&r, 2, CT_READ_PGFAULT | CT_READ_AT_EXIT, d, 2),
	   "read:page-fault (major=0, minor=30)");
	CHECK(r.n == 0, "%zu entries left after the unwound call", r.n);

	/* pmu kinds: IPC, hit and predict */
	uint64_t c0[] = {1000, 500}, c1[] = {3000, 2100};
	text(&r, 1, CT_READ_PMU_CYCLE, c0, 2);
	IS(text(&r, 1, CT_READ_PMU_CYCLE | CT_READ_AT_EXIT, c1, 2),
	   "diff:pmu-cycle (cycle=+2000, instructions=+1600, IPC=0.80)");
	uint64_t h0[] = {100, 10}, h1[] = {200, 30};
	text(&r, 1, CT_READ_PMU_CACHE, h0, 2);
	IS(text(&r, 1, CT_READ_PMU_CACHE | CT_READ_AT_EXIT, h1, 2),
	   "diff:pmu-cache (refers=+100, misses=+20, hit=80%)");
	text(&r, 1, CT_READ_PMU_BRANCH, h0, 2);
	IS(text(&r, 1, CT_READ_PMU_BRANCH | CT_READ_AT_EXIT, h1, 2),
	   "diff:pmu-branch (branch=+100, misses=+20, predict=80%)");

	/* unknown kinds and sizes */
	IS(text(&r, 1, 0, a, 2), "(none)");
	IS(text(&r, 1, CT_READ_KINDS, a, 2), "(none)");
	IS(text(&r, 1, CT_READ_STATM, a, 2), "(none)");
	IS(text(&r, 1, CT_READ_PGFAULT | 0x200, a, 2), "(none)");
	ct_reads_free(&r);
	return check_done();
}
