/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample on x86-64: the stack's mirror, where the samples
 * find the hooked calls open (doc/record.md, "--count --sample").
 *
 * The counting trampolines (arch/x86_64/count.S) hook no return, so
 * nothing tells when a call is over.  Each entry writes, at its CFA in a
 * per-thread array that mirrors the stack (slot = CFA * 2 & mask: a
 * 32-byte slot per 16 bytes of stack, MIRROR_SPAN bytes of stack before
 * the slots repeat), the call's site, its number (the thread's calls so
 * far) and its return address into the caller: a few stores, no loop, no
 * test on data, so that --count --sample costs little more than --count.
 * A sample then walks its stack down from the top to the interrupted stack
 * pointer.  A slot is a call open if its return address is still where
 * that call's CFA puts it (the word below the CFA; any other word there:
 * its caller made another call there since, or left that frame) and the
 * call came after every call open further up (a number below one of
 * theirs: its return address is a stale word in a frame made since, the
 * part of a large frame the function never wrote).  A call whose caller
 * returned at the same CFA and made a call from the same place again, in
 * a frame made after it, is that call, as far as a sample can tell.
 *
 * The walk reads the stack only where it is the thread's own: the mapping
 * that holds the stack pointer and either is the main thread's [stack] or
 * holds the thread's own TLS (a pthread's stack block), looked up in
 * /proc/self/maps with open and read (async-signal-safe) when the mirror
 * is made, and again when a sample's stack pointer is below it (the main
 * thread's stack grows).  Those are never unmapped while the thread runs.
 * Or the stack of the ucontext coroutine the thread switched to last
 * (swapcontext, setcontext: its uc_stack), once found mapped whole: in
 * use while the coroutine runs on it.  A sample on another
 * stack (sigaltstack, a coroutine switched to by other means) finds no
 * hooked call.  A thread's mirror is made at its first hooked call with --sample
 * and goes when it ends; a program with no hooked call has none.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "count.h"
#include "internal.h"
#include "mapfind.h"

#define MIRROR_SPAN ((uintptr_t)8 << 20) /* bytes of stack, a slot per 16 */
#define MIRROR_BYTES (MIRROR_SPAN / 16 * sizeof(struct ct_mirror_slot))
#define RANGE_READS 64 /* /proc/self/maps read per thread at most */

_Static_assert(offsetof(struct ct_count_thread, mirror) == CT_C_MIRROR, "mirror");
_Static_assert(offsetof(struct ct_count_thread, mmask) == CT_C_MMASK, "mmask");
_Static_assert(offsetof(struct ct_count_thread, mseq) == CT_C_MSEQ, "mseq");
_Static_assert(sizeof(struct ct_mirror_slot) == 32, "count.S: CFA * 2 & mask");

/* what a thread whose mirror cannot be made writes to (mask 0: one slot,
 * which nothing reads: its stack is not known) */
static struct ct_mirror_slot no_mirror;

/* /proc/self/maps opened for a look-up, RANGE_READS times a thread at
 * most; -1 past that, or if it cannot be */
static int open_maps(struct ct_count_thread *c)
{
	if (c->range_reads >= RANGE_READS)
		return -1;
	c->range_reads++;
	return open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
}

/* look up the stack that holds sp and keep it if it is the thread's own
 * (above; never the brk heap, which malloc trims: a coroutine's stack
 * there, or the main thread's TLS) */
static void find_stack(struct ct_count_thread *c, uintptr_t sp)
{
	int fd = open_maps(c);
	if (fd < 0)
		return;
	uintptr_t lo, hi;
	enum ct_map_kind kind;
	bool found = ct_map_find(fd, sp, &lo, &hi, &kind);
	close(fd);
	if (!found)
		return;
	uintptr_t tls = (uintptr_t)c;
	if (kind == CT_MAP_STACK || (kind == CT_MAP_OTHER && tls >= lo && tls < hi)) {
		c->stk_lo = lo;
		c->stk_hi = hi;
	}
}

bool ct_mirror_setup(struct ct_count_thread *c, uintptr_t sp)
{
	void *m = mmap(NULL, MIRROR_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		c->mmask = 0;
		__atomic_store_n(&c->mirror, &no_mirror, __ATOMIC_RELEASE);
		return false;
	}
	c->stk_lo = c->stk_hi = 0;
	c->range_reads = 0;
	find_stack(c, sp);
	c->mmask = MIRROR_BYTES - sizeof(struct ct_mirror_slot);
	__atomic_store_n(&c->mirror, (struct ct_mirror_slot *)m, __ATOMIC_RELEASE);
	return true;
}

