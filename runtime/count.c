/* SPDX-License-Identifier: MIT */
/*
 * record --count: exact call counts per thread and per arc (caller ->
 * callee), without a clock and without an event stream; see doc/record.md,
 * "Counting mode", and the table's layout in include/calltrace/format.h.
 *
 * Each thread counts into an open-addressing table of arcs in a file of
 * the ring directory, which `record` reads when the recording ends: what
 * was counted survives a crash or a SIGKILL of the program.  The hooks come
 * here once ct_count_on is set (at start-up, before the process is
 * active): -finstrument-functions through cyg.c's hooks (a test and a tail
 * call), the register-seeing front ends through the counting trampolines
 * of arch/<arch>/count.S, which find and bump their arc's slot themselves
 * and call ct_count_site here only to add an arc (or to start the table).
 *
 *  - -finstrument-functions: the caller is the function on top of a
 *    per-thread stack of function addresses (pushed at entry, popped at the
 *    exit hook, which the compiler also calls while an exception unwinds;
 *    an exit that is not the top's looks further down, as cyg.c does).
 *  - -pg, -mfentry, patched entries: no return hook at all.  The arc is
 *    keyed by the caller's return address (the callee's return-address
 *    slot) and the hook's return address inside the callee; `calltrace`
 *    resolves both to functions when it reads the counts (lib/read/counts.c).
 *    With --sample, x86-64's calls are found open by unwinding the
 *    sampled stack (stackwalk.c: no more work at a call than --count's),
 *    aarch64's pushed on the counting stack with their CFAs: where
 *    ct_count_sample finds the calls open.
 *
 * Signals: the fast paths are safe to interrupt anywhere.  A count is
 * bumped with one instruction (a slot, once found, never moves or goes);
 * the stack's depth is stored before its new top, so that a handler's calls
 * push above it; a free slot is claimed with a compare-and-swap on its
 * `to`.  A table is never unmapped while its thread runs (the fast path of
 * an interrupted call may still hold it).  A handler that lands in the slow
 * path counts its calls without starting a table (in_slow).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "count.h"
#include "internal.h"
#include "unwind.h"

_Static_assert(offsetof(struct ct_count_thread, slots) == CT_C_SLOTS, "slots");
_Static_assert(offsetof(struct ct_count_thread, mask) == CT_C_MASK, "mask");
_Static_assert(offsetof(struct ct_count_thread, depth) == CT_C_DEPTH, "depth");
_Static_assert(offsetof(struct ct_count_thread, cap) == CT_C_CAP, "cap");
_Static_assert(offsetof(struct ct_count_thread, stk) == CT_C_STK, "stk");
_Static_assert(offsetof(struct ct_count_thread, cfa) == CT_C_CFA, "cfa");
_Static_assert(sizeof(struct ct_count_slot) == 1u << CT_C_SLOT_SHIFT, "slot size");

__thread struct ct_count_thread ct_count_self __attribute__((tls_model("initial-exec")));
bool ct_count_on;
bool ct_count_stack; /* internal.h */

#define FIRST_SLOTS (1u << 12)        /* 128 KiB */
#define FIRST_SAMPLE_SLOTS (1u << 10) /* 32 KiB: a sample table */
#define MAX_SLOTS (1u << 22)          /* 128 MiB of address space at most */
#ifndef CT_ARCH_RA_IN_REG
#define CT_ARCH_RA_IN_REG 0 /* the return address in a register (aarch64's x30) */
#endif
#define STACK_CAP (1u << 20) /* -finstrument-functions: calls open at most */
/* a -finstrument-functions call's caller is a hooked call open within
 * this many bytes of stack above its hook's CFA (below its traced caller):
 * the unwinding looks no further */
#define CALLER_REACH 4096
#define HASH_MUL 0x5bd1e995u /* count.S's too (an imm32: below 2^31) */

/* never matches (to is never ~0): the "last hit" before any */
static struct ct_count_slot no_slot = {0, ~0ull, 0, 0};

