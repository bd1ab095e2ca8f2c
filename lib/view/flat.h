/* SPDX-License-Identifier: MIT */
/*
 * The flat profile's figures (report, tui): one row per function, its
 * calls, total time (once per outermost activation on a thread), self time
 * (inclusive minus that of the direct callees shown), the average, min and
 * max of each call's inclusive time, the min and max of its self time, and record --sample's sampled sums.
 * The view keeps the rows by function id, an active count per id (open
 * activations on the thread being read) and the stack of open calls; at
 * each exit it pops the call's frame and hands it to ct_fstat_exit.
 */
#ifndef CT_FLAT_H
#define CT_FLAT_H

#include <stdbool.h>
#include <stdint.h>

#include "overhead.h"
#include "session.h"

/* a function's figures (a row) */
struct ct_fstat {
	uint64_t calls, total, self, sum, min, max;
	uint64_t smin, smax; /* the least and most self time of a call */
	uint64_t rtotal;     /* total on the recorded clock */
	uint64_t frames;     /* calls entered before the stream (not counted) */
	/* record --sample: sampled total and self, in samples and in ns */
	uint64_t stotal, sself, stotal_ns, sself_ns;
	/* record --sched: off-CPU time inside it, counted once per outermost
	 * activation (as total) */
	uint64_t offcpu;
};

/* an open call: its row, and what its direct callees took */
struct ct_fframe {
	uint32_t id;
	uint64_t child;             /* inclusive time of direct callees */
	uint64_t schild, schild_ns; /* their samples, and the samples' time */
};

/* the exit ev of the call of frame f (just popped): its row st and the
 * row's active count updated, and up, the frame under it (NULL when it
 * was outermost) */
static inline __attribute__((always_inline)) void
ct_fstat_exit(struct ct_fstat *st, uint32_t *active, const struct ct_fframe *f,
	      struct ct_fframe *up, const struct ct_event *ev)
{
	uint64_t incl = ct_event_dur(ev);
	uint64_t self = ct_call_self(incl, f->child);
	if (*active)
		(*active)--;
	if (__builtin_expect(ct_call_counted(ev), 1)) {
		if (!st->calls || incl < st->min)
			st->min = incl;
		if (incl > st->max)
			st->max = incl;
		if (!st->calls || self < st->smin)
			st->smin = self;
		if (self > st->smax)
			st->smax = self;
		st->calls++;
		st->sum += incl;
	} else {
		st->frames++;
	}
	if (!*active) {
		st->total += incl;
		st->rtotal += ct_event_raw_dur(ev);
		st->offcpu += ev->offcpu;
	}
	st->self += self;
	if (up)
		up->child += incl;
	if (__builtin_expect(ev->samples != 0, 0)) {
		/* record --sample: the same sums on the samples */
		uint64_t n = ev->samples, ns = n * ev->thread->proc->sample_ns;
		if (!*active) {
			st->stotal += n;
			st->stotal_ns += ns;
		}
		st->sself += n - (f->schild < n ? f->schild : n);
		st->sself_ns += ns - (f->schild_ns < ns ? f->schild_ns : ns);
		if (up) {
			up->schild += n;
			up->schild_ns += ns;
		}
	}
}

/* the average of a row's calls */
static inline uint64_t ct_fstat_avg(const struct ct_fstat *st)
{
	return st->calls ? st->sum / st->calls : 0;
}

#endif
