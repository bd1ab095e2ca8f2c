/* SPDX-License-Identifier: MIT */
/*
 * The thread's stream: its records and its buffers, one file because the
 * buffer switch inlines the record writers (TIME, LOST, UNWIND, WAIT) and
 * the clock's CLOCK_MONOTONIC reader, as the hooks' buffer-full path.
 *  - records: the slow paths every front end shares (first use, a delta or
 *    an address that does not fit, a mismatched exit), frames entered
 *    again, the shadow stack's growth.  The front ends are cyg.c
 *    (-finstrument-functions) and hook.c (-pg, -pg -mfentry, patched
 *    entries); the nested path, a signal handler's, is nested.c's.
 *  - buffers: a full one handed to the drainer (its state, the doorbell, a
 *    wait on the next buffer's state word); with --drop events discarded
 *    while the ring is full; with --flight the ring reused circularly;
 *    after record is gone the buffer written again.  A thread's ring is
 *    made and let go in thread.c.
 */
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "count.h"
#include "internal.h"

/* CLOCK_MONOTONIC in ns: the rest of the clock is clock.c's; this is here
 * for the buffer switch, which reads it while it waits */
uint64_t ct_clock_mono(void)
{
	struct timespec ts;
	if (likely(ct_cfg.clock_vdso))
		clock_gettime(CLOCK_MONOTONIC, &ts);
	else /* before start-up, or the TSC is disabled: the vDSO would rdtsc */
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- records -------------------------------------------------------------- */

#define STACK_INITIAL (1u << 20) /* frames; virtual, faulted in on use */

static inline uintptr_t reserve(struct ct_tstate *t, uintptr_t n)
{
	return ct_arch_reserve(&t->cur, n);
}

/* a record written by the outer (non-nested) path, possibly several words */
void ct_put_words(struct ct_tstate *t, const uint32_t *w, unsigned n)
{
	uintptr_t p = reserve(t, n * 4u);
	/* payload first, header last: a crash in between leaves a zero
	 * (padding) word where the header goes; a jump out of a signal
	 * handler in between, the whole record as padding (wrap_unwind.c) */
	ct_wr_begin(t, p, n * 4u);
	memcpy((uint32_t *)p + 1, w + 1, (n - 1) * 4u);
	__atomic_store_n((uint32_t *)p, w[0], __ATOMIC_RELEASE);
	ct_wr_end(t);
	if (unlikely(p + n * 4u > t->limit))
		ct_buffer_full(t);
}

void ct_put_time(struct ct_tstate *t, uint64_t now)
{
	uint32_t w[3] = {ct_ext_word(CT_EXT_TIME, 2, 0), (uint32_t)now, (uint32_t)(now >> 32)};
	ct_put_words(t, w, 3);
	t->last = now;
}

static void put_hi(struct ct_tstate *t, uint64_t hi)
{
	uint32_t w[2] = {ct_ext_word(CT_EXT_HI, 1, 0), (uint32_t)hi};
	ct_put_words(t, w, 2);
	t->hi = hi;
}

void ct_put_lost(struct ct_tstate *t, uint64_t n)
{
	uint32_t w[3] = {ct_ext_word(CT_EXT_LOST, 2, 0), (uint32_t)n, (uint32_t)(n >> 32)};
	ct_put_words(t, w, 3);
}

/* note the events dropped by the nested path since the last record */
void ct_put_nested_lost(struct ct_tstate *t)
{
	uint64_t n = t->nested_lost;
	t->nested_lost = 0;
	ct_put_lost(t, n);
}

/* enter again the frames stk[from..depth) at the current time: the start of
 * a forked child's stream, or the end of a gap left by --drop */
void ct_reenter_frames(struct ct_tstate *t, uint32_t from)
{
	ct_put_time(t, ct_clock());
	for (uint32_t i = from; i < t->depth; i++) {
		if (t->stk[i].flags & CT_FR_NOREC)
			continue; /* left out by a record-time filter */
		uintptr_t fn = t->stk[i].fn;
		if ((fn >> 40) != t->hi)
			put_hi(t, fn >> 40);
		uintptr_t p = reserve(t, 8);
		*(uint64_t *)p = CT_REC_ENTER | (uint64_t)fn << 24;
		if (unlikely(p + 8 > t->limit))
			ct_buffer_full(t);
	}
}

void ct_emit_unwind(struct ct_tstate *t, uint32_t n)
{
	uint32_t w[2] = {ct_ext_word(CT_EXT_UNWIND, 1, 0), n};
	/* (--count has no stream: --sample's hooked frames come here, hook.c) */
	if (n && !ct_count_on)
		ct_put_words(t, w, 2);
}

void ct_grow_stack(struct ct_tstate *t)
{
	size_t old = (size_t)t->cap * sizeof(struct ct_frame);
	size_t len = old ? old * 2 : STACK_INITIAL * sizeof(struct ct_frame);
	void *p;
	if (old)
		p = mremap(t->stk, old, len, MREMAP_MAYMOVE);
	else
		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED) {
		ct_log("cannot grow the shadow stack beyond %u frames", t->cap);
		return;
	}
	t->stk = p;
	t->cap = (uint32_t)(len / sizeof(struct ct_frame));
}

