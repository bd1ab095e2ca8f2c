/* SPDX-License-Identifier: MIT */
/*
 * The record-time filters' part of the runtime's internals (filter.c,
 * readtrig.c, and the hooks' filtering paths): the triggers, the address
 * hashes of the functions' flags, and -t's records taken back.  Included
 * at the end of internal.h, whose types it uses; a file may include
 * either.
 */
#ifndef CT_RT_FILTER_H
#define CT_RT_FILTER_H

#include "internal.h"

/* triggers: the decision at an entry, and what an exit does (finish) */
unsigned ct_filt_enter_trig(struct ct_tstate *t, uintptr_t fn, uintptr_t *flags) CT_HIDDEN;
void ct_filt_exit_trig(uintptr_t fn) CT_HIDDEN;
/* read= triggers (readtrig.c): the kinds fn's trigger reads (1 <<
 * CT_READ_*, filter.c), and the READ records of a call of fn whose
 * frame is CT_FR_READ, written at its entry (after its ENTER and ARGS) and
 * at its exit (before its RETVAL and EXIT); busy held */
uint32_t ct_filt_reads(uintptr_t fn) CT_HIDDEN;
/* -F/-N 'REGEX@if:argN OP VALUE': fn's flags fl with its -F and -N kept
 * only where their conditions hold for the arguments in t->fl_regs (NULL:
 * none hold), the conditions' bits taken out (filter.c) */
uint32_t ct_filt_cond(const struct ct_tstate *t, uint32_t fl) CT_HIDDEN;
void ct_read_trig(struct ct_tstate *t, uintptr_t fn, bool at_exit) CT_HIDDEN;
void ct_read_release(struct ct_tstate *t) CT_HIDDEN; /* the thread ends */
/* address -> CT_FL_* (key 0: empty, 1: deleted); keys NULL: none */
struct ct_filt_hash {
	uint64_t *keys;
	uint32_t *vals;
	uint64_t mask;
};
extern struct ct_filt_hash ct_filt_hash CT_HIDDEN;
static inline uint64_t ct_filt_hashof(uint64_t a)
{
	return (a * 0x9e3779b97f4a7c15ull) >> 20;
}
/* fn's value in an address hash (addrtab.c's tables), 0 when it has none */
static inline __attribute__((always_inline)) uint32_t ct_hash_lookup(const struct ct_filt_hash *h,
								     uintptr_t fn)
{
	if (unlikely(!h->keys))
		return 0;
	uint64_t i = ct_filt_hashof(fn) & h->mask;
	for (;;) {
		uint64_t k = __atomic_load_n(&h->keys[i], __ATOMIC_ACQUIRE);
		if (likely(k == fn))
			return h->vals[i];
		if (k == 0)
			return 0;
		i = (i + 1) & h->mask;
	}
}
static inline __attribute__((always_inline)) uint32_t ct_filt_lookup(uintptr_t fn)
{
	return ct_hash_lookup(&ct_filt_hash, fn);
}
void ct_filt_init(void) CT_HIDDEN; /* $CALLTRACE_FILTER, at start-up */
void ct_filt_module(uintptr_t base, const char *path, const char *buildid, bool added) CT_HIDDEN;
/* alias gets fn's flags (libcall.c): a library call's jump to fn, or the
 * implementation an IFUNC fn chose */
void ct_filt_alias(uintptr_t alias, uintptr_t fn) CT_HIDDEN;
/* does record decide the library function at target apart by the name
 * it is called by ("n" lines)?  *val: what it says of calls named name */
bool ct_filt_named(uintptr_t target, const char *name, uint32_t *val) CT_HIDDEN;
/* a's flags are val from now on (libcall.c: a name's own jump) */
void ct_filt_set(uintptr_t a, uint32_t val) CT_HIDDEN;
uint32_t ct_filt_flags(uintptr_t fn) CT_HIDDEN; /* CT_FL_* */
/* may fn's hook be left out (patch.c)?  it would never record anything */
bool ct_filt_unhooked(uintptr_t fn) CT_HIDDEN;
/* a thread is created to start in fn: noted when -N leaves fn out */
void ct_filt_thread_start(uintptr_t fn) CT_HIDDEN;
void ct_filt_after_fork(void) CT_HIDDEN; /* (in the child) */
/* what to do with a call of fn entered now; *flags gets the frame's flags
 * (CT_FR_FILT and the state above it) */
enum { CT_FD_SKIP, CT_FD_MARK, CT_FD_RECORD };
static inline __attribute__((always_inline)) unsigned ct_filt_enter(struct ct_tstate *t,
								    uintptr_t fn, uintptr_t *flags);
