/* SPDX-License-Identifier: MIT */
/*
 * Overhead calibration (doc/overhead.md): what the hooks cost on this
 * machine, measured once per process image at start-up, in the traced
 * process, with the real hooks, and written to the .proc file as
 *
 *   overhead CALLS INNER OUTER        -finstrument-functions hooks
 *   overhead-hook CALLS INNER OUTER   hooked entries (hook.c: __fentry__ and
 *                                     the return trampoline)
 *
 * INNER: clock ticks between the entry and the exit timestamp of an empty
 * function, summed over CALLS calls (the hook work after the entry's clock
 * read plus the work before the exit's): what every call shows on top of its
 * own time.  OUTER: ticks that CALLS calls of an empty traced function take
 * more than CALLS calls of the same function untraced (the whole hook pair,
 * their calls and arguments): what each call adds to the time of its
 * callers.  Each is the minimum over a few batches, so that an interrupt or
 * a preemption in one batch does not count.
 *
 * The hooked figures come from ct_cal_hooked (arch/x86_64/cal.S), an empty
 * function as -pg -mfentry compiles it, against ct_cal_plain.
 *
 * The hooks write into a private scratch buffer and shadow stack while the
 * thread's state is set aside, with signals blocked, so nothing of this
 * reaches the trace.  No allocation, no locks: a few microseconds of work
 * and two system calls.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "internal.h"

void ct_cal_hooked(void) CT_HIDDEN; /* arch/x86_64/cal.S */
void ct_cal_plain(void) CT_HIDDEN;

#define CAL_CALLS 128  /* calls per batch */
#define CAL_BATCHES 16 /* measured batches of each kind, after a warm-up */

/* the longest a call can write: ENTER, EXIT and a TIME and HI record each */
#define CAL_MAX_PER_CALL 44
static uint64_t scratch[(CAL_CALLS * CAL_MAX_PER_CALL + 256) / 8];
static struct ct_frame scratch_stk[8];

struct figures {
	uint64_t calls, inner, outer;
};

static struct {
	bool done;
	struct figures cyg, hook;
} cal;


/* through volatile pointers: the compiler can neither inline nor drop them */
static void (*volatile enter_p)(void *, void *) = __cyg_profile_func_enter;
static void (*volatile exit_p)(void *, void *) = __cyg_profile_func_exit;

/* an empty function, untraced and as -finstrument-functions compiles it */
static __attribute__((noinline)) void cal_plain(void)
{
	__asm__ volatile("");
}

static __attribute__((noinline)) void cal_traced(void)
{
	enter_p((void *)cal_traced, __builtin_return_address(0));
	__asm__ volatile("");
	exit_p((void *)cal_traced, __builtin_return_address(0));
}

static void (*volatile plain_p)(void) = cal_plain;
static void (*volatile traced_p)(void) = cal_traced;
static void (*volatile asm_plain_p)(void) = ct_cal_plain;
static void (*volatile asm_hooked_p)(void) = ct_cal_hooked;

static uint64_t batch_plain(void (*volatile *fp)(void))
{
	uint64_t t0 = ct_clock();
	for (int i = 0; i < CAL_CALLS; i++)
		(*fp)();
	return ct_clock() - t0;
}

/* one batch of traced calls on the scratch state; *inner gets the sum of
 * the exit deltas, UINT64_MAX when some record other than a plain ENTER or
 * EXIT (a delta too long: the batch was interrupted) was written.
 * hooked: ct_cal_hooked, whose entry's fast path needs a frame below it on
 * the shadow stack (a thread's first one takes the slow path): a base frame
 * at the top of the address space, not hooked, that nothing returns to */
