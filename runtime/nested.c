/* SPDX-License-Identifier: MIT */
/*
 * The nested path.  `busy` counts the hooks of this thread in progress.  A
 * hook that finds it non-zero runs inside a signal handler that
 * interrupted a hook; it writes a self-contained record (absolute clock and
 * address) and touches neither the delta base nor the shadow stack, so the
 * interrupted hook finishes unharmed.  Space is reserved before it is
 * written, so the two never share bytes.
 */
#include <pthread.h>
#include <signal.h>

#include "internal.h"

/* an event dropped (counted: a LOST record follows at the next entry) */
void ct_nested_drop(struct ct_tstate *t)
{
	t->nested_lost++;
	if (t->ring)
		__atomic_fetch_add(&t->ring->lost, 1, __ATOMIC_RELAXED);
}

/* Where did a nested reservation of 20 bytes at p land?  In the buffer
 * being written, or, if the interrupted hook is switching buffers this very
 * moment, in the one before it (still open until the switch's single xchg):
 * both are fine.  Past the slack of either, it would spill into a buffer
 * that is not ours to write.  The bounds come from p alone, so no
 * instruction of the switch can make them wrong. */
static bool nested_fits(const struct ct_tstate *t, uintptr_t p, uintptr_t size)
{
	uintptr_t off = p - (uintptr_t)t->bufs;
	uintptr_t region = off / t->stride;
	return (region == t->slot || region == t->prev_slot) &&
	       off - region * t->stride + size <= t->stride;
}

void ct_nested(struct ct_tstate *t, unsigned type, void *fn)
{
	if (t->plug_in)
		return; /* a call a plugin's callback makes: not traced */
	/* first: a stopped thread (t->off) must not even read the clock; -t
	 * taking records back right under us (fl_tb): no room is ours */
	if (t->off || t->cap == 0 || !t->ring || t->dropping || t->fl_tb) {
		ct_nested_drop(t);
		return;
	}
	uint64_t now = ct_clock();
	uintptr_t a = (uintptr_t)fn;
	t->fl_epoch++; /* -t: what this handler writes cannot be taken back */
	uintptr_t p = ct_arch_reserve(&t->cur, 20);
	if (unlikely(!nested_fits(t, p, 20))) {
		if (!t->in_wait) {
			ct_nested_drop(t);
			return;
		}
		/* the interrupted hook waits for a free buffer and this handler
		 * has filled the slack: wait and switch in its place, with
		 * signals blocked so that no other handler does it too */
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		t->in_wait = 0;
		ct_buffer_full(t);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		p = ct_arch_reserve(&t->cur, 20);
		if (!nested_fits(t, p, 20)) {
			ct_nested_drop(t);
			return;
		}
	}
	volatile uint32_t *w = (volatile uint32_t *)p;
	w[1] = (uint32_t)now;
	w[2] = (uint32_t)(now >> 32);
	w[3] = (uint32_t)a;
	w[4] = (uint32_t)((uint64_t)a >> 32);
	__asm__ volatile("" ::: "memory");
	w[0] = ct_ext_word(type, 4, 0);
	t->ring->nested++;
	if (type == CT_EXT_NENTER)
		t->ndepth++;
	else if (t->ndepth)
		t->ndepth--;
}

/* record --sample: the timer's signal handler (sample.c) writes a SAMPLE
 * record naming the depth of the shadow stack, in whatever the thread was
 * doing.  Outside the hooks (busy 0) the handler is the thread's only
 * writer: the outer path's record, the buffer switch included.  Inside a
 * hook (or a signal handler's nested path) the record is reserved with one
 * instruction, as a nested one is, and written in that space alone: the
 * interrupted hook's record is before or after it, never torn.  The depth
 * is read once: a hook that has written its ENTER but not yet counted its
 * frame (or counted it off before its EXIT) gives the caller's depth, one
 * that counted first the callee's; the reader takes the call open at that
 * depth, or its innermost one, so the sample lands on the frame being
 * entered or left, never outside the path. */
void ct_sample_put(struct ct_tstate *t, uint32_t n)
{
	if (t->off || t->cap == 0 || !t->ring || t->plug_in)
		return; /* not recording this thread: nothing to charge */
	n += t->sample_owed;
	if (n > 0xffff)
		n = 0xffff;
	uint32_t d = t->depth;
	if (ct_filt_on) /* the calls the stream records (the nearest one's) */
		d = ct_filt_recorded(t, 0, d < t->cap ? d : t->cap);
	d += t->ndepth; /* a handler's calls the nested path recorded */
	uint32_t w[2] = {ct_ext_word(CT_EXT_SAMPLE, 1, n), d};
	if (t->busy == 0) {
		t->busy++;
		t->sample_owed = 0;
		ct_put_words(t, w, 2);
		t->busy--;
		return;
	}
	/* inside a hook: -t taking records back, or --drop discarding them
	 * right now: the samples go with the next record */
	if (t->dropping || t->fl_tb) {
		t->sample_owed = n;
		return;
	}
	uintptr_t p = ct_arch_reserve(&t->cur, 8);
	if (unlikely(!nested_fits(t, p, 8))) {
		t->sample_owed = n; /* the slack is full: the next one */
		return;
	}
	t->sample_owed = 0;
	volatile uint32_t *q = (volatile uint32_t *)p;
	q[1] = w[1];
	__asm__ volatile("" ::: "memory");
	q[0] = w[0];
}