/* a frame that writes no record (record-time filters): only its exit matters */
bool ct_push_quiet(struct ct_tstate *t, uintptr_t fn, uintptr_t cfa, uintptr_t flags)
{
	if (t->depth >= t->cap) {
		ct_grow_stack(t);
		if (t->depth >= t->cap) {
			ct_nested_drop(t);
			return false;
		}
	}
	struct ct_frame *f = &t->stk[t->depth];
	f->fn = fn;
	f->cfa = cfa;
	f->ret = 0;
	f->flags = flags;
	t->depth++;
	return true;
}

/* is this thread recording?  sets it up on first use */
bool ct_thread_ready(struct ct_tstate *t)
{
	if (likely(t->cap != 0))
		return true;
	if (t->state == CT_TS_DONE || !ct_process_ready() || ct_count_on)
		return false; /* record --count: no rings (count.c) */
	if (unlikely(__atomic_load_n(&ct_cfg.stop_all, __ATOMIC_RELAXED))) {
		/* making a ring takes system calls the filter may forbid */
		ct_thread_born_off(t, ct_cfg.stop_all);
		return false;
	}
	ct_thread_start(t);
	return t->cap != 0;
}

/* the ENTER record of fn at `when` (a frame already on the shadow stack,
 * whose entry -t held back: runtime/filter.c) */
void ct_put_enter(struct ct_tstate *t, uintptr_t fn, uint64_t when, uintptr_t site)
{
	if ((fn >> 40) != t->hi)
		put_hi(t, fn >> 40);
	uint64_t delta = when - t->last;
	if (when < t->last || delta >= (1u << CT_ENTER_DELTA_BITS)) {
		ct_put_time(t, when);
		delta = 0;
	}
	uint32_t cs[CT_CALLSITE_MAXW];
	unsigned n = 8 + 4 * ct_cs_words(fn, site, cs); /* (--callsite) */
	uintptr_t p = reserve(t, n);
	ct_write_enter_cs(p, delta, fn, cs, n);
	t->last = when;
	if (unlikely(p + n > t->limit))
		ct_buffer_full(t);
}

__attribute__((noinline)) void ct_enter_slow(struct ct_tstate *t, uintptr_t fn, uint64_t now,
					     uintptr_t cfa)
{
	if (!ct_thread_ready(t))
		return;
	if (t->nested_lost)
		ct_put_nested_lost(t);
	if (unlikely(t->fl_plo != CT_PEND_NONE))
		ct_filt_flush(t); /* entries held back come first */
	if (t->depth >= t->cap) {
		ct_grow_stack(t);
		if (t->depth >= t->cap) {
			ct_nested_drop(t);
			return;
		}
	}
	t->stk[t->depth].fn = fn;
	t->stk[t->depth].cfa = cfa;
	t->stk[t->depth].ret = 0;
	t->depth++;
	if (unlikely(ct_watch_cpu))
		ct_watch_check(t); /* record -W cpu: a CPU record first */
	ct_put_enter(t, fn, now, t->cs_site);
}

/* an EXIT record at `now` (after a TIME record when the delta does not
 * fit), leaving `depth` frames open: the slow paths of every front end */
