/* SPDX-License-Identifier: MIT */
/*
 * The figures' check against the process's own calls.  A leaf call (an
 * exit right after its own entry) lasts at least what the hooks add inside
 * it, the inner figure, give or take a clock step: the calibration's is
 * the median of what an empty function shows.  So the median of a
 * program's leaf calls is at least about the inner figure, and figures far
 * above it (a damaged or hand-made recording) would take out time the
 * calls never had.  One pass over the first CHECK_EVENTS events of the
 * process's first thread, on the recorded clock; a live recording fed to
 * live or top is not checked (its figures are the runtime's own).
 */
#include "figcheck.h"

#include <stdlib.h>
#include <string.h>

#define CHECK_EVENTS CT_FIGCHECK_EVENTS
#define CHECK_LEAVES CT_FIGCHECK_LEAVES
#define CHECK_MIN CT_FIGCHECK_MIN
#define CHUNK 1024

enum { FIG_UNKNOWN, FIG_CHECKING, FIG_FIT, FIG_ABSURD };

struct leaves {
	uint64_t ns[CHECK_LEAVES];
	unsigned n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static bool median_of(struct leaves *l, double *out)
{
	if (l->n < CHECK_MIN)
		return false;
	qsort(l->ns, l->n, sizeof(l->ns[0]), cmp_u64);
	*out = (double)l->ns[l->n / 2];
	return true;
}

/* the first thread of p with a stream */
static struct ct_thread *first_thread(struct ct_session *s, const struct ct_proc *p)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i]->proc == p && s->threads[i]->path)
			return s->threads[i];
	return NULL;
}

/* the recorded durations of the leaf calls among the first events of t,
 * program's in l[0], library calls in l[1] */
static void gather(struct ct_session *s, struct ct_thread *t, struct leaves l[2])
{
	struct ct_stream *st;
	struct ct_error err;
	struct ct_event *ev = malloc(CHUNK * sizeof(*ev));
	if (!ev || ct_stream_open(s, t, &st, &err) < 0) {
		free(ev);
		return; /* the view that reads it says what is wrong */
	}
	bool after_entry = false; /* the event before was an entry */
	uint64_t seen = 0;
	int n;
	while (seen < CHECK_EVENTS &&
	       (n = ct_stream_read(st, ev,
				   CHECK_EVENTS - seen < CHUNK ? CHECK_EVENTS - seen : CHUNK,
				   &err)) > 0) {
		for (int i = 0; i < n; i++) {
			const struct ct_event *e = &ev[i];
			if (e->kind == CT_EXIT && after_entry &&
			    !(e->flags & (CT_EVF_SYNTHETIC | CT_EVF_UNFINISHED | CT_EVF_BEFORE |
					  CT_EVF_SIGNAL))) {
				struct leaves *k = &l[(e->flags & CT_EVF_LIBCALL) ? 1 : 0];
				if (k->n < CHECK_LEAVES)
					k->ns[k->n++] = e->time - e->start;
			}
			after_entry = e->kind == CT_ENTER;
		}
		seen += (uint64_t)n;
	}
	ct_stream_close(st);
	free(ev);
}

bool ct_figures_fit(struct ct_session *s, struct ct_proc *p, const struct ct_overhead *o,
		    bool decide, double *inner_ns, double *median_ns)
{
	if (p->figcheck == FIG_FIT || p->figcheck == FIG_CHECKING ||
	    (p->figcheck == FIG_UNKNOWN && !decide))
		return true; /* CHECKING: the check's own stream */
	if (p->figcheck == FIG_ABSURD) {
		*inner_ns = p->figcheck_inner;
		*median_ns = p->figcheck_median;
		return false;
	}
	p->figcheck = FIG_CHECKING;
	struct ct_thread *t = first_thread(s, p);
	struct leaves *l = calloc(2, sizeof(*l));
	if (l && t)
		gather(s, t, l);
	p->figcheck = FIG_FIT;
	for (int k = 0; l && k < 2; k++) {
		double med, in = (double)(k ? o->lib_inner_ps : o->inner_ps) / 1000;
		if (median_of(&l[k], &med) && in > 2 * med + CT_FIGCHECK_SLACK_NS) {
			p->figcheck = FIG_ABSURD;
			p->figcheck_inner = *inner_ns = in;
			p->figcheck_median = *median_ns = med;
			break;
		}
	}
	free(l);
	return p->figcheck == FIG_FIT;
}
