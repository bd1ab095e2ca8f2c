/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample's hooked frames (split from hook.c, whose rules
 * they follow): ct_hook_enter and ct_hook_return hand their calls here
 * when --count is on; each call is counted on count.c's counting stack and
 * its return hooked, so that it leaves that stack when it returns.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "count.h"
#include "hook_priv.h"
#include "internal.h"
#include "regs.h"

#if COUNT_FRAMES
/*
 * With --count alone the entries of -pg, -mfentry and patched entries are
 * counted by count.S, keyed by call site, and nothing is kept of them.
 * With --sample too (ct_count_tramp clear: tramp.S takes the general path
 * to ct_hook_enter, which comes here) each call is counted as
 * -finstrument-functions' are, on the counting stack (count.c: the arc
 * from the function on top, then pushed), and its return is hooked so that
 * it leaves that stack when it returns: a sample is charged to the call in
 * progress.  The hooked frame is an ordinary one of the shadow stack
 * (t->stk: cfa, ret, CT_FR_HOOKED), so hook.c's rules hold unchanged:
 * unhook_all and rehook_all for C++ unwinding, backtrace() and context
 * switches (wrap_unwind.c), ct_hook_dropping for longjmp, a catch and
 * frames found gone by their CFA.  Its fn field holds instead the index of
 * its function on the counting stack: a frame that leaves the shadow stack
 * cuts the counting stack back there (ct_hook_dropping, ct_hook_count_return), with
 * whatever -finstrument-functions calls were above it.  No record is ever
 * written (ct_emit_unwind writes nothing in counting mode).
 *
 * Signals: busy is held here; a handler that interrupts this code has its
 * hooked calls counted (from the function on top) but not pushed nor their
 * returns hooked; one that interrupts the program pushes and pops above.
 */

/* the thread's shadow stack and hook area (made at its first call) */
static bool count_frames(struct ct_tstate *t)
{
	if (!t->stk || t->cap == 0)
		ct_grow_stack(t);
	return t->stk && t->cap && hook_area(t);
}

int ct_hook_count_enter(struct ct_arch_regs *r, uintptr_t site, uintptr_t kind)
{
	struct ct_tstate *t = &ct_self;
	int pushed = 0;
	bool inside = unlikely(t->busy++ != 0);
	if (inside && t->off) { /* a stopped thread: nothing (as ct_hook_enter) */
		t->busy--;
		return 0;
	}
	uintptr_t fn = kind == 1 ? mcount_fn(site) : ct_insn_fentry_fn(site, (int)kind, &pushed);
	if (inside) {
		/* a signal handler inside this code: counted only */
		ct_count_call((void *)fn);
		t->busy--;
		return 0;
	}
	if (pushed)
		r->sp += 8;
	uintptr_t *slot = (uintptr_t *)r->sp;
	uintptr_t cfa = (uintptr_t)slot + 8;
	struct ct_count_thread *c = &ct_count_self;
	if (!count_frames(t)) {
		ct_count_call((void *)fn);
		t->busy--;
		return 0;
	}
	/* a tail call: the caller jumped here in its own frame, whose slot
	 * holds the trampoline already; the new frame returns through it */
	bool tail = *slot == TRAMP;
	if (t->depth > 0 && t->stk[t->depth - 1].cfa <= cfa)
		ct_hook_resync(cfa, tail); /* frames gone (a longjmp) */
	bool hook = t->depth + 1 < t->cap &&
		    (!tail || (t->depth > 0 && t->stk[t->depth - 1].cfa == cfa &&
			       (t->stk[t->depth - 1].flags & CT_FR_HOOKED)));
	uint32_t before = c->depth;
	ct_count_enter((void *)fn); /* counted, and pushed unless too deep */
	uint32_t cd = c->depth;
	if (hook && cd != before && cd >= 2 && c->stk[cd - 1] == fn) {
		struct ct_frame *f = &t->stk[t->depth];
		f->fn = cd - 1; /* its entry of the counting stack */
		f->cfa = cfa;
		f->ret = *slot;
		f->flags = CT_FR_HOOKED;
		t->depth++;
		*slot = TRAMP;
	} else if (cd != before && cd >= 2 && c->stk[cd - 1] == fn) {
		c->depth = cd - 1; /* not hooked: nothing would pop it */
	}
	t->busy--;
	return 0;
}

uintptr_t ct_hook_count_return(uintptr_t cfa)
{
	struct ct_tstate *t = &ct_self;
	uintptr_t ret;
	if (unlikely(t->busy++ != 0)) {
		ret = ct_hook_nested_return(cfa);
		t->busy--;
		return ret;
	}
	for (;;) {
		uint32_t d = t->depth, i = d;
		while (i > 0 && !(t->stk[i - 1].cfa == cfa && t->stk[i - 1].ret &&
				  (t->stk[i - 1].flags & CT_FR_HOOKED)))
			i--;
		if (i == 0) {
			ret = ct_hook_orphan_take(cfa);
			if (!ret)
				ct_hook_lost_frame(cfa);
			break;
		}
		struct ct_frame *f = &t->stk[i - 1];
		uint32_t at = (uint32_t)f->fn;
		ret = f->ret;
		f->ret = 0;
		f->flags = 0;
		if (i < d) /* frames above it vanished without returning */
			ct_hook_dropping(t, i, cfa);
		t->depth = i - 1;
		ct_count_cut(at);
		/* a tail-called frame: the one that jumped to it returns now too */
		if (ret != TRAMP)
			break;
	}
	t->busy--;
	return ret;
}

/* the thread ends (count.c): hooked frames still live get their return
 * addresses back, and the shadow stack goes (a later call, a destructor's,
 * makes it again) */
void ct_hook_count_release(struct ct_tstate *t)
{
	if (!t->stk || t->ring)
		return;
	t->busy++;
	ct_hook_dropping(t, 0, (uintptr_t)__builtin_frame_address(0));
	munmap(t->stk, (size_t)t->cap * sizeof(struct ct_frame));
	t->stk = NULL;
	t->cap = 0;
	t->depth = 0;
	ct_hook_release(t);
	t->busy--;
}
#else
void ct_hook_count_release(struct ct_tstate *t)
{
	(void)t;
}
#endif