void ct_put_exit(struct ct_tstate *t, uint64_t now, uint32_t depth)
{
	uint64_t delta = now - t->last;
	if (now < t->last || delta >= (1u << CT_EXIT_DELTA_BITS)) {
		ct_put_time(t, now);
		delta = 0;
	}
	uintptr_t p = reserve(t, 4);
	*(uint32_t *)p = (uint32_t)(CT_REC_EXIT | delta << 2);
	t->last = now;
	t->depth = depth;
	if (unlikely(p + 4 > t->limit))
		ct_buffer_full(t);
}


/* record --flight: the calls open now (the innermost CT_FRAMES_MAX of
 * them), so that a reader can begin a window at the buffer this starts */
void ct_put_frames(struct ct_tstate *t)
{
	uint32_t w[2 + 2 * CT_FRAMES_MAX];
	t->w_cpu = 0; /* record -W cpu: each buffer states the CPU again */
	/* the recorded ones only (record-time filters leave some out) */
	uint32_t d = ct_filt_recorded(t, 0, t->depth), n = d < CT_FRAMES_MAX ? d : CT_FRAMES_MAX;
	w[0] = ct_ext_word(CT_EXT_FRAMES, 1 + 2 * n, 0);
	w[1] = d;
	for (uint32_t i = n, k = t->depth; i-- > 0;) {
		while (k > 0 && (t->stk[k - 1].flags & CT_FR_NOREC))
			k--;
		uint64_t fn = t->stk[--k].fn;
		w[2 + 2 * i] = (uint32_t)fn;
		w[3 + 2 * i] = (uint32_t)(fn >> 32);
	}
	ct_put_words(t, w, 2 + 2 * n);
}

/* ---- buffers -------------------------------------------------------------- */

void ct_futex_wait(uint32_t *addr, uint32_t val, long timeout_ns)
{
	struct timespec ts = {timeout_ns / 1000000000L, timeout_ns % 1000000000L};
	syscall(SYS_futex, addr, FUTEX_WAIT, val, &ts, NULL, 0);
}

void ct_futex_wake(uint32_t *addr)
{
	syscall(SYS_futex, addr, FUTEX_WAKE, 1 << 30, NULL, NULL, 0);
}

void ct_ring_doorbell(void)
{
	struct ct_doorbell *db = ct_cfg.doorbell;
	if (!db)
		return;
	__atomic_fetch_add(&db->seq, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&db->sleeping, __ATOMIC_SEQ_CST))
		ct_futex_wake(&db->seq);
}

/* --drop: the ring is full.  Instead of waiting, discard events (the one
 * just written is rolled back and zeroed) while keeping the shadow stack up
 * to date; return true while the next buffer is still busy. */
static bool drop_event(struct ct_tstate *t, struct ct_ring_header *r, uint32_t next)
{
	bool busy = __atomic_load_n(&r->slot[next].state, __ATOMIC_ACQUIRE) != CT_SLOT_EMPTY;
	if (t->resyncing)
		return false; /* drop_resume below waits rather than drop */
	if (!t->dropping) {
		if (!busy || ct_recorder_gone(true))
			return false; /* gone: ct_buffer_full reuses the buffer */
		/* the record that brought us here is kept: the buffer ends after it */
		t->dropping = 1;
		t->drop_pos = t->cur;
		t->drop_d0 = t->drop_dmin = t->depth;
		t->drop_r0 = ct_filt_recorded(t, 0, t->depth);
		t->dropped = 0;
		t->limit = 0; /* every record now comes here */
		ct_ring_doorbell();
		return true;
	}
	uintptr_t end = t->cur;
	__builtin_memset((void *)t->drop_pos, 0, end - t->drop_pos);
	t->cur = t->drop_pos;
	t->dropped++;
	__atomic_fetch_add(&r->lost, 1, __ATOMIC_RELAXED);
	if (t->depth < t->drop_dmin)
		t->drop_dmin = t->depth;
	if (busy && (t->dropped & 1023) == 0 && ct_recorder_gone(true)) {
		/* nobody will free a buffer: stop dropping, ct_buffer_full
		 * reuses this one (nothing of it is read any more) */
		t->dropping = 0;
		return false;
	}
	return busy;
}

