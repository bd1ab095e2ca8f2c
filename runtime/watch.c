/* SPDX-License-Identifier: MIT */
/*
 * record -W cpu (doc/record.md "Watch points"): the CPU a thread runs on,
 * stated in its stream when it changes (calltrace/format.h CT_EXT_CPU).
 *
 * No cost when off: the option turns on the gate the record-time filters
 * use (ct_filt_on), which sends every entry of every front end to the C
 * paths, and those write each recorded ENTER through ct_enter_slow, which
 * calls ct_watch_check just before it.  The fast paths in cyg.c, hook.c
 * and the assembly are not touched.
 *
 * The CPU is read from the rseq area glibc registered for the thread
 * (struct rseq's cpu_id, kept up to date by the kernel at each return to
 * user space after a migration), a load; without one (glibc older than
 * 2.35, GLIBC_TUNABLES=glibc.pthread.rseq=0, an emulator) sched_getcpu(),
 * the vDSO's getcpu.  Reached from the hooks (busy held): libc only,
 * async-signal-safe.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/rseq.h>

#include "internal.h"

bool ct_watch_cpu;
static bool use_rseq; /* the rseq area has a cpu_id */

void ct_watch_init(void)
{
	const char *w = ct_getenv(CT_ENV_WATCH);
	if (!w || strcmp(w, "cpu") != 0)
		return;
	ct_watch_cpu = true;
	/* struct rseq's cpu_id is its second u32 */
	use_rseq = __rseq_size >= 8;
}

static inline int read_cpu(void)
{
	if (use_rseq) {
		const struct rseq *r =
			(const struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
		int c = (int)__atomic_load_n(&r->cpu_id, __ATOMIC_RELAXED);
		if (c >= 0)
			return c;
	}
	return sched_getcpu();
}

void ct_watch_check(struct ct_tstate *t)
{
	int c = read_cpu();
	if (c < 0)
		return;
	uint32_t now = (uint32_t)c + 1;
	/* -t may have taken back the CPU record with the calls around it
	 * (each call taken back is counted in fl_filtered): stated again,
	 * readers show a change only */
	if (now == t->w_cpu && !(ct_filt.timed && t->w_filt != t->fl_filtered))
		return;
	/* (set first: a buffer switch of a flight recording, in the write,
	 * forgets it, so that the next buffer states it again) */
	t->w_cpu = now;
	t->w_filt = t->fl_filtered;
	uint32_t w[2] = {ct_ext_word(CT_EXT_CPU, 1, 0), (uint32_t)c};
	ct_put_words(t, w, 2);
}