/* the slot's byte offset for an arc: count.S computes the same */
static inline uint64_t arc_hash(uint64_t from, uint64_t to, uint64_t mask)
{
	return ((from ^ to) * (uint64_t)HASH_MUL >> 7) & mask;
}

/* a table file of nslots for this thread, named prefix PID-GEN-TID-SEQ in
 * the ring directory (created under a dot name, renamed when its header is
 * written), mapped; NULL if it cannot be */
static struct ct_count_header *make_table(struct ct_count_thread *c, const char *prefix,
					  uint32_t seq, uint64_t nslots, uint64_t lost,
					  size_t *lenp)
{
	char path[4200], tmp[4200];
	size_t hdr = 4096, len = hdr + nslots * sizeof(struct ct_count_slot);
	ct_fmt(path, sizeof(path), "%s/%s%d-%d-%d-%u", ct_cfg.shm, prefix, ct_cfg.pid, ct_cfg.gen,
	       c->tid, seq);
	ct_fmt(tmp, sizeof(tmp), "%s/.%s%d-%d-%d-%u", ct_cfg.shm, prefix, ct_cfg.pid, ct_cfg.gen,
	       c->tid, seq);
	int fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ct_log("cannot create %s: %s; calls of thread %d are not counted", tmp,
		       strerror(errno), c->tid);
		return NULL;
	}
	void *m = MAP_FAILED;
	if (ftruncate(fd, (off_t)len) == 0)
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e = errno;
	close(fd);
	if (m == MAP_FAILED) {
		ct_log("cannot size or map %s: %s; calls of thread %d are not counted", tmp,
		       strerror(e), c->tid);
		unlink(tmp);
		return NULL;
	}
	struct ct_count_header *h = m;
	h->magic = CT_COUNT_MAGIC;
	h->version = CT_FORMAT_VERSION;
	h->pid = (uint32_t)ct_cfg.pid;
	h->tid = (uint32_t)c->tid;
	h->gen = (uint32_t)ct_cfg.gen;
	h->nslots = nslots;
	h->slots_offset = hdr;
	h->lost = lost;
	if (rename(tmp, path) < 0)
		ct_log("cannot publish %s: %s", path, strerror(errno));
	*lenp = len;
	return h;
}

/* a new table of nslots for this thread's arcs */
static bool new_table(struct ct_count_thread *c, uint64_t nslots)
{
	size_t len;
	struct ct_count_header *h = make_table(c, CT_COUNT_PREFIX, c->seq++, nslots, c->lost, &len);
	if (!h)
		return false;
	c->lost = 0;
	/* the old table stays mapped while the thread runs (see above); its
	 * file is record's */
	if (c->hdr && c->nold < sizeof(c->old) / sizeof(c->old[0])) {
		c->old[c->nold].map = c->hdr;
		c->old[c->nold++].len = c->map_len;
	}
	c->hdr = h;
	c->map_len = len;
	c->grow_at = nslots / 2;
	c->last = &no_slot;
	c->mask = (nslots - 1) << CT_C_SLOT_SHIFT;
	__atomic_store_n(&c->slots, (struct ct_count_slot *)((char *)h + h->slots_offset),
			 __ATOMIC_RELEASE);
	return true;
}

/* record --count --sample: a new table of nslots for this thread's samples
 * (from setup, or from the signal handler when the one it fills is half
 * full: open, ftruncate, mmap and rename are async-signal-safe) */
static bool new_sample_table(struct ct_count_thread *c, uint64_t nslots)
{
	size_t len;
	struct ct_count_header *h =
		make_table(c, CT_COUNT_SAMPLE_PREFIX, c->st.seq++, nslots, 0, &len);
	if (!h)
		return false;
	if (c->st.hdr && c->st.nold < sizeof(c->st.old) / sizeof(c->st.old[0])) {
		c->st.old[c->st.nold].map = c->st.hdr;
		c->st.old[c->st.nold++].len = c->st.map_len;
	}
	c->st.hdr = h;
	c->st.map_len = len;
	c->st.grow_at = nslots / 2;
	c->st.mask = (nslots - 1) << CT_C_SLOT_SHIFT;
	c->st.slots = (struct ct_count_slot *)((char *)h + h->slots_offset);
	return true;
}