/* --drop: a buffer is free again; after the switch, say how many events
 * are missing here, close the calls that ended meanwhile and open those
 * that began, so that the stream stays a tree */
static void drop_resume(struct ct_tstate *t)
{
	t->dropping = 0;
	ct_put_lost(t, t->dropped);
	/* (the frames above drop_dmin are not what they were: count the
	 * recorded ones below it, which are) */
	ct_emit_unwind(t, ct_filt_on ? t->drop_r0 - ct_filt_recorded(t, 0, t->drop_dmin)
				     : t->drop_d0 - t->drop_dmin);
	t->hi = UINT64_MAX; /* an HI record may have been dropped */
	t->w_cpu = 0;       /* and a CPU record (record -W cpu) */
	t->resyncing = 1;
	ct_reenter_frames(t, t->drop_dmin);
	t->resyncing = 0;
}

/* record is gone (recorder.c): nothing written is read any more.  Write the
 * current buffer again from its start, without waiting, so the program runs
 * on at the speed of the hooks; the shadow stack (which the return-hooked
 * front ends need to return) is kept as before.  One store: a signal
 * handler's records land in the slack or at the start, both ours; the slot,
 * hence the limit, stays the same. */
static void buffer_rewind(struct ct_tstate *t, struct ct_ring_header *r, uint32_t cur)
{
	t->in_wait = 0;
	__atomic_store_n(&r->waiting, 0, __ATOMIC_RELAXED);
	if (t->slot != cur)
		return; /* a signal handler did it meanwhile */
	uintptr_t base = (uintptr_t)t->bufs + (uintptr_t)cur * r->buf_stride;
	t->prev_slot = cur;
	t->limit = base + r->buf_size;
	__asm__ volatile("" ::: "memory");
	ct_arch_swap(&t->cur, base);
}
/* record --flight: the ring is used circularly and nobody drains it while
 * the program runs, so the switch never waits and never rings the doorbell:
 * the oldest buffer is written again, zeroed first as far as it was used
 * (so that its end is found after a crash) while its state says EMPTY; its
 * new sequence number is stored before any record, so that record can tell
 * a copy it took while the buffer was being reused (lib/record/flight.c).  Each buffer begins with what a
 * reader needs to start there: an absolute clock (TIME), the calls open
 * (FRAMES) and, before its first ENTER, the address bits (HI). */
