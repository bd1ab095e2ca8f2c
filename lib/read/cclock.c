/* SPDX-License-Identifier: MIT */
/*
 * The corrected clock's figures (cclock.h, doc/overhead.md): the
 * calibration's inner and outer cost of a process's hooks split at their
 * clock reads, or none when they cannot be believed.  The clock itself
 * (cc_at, cc_wait) is inline in cclock.h, for the stream decoder's fast
 * path.
 */
#include "cclock.h"

#include <string.h>

#include "figcheck.h"
#include "overhead.h"
#include "session.h"

/* a call that costs more than this is no tracer's: figures above it are
 * not believed (doc/overhead.md, "Bad figures") */
#define OUTER_MAX_PS 10000000ull /* 10 us */

static void split(struct cclock *c, const struct ct_overhead *o);

void ct_cclock_figures(struct cclock *c, struct ct_session *s, struct ct_proc *p, bool check)
{
	c->on = false;
	c->fig = false;
	memset(c->pre, 0, sizeof(c->pre));
	memset(c->post, 0, sizeof(c->post));
	if (s->raw || !p)
		return;
	c->on = true;
	struct ct_overhead o;
	if (!ct_overhead_of(s, p, &o) || (!o.outer_ps && !o.inner_ps)) {
		ct_session_warn(s,
				"%s: process %d has no calibration figures: its times are as "
				"recorded, the tracer's cost included (doc/overhead.md)",
				s->dir, p->pid);
		return;
	}
	if (o.outer_ps > OUTER_MAX_PS || o.lib_outer_ps > OUTER_MAX_PS) {
		ct_session_warn(s,
				"%s: process %d: calibration figures of %.1f ns per call are not "
				"believable: its times are as recorded (doc/overhead.md)",
				s->dir, p->pid,
				(double)(o.outer_ps > o.lib_outer_ps ? o.outer_ps
								     : o.lib_outer_ps) /
					1000);
		return;
	}
	double in_ns, med_ns;
	if (!ct_figures_fit(s, p, &o, check, &in_ns, &med_ns)) {
		ct_session_warn(s,
				"%s: process %d: calibration figures of %.1f ns per call are more "
				"than its calls last (%.1f ns, the median of its shortest): its "
				"times "
				"are as recorded (doc/overhead.md)",
				s->dir, p->pid, in_ns, med_ns);
		return;
	}
	c->fig = true;
	/* figures measured again on the CPU the thread runs on now
	 * (ct_cclock_calib: believable ones only) */
	if (c->cal_on)
		ct_overhead_from(s, p, &c->cal, &o);
	split(c, &o);
}

void ct_cclock_calib(struct cclock *c, struct ct_session *s, struct ct_proc *p,
		     const struct ct_calfig *f, uint64_t ns)
{
	if (!c->fig)
		return; /* shown as recorded (no believable figures, --raw) */
	cc_wait(c, ns); /* the measuring was the tracer's time */
	if (ns < OWED_MAX / 1000 - c->recal_ns)
		c->recal_ns += ns;
	if (!p || !f)
		return;
	struct ct_calfig cf;
	if (c->cal_on)
		cf = c->cal;
	else
		ct_calfig_of(p, &cf);
	if (f->calls && (f->inner || f->outer)) {
		cf.calls = f->calls;
		cf.inner = f->inner;
		cf.outer = f->outer;
	}
	if (f->hook_calls && (f->hook_inner || f->hook_outer)) {
		cf.hook_calls = f->hook_calls;
		cf.hook_inner = f->hook_inner;
		cf.hook_outer = f->hook_outer;
	}
	struct ct_overhead o;
	if (!ct_overhead_from(s, p, &cf, &o) || (!o.outer_ps && !o.inner_ps) ||
	    o.outer_ps > OUTER_MAX_PS || o.lib_outer_ps > OUTER_MAX_PS)
		return; /* as recorded, or no believable figures: those in force stay */
	c->cal = cf;
	c->cal_on = true;
	c->recal++;
	ct_cclock_figures(c, s, p, false);
}

/* the figures o split at the hooks' clock reads */
static void split(struct cclock *c, const struct ct_overhead *o)
{
	for (int lib = 0; lib < 2; lib++) {
		uint64_t in = lib ? o->lib_inner_ps : o->inner_ps;
		uint64_t out = lib ? o->lib_outer_ps : o->outer_ps;
		if (out < in)
			out = in;
		c->post[0][lib] = in / 2;
		c->pre[1][lib] = in - in / 2;
		c->pre[0][lib] = (out - in) / 2;
		c->post[1][lib] = out - in - (out - in) / 2;
	}
}

void ct_cclock_init(struct cclock *c, struct ct_session *s, struct ct_proc *p, bool check)
{
	memset(c, 0, sizeof(*c));
	ct_cclock_figures(c, s, p, check);
}

void ct_cclock_cost(const struct cclock *c, struct ct_cost *cost)
{
	cost->taken = (c->taken + 500) / 1000;
	cost->clipped = (c->clipped + 500) / 1000;
	cost->recal = c->recal;
	cost->recal_ns = c->recal_ns;
}