static uint64_t batch_traced(struct ct_tstate *t, bool hooked, uint64_t *inner)
{
	t->cur = (uintptr_t)scratch;
	t->depth = 0;
	if (hooked) {
		memset(&t->stk[0], 0, sizeof(t->stk[0]));
		t->stk[0].cfa = UINTPTR_MAX;
		t->depth = 1;
	}
	void (*volatile * fp)(void) = hooked ? &asm_hooked_p : &traced_p;
	t->last = ct_clock();
	uint64_t t0 = ct_clock();
	for (int i = 0; i < CAL_CALLS; i++)
		(*fp)();
	uint64_t el = ct_clock() - t0;
	if (t->depth != (hooked ? 1u : 0u)) {
		*inner = UINT64_MAX;
		return el;
	}

	uint64_t sum = 0, exits = 0;
	const unsigned char *p = (const unsigned char *)scratch;
	const unsigned char *end = (const unsigned char *)t->cur;
	while (p < end) {
		uint32_t w;
		memcpy(&w, p, 4);
		if ((w & 3) == CT_REC_ENTER) {
			p += 8;
		} else if ((w & 3) == CT_REC_EXIT) {
			sum += w >> 2;
			exits++;
			p += 4;
		} else {
			*inner = UINT64_MAX;
			return el;
		}
	}
	*inner = exits == CAL_CALLS ? sum : UINT64_MAX;
	return el;
}

static void derive(struct figures *f, uint64_t min_plain, uint64_t min_traced, uint64_t min_inner)
{
	if (min_inner == UINT64_MAX)
		return; /* every batch interrupted: no figures rather than wrong ones */
	uint64_t outer = min_traced > min_plain ? min_traced - min_plain : 0;
	/* the inner part is inside the outer one; only noise can invert them */
	if (outer < min_inner)
		outer = min_inner;
	f->calls = CAL_CALLS;
	f->inner = min_inner;
	f->outer = outer;
}

static void measure(void)
{
	struct ct_tstate *t = &ct_self;
	struct ct_tstate saved;
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	memcpy(&saved, t, sizeof(saved));
	memset(t, 0, sizeof(*t));
	t->stk = scratch_stk;
	t->cap = sizeof(scratch_stk) / sizeof(scratch_stk[0]);
	t->hi = (uintptr_t)cal_traced >> CT_ADDR_LOW_BITS;
	/* hook.c's own area set aside: its orphans and nested frames stay
	 * untouched (the hooked calls only take the fast paths, which do not
	 * read it; the real thread's hooked frames are in `saved`) */
	t->hook = ct_hook_scratch_area();
	/* a record never ends past the limit: no buffer switch (and with no
	 * ring, ct_buffer_full would return at once anyway) */
	t->limit = (uintptr_t)scratch + sizeof(scratch);

	uint64_t min_plain[2], min_traced[2], min_inner[2];
	for (int k = 0; k < 2; k++)
		min_plain[k] = min_traced[k] = min_inner[k] = UINT64_MAX;
	bool hi_ok = ((uintptr_t)ct_cal_hooked >> CT_ADDR_LOW_BITS) == t->hi;
	for (int b = 0; b <= CAL_BATCHES; b++) {
		for (int k = 0; k < 2; k++) {
			if (k == 1 && !hi_ok)
				break; /* cannot happen in one library; no figures then */
			uint64_t inner, p = batch_plain(k ? &asm_plain_p : &plain_p);
			uint64_t tr = batch_traced(t, k == 1, &inner);
			if (b == 0)
				continue; /* warm-up: caches, page faults of the scratch buffer */
			if (p < min_plain[k])
				min_plain[k] = p;
			if (tr < min_traced[k])
				min_traced[k] = tr;
			if (inner < min_inner[k])
				min_inner[k] = inner;
		}
	}

	memcpy(t, &saved, sizeof(*t));
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	derive(&cal.cyg, min_plain[0], min_traced[0], min_inner[0]);
	derive(&cal.hook, min_plain[1], min_traced[1], min_inner[1]);
}

/* is t the calibration's scratch thread state (its calls are not the
 * program's)? */
bool ct_calibrating(const struct ct_tstate *t)
{
	return t->stk == scratch_stk;
}

void ct_calibrate_note(void)
{
	if (!cal.done) {
		cal.done = true; /* once per image; a forked child inherits it */
		measure();
	}
	if (cal.cyg.calls)
		ct_proc_printf("overhead %lu %lu %lu", (unsigned long)cal.cyg.calls,
			       (unsigned long)cal.cyg.inner, (unsigned long)cal.cyg.outer);
	if (cal.hook.calls)
		ct_proc_printf("overhead-hook %lu %lu %lu", (unsigned long)cal.hook.calls,
			       (unsigned long)cal.hook.inner, (unsigned long)cal.hook.outer);
}