/* the thread's first count: its table and (for -finstrument-functions) its
 * stack; false if it cannot count (yet: during start-up; or for good) */
static bool setup(struct ct_count_thread *c)
{
	if (c->state == CT_TS_DONE || !ct_process_ready() || !ct_count_on)
		return false;
	if (c->state == CT_TS_ACTIVE)
		return c->slots != NULL;
	if (ct_recorder_gone(true)) {
		c->state = CT_TS_DONE;
		return false;
	}
	c->tid = (int)syscall(SYS_gettid);
	c->last = &no_slot;
	if (!c->stk) {
		/* (a third array, the return addresses: aarch64's hooked
		 * calls', -finstrument-functions' beside hooked calls; a fourth,
		 * the callers of those) */
		size_t arrays = 4;
		void *s = mmap(NULL, arrays * STACK_CAP * sizeof(uintptr_t), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (s == MAP_FAILED) {
			c->state = CT_TS_DONE;
			return false;
		}
		c->stk = s;
		c->cfa = c->stk + STACK_CAP;
		c->ret = c->cfa + STACK_CAP;
		c->from = c->ret + STACK_CAP;
		c->stk[0] = 0; /* below the outermost call: no caller */
		c->cfa[0] = UINTPTR_MAX;
		c->depth = 1;
	}
	if (!new_table(c, FIRST_SLOTS)) {
		c->state = CT_TS_DONE;
		return false;
	}
	c->state = CT_TS_ACTIVE;
	ct_thread_key_set(); /* its end lets the tables go (thread.c) */
	__atomic_store_n(&c->cap, STACK_CAP, __ATOMIC_RELEASE);
	if (ct_sample_ns && !c->st.slots && new_sample_table(c, FIRST_SAMPLE_SLOTS)) {
		/* record --sample: its table, and its CPU-time clock, on
		 * ct_self (sample.c) */
		ct_self.tid = c->tid;
		ct_sample_thread_start(&ct_self);
	}
	return true;
}

/* the key's slot in a table (its slots, mask and header), added if new;
 * NULL if the table is full */
static struct ct_count_slot *find_in(struct ct_count_slot *slots, uint64_t mask,
				     struct ct_count_header *hdr, uint64_t from, uint64_t to)
{
	char *base = (char *)slots;
	uint64_t off = arc_hash(from, to, mask);
	for (uint64_t probes = 0; probes <= mask >> CT_C_SLOT_SHIFT; probes++) {
		struct ct_count_slot *s = (struct ct_count_slot *)(base + off);
		uint64_t k = __atomic_load_n(&s->to, __ATOMIC_ACQUIRE);
		if (k == to && s->from == from)
			return s;
		if (k == 0) {
			if (hdr->used + 1 >= hdr->nslots)
				return NULL; /* one slot stays free: probes end */
			/* claim it: a signal handler may be after the same slot */
			uint64_t zero = 0;
			s->from = from;
			if (__atomic_compare_exchange_n(&s->to, &zero, to, false, __ATOMIC_ACQ_REL,
							__ATOMIC_ACQUIRE)) {
				hdr->used++;
				return s;
			}
			if (zero == to && s->from == from)
				return s;
		}
		off = (off + sizeof(struct ct_count_slot)) & mask;
	}
	return NULL;
}

/* the arc's slot in the thread's table of arcs, added if new */
static struct ct_count_slot *find_slot(struct ct_count_thread *c, uint64_t from, uint64_t to)
{
	return find_in(c->slots, c->mask, c->hdr, from, to);
}

/* count one call along an arc, off the fast paths */
static void count_slow(struct ct_count_thread *c, uint64_t from, uint64_t to, bool cache)
{
	if (c->in_slow) {
		/* a signal handler that interrupted the slow path: its calls are
		 * counted in the table as it is, or lost */
		struct ct_count_slot *s = c->slots ? find_slot(c, from, to) : NULL;
		if (s)
			ct_arch_reserve((uintptr_t *)&s->n, 1);
		else if (c->hdr)
			ct_arch_reserve((uintptr_t *)&c->hdr->lost, 1);
		return;
	}
	c->in_slow = 1;
	__asm__ volatile("" ::: "memory");
	if (!c->slots && !setup(c)) {
		if (c->state == CT_TS_ACTIVE || c->state == CT_TS_DONE)
			c->lost++;
		goto out;
	}
	if (c->hdr->used >= c->grow_at && c->hdr->nslots < MAX_SLOTS &&
	    !new_table(c, c->hdr->nslots * 4))
		c->grow_at = UINT64_MAX; /* said once: this table is filled up */
	struct ct_count_slot *s = find_slot(c, from, to);
	if (!s) {
		ct_arch_reserve((uintptr_t *)&c->hdr->lost, 1);
		goto out;
	}
	ct_arch_reserve((uintptr_t *)&s->n, 1);
	if (cache)
		c->last = s;
out:
	__asm__ volatile("" ::: "memory");
	c->in_slow = 0;
}

/* ---- -finstrument-functions ------------------------------------------- */

/* ---- -finstrument-functions beside hooked calls (x86-64) -----------------
 *
 * Once a hooked call was made in this thread under --sample, a
 * -finstrument-functions call's caller may be a hooked call, which is not
 * on the counting stack: the caller is the innermost call open above this
 * one's frame, found by unwinding (no further than CALLER_REACH above),
 * or on the stack.  So that their frames compare, such a call keeps its own CFA
 * (its return address's slot, found above its hook's) and that return
 * address, by which a call on the stack that is over (a longjmp left it
 * there) is told from one still open; the caller so found is kept
 * (CFA_CALLER) for ct_count_sample.  Without hooked calls, the caller is
 * the stack's top, as ever. */

/* the low bits of a -finstrument-functions entry's cfa[] (its frame's
 * place, 8-aligned): left at its exit (never by the stack pointer), and
 * its caller kept in from[] */
#define CFA_CYG 1
#define CFA_CALLER 2

/* where entry i's frame is (its CFA, or its hook's) */
static inline uintptr_t pos_of(const struct ct_count_thread *c, uint32_t i)
{
	return c->cfa[i] & ~(uintptr_t)(CFA_CYG | CFA_CALLER);
}

/* the word at p, if the thread's known stack holds it at or above sp */
static inline bool stack_word(const struct ct_count_thread *c, uintptr_t sp, uintptr_t p,
			      uintptr_t *v)
{
	if (p < sp || p < c->stk_lo || p + 8 > c->stk_hi)
		return false;
	*v = *(const uintptr_t *)p;
	return true;
}

/* is entry i of the counting stack open at sp?  (a call whose return
 * address is not below its CFA any more is over) */
static inline bool cyg_open(const struct ct_count_thread *c, uint32_t i, uintptr_t sp)
{
	uintptr_t v;
	return !c->ret[i] || !stack_word(c, sp, pos_of(c, i) - 8, &v) || v == c->ret[i];
}

/* the innermost entry below i of the stack open above position at (0: the
 * bottom, no caller) */
static inline uint32_t cyg_below(const struct ct_count_thread *c, uint32_t i, uintptr_t at,
				 uintptr_t sp)
{
	while (i > 1 && (pos_of(c, i - 1) <= at || !cyg_open(c, i - 1, sp)))
		i--;
	return i - 1;
}

/* the caller (its key) of a -finstrument-functions call at depth d whose
 * frame is at me: a hooked call open within reach above it, if nearer
 * than the stack's innermost open entry */
static __attribute__((noinline)) uintptr_t mixed_caller(struct ct_count_thread *c, uint32_t d,
							uintptr_t me)
{
	uint32_t b = cyg_below(c, d, me, me);
#ifdef CT_ARCH_UNWIND
	uintptr_t bpos = b ? pos_of(c, b) : UINTPTR_MAX;
	struct ct_walk_call call;
	if (ct_walk_nearest(c, me, CALLER_REACH, &call) && call.cfa < bpos)
		return call.site;
#endif
	return c->stk[b];
}

/* where a -finstrument-functions call's frame is: its CFA, the slot of its
 * return address ret found above its hook's CFA pos; pos without hooked
 * calls, or if not found */
static inline uintptr_t cyg_frame(const struct ct_count_thread *c, uintptr_t pos, uintptr_t ret)
{
	uintptr_t v;
	for (uintptr_t p = pos; c->hooked && p < pos + CALLER_REACH; p += 8) {
		if (!stack_word(c, pos, p, &v))
			break;
		if (v == ret)
			return p + 8;
	}
	return pos;
}

static __attribute__((noinline)) void enter_slow(struct ct_count_thread *c, uintptr_t fn,
						 uintptr_t pos, uintptr_t ret)
{
	uint32_t d = c->depth;
	if (c->cap == 0) {
		/* the thread's first call (or start-up's) */
		if (!setup(c)) {
			if (c->state == CT_TS_DONE)
				c->lost++;
			return;
		}
		d = c->depth;
	}
	if (d >= c->cap) {
		/* deeper than the stack: counted with the top as caller, and
		 * not pushed (the exits of such calls find no frame) */
		count_slow(c, c->stk[c->cap - 1], fn, false);
		return;
	}
	uintptr_t me = cyg_frame(c, pos, ret);
	uintptr_t from = c->hooked ? mixed_caller(c, d, me) : c->stk[d - 1];
	c->depth = d + 1;
	__asm__ volatile("" ::: "memory");
	c->stk[d] = fn;
	c->from[d] = from;
	c->ret[d] = me != pos ? ret : 0;
	__asm__ volatile("" ::: "memory");
	c->cfa[d] = me | CFA_CYG | (c->hooked ? CFA_CALLER : 0);
	count_slow(c, from, fn, true);
}

/* another arc than last time: found in the table as count.S does (out of
 * line, so that the hot path stays without a frame), added by the slow
 * path */
static __attribute__((noinline)) void count_other(struct ct_count_thread *c, uintptr_t from,
						  uintptr_t fn)
{
	char *base = (char *)c->slots;
	uint64_t mask = c->mask, off = arc_hash(from, fn, mask);
	for (;;) {
		struct ct_count_slot *s = (struct ct_count_slot *)(base + off);
		uint64_t k = s->to;
		if (k == fn && s->from == from) {
			ct_arch_reserve((uintptr_t *)&s->n, 1);
			c->last = s;
			return;
		}
		if (k == 0)
			break;
		off = (off + sizeof(*s)) & mask;
	}
	count_slow(c, from, fn, true);
}

void ct_count_enter(void *fnp, uintptr_t pos, uintptr_t ret)
{
	struct ct_count_thread *c = &ct_count_self;
	uintptr_t fn = (uintptr_t)fnp;
	uint32_t d = c->depth;
	if (unlikely(d >= c->cap || c->hooked)) {
		enter_slow(c, fn, pos, ret);
		return;
	}
	uintptr_t from = c->stk[d - 1];
	/* the depth first: a signal handler's calls push above this frame */
	c->depth = d + 1;
	__asm__ volatile("" ::: "memory");
	c->stk[d] = fn;
	c->cfa[d] = pos | CFA_CYG;
	c->ret[d] = 0;
	struct ct_count_slot *s = c->last;
	if (likely(s->to == fn && s->from == from)) {
		ct_arch_reserve((uintptr_t *)&s->n, 1);
		return;
	}
	count_other(c, from, fn);
}

/* an exit that is not the top frame's: frames above fn's vanished without
 * their exits (a longjmp); fn's is found further down, or the exit is
 * ignored (its entry was before counting began) */
static __attribute__((noinline)) void exit_slow(struct ct_count_thread *c, uintptr_t fn)
{
	uint32_t d = c->depth;
	if (c->cap == 0 || d > c->cap)
		return;
	for (uint32_t i = d; i > 1; i--)
		if (c->stk[i - 1] == fn) {
			c->depth = i - 1;
			return;
		}
}

void ct_count_exit(void *fnp)
{
	struct ct_count_thread *c = &ct_count_self;
	uint32_t d = c->depth;
	if (likely(d > 1 && d <= c->cap && c->stk[d - 1] == (uintptr_t)fnp))
		c->depth = d - 1;
	else
		exit_slow(c, (uintptr_t)fnp);
}

/* ---- the hooked front ends under --count --sample ---------------------- */

/* the calls open at a stack pointer sp: those of the stack's first d
 * entries whose frames are not below it (aarch64: a hooked front end's
 * call whose CFA is at or below sp has returned; -finstrument-functions'
 * leave at their exits, their CFAs odd) */
static inline uint32_t open_at(const struct ct_count_thread *c, uint32_t d, uintptr_t sp)
{
	while (d > 1 && !(c->cfa[d - 1] & CFA_CYG) && c->cfa[d - 1] <= sp)
		d--;
	return d;
}

/* open_at for a sample: on aarch64 a call whose CFA is the stack pointer
 * itself may still run without a frame of its own (at its caller's stack
 * pointer), or in untraced code it branched to (a tail call), or have
 * returned to its caller, which runs at that stack pointer too.  It runs
 * while the link register still holds its return address and pc is not
 * back in the function that address is in (fnextent.c): once returned,
 * the caller is there, or has made another call (a new return address) */
static inline uint32_t open_at_pc(const struct ct_count_thread *c, uint32_t d, uintptr_t sp,
				  uintptr_t pc, uintptr_t lr)
{
	while (d > 1 && !(c->cfa[d - 1] & CFA_CYG) && c->cfa[d - 1] <= sp) {
		if (CT_ARCH_RA_IN_REG && c->cfa[d - 1] == sp && c->ret && lr == c->ret[d - 1] &&
		    !ct_fnextent_within(lr - 1, pc))
			break;
		d--;
	}
	return d;
}

/* aarch64: a hooked call on the counting stack (its CFA, its return
 * address into the caller) */
static void enter_site(uintptr_t site, uintptr_t cfa, uintptr_t ret)
{
	struct ct_count_thread *c = &ct_count_self;
	if (c->cap == 0 && !setup(c)) {
		if (c->state == CT_TS_DONE)
			c->lost++;
		return;
	}
	uint32_t d = open_at(c, c->depth < c->cap ? c->depth : c->cap, cfa);
	c->depth = d;
	/* (a site's arc: the caller is found from from - 1, which for a
	 * -finstrument-functions call's function address must be one on) */
	uintptr_t from = c->stk[d - 1];
	if (from && (c->cfa[d - 1] & CFA_CYG))
		from++;
	if (d >= c->cap) { /* deeper than the stack: counted, not pushed */
		count_slow(c, from, site | CT_COUNT_SITE, false);
		return;
	}
	c->cfa[d] = cfa;
	c->stk[d] = site;
	if (c->ret)
		c->ret[d] = ret;
	__asm__ volatile("" ::: "memory");
	c->depth = d + 1;
	count_slow(c, from, site | CT_COUNT_SITE, false);
}

/* aarch64 (patch.S): and the return address into the caller, which a
 * sample compares with the link register (open_at_pc) */
void ct_count_enter_site_lr(uintptr_t site, uintptr_t cfa, uintptr_t ret)
{
	enter_site(site, cfa, ret);
}

/* ---- the register-seeing front ends (arch/<arch>/count.S) ---------------- */

/* an arc the trampoline did not find in the table (or no table yet): ret is
 * the caller's return address, site the hook's return address in the
 * callee.  With --sample, the site is noted for the samples' walks (each
 * site's first call in each thread comes here: the tables are the
 * thread's), and the thread's first such call finds its stack */
void ct_count_site(uintptr_t ret, uintptr_t site)
{
	struct ct_count_thread *c = &ct_count_self;
	count_slow(c, ret, site | CT_COUNT_SITE, false);
#ifdef CT_ARCH_UNWIND
	if (ct_count_stack && c->state == CT_TS_ACTIVE) {
		ct_unwind_note_site(site);
		if (!c->hooked && !c->in_slow) {
			c->in_slow = 1; /* (a handler's calls meanwhile: counted only) */
			__asm__ volatile("" ::: "memory");
			ct_walk_setup(c, (uintptr_t)__builtin_frame_address(0));
			__asm__ volatile("" ::: "memory");
			c->in_slow = 0;
		}
	}
#endif
}

/* ---- record --count --sample ---------------------------------------------- */

/* add n samples to the slot of (from, to) in the thread's table of
 * samples; tag: once per sample (0: no such check).  In the signal
 * handler, the only writer of that table (the signal is blocked while it
 * runs): its slots are claimed as the slow path claims the arcs' */
static void sample_add(struct ct_count_thread *c, uint64_t from, uint64_t to, uint32_t n,
		       uint64_t tag)
{
	struct ct_count_slot *s = find_in(c->st.slots, c->st.mask, c->st.hdr, from, to);
	if (!s) {
		ct_arch_reserve((uintptr_t *)&c->st.hdr->lost, 1);
		return;
	}
	if (tag) {
		if (s->pad == tag)
			return; /* open further up this stack: counted once */
		s->pad = tag;
	}
	__atomic_store_n(&s->n, s->n + n, __ATOMIC_RELAXED);
}

/* n samples charged on the calls open: the innermost call's arc gets them
 * as self samples, every arc and function open as total samples (once
 * each, however often they recur).  The calls open are those of the
 * counting stack (-finstrument-functions'; aarch64's hooked calls too) and
 * those found by unwinding (x86-64's hooked calls), merged by where
 * their frames are, the outermost first (a hooked call at a
 * -finstrument-functions call's own position is that one's callee).  The
 * stack's depth is read once: a sample between an entry's new depth and
 * its new top finds the frame that was there last (the two stores are
 * adjacent).  An arc that repeats the one before (a recursion) is not
 * looked up again.  A sample in the runtime's code (a hook, its slow path)
 * is the tracer's: counted apart, so that the calls' sampled times are
 * the program's own (as an untraced run's).  The samples go to a table of
 * their own, never the arcs': the hooks' probe chains stay as they are
 * without samples.  Each arc is keyed as its calls are counted: a
 * -finstrument-functions call by its caller's function or site, a hooked
 * call found by unwinding by its return address (less one: an address in the
 * caller, as every sample's caller is) */
void ct_count_sample(uint32_t n, bool hooks, const void *uc)
{
	uintptr_t sp = ct_arch_uc_sp(uc), pc = ct_arch_uc_pc(uc), lr = ct_arch_uc_lr(uc);
	struct ct_count_thread *c = &ct_count_self;
	if (c->state != CT_TS_ACTIVE || !c->st.slots)
		return;
	if (c->st.hdr->used >= c->st.grow_at && c->st.hdr->nslots < MAX_SLOTS &&
	    !new_sample_table(c, c->st.hdr->nslots * 4))
		c->st.grow_at = UINT64_MAX; /* said once: this table is filled up */
	uint32_t d = __atomic_load_n(&c->depth, __ATOMIC_RELAXED);
	uint32_t cap = __atomic_load_n(&c->cap, __ATOMIC_RELAXED);
	if (d > cap)
		d = cap;
	uint64_t tag = ++c->sample_seq;
	if (n > 1) /* (one taken for n periods: the POSIX timer's overruns) */
		sample_add(c, 2, CT_COUNT_SSELF, n - 1, 0);
	if (hooks || c->in_slow) {
		/* the tracer's own time (an untraced run has none): charged to
		 * no call, counted apart (from 1) */
		sample_add(c, 1, CT_COUNT_SSELF, n, 0);
		return;
	}
	d = open_at_pc(c, d, sp, pc, lr); /* (aarch64's hooked calls over by now) */
					  /* the hooked calls found, the outermost first */
#ifdef CT_ARCH_UNWIND
	uint32_t k = ct_walk_sample(c, uc);
#else
	uint32_t k = 0;
#endif
	uintptr_t pcaller = 1, pfn = 1; /* (no function address) */
	uintptr_t sfrom = 0, sfn = 0;   /* the innermost call's arc */
	bool any = false;
	for (uint32_t i = 1;;) {
		while (i < d && (c->cfa[i] & CFA_CYG) && !cyg_open(c, i, sp))
			i++; /* (a -finstrument-functions call over: a longjmp) */
		uintptr_t from, fn;
		const struct ct_walk_call *mc = k ? &c->calls[k - 1] : NULL;
		if (i < d && (!mc || pos_of(c, i) >= mc->cfa)) {
			fn = c->stk[i];
			/* (as counted: mixed_caller's, found at its entry) */
			from = c->cfa[i] & CFA_CALLER ? c->from[i] : c->stk[i - 1];
			i++;
		} else if (mc) {
			fn = mc->site;
			from = mc->ret - 1;
			k--;
		} else {
			break;
		}
		any = true;
		sfrom = from;
		sfn = fn;
		if (fn == pfn && from == pcaller)
			continue;
		sample_add(c, from, fn | CT_COUNT_STOTAL, n, tag);
		if (fn != pfn)
			sample_add(c, CT_COUNT_SFUNC, fn | CT_COUNT_STOTAL, n, tag);
		pcaller = from;
		pfn = fn;
	}
	if (any)
		sample_add(c, sfrom, sfn | CT_COUNT_SSELF, n, 0);
	else
		sample_add(c, 0, CT_COUNT_SSELF, n, 0); /* outside any call */
}

/* ---- processes and threads ---------------------------------------------- */

/* the thread's tables unmapped (their files stay for record) */
static void unmap_tables(struct ct_count_thread *c)
{
	if (c->hdr)
		munmap(c->hdr, c->map_len);
	for (uint32_t i = 0; i < c->nold; i++)
		munmap(c->old[i].map, c->old[i].len);
	c->hdr = NULL;
	c->nold = 0;
	c->st.slots = NULL;
	if (c->st.hdr)
		munmap(c->st.hdr, c->st.map_len);
	for (uint32_t i = 0; i < c->st.nold; i++)
		munmap(c->st.old[i].map, c->st.old[i].len);
	c->st.hdr = NULL;
	c->st.nold = 0;
}

void ct_count_after_fork(void)
{
	/* the tables are the parent's (shared memory): the child starts its
	 * own at its next call; its stack (a private copy) stays, so that the
	 * calls open at the fork are still the callers */
	struct ct_count_thread *c = &ct_count_self;
	c->slots = NULL;
	c->last = &no_slot;
	unmap_tables(c); /* the parent's, shared: never to be written here */
	c->seq = 0;
	c->st.seq = 0;
	c->lost = 0;
	c->cap = 0; /* set up again at its next call, keeping the stack */
	c->state = ct_cfg.state == CT_RT_ACTIVE ? CT_TS_NONE : CT_TS_DONE;
}

/* the thread ends (thread.c): its table's file is record's; what it mapped
 * goes, and a later traced call (a destructor) starts anew */
void ct_count_thread_exit(void)
{
	struct ct_count_thread *c = &ct_count_self;
	if (!ct_count_on || c->state != CT_TS_ACTIVE)
		return;
	ct_sample_thread_stop(&ct_self); /* (a sample pending finds no table) */
	c->state = CT_TS_NONE;
	c->cap = 0;
	c->slots = NULL;
	c->last = &no_slot;
	unmap_tables(c);
#ifdef CT_ARCH_UNWIND
	ct_walk_free(c);
#endif
	/* the stack stays (a destructor may still return through it) */
}