void ct_mirror_free(struct ct_count_thread *c)
{
	struct ct_mirror_slot *m = c->mirror;
	c->mirror = NULL;
	c->stk_lo = c->stk_hi = 0;
	if (m && m != &no_mirror)
		munmap(m, MIRROR_BYTES);
}

void ct_mirror_switch(const void *sp, size_t size)
{
	struct ct_count_thread *c = &ct_count_self;
	uintptr_t lo = sp && size ? (uintptr_t)sp : 0;
	c->co_lo = c->co_hi = 0; /* (a sample in between: no coroutine) */
	__asm__ volatile("" ::: "memory");
	c->co_hi = lo ? lo + size : 0;
	__asm__ volatile("" ::: "memory");
	c->co_lo = lo;
}

/* is sp on the coroutine's stack the thread switched to, a range found
 * mapped whole (looked up once; a coroutine's stack is in use while it
 * runs on it, malloc's or not)?  Its top, or 0 */
static uintptr_t coroutine_top(struct ct_count_thread *c, uintptr_t sp)
{
	uintptr_t lo = c->co_lo, hi = c->co_hi;
	if (!lo || hi <= lo || sp < lo || sp >= hi)
		return 0;
	for (size_t i = 0; i < sizeof(c->co_ok) / sizeof(c->co_ok[0]); i++)
		if (c->co_ok[i].lo == lo && c->co_ok[i].hi == hi)
			return hi;
	int fd = open_maps(c);
	if (fd < 0)
		return 0;
	bool whole = ct_map_covers(fd, lo, hi);
	close(fd);
	if (!whole)
		return 0;
	size_t k = c->co_next++ % (sizeof(c->co_ok) / sizeof(c->co_ok[0]));
	c->co_ok[k].lo = lo;
	c->co_ok[k].hi = hi;
	return hi;
}

bool ct_mirror_walk_begin(struct ct_count_thread *c, uintptr_t sp, uintptr_t end, bool signal,
			  struct ct_mirror_walk *w)
{
	if (!c->mirror || c->mirror == &no_mirror)
		return false;
	/* below the stack known: the main thread's grew since (in reach of
	 * the mirror), or another stack */
	if (signal && (!c->stk_hi || (sp < c->stk_lo && c->stk_hi - sp <= MIRROR_SPAN)))
		find_stack(c, sp);
	uintptr_t top = sp >= c->stk_lo && sp < c->stk_hi ? c->stk_hi : 0;
	if (!top && signal)
		top = coroutine_top(c, sp);
	if (!top || end <= sp)
		return false;
	w->c = c;
	w->sp = sp;
	if (end > top)
		end = top;
	if (end - sp > MIRROR_SPAN)
		end = sp + MIRROR_SPAN; /* (further up the slots repeat) */
	w->end = end;
	w->a = (end + 15) & ~(uintptr_t)15; /* the block above the first one */
	w->lo = sp & ~(uintptr_t)15;
	w->seq = 0;
	return true;
}

/* the word at p, if the walk may read it */
static inline bool word(const struct ct_mirror_walk *w, uintptr_t p, uintptr_t *v)
{
	if (p < w->sp || p + 8 > w->end)
		return false;
	*v = *(const uintptr_t *)p;
	return true;
}

bool ct_mirror_walk_next(struct ct_mirror_walk *w, struct ct_mirror_call *call)
{
	const char *m = (const char *)w->c->mirror;
	uintptr_t mask = w->c->mmask;
	while (w->a > w->lo) {
		w->a -= 16;
		uintptr_t a = w->a;
		const struct ct_mirror_slot *s = (const void *)(m + (a * 2 & mask));
		uintptr_t ret = __atomic_load_n(&s->ret, __ATOMIC_RELAXED), v;
		if (!ret)
			continue;
		/* its CFA a + 8 or a (the ABI's: 16-aligned); the return
		 * address in the word below it */
		uintptr_t cfa = 0;
		if (word(w, a, &v) && v == ret)
			cfa = a + 8;
		else if (word(w, a - 8, &v) && v == ret)
			cfa = a;
		uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
		if (!cfa || seq <= w->seq)
			continue; /* over, or older than a call open above */
		w->seq = seq;
		call->cfa = cfa;
		call->site = __atomic_load_n(&s->site, __ATOMIC_RELAXED);
		call->ret = ret;
		return true;
	}
	return false;
}
