/* SPDX-License-Identifier: MIT */
#include "overhead.h"

#include <string.h>

/* ticks summed over calls -> ps per call */
static uint64_t per_call_ps(uint64_t ticks, uint64_t calls, double hz)
{
	long double ps = (long double)ticks * 1e12L / (long double)hz / (long double)calls;
	return ps > 0 && ps < 1e15L ? (uint64_t)(ps + 0.5L) : 0;
}

static bool figures(const struct ct_session *s, uint64_t calls, uint64_t inner, uint64_t outer,
		    struct ct_overhead *o)
{
	memset(o, 0, sizeof(*o));
	if (!calls || !(s->clock_hz > 0))
		return false;
	o->inner_ps = per_call_ps(inner, calls, s->clock_hz);
	o->outer_ps = per_call_ps(outer, calls, s->clock_hz);
	if (o->outer_ps < o->inner_ps)
		o->outer_ps = o->inner_ps;
	o->lib_inner_ps = o->inner_ps;
	o->lib_outer_ps = o->outer_ps;
	return true;
}

void ct_calfig_of(const struct ct_proc *p, struct ct_calfig *f)
{
	*f = (struct ct_calfig){p->ovh_calls,      p->ovh_inner,      p->ovh_outer,
				p->ovh_hook_calls, p->ovh_hook_inner, p->ovh_hook_outer};
}

/* the figures of one front end (CT_PROC_FE_CYG or _HOOK) in f */
static bool measured(const struct ct_session *s, const struct ct_calfig *f, unsigned fe,
		     struct ct_overhead *o)
{
	if (fe == CT_PROC_FE_HOOK)
		return figures(s, f->hook_calls, f->hook_inner, f->hook_outer, o);
	return figures(s, f->calls, f->inner, f->outer, o);
}

bool ct_overhead_measured(const struct ct_session *s, const struct ct_proc *p, unsigned fe,
			  struct ct_overhead *o)
{
	memset(o, 0, sizeof(*o));
	if (!p)
		return false;
	struct ct_calfig f;
	ct_calfig_of(p, &f);
	return measured(s, &f, fe, o);
}

bool ct_overhead_from(const struct ct_session *s, const struct ct_proc *p,
		      const struct ct_calfig *f, struct ct_overhead *o)
{
	memset(o, 0, sizeof(*o));
	if (!p)
		return false;
	switch (p->frontends) {
	case CT_PROC_FE_HOOK:
		return measured(s, f, CT_PROC_FE_HOOK, o);
	case CT_PROC_FE_CYG | CT_PROC_FE_HOOK: {
		struct ct_overhead c, h;
		if (p->libcalls && !f->hook_calls && measured(s, f, CT_PROC_FE_CYG, o))
			return true; /* a runtime whose library-call trampoline
				      * is not calibrated (aarch64): they take
				      * -finstrument-functions' figures */
		if (!measured(s, f, CT_PROC_FE_CYG, &c) || !measured(s, f, CT_PROC_FE_HOOK, &h))
			return false;
		if (p->libcalls) {
			/* library calls (the reader marks them) went
			 * through the hooked trampolines, the program's own
			 * calls through -finstrument-functions */
			*o = c;
			o->lib_inner_ps = h.inner_ps;
			o->lib_outer_ps = h.outer_ps;
			o->split = true;
			return true;
		}
		/* both front ends in the program's own modules: which one an
		 * event came through is not in the trace */
		o->inner_ps = c.inner_ps < h.inner_ps ? c.inner_ps : h.inner_ps;
		o->outer_ps = c.outer_ps < h.outer_ps ? c.outer_ps : h.outer_ps;
		if (o->outer_ps < o->inner_ps)
			o->outer_ps = o->inner_ps;
		o->lib_inner_ps = o->inner_ps;
		o->lib_outer_ps = o->outer_ps;
		return true;
	}
	case CT_PROC_FE_CYG: {
		struct ct_overhead h;
		if (!measured(s, f, CT_PROC_FE_CYG, o))
			return false;
		/* its library calls go through the hooked trampolines,
		 * whether or not the "frontend hook" line that the first of
		 * them writes (after its entry) is there yet: so a process read
		 * while it runs (live, top) has the figures of the whole
		 * recording */
		if (p->libcalls && measured(s, f, CT_PROC_FE_HOOK, &h)) {
			o->lib_inner_ps = h.inner_ps;
			o->lib_outer_ps = h.outer_ps;
			o->split = true;
		}
		return true;
	}
	default: /* not said (an older trace) */
		return measured(s, f, CT_PROC_FE_CYG, o);
	}
}

bool ct_overhead_of(const struct ct_session *s, const struct ct_proc *p, struct ct_overhead *o)
{
	memset(o, 0, sizeof(*o));
	if (!p)
		return false;
	struct ct_calfig f;
	ct_calfig_of(p, &f);
	return ct_overhead_from(s, p, &f, o);
}
