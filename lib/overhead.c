/* SPDX-License-Identifier: MIT */
#include "overhead.h"

#include <string.h>

/* ticks summed over calls -> ps per call */
static uint64_t per_call_ps(uint64_t ticks, uint64_t calls, double hz)
{
	long double ps = (long double)ticks * 1e12L / (long double)hz / (long double)calls;
	return ps > 0 && ps < 1e15L ? (uint64_t)(ps + 0.5L) : 0;
}

bool ct_overhead_of(const struct ct_session *s, const struct ct_proc *p, struct ct_overhead *o)
{
	memset(o, 0, sizeof(*o));
	if (!p || !p->ovh_calls || !(s->clock_hz > 0))
		return false;
	o->inner_ps = per_call_ps(p->ovh_inner, p->ovh_calls, s->clock_hz);
	o->outer_ps = per_call_ps(p->ovh_outer, p->ovh_calls, s->clock_hz);
	if (o->outer_ps < o->inner_ps)
		o->outer_ps = o->inner_ps;
	return true;
}
