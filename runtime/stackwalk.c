/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample on x86-64: the hooked calls open at a sample,
 * found by unwinding the interrupted stack (unwind.c), so that the hooks
 * do no more than --count's (doc/record.md, "--count --sample").
 *
 * The counting trampolines (arch/x86_64/count.S) hook no return and keep
 * no stack: a call is counted by its caller's return address and its
 * hook's site.  A sample unwinds from the interrupted registers by the
 * modules' call frame information; a frame is a hooked call if its
 * function's entry hook was counted (its site noted, ct_unwind_note_site,
 * when the arc was new) and the pc is past that hook.  Such a call's
 * CFA, site and return address are what --count counted it by, so that
 * the samples' arcs meet the counts'.  A tail call's frame is its own, as
 * counted (the caller's frame gone).  Through a signal frame (a handler
 * of the program's) the walk goes on in the interrupted context.
 *
 * The walk reads the stack only where it is the thread's own: the mapping
 * that holds the stack pointer and either is the main thread's [stack] or
 * holds the thread's own TLS (a pthread's stack block), looked up in
 * /proc/self/maps with open and read (async-signal-safe) at the thread's
 * first hooked call, and again when a sample's stack pointer is below it
 * (the main thread's stack grows).  Those are never unmapped while the
 * thread runs.  Or the stack of the ucontext coroutine the thread
 * switched to last (swapcontext, setcontext: its uc_stack), once found
 * mapped whole: in use while the coroutine runs on it.  Or the signal
 * stack the thread set (sigaltstack), while the interrupted context is on
 * it.  The walk stops at a frame without call frame information (code
 * made at run time), or one whose rules it cannot follow: the calls
 * further up are not seen by that sample.
 */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "count.h"
#include "internal.h"
#include "mapfind.h"
#include "unwind.h"

#ifdef CT_ARCH_UNWIND

#define RANGE_READS 64   /* /proc/self/maps read per thread at most */
#define WALK_CALLS 16384 /* hooked calls a sample sees, the innermost */
#define WALK_STEPS 65536 /* frames a walk goes through at most */
/* a frame's lookup and rules, kept by the pc they were found at: a cache
 * for the thread's sample walks (a handler's walk cannot interrupt
 * another), one for its other walks (which a sample may interrupt) */
struct walk_cache {
	uintptr_t at;    /* the pc looked up (0: none) */
	uint32_t gen;    /* the module table's number then */
	uintptr_t start; /* its function's start */
	uintptr_t *site; /* and site's place */
	struct ct_cfi_rule rule;
};
#define WALK_CACHE 512 /* frames' rules kept per thread */
#define WALK_BYTES \
	(WALK_CALLS * sizeof(struct ct_walk_call) + 2 * WALK_CACHE * sizeof(struct walk_cache))
/* the thread's caches, after its array of calls: the samples', the others' */
#define CACHE_OF(c, k) ((struct walk_cache *)((c)->calls + WALK_CALLS) + (k)*WALK_CACHE)

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

/* the array of a sample's calls and the caches: made with the thread's
 * first hooked call (never in a handler), MAP_FAILED if it could not be */
static inline bool have_calls(const struct ct_count_thread *c)
{
	return c->calls && c->calls != MAP_FAILED;
}

void ct_walk_setup(struct ct_count_thread *c, uintptr_t sp)
{
	if (!c->calls)
		c->calls = mmap(NULL, WALK_BYTES, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	__asm__ volatile("" ::: "memory");
	c->hooked = 1;
	c->stk_lo = c->stk_hi = 0;
	c->range_reads = 0;
	find_stack(c, sp);
}

void ct_walk_free(struct ct_count_thread *c)
{
	if (have_calls(c))
		munmap(c->calls, WALK_BYTES);
	c->calls = NULL;
	c->hooked = 0;
	c->stk_lo = c->stk_hi = 0;
}

void ct_walk_switch(const void *sp, size_t size)
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

/* the stack holding sp that a walk may read, [*lo, *hi): the thread's, a
 * coroutine's, the signal stack while in use; signal: in the handler (the
 * thread's stack may be looked up again, it grew) */
static bool stack_of(struct ct_count_thread *c, uintptr_t sp, bool signal, uintptr_t *lo,
		     uintptr_t *hi)
{
	if (signal && (!c->stk_hi || (sp < c->stk_lo && c->stk_hi - sp <= ((uintptr_t)64 << 20))))
		find_stack(c, sp);
	if (sp >= c->stk_lo && sp < c->stk_hi) {
		*lo = sp;
		*hi = c->stk_hi;
		return true;
	}
	uintptr_t top = signal ? coroutine_top(c, sp) : 0;
	if (top) {
		*lo = sp;
		*hi = top;
		return true;
	}
	stack_t ss;
	if (signal && sigaltstack(NULL, &ss) == 0 && !(ss.ss_flags & SS_DISABLE) && ss.ss_size &&
	    sp >= (uintptr_t)ss.ss_sp && sp < (uintptr_t)ss.ss_sp + ss.ss_size) {
		*lo = sp;
		*hi = (uintptr_t)ss.ss_sp + ss.ss_size;
		return true;
	}
	return false;
}

static bool stack_of_signal(void *ctx, uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	return stack_of(ctx, sp, true, lo, hi);
}

static bool stack_of_here(void *ctx, uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	return stack_of(ctx, sp, false, lo, hi);
}

enum { STEP_END, STEP_FRAME, STEP_SIGNAL };

/* one frame up from r, whose pc is at (exact) or after (a return
 * address) the lookup address at; *start and *site: its function's.
 * STEP_SIGNAL: r was a signal frame, now the interrupted context (a
 * signal frame's rules are never kept: the cache's frames are not) */
static int step(struct walk_cache *cache, uint32_t gen, struct ct_uw_regs *r, bool exact,
		uintptr_t at, struct ct_uw_mem *m, uintptr_t *start, uintptr_t **site)
{
	struct walk_cache *e = cache ? &cache[(at ^ at >> 9) % WALK_CACHE] : NULL;
	if (e && e->at == at && e->gen == gen) {
		*start = e->start;
		*site = e->site;
		return ct_cfi_apply(&e->rule, r, m) ? STEP_FRAME : STEP_END;
	}
	if (!exact && ct_unwind_sigframe(r, m))
		return STEP_SIGNAL;
	struct ct_uw_func f;
	if (!ct_unwind_find(at, &f))
		return STEP_END;
	*start = f.start;
	*site = f.site;
	struct ct_cfi_rule rule;
	if (!ct_unwind_step(r, &f, exact, m, &rule))
		return STEP_END;
	if (e && rule.nsaved != CT_CFI_NO_RULE) {
		e->at = at;
		e->gen = gen;
		e->start = f.start;
		e->site = f.site;
		e->rule = rule;
	}
	return STEP_FRAME;
}

/* the walk up from r: each hooked call open, the innermost first, to
 * see (false: enough); the frames' steps held against a module table
 * replaced meanwhile; cache: the thread's (NULL: none) */
static void walk(struct walk_cache *cache, struct ct_uw_regs *r, bool exact, struct ct_uw_mem *m,
		 bool (*see)(void *arg, const struct ct_walk_call *call), void *arg)
{
	ct_unwind_hold();
	uint32_t gen = ct_unwind_gen();
	for (uint32_t n = 0; n < WALK_STEPS; n++) {
		uintptr_t pc = r->r[CT_ARCH_DWARF_RA], start = 0, *site_at = NULL;
		int how = step(cache, gen, r, exact, exact ? pc : pc - 1, m, &start, &site_at);
		if (how == STEP_END)
			break;
		if (how == STEP_SIGNAL) {
			exact = true; /* (the interrupted pc: where it stopped) */
			continue;
		}
		uintptr_t site = site_at ? __atomic_load_n(site_at, __ATOMIC_RELAXED) : 0;
		exact = false;
		uintptr_t ret = r->r[CT_ARCH_DWARF_RA];
		/* a hooked call, its hook run (pc past the site); or, in a
		 * function not hooked (or before its hook), a hooked call's
		 * frame all the same if the call that made it called another
		 * function, which is hooked: that one jumped here (a tail
		 * call, its cold part), its frame this one's, as counted */
		struct ct_uw_func callee;
		if (!(site && pc >= site) && ct_unwind_callee(ret, &callee) &&
		    callee.start != start && callee.site)
			site = __atomic_load_n(callee.site, __ATOMIC_RELAXED);
		else if (!(site && pc >= site))
			site = 0;
		if (site) {
			struct ct_walk_call call = {
				.cfa = r->r[CT_ARCH_UW_SP],
				.site = site,
				.ret = ret,
			};
			if (!see(arg, &call))
				break;
		}
	}
	ct_unwind_release();
}

struct collect {
	struct ct_count_thread *c;
	uint32_t n;
};

static bool collect(void *arg, const struct ct_walk_call *call)
{
	struct collect *k = arg;
	if (k->n >= WALK_CALLS)
		return false;
	k->c->calls[k->n++] = *call;
	return true;
}

uint32_t ct_walk_sample(struct ct_count_thread *c, const void *uc)
{
	if (!c->hooked || !have_calls(c))
		return 0;
	struct ct_uw_regs r;
	ct_arch_uw_from_gregs(((const ucontext_t *)uc)->uc_mcontext.gregs, r.r);
	r.known = (1u << CT_ARCH_UW_NREGS) - 1;
	struct ct_uw_mem m = {.stack_of = stack_of_signal, .ctx = c};
	if (!stack_of(c, r.r[CT_ARCH_UW_SP], true, &m.lo, &m.hi))
		return 0;
	struct collect k = {.c = c, .n = 0};
	walk(CACHE_OF(c, 0), &r, true, &m, collect, &k);
	return k.n;
}

struct nearest {
	uintptr_t above, reach;
	struct ct_walk_call call;
	bool found;
};

static bool nearest(void *arg, const struct ct_walk_call *call)
{
	struct nearest *k = arg;
	if (call->cfa > k->above + k->reach)
		return false;
	if (call->cfa <= k->above)
		return true;
	k->call = *call;
	k->found = true;
	return false;
}

bool ct_walk_nearest(struct ct_count_thread *c, uintptr_t above, uintptr_t reach,
		     struct ct_walk_call *call)
{
	if (!c->hooked)
		return false;
	struct ct_uw_regs r;
	ct_arch_uw_here(r.r, &r.known);
	struct ct_uw_mem m = {.stack_of = stack_of_here, .ctx = c};
	if (!stack_of(c, r.r[CT_ARCH_UW_SP], false, &m.lo, &m.hi))
		return false;
	struct nearest k = {.above = above, .reach = reach, .found = false};
	/* (a handler of the program's whose calls walk too, while this one
	 * does: without the cache, which this one may be writing) */
	bool own = have_calls(c) && !c->walking;
	c->walking++;
	__asm__ volatile("" ::: "memory");
	walk(own ? CACHE_OF(c, 1) : NULL, &r, true, &m, nearest, &k);
	__asm__ volatile("" ::: "memory");
	c->walking--;
	if (k.found)
		*call = k.call;
	return k.found;
}

#endif
