/* SPDX-License-Identifier: MIT */
/*
 * The overhead correction (doc/overhead.md).  The runtime measures, in each
 * process, what its hooks cost (struct ct_proc's ovh_* figures):
 *
 *   inner  what a call shows between its own entry and exit timestamps on
 *          top of its real time (hook work after the entry's clock read and
 *          before the exit's)
 *   outer  what one traced call adds to the time of its caller (the whole
 *          hook pair); outer >= inner
 *
 * A call that made `below` calls (all depths) has its inclusive time
 * corrected to  total - inner - below * outer.  A process that made
 * library calls through the hooked trampolines (doc/libcall.md) from
 * -finstrument-functions code has two sets of figures: the library calls
 * among `below` (below_lib) cost the hooked front ends' outer, and a
 * library call's own inner is theirs.  Views compute self time as
 * before, from the corrected times: a call's corrected total minus those of
 * its direct callees shown, which comes to
 *   self - inner - children * (outer - inner)
 * when every callee is shown; the cost of calls a filter hides is taken out
 * of the caller's self time too.  Sums over calls are made unclamped, so
 * that the errors of single calls cancel, and shown as at least 0
 * (ct_clamp_sum); only the callees' sum of one call is taken as at least 0,
 * so that self time never exceeds total time.
 */
#ifndef CT_OVERHEAD_H
#define CT_OVERHEAD_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"

struct ct_overhead {
	uint64_t inner_ps, outer_ps; /* per call, in picoseconds; 0: no correction */
	/* the same for library calls (CT_EVF_LIBCALL): the hooked front
	 * ends' figures in a -finstrument-functions process that made
	 * library calls; else inner_ps and outer_ps again */
	uint64_t lib_inner_ps, lib_outer_ps;
	bool split; /* the library calls' figures differ: below_lib counts */
	bool waits; /* take out the time spent waiting for the trace writer
		     * (ct_event's waited): set by ct_overhead_of, not with --raw */
};

/* process p's figures in ps, those of the front end it recorded through
 * ("frontend" lines of its .proc file): the -finstrument-functions hooks'
 * ("overhead"), the hooked entries' ("overhead-hook"), or, when it used
 * both, the smaller of the two for each figure (never more than either
 * front end costs); a trace without "frontend" lines (an older calltrace)
 * gets the -finstrument-functions figures.  False (and zero figures) when
 * its trace has none.  Either way o->waits is set: the waits for the trace
 * writer are taken out too. */
bool ct_overhead_of(const struct ct_session *s, const struct ct_proc *p, struct ct_overhead *o);

/* the figures measured for one front end (CT_PROC_FE_CYG or _HOOK),
 * whether used or not; false when the trace has none */
bool ct_overhead_measured(const struct ct_session *s, const struct ct_proc *p, unsigned fe,
			  struct ct_overhead *o);

/* the ns to take out of the inclusive time of a call that made `below`
 * calls, below_lib of them library calls (lib: the call is one itself):
 * its own inner + the others' outer */
/* own + n * outer + nlib * lib_outer picoseconds, in ns, at most INT64_MAX */
static inline uint64_t ct_overhead_wide(uint64_t own, uint64_t n, uint64_t outer, uint64_t nlib,
					uint64_t lib_outer)
{
	unsigned __int128 ps =
		(unsigned __int128)n * outer + (unsigned __int128)nlib * lib_outer + own;
	unsigned __int128 ns = (ps + 500) / 1000;
	return ns > INT64_MAX ? INT64_MAX : (uint64_t)ns;
}

static inline uint64_t ct_overhead_ns(const struct ct_overhead *o, uint64_t below,
				      uint64_t below_lib, bool lib)
{
	/* 64-bit arithmetic (a multiplication for the division) while it
	 * cannot overflow: always, in practice */
	if (__builtin_expect(!o->split, 1)) {
		if (below < (1ULL << 32) && o->outer_ps < (1ULL << 30) &&
		    o->inner_ps < (1ULL << 30))
			return (below * o->outer_ps + o->inner_ps + 500) / 1000;
		return ct_overhead_wide(o->inner_ps, below, o->outer_ps, 0, 0);
	}
	if (below_lib > below)
		below_lib = below;
	uint64_t own = lib ? o->lib_inner_ps : o->inner_ps, n = below - below_lib;
	if (below < (1ULL << 32) && o->outer_ps < (1ULL << 30) && o->lib_outer_ps < (1ULL << 30) &&
	    own < (1ULL << 30))
		return (n * o->outer_ps + below_lib * o->lib_outer_ps + own + 500) / 1000;
	return ct_overhead_wide(own, n, o->outer_ps, below_lib, o->lib_outer_ps);
}

/* the inclusive time of the call whose exit is ev, less the tracer's cost.
 * It may be below 0 (a call faster than the calibration's, or noise): views
 * add these values up unclamped, so that errors of single calls cancel in
 * the sums, and show a sum below 0 as 0 (ct_clamp_sum). */
static inline int64_t ct_overhead_net(const struct ct_overhead *o, const struct ct_event *ev)
{
	uint64_t incl = ev->time >= ev->start ? ev->time - ev->start : 0;
	if (incl > INT64_MAX)
		incl = INT64_MAX;
	if (o->waits)
		incl -= ev->waited < incl ? ev->waited : incl;
	if (!o->outer_ps && !o->inner_ps && !o->split)
		return (int64_t)incl;
	return (int64_t)incl - (int64_t)ct_overhead_ns(o, ev->below, ev->below_lib,
						       (ev->flags & CT_EVF_LIBCALL) != 0);
}

/* a + b and a - b as the sums above keep them: wrapping (two's complement),
 * never a signed overflow, whatever times a hostile recording holds */
static inline int64_t ct_wrap_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t ct_wrap_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline uint64_t ct_clamp0(int64_t v)
{
	return v > 0 ? (uint64_t)v : 0;
}

/* a sum of ct_overhead_net values kept in a uint64_t (two's complement):
 * 0 when it is below 0 */
static inline void ct_clamp_sum(uint64_t *v)
{
	if (*v > (uint64_t)INT64_MAX)
		*v = 0;
}

#endif
