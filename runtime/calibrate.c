/* SPDX-License-Identifier: MIT */
/*
 * Overhead calibration (doc/overhead.md): what the hooks cost on this
 * machine, measured once per process image at start-up, in the traced
 * process, with the real hooks, and written to the .proc file as
 *
 *   overhead CALLS INNER OUTER
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
 * The hooks write into a private scratch buffer and shadow stack while the
 * thread's state is set aside, with signals blocked, so nothing of this
 * reaches the trace.  No allocation, no locks: a few microseconds of work
 * and two system calls.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "internal.h"

void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);

#define CAL_CALLS 128  /* calls per batch */
#define CAL_BATCHES 16 /* measured batches of each kind, after a warm-up */

/* the longest a call can write: ENTER, EXIT and a TIME and HI record each */
#define CAL_MAX_PER_CALL 44
static uint64_t scratch[(CAL_CALLS * CAL_MAX_PER_CALL + 256) / 8];
static struct ct_frame scratch_stk[8];

static struct {
	bool done;
	uint64_t calls, inner, outer;
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

static uint64_t batch_plain(void)
{
	uint64_t t0 = ct_clock();
	for (int i = 0; i < CAL_CALLS; i++)
		plain_p();
	return ct_clock() - t0;
}

/* one batch of traced calls on the scratch state; *inner gets the sum of
 * the exit deltas, UINT64_MAX when some record other than a plain ENTER or
 * EXIT (a delta too long: the batch was interrupted) was written */
static uint64_t batch_traced(struct ct_thread *t, uint64_t *inner)
{
	t->cur = (uintptr_t)scratch;
	t->depth = 0;
	t->last = ct_clock();
	uint64_t t0 = ct_clock();
	for (int i = 0; i < CAL_CALLS; i++)
		traced_p();
	uint64_t el = ct_clock() - t0;

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

static void measure(void)
{
	struct ct_thread *t = &ct_self;
	struct ct_thread saved;
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	memcpy(&saved, t, sizeof(saved));
	memset(t, 0, sizeof(*t));
	t->stk = scratch_stk;
	t->cap = sizeof(scratch_stk) / sizeof(scratch_stk[0]);
	t->hi = (uintptr_t)cal_traced >> CT_ADDR_LOW_BITS;
	/* a record never ends past the limit: no buffer switch (and with no
	 * ring, ct_buffer_full would return at once anyway) */
	t->limit = (uintptr_t)scratch + sizeof(scratch);

	uint64_t min_plain = UINT64_MAX, min_traced = UINT64_MAX, min_inner = UINT64_MAX;
	for (int b = 0; b <= CAL_BATCHES; b++) {
		uint64_t inner, p = batch_plain();
		uint64_t tr = batch_traced(t, &inner);
		if (b == 0)
			continue; /* warm-up: caches, page faults of the scratch buffer */
		if (p < min_plain)
			min_plain = p;
		if (tr < min_traced)
			min_traced = tr;
		if (inner < min_inner)
			min_inner = inner;
	}

	memcpy(t, &saved, sizeof(*t));
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	if (min_inner == UINT64_MAX)
		return; /* every batch interrupted: no figures rather than wrong ones */
	uint64_t outer = min_traced > min_plain ? min_traced - min_plain : 0;
	/* the inner part is inside the outer one; only noise can invert them */
	if (outer < min_inner)
		outer = min_inner;
	cal.calls = CAL_CALLS;
	cal.inner = min_inner;
	cal.outer = outer;
}

void ct_calibrate_note(void)
{
	if (!cal.done) {
		cal.done = true; /* once per image; a forked child inherits it */
		measure();
	}
	if (cal.calls)
		ct_proc_printf("overhead %lu %lu %lu", (unsigned long)cal.calls,
			       (unsigned long)cal.inner, (unsigned long)cal.outer);
}
