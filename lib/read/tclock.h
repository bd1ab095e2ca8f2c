/* SPDX-License-Identifier: MIT */
/*
 * The corrected clock of a thread's timeline (doc/overhead.md, "Timelines"):
 * the times at which the exports that draw calls in time (chrome, perfetto,
 * the HTML report's timeline) place each entry, exit and mark once the
 * tracer's own cost is taken out, as report, graph and callers take it out
 * of durations.
 *
 * The hooks' cost is placed where it falls: a call's `inner` part between
 * its own entry and exit timestamps (taken out at its entry), the rest of
 * `outer` after its exit; the waits for the trace writer where they
 * happened.  So an event that comes after `done` finished calls, inside
 * `open` open ones, after `W` ns of waits, has
 *
 *	A = done * outer + open * inner + W
 *
 * of the tracer's time before it on the thread (done + open being the
 * calls its stream entered before it, which the reader puts in an entry's
 * or mark's `below`, counting calls that filters hide too), and its
 * corrected time is  t - A.  A call's
 * exit is placed at its corrected entry plus its corrected duration as
 * ct_overhead_net gives it, so a call is exactly as long as in report.
 *
 * Noise can make a corrected time come out before the one of the event
 * shown before it (a call faster than the calibration's best case): the
 * clock never goes back, it holds the earlier time instead.  So durations
 * are never negative and a call always lies inside its caller; such a
 * call is then shorter than its corrected duration (0 at least) and the
 * next event catches up.  With zero figures (--raw, or a trace without
 * them) the clock is the recorded one.
 */
#ifndef CT_TCLOCK_H
#define CT_TCLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "overhead.h"
#include "session.h"

struct ct_tclock {
	struct ct_overhead o;
	uint64_t last; /* the latest time given on the thread */
	struct ct_tclock_frame {
		uint64_t start; /* the corrected entry time given */
		int64_t base;   /* t - A at the entry, before holding */
	} * stack;              /* the open calls shown, outermost first */
	size_t depth, cap;
};

void ct_tclock_init(struct ct_tclock *c);
void ct_tclock_free(struct ct_tclock *c);

/* a thread starts: o its figures (NULL or zero: the recorded times) */
void ct_tclock_thread(struct ct_tclock *c, const struct ct_overhead *o);

/* the tracer's time before entry or mark ev on its thread, in ns (A
 * above: the reader gives entries and marks the calls entered before them
 * and the waits so far, in ct_event's below and waited) */
uint64_t ct_tclock_before(const struct ct_overhead *o, const struct ct_event *ev);

/* an entry shown: its corrected time */
uint64_t ct_tclock_enter(struct ct_tclock *c, const struct ct_event *ev);

/* the exit of the innermost call shown: its corrected start and end;
 * *net (may be NULL) is its corrected duration as report counts it
 * (ct_overhead_net: may be below 0) */
void ct_tclock_exit(struct ct_tclock *c, const struct ct_event *ev, uint64_t *start, uint64_t *end,
		    int64_t *net);

/* a mark (or any instant) shown: its corrected time */
uint64_t ct_tclock_mark(struct ct_tclock *c, const struct ct_event *ev);

#endif
