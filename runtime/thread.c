/* SPDX-License-Identifier: MIT */
/*
 * A thread's tracing state: its ring made at its first traced call, handed
 * over when it ends (a thread-specific key's destructor), and the threads
 * that must stop tracing (a seccomp filter, a disabled TSC, a task that
 * shares the state, no ring to be had).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h> /* rename */
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "count.h"
#include "internal.h"

__thread struct ct_tstate ct_self __attribute__((tls_model("initial-exec")));

#define SLACK (64u * 1024u)

static pthread_key_t thread_key;

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
		t->state = CT_TS_DONE;
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
			t->state = CT_TS_DONE;
			return;
		}
		if (ftruncate(fd, (off_t)len) < 0) {
			ct_ring_failed(t, "size", tmp, errno);
			close(fd);
			unlink(tmp);
			t->state = CT_TS_DONE;
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
		t->state = CT_TS_DONE;
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
	t->w_cpu = 0; /* record -W cpu: a new stream states its CPU */
	t->last = r->start_tsc;
	t->cur = (uintptr_t)t->bufs;
	t->limit = t->cur + ct_cfg.buf_size;
	t->stride = stride;
	t->prev_slot = 0;
	t->dropping = 0;
	t->resyncing = 0;
	t->fl_plo = CT_PEND_NONE;
	t->fl_due = UINT64_MAX;
	t->state = CT_TS_ACTIVE;
	if (!t->stk)
		ct_grow_stack(t);
	ct_sample_thread_start(t); /* record --sample: its timer */
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
	/* started on another CPU than the process's figures are for? */
	ct_recalibrate(t, false);
}

static void thread_exit(void *arg)
{
	(void)arg;
	if (__atomic_load_n(&ct_cfg.stop_all, __ATOMIC_RELAXED))
		ct_thread_stop_quiet(&ct_self, (enum ct_untraced)(ct_cfg.stop_all - 1));
	else if (ct_self.off)
		ct_thread_stopped_exit(&ct_self);
	else
		ct_thread_release(&ct_self, true);
	ct_count_thread_exit();
}

void ct_thread_key_set(void)
{
	pthread_setspecific(thread_key, (void *)1);
}

/* at start-up, once: thread_exit for every thread that traced */
void ct_thread_key_init(void)
{
	pthread_key_create(&thread_key, thread_exit);
}

/* the thread ends (or forks away from this ring): hand over what is written */
void ct_thread_release(struct ct_tstate *t, bool unmap)
{
	struct ct_ring_header *r = t->ring;
	if (!r)
		return;
	ct_sample_thread_stop(t); /* (a sample pending finds no ring) */
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
		ct_rings_unmap(r, t->map_len);
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
		ct_read_release(t);
		t->stk = NULL;
		t->cap = 0;
		t->depth = 0;
		t->state = CT_TS_NONE;
	}
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
	t->state = CT_TS_DONE; /* ct_thread_ready: never again */
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
 * clock: no rdtsc, no system call (nested.c ct_nested, hook.c
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
			ct_rings_unmap(r, len);
		/* hooked frames still live get their return addresses; the
		 * shadow stack and the hook area stay, so that a frame the
		 * hook area keeps as an orphan (dropped by a longjmp, parked
		 * by a context switch) still finds its way back: that reads
		 * memory only */
		t->busy++;
		if (t->stk)
			ct_hook_give_back(t, (uintptr_t)__builtin_frame_address(0));
		t->depth = 0;
		t->busy--;
	} else {
		/* in a handler that interrupted a hook of this thread: the ring
		 * stays as it is (the hook finishes its record, no buffer switch
		 * follows), nothing more is written after it */
		t->limit = UINTPTR_MAX;
	}
	t->off = (uint32_t)why + 1;
	t->state = CT_TS_DONE;
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
	t->state = CT_TS_DONE;
	t->busy += CT_BUSY_OFF - 1;
}

/* the first thing a thread created by a stopped thread does (wrap.c): it
 * inherited what stopped its creator (a disabled TSC, a seccomp filter) */
void ct_thread_born_off(struct ct_tstate *t, uint32_t off)
{
	ct_untraced(off == CT_UNTRACED_TSC + 1 ? CT_UNTRACED_TSC : CT_UNTRACED_RING);
	t->off = off;
	t->state = CT_TS_DONE;
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
		t->state = CT_TS_DONE;
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
	t->state = CT_TS_DONE;
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
	ct_read_release(t);
}
