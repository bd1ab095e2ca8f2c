/* SPDX-License-Identifier: MIT */
/*
 * The per-thread stream: its ring, its records, the slow paths every front
 * end shares (first use, a full buffer, a delta or an address that does
 * not fit, a mismatched exit) and the nested path.  The front ends are
 * cyg.c (-finstrument-functions) and hook.c (-pg, -pg -mfentry, patched
 * entries).
 *
 * Signals: `busy` counts the hooks of this thread in progress.  A hook that
 * finds it non-zero runs inside a signal handler that interrupted a hook; it
 * writes a self-contained record (absolute clock and address) and touches
 * neither the delta base nor the shadow stack, so the interrupted hook
 * finishes unharmed.  Space is reserved before it is written, so the two
 * never share bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h> /* rename */
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "count.h"
#include "internal.h"

__thread struct ct_tstate ct_self __attribute__((tls_model("initial-exec")));

#define SLACK (64u * 1024u)
#define STACK_INITIAL (1u << 20) /* frames; virtual, faulted in on use */

uint64_t ct_clock_mono(void)
{
	struct timespec ts;
	if (likely(ct_cfg.clock_vdso))
		clock_gettime(CLOCK_MONOTONIC, &ts);
	else /* before start-up, or the TSC is disabled: the vDSO would rdtsc */
		syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

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

/* ---- writing records ---------------------------------------------- */

static inline uintptr_t reserve(struct ct_tstate *t, uintptr_t n)
{
	return ct_arch_reserve(&t->cur, n);
}

/* a record written by the outer (non-nested) path, possibly several words */
void ct_put_words(struct ct_tstate *t, const uint32_t *w, unsigned n)
{
	uintptr_t p = reserve(t, n * 4u);
	/* payload first, header last: a crash in between leaves a zero
	 * (padding) word where the header goes */
	memcpy((uint32_t *)p + 1, w + 1, (n - 1) * 4u);
	__asm__ volatile("" ::: "memory");
	((volatile uint32_t *)p)[0] = w[0];
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

static void put_lost(struct ct_tstate *t, uint64_t n)
{
	uint32_t w[3] = {ct_ext_word(CT_EXT_LOST, 2, 0), (uint32_t)n, (uint32_t)(n >> 32)};
	ct_put_words(t, w, 3);
}

/* note the events dropped by the nested path since the last record */
void ct_put_nested_lost(struct ct_tstate *t)
{
	uint64_t n = t->nested_lost;
	t->nested_lost = 0;
	put_lost(t, n);
}

/* enter again the frames stk[from..depth) at the current time: the start of
 * a forked child's stream, or the end of a gap left by --drop */
static void reenter_frames(struct ct_tstate *t, uint32_t from)
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
	if (n)
		ct_put_words(t, w, 2);
}

static void grow_stack(struct ct_tstate *t)
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
		grow_stack(t);
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

/* ---- the nested path (a signal handler interrupted a hook) ----------- */

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
	uintptr_t p = reserve(t, 20);
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
		p = reserve(t, 20);
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

/* is this thread recording?  sets it up on first use */
bool ct_thread_ready(struct ct_tstate *t)
{
	if (likely(t->cap != 0))
		return true;
	if (t->state == 2 || !ct_process_ready() || ct_count_on)
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
		grow_stack(t);
		if (t->depth >= t->cap) {
			ct_nested_drop(t);
			return;
		}
	}
	t->stk[t->depth].fn = fn;
	t->stk[t->depth].cfa = cfa;
	t->stk[t->depth].ret = 0;
	t->depth++;
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

/* ---- rings ---------------------------------------------------------- */

static uint32_t ring_seq;

static int gettid_(void)
{
	return (int)syscall(SYS_gettid);
}

/* create this thread's ring: in $CALLTRACE_SHM for `record`, or anonymous
 * memory drained by our own writer thread when linked in */
void ct_thread_start(struct ct_tstate *t)
{
	size_t stride = ct_cfg.buf_size + SLACK;
	size_t hdr = (sizeof(struct ct_ring_header) + 4095) & ~(size_t)4095;
	size_t len = hdr + stride * ct_cfg.nslots;
	void *map;
	int fd = -1;
	char path[4200], tmp[4200];

	t->tid = gettid_();
	if (!ct_cfg.linked && ct_recorder_gone(true)) {
		/* nobody would drain it: the thread runs untraced */
		t->state = 2;
		return;
	}
	uint32_t seq = __atomic_fetch_add(&ring_seq, 1, __ATOMIC_RELAXED);
	if (!ct_cfg.linked) {
		ct_fmt(path, sizeof(path), "%s/%d-%d-%d-%u", ct_cfg.shm, ct_cfg.pid, ct_cfg.gen,
		       t->tid, seq);
		ct_fmt(tmp, sizeof(tmp), "%s/.%d-%d-%d-%u", ct_cfg.shm, ct_cfg.pid, ct_cfg.gen,
		       t->tid, seq);
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0) {
			ct_ring_failed(t, "create", tmp, errno);
			t->state = 2;
			return;
		}
		if (ftruncate(fd, (off_t)len) < 0) {
			ct_ring_failed(t, "size", tmp, errno);
			close(fd);
			unlink(tmp);
			t->state = 2;
			return;
		}
		map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	} else {
		map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	}
	if (map == MAP_FAILED) {
		ct_ring_failed(t, "map a trace buffer in", fd >= 0 ? tmp : "anonymous memory",
			       errno);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		t->state = 2;
		return;
	}
	struct ct_ring_header *r = map;
	r->magic = CT_RING_MAGIC;
	r->version = CT_FORMAT_VERSION;
	r->pid = (uint32_t)ct_cfg.pid;
	r->tid = (uint32_t)t->tid;
	r->gen = (uint32_t)ct_cfg.gen;
	r->nslots = ct_cfg.nslots;
	r->buf_size = ct_cfg.buf_size;
	r->buf_stride = stride;
	r->data_offset = hdr;
	r->start_tsc = ct_clock();
	r->slot[0].state = CT_SLOT_WRITING;
	r->slot[0].seq = 0;

	t->ring = r;
	t->bufs = (char *)map + hdr;
	t->map_len = len;
	t->slot = 0;
	t->seq = 0;
	t->last = r->start_tsc;
	t->cur = (uintptr_t)t->bufs;
	t->limit = t->cur + ct_cfg.buf_size;
	t->stride = stride;
	t->prev_slot = 0;
	t->dropping = 0;
	t->resyncing = 0;
	t->fl_plo = CT_PEND_NONE;
	t->fl_due = UINT64_MAX;
	t->state = 1;
	if (!t->stk)
		grow_stack(t);
	ct_thread_key_set();

	if (fd >= 0) {
		close(fd);
		/* publish: record picks up only complete rings */
		if (rename(tmp, path) < 0)
			ct_log("cannot publish %s: %s", path, strerror(errno));
	}
	ct_rings_add(r, len, -1);
	ct_thread_name_start(t->tid);
	/* a ring may continue a stream file another ring of this thread began
	 * (a thread that traced again after its exit hook ran): start with an
	 * absolute clock and make the first entry state its address bits */
	t->busy++;
	ct_put_time(t, t->last);
	t->hi = UINT64_MAX;
	t->busy--;
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
	put_lost(t, t->dropped);
	/* (the frames above drop_dmin are not what they were: count the
	 * recorded ones below it, which are) */
	ct_emit_unwind(t, ct_filt_on ? t->drop_r0 - ct_filt_recorded(t, 0, t->drop_dmin)
				     : t->drop_d0 - t->drop_dmin);
	t->hi = UINT64_MAX; /* an HI record may have been dropped */
	t->resyncing = 1;
	reenter_frames(t, t->drop_dmin);
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

/* record --flight: the calls open now (the innermost CT_FRAMES_MAX of
 * them), so that a reader can begin a window at the buffer this starts */
static void put_frames(struct ct_tstate *t)
{
	uint32_t w[2 + 2 * CT_FRAMES_MAX];
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
		put_frames(t);
		t->hi = UINT64_MAX;
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
	r->slot[next].seq = ++t->seq;
	r->slot[next].state = CT_SLOT_WRITING;
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
	if (resume)
		drop_resume(t);
}

/* the thread ends (or forks away from this ring): hand over what is written */
void ct_thread_release(struct ct_tstate *t, bool unmap)
{
	struct ct_ring_header *r = t->ring;
	if (!r)
		return;
	t->busy++;
	uintptr_t base = (uintptr_t)t->bufs + (uintptr_t)t->slot * r->buf_stride;
	uintptr_t end = ct_arch_swap(&t->cur, 0);
	t->limit = 0;
	r->filtered = t->fl_filtered;
	r->slot[t->slot].fill = end - base;
	__atomic_store_n(&r->slot[t->slot].state, CT_SLOT_FULL, __ATOMIC_RELEASE);
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	ct_ring_doorbell();
	t->ring = NULL;
	t->bufs = NULL;
	if (unmap && !ct_cfg.linked)
		munmap(r, t->map_len);
	if (unmap) {
		/* should a later destructor of this thread call traced code, it
		 * starts a new ring from an empty stack */
		if (t->stk) {
			/* hooked frames still live get their return addresses */
			ct_hook_dropping(t, 0, (uintptr_t)__builtin_frame_address(0));
			munmap(t->stk, (size_t)t->cap * sizeof(struct ct_frame));
		}
		ct_hook_release(t);
		ct_filt_release(t);
		ct_plug_release(t);
		ct_inj_release();
		t->stk = NULL;
		t->cap = 0;
		t->depth = 0;
		t->state = 0;
	}
	t->busy--;
}

/* in a forked child: the ring belongs to the parent.  Start a new one and
 * open the frames that are open at the fork again, so the child's stream is
 * a whole tree of its own. */

/* a forked child's stream begins with the frames it inherited: listed in
 * one FRAMES record, so that readers show them as entered before the
 * stream and do not count them as calls again (doc/format.md); a stack
 * deeper than one FRAMES lists is entered again as before */
static void enter_inherited(struct ct_tstate *t)
{
	if (ct_filt_recorded(t, 0, t->depth) > CT_FRAMES_MAX) {
		reenter_frames(t, 0);
		return;
	}
	ct_put_time(t, ct_clock());
	put_frames(t);
	t->hi = UINT64_MAX; /* an HI before the next ENTER */
}

void ct_thread_after_fork(struct ct_tstate *t)
{
	t->ring = NULL;
	t->bufs = NULL;
	t->cur = t->limit = 0;
	t->ndepth = 0;
	t->nested_lost = 0;
	if (t->state != 1)
		return;
	t->state = 0;
	t->busy++;
	if (ct_cfg.state == CT_RT_ACTIVE)
		ct_thread_start(t);
	if (t->ring)
		enter_inherited(t);
	else
		ct_thread_untrace(t); /* its stack still says where frames return */
	t->busy--;
}

void ct_thread_untrace(struct ct_tstate *t)
{
	t->busy++;
	t->ring = NULL;
	t->bufs = NULL;
	t->cur = t->limit = 0;
	if (t->stk) {
		/* the hooked frames live on this stack: their real return
		 * addresses go back into their slots (the hook area stays, for
		 * frames it knows as orphans) */
		ct_hook_dropping(t, 0, (uintptr_t)__builtin_frame_address(0));
		munmap(t->stk, (size_t)t->cap * sizeof(struct ct_frame));
	}
	t->stk = NULL;
	t->cap = 0;
	t->depth = 0;
	t->ndepth = 0;
	t->state = 2; /* ct_thread_ready: never again */
	t->busy--;
}

/* ---- threads that must stop tracing ------------------------------------ */

static void hand_over_parked(struct ct_tstate *t);

/* The thread is about to lose what tracing needs (the TSC, system calls) or
 * to share its state with another task: hand the ring over and give the
 * frames the return trampoline holds their addresses back, while system
 * calls are still allowed; then keep busy at CT_BUSY_OFF for good, so that
 * every later hook of this thread (and of a task sharing its TLS) takes the
 * nested path, which with t->off set drops the event before reading the
 * clock: no rdtsc, no system call (runtime.c ct_nested, hook.c
 * ct_hook_enter; the assembly fast paths test busy first).  Called by the
 * interposers in wrap.c, outside any hook. */
void ct_thread_stop(struct ct_tstate *t, enum ct_untraced why)
{
	if (t->off)
		return;
	ct_untraced(why);
	if (why == CT_UNTRACED_TSC || why == CT_UNTRACED_SECCOMP)
		ct_clock_note_rate();
	if (t->busy == 0) {
		struct ct_ring_header *r = t->ring;
		size_t len = t->map_len;
		ct_thread_release(t, false);
		if (r && !ct_cfg.linked)
			munmap(r, len);
		/* hooked frames still live get their return addresses; the
		 * shadow stack and the hook area stay, so that a frame the
		 * hook area keeps as an orphan (dropped by a longjmp, parked
		 * by a context switch) still finds its way back: that reads
		 * memory only */
		t->busy++;
		if (t->stk)
			ct_hook_dropping(t, 0, (uintptr_t)__builtin_frame_address(0));
		t->depth = 0;
		t->busy--;
	} else {
		/* in a handler that interrupted a hook of this thread: the ring
		 * stays as it is (the hook finishes its record, no buffer switch
		 * follows), nothing more is written after it */
		t->limit = UINTPTR_MAX;
	}
	t->off = (uint32_t)why + 1;
	t->state = 2;
	t->busy += CT_BUSY_OFF;
}

/* where a stopped thread's hook that is under way (its record written,
 * the buffer switch done) may still write the rest of its records, e.g. an
 * argument capture after the switch: nowhere that matters */
static char scratch[SLACK] __attribute__((aligned(64)));

static void park_writer(struct ct_tstate *t)
{
	t->cur = (uintptr_t)scratch;
	t->limit = UINTPTR_MAX;
}

void ct_thread_orphaned(struct ct_tstate *t)
{
	ct_untraced(CT_UNTRACED_RING);
	t->ring = NULL;
	t->bufs = NULL;
	park_writer(t);
	t->busy++;
	/* hooked frames still live get their return addresses */
	if (t->stk)
		ct_hook_dropping(t, 0, (uintptr_t)__builtin_frame_address(0));
	t->depth = 0;
	t->off = CT_UNTRACED_RING + 1;
	t->state = 2;
	t->busy += CT_BUSY_OFF - 1;
}

/* the first thing a thread created by a stopped thread does (wrap.c): it
 * inherited what stopped its creator (a disabled TSC, a seccomp filter) */
void ct_thread_born_off(struct ct_tstate *t, uint32_t off)
{
	ct_untraced(off == CT_UNTRACED_TSC + 1 ? CT_UNTRACED_TSC : CT_UNTRACED_RING);
	t->off = off;
	t->state = 2;
	t->busy = CT_BUSY_OFF;
}

/* ct_buffer_full, every buffer (some 40,000 events): is the task writing
 * the one this state was made for?  Not if a raw clone() (a system call,
 * not through the clone wrapper of wrap.c) made a task that copied or
 * shares it:
 *  - another process (no CLONE_VM): its state is a copy, the ring shared
 *    memory with the parent's.  Start its own process file and ring, as a
 *    forked child does; what it wrote into the parent's buffer since the
 *    clone stays there (garbled, at most this buffer);
 *  - the same process (CLONE_VM without CLONE_SETTLS): the two tasks share
 *    this very state, neither can be traced.  Stop (neither the ring nor
 *    the shadow stack is unmapped: the other task may be in a hook),
 *    counted as CT_UNTRACED_CLONE. */
bool ct_task_changed(struct ct_tstate *t)
{
	if (unlikely(__atomic_load_n(&ct_cfg.stop_all, __ATOMIC_RELAXED)) && !t->off) {
		ct_thread_stop_quiet(t, (enum ct_untraced)(ct_cfg.stop_all - 1));
		return true;
	}
	int tid = gettid_();
	if (likely(tid == t->tid))
		return false;
	if (getpid() != ct_proc_pid()) {
		ct_process_after_fork();
		return true;
	}
	if (!t->off) {
		ct_untraced(CT_UNTRACED_CLONE);
		ct_log("task %d shares the tracing state of thread %d (clone with CLONE_VM and "
		       "without CLONE_SETTLS): both are not traced from here on",
		       tid, t->tid);
		t->off = CT_UNTRACED_CLONE + 1;
		t->state = 2;
		t->busy += CT_BUSY_OFF;
		/* handed over by stores, nothing unmapped: the other task may be
		 * writing its last record into it right now */
		hand_over_parked(t);
	}
	return true;
}

/* a thread that cannot have a ring (after setuid the ring directory is not
 * the thread's to write; a seccomp filter; no space): counted, and said
 * once per process, not once per thread */
void ct_ring_failed(struct ct_tstate *t, const char *what, const char *path, int err)
{
	static int said_pid;
	ct_untraced(CT_UNTRACED_RING);
	int pid = ct_proc_pid();
	if (__atomic_exchange_n(&said_pid, pid, __ATOMIC_RELAXED) != pid)
		ct_log("cannot %s %s: %s; thread %d is not traced (nor are other threads of "
		       "process %d that fail the same way: they are counted)",
		       what, path, strerror(err), t->tid, pid);
}

/* ct_thread_release without the doorbell's wake-up nor munmap: the
 * drainer finds the ring done at its next round; a hook under way (of this
 * thread's signal handler, or of a task sharing its TLS) writes the rest of
 * its record into the scratch buffer */
static void hand_over_parked(struct ct_tstate *t)
{
	struct ct_ring_header *r = t->ring;
	if (!r)
		return;
	uintptr_t base = (uintptr_t)t->bufs + (uintptr_t)t->slot * r->buf_stride;
	uintptr_t end = ct_arch_swap(&t->cur, (uintptr_t)scratch);
	t->limit = UINTPTR_MAX;
	if (end >= base && end - base <= r->buf_stride) {
		r->slot[t->slot].fill = end - base;
		__atomic_store_n(&r->slot[t->slot].state, CT_SLOT_FULL, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	t->ring = NULL;
	t->bufs = NULL;
}

void ct_thread_stop_quiet(struct ct_tstate *t, enum ct_untraced why)
{
	if (t->off)
		return;
	ct_untraced(why);
	t->busy++;
	hand_over_parked(t);
	if (t->stk)
		ct_hook_dropping(t, 0, (uintptr_t)__builtin_frame_address(0));
	t->depth = 0;
	t->off = (uint32_t)why + 1;
	t->state = 2;
	t->busy += CT_BUSY_OFF - 1;
}

void ct_thread_stopped_exit(struct ct_tstate *t)
{
	if (t->ring) {
		/* a task sharing this state stopped it (ct_task_changed): it may
		 * still be using it, so nothing is unmapped */
		hand_over_parked(t);
		return;
	}
	/* under seccomp the thread may not unmap anything: leave it */
	if (t->off == CT_UNTRACED_SECCOMP + 1 ||
	    __atomic_load_n(&ct_cfg.stop_all, __ATOMIC_RELAXED))
		return;
	if (t->stk)
		munmap(t->stk, (size_t)t->cap * sizeof(struct ct_frame));
	t->stk = NULL;
	t->cap = 0;
	ct_hook_release(t);
	ct_plug_release(t);
	ct_inj_release();
}