/* -t: a recorded call is about to be written at depth t->depth */
void ct_filt_note_entry(struct ct_tstate *t, uint64_t now) CT_HIDDEN;
/* -t: the recorded call stk[i] ends at now: take its records back if it
 * was short (true: done, depth is i), else false (write its EXIT) */
bool ct_filt_take_back(struct ct_tstate *t, uint32_t i, uint64_t now) CT_HIDDEN;
/* -t, at a buffer switch (signals blocked): move the records of calls
 * still undecided from [?, end) of the old buffer to nbase; returns where
 * the old buffer now ends */
uintptr_t ct_filt_carry(struct ct_tstate *t, uintptr_t base, uintptr_t end, uintptr_t nbase,
			uint64_t newseq) CT_HIDDEN;
void ct_filt_release(struct ct_tstate *t) CT_HIDDEN;
/* -t alone: write the entries held back (all of them: a call inside them
 * is to be recorded, or they are older than TIME) */
void ct_filt_flush(struct ct_tstate *t) CT_HIDDEN;
/* -t alone: an entry at now finds the deadline (fl_due) passed, perhaps
 * that of a held call that returned since: the lowest frame still held
 * says (its deadline becomes fl_due); if its call is TIME old, the entries
 * held back are written (cyg.c time_enter_due_rel, hook.c enter_slow) */
void ct_filt_due(struct ct_tstate *t, uint64_t now) CT_HIDDEN;
/* the frames stk[from..to) are about to vanish without their exits: the
 * number of UNWINDs the stream needs (-t: those that were short are taken
 * back as if they had returned; a TIME record gives the others their end) */
uint32_t ct_filt_unwinding(struct ct_tstate *t, uint32_t from, uint32_t to) CT_HIDDEN;
/* recorded frames among stk[from..to) */
static inline uint32_t ct_filt_recorded(const struct ct_tstate *t, uint32_t from, uint32_t to)
{
	if (!ct_filt_on)
		return to - from;
	uint32_t n = 0;
	for (uint32_t i = from; i < to; i++)
		n += !(t->stk[i].flags & CT_FR_NOREC);
	return n;
}

/* the filters' state in force: the top frame's, else the one at the bottom */
static inline __attribute__((always_inline)) uintptr_t ct_filt_state(const struct ct_tstate *t)
{
	uint32_t d = t->depth;
	if (d && (t->stk[d - 1].flags & CT_FR_FILT))
		return t->stk[d - 1].flags & CT_FR_FSTATE;
	return ct_filt.has_inc ? 0 : CT_FR_FIN;
}

static inline __attribute__((always_inline)) unsigned ct_filt_enter(struct ct_tstate *t,
								    uintptr_t fn, uintptr_t *flags)
{
	if (unlikely(ct_filt.has_trig))
		return ct_filt_enter_trig(t, fn, flags); /* (a tail call) */
	uintptr_t s = ct_filt_state(t);
	*flags = CT_FR_FILT | CT_FR_NOREC | s;
	if (s & CT_FR_NIN)
		return CT_FD_SKIP; /* no look-up inside a -N call */
	uint32_t fl = ct_filt_lookup(fn);
	if (unlikely(fl & CT_FL_COND_MASK) && !(fl & CT_FL_NOHOOK))
		fl = ct_filt_cond(t, fl); /* -F/-N 'REGEX@if:...' */
	if (fl & CT_FL_EXC) {
		*flags |= CT_FR_NIN;
		return CT_FD_MARK;
	}
	uintptr_t sd = (s & CT_FR_SD_MASK) >> CT_FR_SD_SHIFT;
	uintptr_t fin = s & CT_FR_FIN;
	if (fl & CT_FL_INC) {
		/* a -F call: -D counts from it, also inside another (as
		 * uftrace does) */
		fin = CT_FR_FIN;
		sd = 0;
	} else if (!fin) {
		return CT_FD_SKIP;
	}
	if (fl & CT_FL_HIDE) {
		if ((s & CT_FR_FSTATE) == (fin | sd << CT_FR_SD_SHIFT))
			return CT_FD_SKIP;
		/* a hidden function that begins a -F call: its callees show */
		*flags = CT_FR_FILT | CT_FR_NOREC | fin;
		return CT_FD_MARK;
	}
	if (unlikely(!ct_filt_live())) {
		/* tracing is off: a -F call that begins must still be known */
		if ((s & CT_FR_FSTATE) == (fin | sd << CT_FR_SD_SHIFT))
			return CT_FD_SKIP;
		*flags = CT_FR_FILT | CT_FR_NOREC | fin;
		return CT_FD_MARK;
	}
	if ((ct_filt.max_depth && sd >= ct_filt.max_depth) ||
	    sd + 1 > CT_FR_SD_MASK >> CT_FR_SD_SHIFT)
		return CT_FD_SKIP;
	*flags = CT_FR_FILT | fin | (sd + 1) << CT_FR_SD_SHIFT;
	return CT_FD_RECORD;
}

