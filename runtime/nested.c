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
static bool nested_fits(const struct ct_tstate *t, uintptr_t p)
{
	uintptr_t off = p - (uintptr_t)t->bufs;
	uintptr_t region = off / t->stride;
	return (region == t->slot || region == t->prev_slot) &&
	       off - region * t->stride + 20 <= t->stride;
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
	if (unlikely(!nested_fits(t, p))) {
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
		if (!nested_fits(t, p)) {
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