static void flight_switch(struct ct_tstate *t, struct ct_ring_header *r, uint32_t cur,
			  uint32_t next, uintptr_t base)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (t->slot == cur) {
		uintptr_t nbase = (uintptr_t)t->bufs + (uintptr_t)next * r->buf_stride;
		uint64_t used = r->slot[next].state == CT_SLOT_FULL ? r->slot[next].fill : 0;
		/* not a buffer to copy while it is zeroed */
		__atomic_store_n(&r->slot[next].state, CT_SLOT_EMPTY, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		__builtin_memset((void *)nbase, 0, used < r->buf_stride ? used : r->buf_stride);
		__atomic_store_n(&r->slot[next].seq, ++t->seq, __ATOMIC_RELAXED);
		__atomic_store_n(&r->slot[next].state, CT_SLOT_WRITING, __ATOMIC_RELEASE);
		t->prev_slot = cur;
		t->slot = next;
		__asm__ volatile("" ::: "memory");
		uintptr_t end = ct_arch_swap(&t->cur, nbase);
		__asm__ volatile("" ::: "memory");
		t->limit = nbase + r->buf_size;
		r->cur_slot = next;
		r->slot[cur].fill = end - base;
		__atomic_store_n(&r->slot[cur].state, CT_SLOT_FULL, __ATOMIC_RELEASE);
		ct_put_time(t, t->last);
		ct_put_frames(t);
		t->hi = UINT64_MAX;
		ct_recalibrate(t, true); /* this buffer may be read alone */
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* the current buffer is full (a record ended past its nominal size): hand
 * it to the drainer and move to the next slot, waiting while it is busy */
void ct_buffer_full(struct ct_tstate *t)
{
	struct ct_ring_header *r = t->ring;
	if (!r)
		return;
	if (unlikely(ct_task_changed(t))) /* a raw clone child: not its ring */
		return;
	uint32_t cur = t->slot;
	uint32_t next = (cur + 1) % r->nslots;
	uintptr_t base = (uintptr_t)t->bufs + (uintptr_t)cur * r->buf_stride;

	if (ct_cfg.flight) {
		flight_switch(t, r, cur, next, base);
		return;
	}
	if (ct_cfg.drop && drop_event(t, r, next))
		return;
	bool resume = t->dropping;
	uint64_t wait_from = 0; /* the clock when waiting began */

	/* The busy counter is up: a signal arriving now writes into the slack
	 * of the old buffer, still open.  While we wait (and only then: no
	 * switch is half done), a handler whose calls outgrow the slack may do
	 * the switch itself; then there is nothing left for us to do. */
	for (;;) {
		if (t->slot != cur)
			return;
		/* each round (every 20 ms while waiting): is there still a
		 * drainer to wait for?  (`closed` only, when the next buffer is
		 * free) */
		bool free_ =
			__atomic_load_n(&r->slot[next].state, __ATOMIC_ACQUIRE) == CT_SLOT_EMPTY;
		if (unlikely(ct_recorder_gone(!free_))) {
			buffer_rewind(t, r, cur);
			return;
		}
		if (free_)
			break;
		if (!wait_from)
			wait_from = ct_clock();
		t->in_wait = 1;
		r->waits++;
		ct_ring_doorbell();
		__atomic_store_n(&r->waiting, 1, __ATOMIC_SEQ_CST);
		if (__atomic_load_n(&r->slot[next].state, __ATOMIC_ACQUIRE) != CT_SLOT_EMPTY)
			ct_futex_wait(&r->slot[next].state, CT_SLOT_FULL, 20 * 1000 * 1000);
		t->in_wait = 0;
	}
	__atomic_store_n(&r->waiting, 0, __ATOMIC_RELAXED);

	/* The switch itself runs with signals blocked: a handler that
	 * interrupted it and then longjmp'd away (the hook never resumes)
	 * would leave a buffer marked as being written that nobody writes,
	 * and the thread waiting for it for ever.  Two system calls per
	 * buffer of some 40,000 events.  A handler may have done the switch
	 * between the loop and the mask. */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (t->slot != cur) {
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		return;
	}
	uintptr_t nbase = (uintptr_t)t->bufs + (uintptr_t)next * r->buf_stride;
	__atomic_store_n(&r->slot[next].seq, ++t->seq, __ATOMIC_RELAXED);
	__atomic_store_n(&r->slot[next].state, CT_SLOT_WRITING, __ATOMIC_RELEASE);
	/* a nested record may land in either buffer while we switch */
	t->prev_slot = cur;
	t->slot = next;
	__asm__ volatile("" ::: "memory");
	uintptr_t end = ct_arch_swap(&t->cur, nbase);
	__asm__ volatile("" ::: "memory");
	if (unlikely(ct_filt_on)) {
		/* -t: calls still undecided go on in the next buffer */
		uintptr_t kept = ct_filt_carry(t, base, end, nbase, t->seq);
		if (kept != end)
			t->cur = nbase + (end - kept);
		end = kept;
		r->filtered = t->fl_filtered;
	}
	t->limit = nbase + r->buf_size;
	r->cur_slot = next;
	r->slot[cur].fill = end - base;
	__atomic_store_n(&r->slot[cur].state, CT_SLOT_FULL, __ATOMIC_RELEASE);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* half the ring is waiting to be drained: make sure the drainer is up */
	if (__atomic_load_n(&r->slot[(cur + r->nslots - r->nslots / 2) % r->nslots].state,
			    __ATOMIC_RELAXED) == CT_SLOT_FULL)
		ct_ring_doorbell();
	if (wait_from) {
		/* the time spent waiting, for the readers to take out of the
		 * calls open now (it is not the program's) */
		uint64_t now = ct_clock();
		uint32_t w[5] = {ct_ext_word(CT_EXT_WAIT, 4, 0), (uint32_t)wait_from,
				 (uint32_t)(wait_from >> 32), (uint32_t)now, (uint32_t)(now >> 32)};
		ct_put_words(t, w, 5);
	}
	ct_recalibrate(t, false); /* moved to another CPU? */
	if (resume)
		drop_resume(t);
}
