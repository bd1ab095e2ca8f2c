/* SPDX-License-Identifier: MIT */
/*
 * The tracer's own cost (doc/overhead.md).  The runtime measures, in each
 * process, what its hooks cost (struct ct_proc's ovh_* figures):
 *
 *   inner  what a call shows between its own entry and exit timestamps on
 *          top of its real time (hook work after the entry's clock read and
 *          before the exit's)
 *   outer  what one traced call adds to the time of its caller (the whole
 *          hook pair); outer >= inner
 *
 * The stream decoder (stream.c) takes them out of its thread's corrected
 * clock, event by event, and every view takes its durations from that
 * clock (ct_event's ctime and cstart): nothing here is applied by a view.
 * A process that made library calls through the hooked trampolines
 * (doc/libcall.md) from -finstrument-functions code has two sets of
 * figures, the library calls' those of the hooked front ends (from its
 * "libcall" lines on: the "frontend hook" line that its first library
 * call writes comes after that call's entry).
 */
#ifndef CT_OVERHEAD_H
#define CT_OVERHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "cclock.h"
#include "session.h"

struct ct_overhead {
	uint64_t inner_ps, outer_ps; /* per call, in picoseconds; 0: none */
	/* the same for library calls (CT_EVF_LIBCALL): the hooked front
	 * ends' figures in a -finstrument-functions process that made
	 * library calls; else inner_ps and outer_ps again */
	uint64_t lib_inner_ps, lib_outer_ps;
	bool split; /* the library calls' figures differ */
};

/* process p's start-up figures */
void ct_calfig_of(const struct ct_proc *p, struct ct_calfig *f);

/* the figures f in ps per call, chosen as ct_overhead_of chooses p's own */
bool ct_overhead_from(const struct ct_session *s, const struct ct_proc *p,
		      const struct ct_calfig *f, struct ct_overhead *o);

/* process p's figures in ps, those of the front end it recorded through
 * ("frontend" lines of its .proc file): the -finstrument-functions hooks'
 * ("overhead"), the hooked entries' ("overhead-hook"), or, when it used
 * both, the smaller of the two for each figure (never more than either
 * front end costs); a trace without "frontend" lines (an older calltrace)
 * gets the -finstrument-functions figures.  False (and zero figures) when
 * its trace has none. */
bool ct_overhead_of(const struct ct_session *s, const struct ct_proc *p, struct ct_overhead *o);

/* the figures measured for one front end (CT_PROC_FE_CYG or _HOOK),
 * whether used or not; false when the trace has none */
bool ct_overhead_measured(const struct ct_session *s, const struct ct_proc *p, unsigned fe,
			  struct ct_overhead *o);

/* the duration of the call whose exit is ev, on its thread's corrected
 * clock (the recorded one with session->raw): never below 0, never more
 * than its caller's */
static inline uint64_t ct_event_dur(const struct ct_event *ev)
{
	return ev->ctime - ev->cstart;
}

/* the same on the recorded clock: what -t compares, whatever is shown */
static inline uint64_t ct_event_raw_dur(const struct ct_event *ev)
{
	return ev->time - ev->start;
}

/* a call's self time: its duration less its shown callees' together.  On
 * one thread's corrected clock the callees lie inside the call and apart,
 * so child <= incl: the test is for a view's own mistakes */
static inline uint64_t ct_call_self(uint64_t incl, uint64_t child)
{
	return incl > child ? incl - child : 0;
}

/* is the call whose event this is a new call: not one entered before the
 * stream began (a flight window's, a forked child's inherited frames:
 * CT_EVF_BEFORE), whose time counts but whose call does not */
static inline bool ct_call_counted(const struct ct_event *ev)
{
	return !(ev->flags & CT_EVF_BEFORE);
}

/* the recorded time of a call is mostly the tracer's own: its corrected
 * time is less than a fifth of it (the views mark such functions) */
static inline bool ct_mostly_cost(uint64_t corrected, uint64_t recorded)
{
	return recorded / 5 > corrected;
}

#endif
