/* SPDX-License-Identifier: MIT */
/*
 * record --sched: each thread's off-CPU intervals, from DIR/sched
 * (include/calltrace/format.h), and the time a thread spent switched out
 * up to any moment: what the stream decoder gives each call as its
 * ct_event.offcpu (the reading side: session.c loads, stream.c asks).
 */
#ifndef CT_OFFCPU_H
#define CT_OFFCPU_H

#include <stdint.h>
#include <stddef.h>

struct ct_session;
struct ct_error;

/* one thread's intervals, by start: switched out at out[i] (CLOCK_MONOTONIC
 * ns), in again at in[i]; cum[i] the length of those before i */
struct ct_offcpu_thr {
	size_t n;
	uint64_t *out, *in, *cum;
};

/* DIR/sched, if the recording has one: 0 (s->sched set when it has), or -1
 * with err naming the file and the cause */
int ct_offcpu_load(struct ct_session *s, struct ct_error *err);
void ct_offcpu_free(struct ct_session *s);
/* the intervals of thread tid, or NULL */
const struct ct_offcpu_thr *ct_offcpu_thread(const struct ct_session *s, int tid);
/* thread t's off-CPU intervals on the recorded clock (ns since the start,
 * as ct_event.time): their number, and *from, *to malloc'ed (NULL, 0 when
 * none) */
struct ct_thread;
size_t ct_offcpu_spans(const struct ct_session *s, const struct ct_thread *t, uint64_t **from,
		       uint64_t **to);
/* ns the thread was switched out before CLOCK_MONOTONIC time m */
uint64_t ct_offcpu_before(const struct ct_offcpu_thr *o, uint64_t m);

#endif
