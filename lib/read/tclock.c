/* SPDX-License-Identifier: MIT */
/* The corrected clock of a thread's timeline: see tclock.h */
#include "tclock.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void ct_tclock_init(struct ct_tclock *c)
{
	memset(c, 0, sizeof(*c));
}

void ct_tclock_free(struct ct_tclock *c)
{
	free(c->stack);
	memset(c, 0, sizeof(*c));
}

void ct_tclock_thread(struct ct_tclock *c, const struct ct_overhead *o)
{
	if (o)
		c->o = *o;
	else
		memset(&c->o, 0, sizeof(c->o));
	c->last = 0;
	c->depth = 0;
}

uint64_t ct_tclock_before(const struct ct_overhead *o, const struct ct_event *ev)
{
	/* an entry or mark: below is the calls entered before it, of which
	 * `depth` are still open around it; waited the waits so far */
	uint64_t entered = ev->below;
	uint64_t open = ev->depth < entered ? ev->depth : entered;
	uint64_t done = entered - open;
	/* the library calls entered before it are taken as done (they are
	 * leaves but for callbacks) */
	uint64_t lib = ev->below_lib < done ? ev->below_lib : done;
	unsigned __int128 ps = (unsigned __int128)(done - lib) * o->outer_ps +
			       (unsigned __int128)lib * o->lib_outer_ps +
			       (unsigned __int128)open * o->inner_ps;
	unsigned __int128 ns = (ps + 500) / 1000;
	if (o->waits)
		ns += ev->waited;
	return ns > INT64_MAX ? INT64_MAX : (uint64_t)ns;
}

/* t - A, held at the latest time given */
static uint64_t hold(struct ct_tclock *c, int64_t base)
{
	uint64_t t = base > 0 ? (uint64_t)base : 0;
	if (t < c->last)
		t = c->last;
	c->last = t;
	return t;
}

static int64_t base_of(const struct ct_tclock *c, const struct ct_event *ev)
{
	uint64_t t = ev->time > INT64_MAX ? INT64_MAX : ev->time;
	return (int64_t)t - (int64_t)ct_tclock_before(&c->o, ev);
}

uint64_t ct_tclock_enter(struct ct_tclock *c, const struct ct_event *ev)
{
	int64_t base = base_of(c, ev);
	uint64_t t = hold(c, base);
	*CT_PUSH(c->stack, c->depth, c->cap) = (struct ct_tclock_frame){.start = t, .base = base};
	return t;
}

void ct_tclock_exit(struct ct_tclock *c, const struct ct_event *ev, uint64_t *start, uint64_t *end,
		    int64_t *net)
{
	int64_t n = ct_overhead_net(&c->o, ev);
	if (net)
		*net = n;
	struct ct_tclock_frame f;
	if (c->depth) {
		f = c->stack[--c->depth];
	} else { /* an exit without its entry shown: not from the filters */
		f.start = c->last;
		f.base = (int64_t)(c->last > INT64_MAX ? INT64_MAX : c->last);
	}
	*start = f.start;
	*end = hold(c, ct_wrap_add(f.base, n));
}

uint64_t ct_tclock_mark(struct ct_tclock *c, const struct ct_event *ev)
{
	return hold(c, base_of(c, ev));
}