/* -t: the records of the recorded call whose entry p noted, taken back at
 * now if it was short and they still are in the buffer being written (the
 * depth stays as it is); false if not */
static inline bool ct_filt_take_back_at(struct ct_tstate *t, const struct ct_tpend *p, uint64_t now)
{
	uint64_t thr = unlikely(ct_filt.has_trig) ? p->thr : ct_filt.min_time;
	if (now - p->t0 >= thr || now < p->t0 || p->seq != t->seq || t->dropping)
		return false;
	/* a signal handler's hooks from here on drop their events; one that
	 * ran before moved the epoch */
	t->fl_tb = 1;
	__asm__ volatile("" ::: "memory");
	uintptr_t cur = t->cur;
	if (p->epoch != t->fl_epoch || cur < p->pos || cur - p->pos > t->stride) {
		__asm__ volatile("" ::: "memory");
		t->fl_tb = 0;
		return false;
	}
	/* records are whole words; most often one ENTER is taken back */
	for (volatile uint32_t *w = (uint32_t *)p->pos; (uintptr_t)w < cur; w++)
		*w = 0;
	t->cur = p->pos;
	__asm__ volatile("" ::: "memory");
	t->fl_tb = 0;
	t->last = p->last;
	t->hi = p->hi;
	t->fl_filtered++;
	return true;
}

/* -t: the recorded call whose frame was the top one was kept at its exit
 * (long by its threshold, or its records could not be taken back).  With
 * triggers, thresholds differ (time=): a call inside another may be long
 * by its own when the other proves short by its own.  The calls it is in
 * then stay, as its frames in the tree: their records (the ENTER before
 * its own) can no longer be taken back.  (With one threshold, the calls it
 * is in last longer than it: they are kept anyway.) */
static inline void ct_filt_kept(struct ct_tstate *t)
{
	if (unlikely(ct_filt.has_trig))
		t->fl_epoch++;
}

/* -t alone: the frame at depth d, entered at now, has its ENTER held back
 * (CT_FR_PEND | CT_FR_NOREC): the lowest such frame and the earliest
 * deadline are kept as minima (cyg.c push_held; hook.c for a library call
 * or a hooked function inside -finstrument-functions' held calls) */
static inline __attribute__((always_inline)) void ct_filt_hold_at(struct ct_tstate *t, uint32_t d,
								  uint64_t now, bool cs)
{
	t->fl_tp[d].t0 = now;
	if (cs) /* --callsite (ct_callsite_on) */
		t->fl_tp[d].site = t->cs_site;
	/* a frame held back at or below this depth (or one that returned
	 * since, whose deadline is earlier still): the minima stand as they
	 * are (fl_due was set at or before now, so it is at most now + TIME) */
	if (unlikely(d < t->fl_plo)) {
		uint64_t due = now + ct_filt.min_time;
		t->fl_due = due < t->fl_due ? due : t->fl_due;
		t->fl_plo = d;
	}
}

/* -t alone: the call whose frame is stk[d], its entry held back, ends at
 * now: when it was short it goes, nothing written (true); when long
 * (false) the caller writes the entries held back and its exit */
static inline bool ct_filt_held_short(struct ct_tstate *t, uint32_t d, uint64_t now)
{
	/* (fl_due is at most every held entry's t0 + TIME: before it, the
	 * call is short without reading its entry time) */
	if (d >= t->fl_tcap || (now >= t->fl_due && now - t->fl_tp[d].t0 >= ct_filt.min_time))
		return false;
	t->depth = d;
	if (t->fl_plo == d) {
		t->fl_plo = CT_PEND_NONE;
		t->fl_due = UINT64_MAX;
	}
	t->fl_filtered++;
	return true;
}

/* -t: note where a recorded call's records begin (at depth d, now) */
static inline void ct_filt_note_at(struct ct_tstate *t, uint32_t d, uint64_t now)
{
	struct ct_tpend *p = &t->fl_tp[d];
	p->pos = t->cur;
	p->last = t->last;
	p->hi = t->hi;
	p->seq = t->seq;
	p->t0 = now;
	p->epoch = t->fl_epoch;
	if (unlikely(ct_filt.has_trig)) {
		p->thr = t->fl_thr;
		p->lim = t->fl_lim;
	}
}

#endif
