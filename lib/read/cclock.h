/* SPDX-License-Identifier: MIT */
/*
 * The thread's corrected clock (doc/overhead.md), kept by the stream
 * decoder (lib/read/stream.c) for each stream: each event's recorded
 * time less the tracer's cost spent on the thread since the one before it.
 * The hooks' cost is split at their clock reads: an entry hook costs pre
 * before its read and post after it, and so does an exit hook; pre + post
 * of both is the calibration's outer, post of the entry + pre of the exit
 * its inner (each half of it), so a call that does nothing comes out at 0
 * and a caller loses outer for each call it made.  The waits for the trace
 * writer are owed too.  What is owed is taken out of the time between two
 * events, never more than that time: the corrected clock then stands still
 * and the rest is clipped (counted, not carried).  Every duration a view
 * shows is a difference of two corrected times of one thread, so a call
 * never lasts less than its callees together, whatever the figures.
 *
 * cc_step, cc_at and cc_wait are here, inline, because the decoder takes
 * the step for every event (its fast path through cc_step, its general
 * path through cc_at); the figures are set up in cclock.c.
 */
#ifndef CT_CCLOCK_H
#define CT_CCLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct ct_session;
struct ct_proc;
struct ct_cost;

/* calibration figures as measured: clock ticks summed over calls, for the
 * -finstrument-functions hooks and for the hooked entries (0 calls: none);
 * a process's start-up ones (its .proc file's "overhead" lines) or those
 * a thread measured again on another CPU (CT_EXT_CALIB) */
struct ct_calfig {
	uint64_t calls, inner, outer;
	uint64_t hook_calls, hook_inner, hook_outer;
};

struct cclock {
	uint64_t pre[2][2], post[2][2]; /* ps, by [entry 0, exit 1][library call] */
	uint64_t raw;                   /* the recorded ns of the last event */
	uint64_t ns;                    /* its corrected ns */
	uint64_t rem;                   /* and the ps below that, 0..999 */
	uint64_t owed;                  /* ps of the tracer's cost since then */
	uint64_t taken, clipped;        /* ps so far: taken out, and not */
	bool on;                        /* corrected (not --raw): the waits are owed too */
	bool started;                   /* an event was placed: the first is at its recorded time */
	bool fig;                       /* the process's figures are believed and used */
	bool cal_on;                    /* cal holds figures measured again (CT_EXT_CALIB) */
	uint64_t recal;                 /* CT_EXT_CALIB figures taken up */
	uint64_t recal_ns;              /* and the measuring they owed */
	struct ct_calfig cal;
};

/* a new corrected clock for a thread of process p (NULL: none known), with
 * its figures (ct_cclock_figures) */
void ct_cclock_init(struct cclock *c, struct ct_session *s, struct ct_proc *p, bool check);

/* the figures of a thread of process p: none with --raw (s->raw: the
 * recorded clock) or without a process, the waits only when p has no
 * believable calibration figures (a warning then, once per process), or
 * when they are more than p's own calls last (figcheck.h: decided with
 * check, for a recording read from its files; a fed one, live's and
 * top's, takes a verdict already reached but reaches none).
 * Called again when p's .proc grows (a fed stream): the clock goes on */
void ct_cclock_figures(struct cclock *c, struct ct_session *s, struct ct_proc *p, bool check);

/* a CT_EXT_CALIB record: the thread measured the hooks' cost again on
 * another CPU (calls 0 or both sums 0 for a front end: not measured, the
 * figures in force kept), taking ns to do it (owed like a wait); from here
 * on its figures are those.  Only where the process's own figures are
 * believed: else (and with --raw) the times stay as recorded */
void ct_cclock_calib(struct cclock *c, struct ct_session *s, struct ct_proc *p,
		     const struct ct_calfig *f, uint64_t ns);

/* what the clock took out and clipped so far, in ns (cost->span is the
 * stream's, left alone) */
void ct_cclock_cost(const struct cclock *c, struct ct_cost *cost);

/* an owed amount stays below 2^62 ps (53 days), whatever a hostile
 * stream's waits say: the sums below cannot overflow */
#define OWED_MAX (1ull << 62)

/* the clock's step over dr ns of recorded time (dr < 2^53) for an event
 * whose hook spent pre ps before its clock read and post after it: what
 * is owed (*owed, plus pre) is taken out of dr, never more than dr (no
 * branch: a short call is clipped as often as not), the rest added to
 * *ps, the corrected clock in ps (or the ps below its ns), and post owed
 * from here.  Returns what was taken out.  The one step of cc_at below
 * and of the stream decoder's fast path (stream.c), which keeps ps as
 * ns * 1000 + rem in a register and adds up taken and clipped at the end
 * of a batch, not per event */
static inline __attribute__((always_inline)) uint64_t
cc_step(uint64_t *ps, uint64_t *owed, uint64_t dr, uint64_t pre, uint64_t post)
{
	uint64_t dp = dr * 1000, o = *owed + pre;
	uint64_t take = dp < o ? dp : o;
	*owed = post;
	*ps += dp - take;
	return take;
}

/* the corrected time of an event at raw ns t (t >= c->raw: the decoder
 * keeps the recorded clock from going back) whose hook spent pre ps before
 * its clock read and post after it */
static inline uint64_t cc_at(struct cclock *c, uint64_t t, uint64_t pre, uint64_t post)
{
	if (__builtin_expect(!c->started, 0)) {
		/* the thread's clocks agree at its first event: what was spent
		 * before it has no time to be taken out of (clipped) */
		c->started = true;
		c->raw = c->ns = t;
		c->clipped += c->owed + pre;
		c->owed = post;
		return t;
	}
	uint64_t dr = t - c->raw, owed = c->owed + pre;
	c->raw = t;
	if (__builtin_expect(dr < (1ull << 53), 1)) {
		uint64_t ps = c->rem; /* (+ dr * 1000 < 2^63) */
		uint64_t take = cc_step(&ps, &c->owed, dr, pre, post);
		c->taken += take;
		c->clipped += owed - take;
		c->ns += ps / 1000;
		c->rem = ps % 1000;
	} else { /* more than 104 days between two events: nothing clipped */
		unsigned __int128 dp = (unsigned __int128)dr * 1000 - owed + c->rem;
		c->owed = post;
		c->taken += owed;
		c->ns += (uint64_t)(dp / 1000);
		c->rem = (uint64_t)(dp % 1000);
	}
	return c->ns;
}

/* the thread waited ns for the trace writer before the next event */
static inline void cc_wait(struct cclock *c, uint64_t ns)
{
	if (!c->on)
		return; /* the recorded clock (--raw): waits are kept */
	uint64_t ps = ns < OWED_MAX / 1000 ? ns * 1000 : OWED_MAX;
	c->owed = ps < OWED_MAX - c->owed ? c->owed + ps : OWED_MAX;
}

#endif
