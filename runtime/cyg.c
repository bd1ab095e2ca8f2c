/* SPDX-License-Identifier: MIT */
/*
 * The -finstrument-functions front end: __cyg_profile_func_enter and
 * __cyg_profile_func_exit, which the compiler calls at every function's
 * entry and exit (also while a C++ exception unwinds).
 *
 * Hot path: TLS -> clock -> one compact record reserved with a single
 * instruction -> shadow stack.  Everything else goes to the slow paths of
 * stream.c (ct_enter_slow; exit_slow below for an exit that does not match
 * the top frame).
 *
 * Signals: `busy` counts the hooks of this thread in progress.  A hook that
 * finds it non-zero runs inside a signal handler that interrupted a hook; it
 * writes a self-contained record (absolute clock and address) and touches
 * neither the delta base nor the shadow stack, so the interrupted hook
 * finishes unharmed.  Space is reserved before it is written, so the two
 * never share bytes.
 */
#include <fcntl.h>
#include <sys/syscall.h>

#include "count.h"
#include "internal.h"
#include "offsets.h"

static void exit_slow(struct ct_tstate *t, uintptr_t fn, uint64_t now);
static void filt_enter(struct ct_tstate *t, uintptr_t fn, uintptr_t cfa);
static void filt_act(struct ct_tstate *t, uintptr_t fn, uintptr_t cfa, unsigned dec,
		     uintptr_t flags);
static void filt_exit(struct ct_tstate *t, uintptr_t fn);
static void filt_enter_fast(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, uintptr_t ret);
static inline void time_enter(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, bool tsc, bool cs);
static inline void time_exit(struct ct_tstate *t, uintptr_t fn, bool tsc);
static void filt_exit_fast(struct ct_tstate *t, uintptr_t fn, uintptr_t ret);
static void filt_record(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, unsigned dec,
			uintptr_t flags);

/* The hooks' common paths make no call and keep no register, so they need
 * no stack frame: every other case is a function of its own, reached by a
 * jump (a tail call), which lets `busy` go itself (the `_rel` ones below).
 * `busy` is taken by a compare and a store, not an increment: a signal
 * handler that runs between the two finds it 0, runs its hooks in full and
 * leaves it 0 again before this hook has read anything else. */
#define CT_BARRIER() __asm__ volatile("" ::: "memory")

bool ct_cyg_held, ct_cyg_held_alone;                       /* internal.h */
bool ct_cyg_enter_fast, ct_cyg_sel_fast, ct_cyg_exit_fast; /* internal.h */

static __attribute__((noinline)) void enter_nested(struct ct_tstate *t, void *fn)
{
	t->busy++;
	ct_nested(t, CT_EXT_NENTER, fn);
	t->busy--;
}

static __attribute__((noinline)) void exit_nested(struct ct_tstate *t, void *fn)
{
	t->busy++;
	ct_nested(t, CT_EXT_NEXIT, fn);
	t->busy--;
}

static __attribute__((noinline)) void buffer_full_rel(struct ct_tstate *t)
{
	ct_buffer_full(t);
	t->busy--;
}

static __attribute__((noinline)) void enter_slow_rel(struct ct_tstate *t, uintptr_t a, uint64_t now,
						     uintptr_t cfa)
{
	ct_enter_slow(t, a, now, cfa);
	/* a thread's first call comes here */
	if (t->cap != 0)
		ct_frontend_seen(t, CT_FE_CYG);
	t->busy--;
}

static __attribute__((noinline)) void exit_slow_rel(struct ct_tstate *t, uintptr_t fn, uint64_t now)
{
	exit_slow(t, fn, now);
	t->busy--;
}

/* an ENTER at now (busy held; let go on every path) */
static inline __attribute__((always_inline)) void enter_at(struct ct_tstate *t, uintptr_t a,
							   uintptr_t cfa, uint64_t now)
{
	uint64_t delta = now - t->last;
	uint32_t d = t->depth;
	if (likely(d < t->cap && delta < (1u << CT_ENTER_DELTA_BITS))) {
		uintptr_t p;
		if (likely((a >> 40) == t->hi)) {
			p = ct_arch_reserve(&t->cur, 8);
		} else {
			/* the address's high bits changed (a library call
			 * came between, in libc's window): their HI record
			 * first, here rather than on the general path (the
			 * buffers' slack takes both records) */
			p = ct_arch_reserve(&t->cur, 16);
			*(uint64_t *)p = CT_EXT_HI_WORD | (uint64_t)(uint32_t)(a >> 40) << 32;
			t->hi = a >> 40;
			p += 8;
		}
		*(uint64_t *)p = CT_REC_ENTER | delta << 2 | (uint64_t)a << 24;
		t->last = now;
		struct ct_frame *f = &t->stk[d];
		f->fn = a;
		CT_BARRIER(); /* two plain stores: not merged into a vector one,
			       * whose operands would be built on every path */
		f->cfa = cfa;
		/* stk[d].ret is 0 already: hook.c clears it on every frame
		 * it takes off, so the hot path pays no store for it */
		t->depth = d + 1;
		if (unlikely(p + 8 > t->limit)) {
			buffer_full_rel(t);
			return;
		}
		CT_BARRIER();
		t->busy--;
	} else {
		enter_slow_rel(t, a, now, cfa);
	}
}

/* record --callsite: an ENTER and its CALLSITE at now, as enter_at (busy
 * held; let go on every path) */
static inline __attribute__((always_inline)) void
cs_enter_at(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, uint64_t now, uintptr_t site)
{
	uint64_t delta = now - t->last;
	uint32_t d = t->depth;
	uint64_t sd = site - a + 0x8000u;
	if (likely(d < t->cap && delta < (1u << CT_ENTER_DELTA_BITS) && sd < 0x10000u &&
		   (a >> 40) == t->hi)) {
		/* the short CALLSITE (format.h ct_callsite_encode) */
		uintptr_t p = ct_arch_reserve(&t->cur, 12);
		*(uint64_t *)p = CT_REC_ENTER | delta << 2 | (uint64_t)a << 24;
		*(uint32_t *)(p + 8) =
			ct_ext_word(CT_EXT_CALLSITE, 0, (unsigned)(sd - 0x8000u) & 0xffffu);
		t->last = now;
		struct ct_frame *f = &t->stk[d];
		f->fn = a;
		CT_BARRIER(); /* (as in enter_at) */
		f->cfa = cfa;
		t->depth = d + 1;
		if (unlikely(p + 12 > t->limit)) {
			buffer_full_rel(t);
			return;
		}
		CT_BARRIER();
		t->busy--;
	} else {
		t->cs_site = site;
		ct_cs_enter(t, a, cfa, now); /* (callsite.c: the other cases) */
	}
}

/* an EXIT at now (busy held; let go on every path) */
static inline __attribute__((always_inline)) void exit_at(struct ct_tstate *t, uintptr_t fn,
							  uint64_t now)
{
	uint64_t delta = now - t->last;
	uint32_t d = t->depth;
	if (likely(d != 0 && t->stk[d - 1].fn == fn && delta < (1u << CT_EXIT_DELTA_BITS))) {
		uintptr_t p = ct_arch_reserve(&t->cur, 4);
		*(uint32_t *)p = (uint32_t)(CT_REC_EXIT | delta << 2);
		t->last = now;
		t->depth = d - 1;
		if (unlikely(p + 4 > t->limit)) {
			buffer_full_rel(t);
			return;
		}
		CT_BARRIER();
		t->busy--;
	} else {
		exit_slow_rel(t, fn, now);
	}
}

/* an EXIT record whose delta fits, closing the top frame (d frames open) */
static inline __attribute__((always_inline)) void put_exit_fast(struct ct_tstate *t, uint64_t now,
								uint64_t delta, uint32_t d)
{
	uintptr_t p = ct_arch_reserve(&t->cur, 4);
	*(uint32_t *)p = (uint32_t)(CT_REC_EXIT | delta << 2);
	t->last = now;
	t->depth = d - 1;
	if (unlikely(p + 4 > t->limit))
		ct_buffer_full(t);
}

/* record --plugin (plugin.c): the entry as usual, then, busy taken again,
 * the plugin's callback if it selects the function */
static __attribute__((noinline)) void plug_enter(struct ct_tstate *t, uintptr_t a, uintptr_t cfa)
{
	uint32_t d = t->depth;
	uint64_t now = ct_clock();
	if (ct_callsite_on)
		ct_cs_enter(t, a, cfa, now); /* (lets busy go) */
	else
		enter_at(t, a, cfa, now); /* (lets busy go) */
	if (t->depth != d + 1 || t->stk[d].fn != a || t->busy != 0)
		return; /* not pushed, or the thread stopped (busy stays held) */
	t->busy = 1;
	CT_BARRIER();
	ct_plug_enter(t, d, a, now, NULL);
	CT_BARRIER();
	t->busy--;
}

/* ... and the exit: the callback first, at the time the EXIT record gets */
static __attribute__((noinline)) void plug_exit(struct ct_tstate *t, uintptr_t fn)
{
	uint64_t now = ct_clock();
	uint32_t d = t->depth;
	if (d != 0 && t->stk[d - 1].fn == fn)
		ct_plug_exit(t, d - 1, fn, now, NULL);
	exit_at(t, fn, now); /* (lets busy go) */
}

/* the clock is not the TSC, record-time filters are on, or a plugin */
static __attribute__((noinline)) void enter_other(uintptr_t a, uintptr_t cfa, uintptr_t ret)
{
	struct ct_tstate *t = &ct_self;
	if (ct_filt_on) {
		/* record-time filters: out of line, so that the hook keeps
		 * its few registers */
		if (ct_filt.only_time) {
			time_enter(t, a, cfa, false, ct_callsite_on);
			return;
		}
		filt_enter_fast(t, a, cfa, ret);
		t->busy--;
		return;
	}
	if (ct_plug_on) {
		plug_enter(t, a, cfa);
		return;
	}
	if (ct_callsite_on) { /* record --callsite (callsite.c) */
		ct_cs_enter(t, a, cfa, ct_clock());
		return;
	}
	enter_at(t, a, cfa, ct_clock());
}

static __attribute__((noinline)) void exit_other(uintptr_t fn, uintptr_t ret)
{
	struct ct_tstate *t = &ct_self;
	if (ct_filt_on) {
		if (ct_filt.only_time) {
			time_exit(t, fn, false);
			return;
		}
		filt_exit_fast(t, fn, ret);
		t->busy--;
		return;
	}
	if (ct_plug_on) {
		plug_exit(t, fn);
		return;
	}
	exit_at(t, fn, ct_clock());
}

/* a function an injection rule or a plugin selects (its byte of
 * ct_sel_bloom), entered at now (busy let go, its ENTER written).  The
 * plugin's callback here only when the fast paths are on: else
 * enter_other called it.  (Out of line: the fast paths keep no register
 * for it.) */
static __attribute__((noinline)) void sel_enter(struct ct_tstate *t, uintptr_t a, uint64_t now)
{
	uint32_t d = t->depth;
	if (ct_plug_on && ct_hook_fast && t->busy == 0 && d != 0 && t->stk[d - 1].fn == a) {
		void (*cb)(const void *) = __atomic_load_n(&ct_plug_fn_cb, __ATOMIC_ACQUIRE);
		t->busy = 1;
		CT_BARRIER();
		if (cb) /* calltrace_plugin_enter_fn, on every function */
			ct_plug_call_fn(t, cb, a);
		else
			ct_plug_enter(t, d - 1, a, now, NULL);
		CT_BARRIER();
		t->busy--;
	}
	if (ct_inj_on)
		ct_inj_cyg_enter(t, a); /* record --inject (inject.c) */
}

/* ... and its exit at now, before its EXIT record: the plugin's callback
 * (when the fast paths are on: else exit_other calls it), then --inject's */
static __attribute__((noinline)) void sel_exit(struct ct_tstate *t, uintptr_t fn, uint64_t now)
{
	uint32_t d = t->depth;
	if (ct_plug_on && ct_hook_fast && t->busy == 0 && d != 0 && t->stk[d - 1].fn == fn) {
		t->busy = 1;
		CT_BARRIER();
		ct_plug_exit(t, d - 1, fn, now, NULL);
		CT_BARRIER();
		t->busy--;
	}
	if (ct_inj_on)
		ct_inj_cyg_exit(t, fn); /* record --inject: errno= */
}

/* the entry hook's modes other than the plain one, -t alone and --callsite
 * alone (busy held, let go on every path): out of line, so that the hook
 * itself keeps no register across a call (the selected functions'
 * look-ups come after the ENTER is written) */
static __attribute__((noinline)) void enter_modes(struct ct_tstate *t, uintptr_t a, uintptr_t cfa,
						  uintptr_t site, uintptr_t ret)
{
	if (ct_cyg_sel_fast) { /* --inject or --plugin, alone */
		uint64_t now = ct_arch_cycles();
		enter_at(t, a, cfa, now);
		if (ct_sel_bloom[ct_sel_bloom_of(a)])
			sel_enter(t, a, now);
		return;
	}
	if (ct_cs_fast) { /* --callsite, and nothing else */
		uint64_t now = ct_arch_cycles();
		cs_enter_at(t, a, cfa, now, site);
		if (ct_sel_on && ct_sel_bloom[ct_sel_bloom_of(a)])
			sel_enter(t, a, now); /* --inject, --plugin */
		return;
	}
	t->cs_site = site; /* record --callsite's (callsite.c) */
	if (ct_cyg_held)
		time_enter(t, a, cfa, true, ct_callsite_on);
	else
		enter_other(a, cfa, ret);
	if (ct_inj_on && ct_sel_bloom[ct_sel_bloom_of(a)])
		ct_inj_cyg_enter(t, a); /* record --inject (inject.c) */
}

/* the entry hook's body, inlined into each variant (its CFA and return
 * address are the variant's).  sel: the variant of --inject and --plugin
 * (below), whose fast path tests the function's byte of ct_sel_bloom and
 * leaves the selected ones to enter_modes */
static inline __attribute__((always_inline)) void enter_hook(void *fn, void *call_site, bool sel)
{
	struct ct_tstate *t = &ct_self;
	uintptr_t a = (uintptr_t)fn, cfa = (uintptr_t)__builtin_dwarf_cfa();
	/* filters, not the TSC, counting, --callsite, --inject, a plugin: -t
	 * alone first, inline (the others' tests are not on its way) */
	if (unlikely(!(sel ? ct_enter_fast : ct_cyg_enter_fast))) {
		if (ct_cyg_held_alone) {
			if (unlikely(t->busy != 0)) {
				enter_nested(t, fn);
				return;
			}
			t->busy = 1;
			CT_BARRIER();
			time_enter(t, a, cfa, true, false);
			return;
		}
		if (ct_count_on) {
			ct_count_enter(fn, cfa,
				       (uintptr_t)call_site); /* --count (count.c): no busy flag */
			return;
		}
		if (unlikely(t->busy != 0)) {
			enter_nested(t, fn);
			return;
		}
		t->busy = 1;
		CT_BARRIER();
		if (ct_cs_fast && !ct_sel_on) { /* --callsite alone: inline */
			cs_enter_at(t, a, cfa, ct_arch_cycles(), (uintptr_t)call_site);
			return;
		}
		enter_modes(t, a, cfa, (uintptr_t)call_site,
			    (uintptr_t)__builtin_return_address(0));
		return;
	}
	if (unlikely(t->busy != 0)) {
		enter_nested(t, fn);
		return;
	}
	t->busy = 1;
	CT_BARRIER();
	if (sel && ct_sel_bloom[ct_sel_bloom_of(a)]) {
		/* (its bytes are set only with ct_sel_on: ct_cyg_sel_fast's
		 * branch there) */
		enter_modes(t, a, cfa, (uintptr_t)call_site,
			    (uintptr_t)__builtin_return_address(0));
		return;
	}
	enter_at(t, a, cfa, ct_arch_cycles());
}

static void enter_plain(void *fn, void *call_site)
{
	enter_hook(fn, call_site, false);
}

static void enter_sel(void *fn, void *call_site)
{
	enter_hook(fn, call_site, true);
}

/* the exit hook's modes other than the plain one (busy not taken yet):
 * --inject's and a limited --plugin's functions first, out of line as
 * enter_modes */
static __attribute__((noinline)) void exit_modes(struct ct_tstate *t, uintptr_t fn, uintptr_t ret)
{
	/* one clock read for the plugin's callback and the EXIT record (on
	 * this VM a read costs 7 ns) */
	uint64_t now = ct_hook_fast ? ct_arch_cycles() : 0;
	if (ct_sel_bloom[ct_sel_bloom_of(fn)])
		sel_exit(t, fn, now); /* --inject's errno=, --plugin's exit */
	if (unlikely(t->busy != 0)) {
		exit_nested(t, (void *)fn);
		return;
	}
	t->busy = 1;
	CT_BARRIER();
	if (ct_hook_fast)
		exit_at(t, fn, now); /* (their other calls: the fast path) */
	else if (ct_cyg_held)
		time_exit(t, fn, true);
	else
		exit_other(fn, ret);
}

/* the exit hook's body, inlined into each variant; sel: the variant of
 * --inject and --plugin, whose fast path leaves the functions selected to
 * exit_modes when one of them acts at exits (ct_sel_exits) */
static inline __attribute__((always_inline)) void exit_hook(void *fn, bool sel)
{
	struct ct_tstate *t = &ct_self;
	/* filters, not the TSC, counting, --inject, a plugin's exit callback:
	 * -t alone first, inline */
	if (unlikely(!(sel ? ct_hook_fast : ct_cyg_exit_fast))) {
		if (ct_cyg_held_alone) {
			if (unlikely(t->busy != 0)) {
				exit_nested(t, fn);
				return;
			}
			t->busy = 1;
			CT_BARRIER();
			time_exit(t, (uintptr_t)fn, true);
			return;
		}
		if (ct_count_on) {
			ct_count_exit(fn);
			return;
		}
		if (ct_sel_on) {
			exit_modes(t, (uintptr_t)fn, (uintptr_t)__builtin_return_address(0));
			return;
		}
		if (unlikely(t->busy != 0)) {
			exit_nested(t, fn);
			return;
		}
		t->busy = 1;
		CT_BARRIER();
		if (ct_cyg_held)
			time_exit(t, (uintptr_t)fn, true);
		else
			exit_other((uintptr_t)fn, (uintptr_t)__builtin_return_address(0));
		return;
	}
	if (sel && ct_sel_exits && ct_sel_bloom[ct_sel_bloom_of((uintptr_t)fn)]) {
		exit_modes(t, (uintptr_t)fn, (uintptr_t)__builtin_return_address(0));
		return;
	}
	if (unlikely(t->busy != 0)) {
		exit_nested(t, fn);
		return;
	}
	t->busy = 1;
	CT_BARRIER();
	exit_at(t, (uintptr_t)fn, ct_arch_cycles());
}

static void exit_plain(void *fn, void *call_site)
{
	(void)call_site;
	exit_hook(fn, false);
}

static void exit_sel(void *fn, void *call_site)
{
	(void)call_site;
	exit_hook(fn, true);
}

/*
 * The hooks the program calls: each an IFUNC, bound by the dynamic linker
 * (at the first call, or at start-up with -z now or -fno-plt) to the plain
 * variant, or with record --inject or --plugin to the one that tests the
 * selection bytes on its fast path (so that the calls of functions no rule
 * or plugin selects stay on a fast path, and a run without either keeps the
 * plain hooks instruction for instruction).  The choice is the
 * environment's, which record sets before the program starts.
 */
typedef void cyg_hook_fn(void *, void *);
/* whether the environment the process started with sets CALLTRACE_PLUGIN
 * or CALLTRACE_INJECT (not empty).  A resolver may run while the dynamic
 * linker relocates this library itself (its own references to the hooks),
 * before its references to libc are: so /proc/self/environ is read with
 * raw system calls into a static buffer, and matched a byte at a time (no
 * call out of this file).  Decided once. */
static bool sel_wanted(void)
{
	static const char *const want[2] = {CT_ENV_PLUGIN "=", CT_ENV_INJECT "="};
	static char buf[4096];
	static int answer; /* 0 not known, 1 no, 2 yes */
	if (answer)
		return answer == 2;
	long fd = ct_arch_syscall5(SYS_openat, AT_FDCWD, (long)"/proc/self/environ",
				   O_RDONLY | O_CLOEXEC, 0, 0);
	bool found = false;
	if (fd >= 0) {
		size_t pos = 0;    /* bytes into the current variable */
		unsigned live = 3; /* which of want[] it may still be */
		for (;;) {
			long n = ct_arch_syscall5(SYS_read, fd, (long)buf, sizeof(buf), 0, 0);
			if (n <= 0)
				break;
			for (long k = 0; k < n && !found; k++) {
				char c = buf[k];
				if (c == 0) {
					pos = 0;
					live = 3;
					continue;
				}
				for (unsigned w = 0; w < 2; w++) {
					if (!(live & (1u << w)))
						continue;
					const char *p = want[w];
					size_t len = w == 0 ? sizeof(CT_ENV_PLUGIN)
							    : sizeof(CT_ENV_INJECT);
					if (pos < len && p[pos] != c)
						live &= ~(1u << w);
					else if (pos == len)
						found = true; /* a byte after NAME= */
				}
				pos++;
			}
			if (found)
				break;
		}
		ct_arch_syscall5(SYS_close, fd, 0, 0, 0, 0);
	}
	answer = found ? 2 : 1;
	return found;
}
static cyg_hook_fn *resolve_enter(void)
{
	return sel_wanted() ? enter_sel : enter_plain;
}
static cyg_hook_fn *resolve_exit(void)
{
	return sel_wanted() ? exit_sel : exit_plain;
}
CT_EXPORT void __cyg_profile_func_enter(void *fn, void *call_site)
	__attribute__((ifunc("resolve_enter")));
CT_EXPORT void __cyg_profile_func_exit(void *fn, void *call_site)
	__attribute__((ifunc("resolve_exit")));

/* the frames above the one of fn vanished without their exits (longjmp not
 * seen, an uninstrumented unwinder): find it further down and close them;
 * returns the depth with fn's frame on top, or 0 if it is not there */
static uint32_t find_frame(struct ct_tstate *t, uintptr_t fn)
{
	uint32_t d = t->depth;
	if (d != 0 && t->stk[d - 1].fn == fn)
		return d;
	uint32_t i = d;
	while (i > 0 && t->stk[i - 1].fn != fn)
		i--;
	if (i == 0) {
		if (t->ring)
			__atomic_fetch_add(&t->ring->unmatched, 1, __ATOMIC_RELAXED);
		return 0;
	}
	uint32_t n = ct_filt_on ? ct_filt_unwinding(t, i, d) : d - i;
	ct_hook_dropping(t, i, (uintptr_t)__builtin_frame_address(0));
	t->depth = i; /* first: a buffer switch in --drop mode looks at it */
	ct_emit_unwind(t, n);
	return i;
}

static __attribute__((noinline)) void exit_slow(struct ct_tstate *t, uintptr_t fn, uint64_t now)
{
	if (!ct_thread_ready(t))
		return;
	if (t->nested_lost)
		ct_put_nested_lost(t);
	uint32_t d = find_frame(t, fn);
	if (d)
		ct_put_exit(t, now, d - 1);
}

/* ---- record-time filters (runtime/filter.c) ------------------------------- */

/* an entry while filtering, the common cases here: a call left out (a
 * frame without a record), a call recorded */
static __attribute__((noinline)) void filt_enter_fast(struct ct_tstate *t, uintptr_t a,
						      uintptr_t cfa, uintptr_t ret)
{
	uint32_t d = t->depth;
	uintptr_t flags;
	if (unlikely(d >= t->cap || d == 0)) {
		filt_enter(t, a, cfa);
		return;
	}
	unsigned dec;
	if (ct_filt.only_time) { /* -t alone: every call is recorded first */
		dec = CT_FD_RECORD;
		flags = CT_FR_FILT | CT_FR_FIN;
	} else {
		dec = ct_filt_enter(t, a, &flags);
	}
	if (likely(dec == CT_FD_SKIP)) {
		uint32_t fl;
		if (unlikely(ct_filt.has_nohook) && ((fl = ct_filt_lookup(a)) & CT_FL_NOHOOK) &&
		    ret - a < fl >> CT_FL_TRIG_SHIFT) {
			/* nothing of it is ever recorded, and this call of the
			 * hook is in its own body: jumped over from now on, and
			 * so is its exit's once made (bit 0 of the frame) */
			ct_patch_cyg_call(ret);
			flags |= CT_FR_PEND; /* (bit 0: see internal.h) */
		}
		struct ct_frame *f = &t->stk[d];
		f->fn = a;
		f->cfa = cfa;
		f->flags = flags;
		t->depth = d + 1;
		t->fl_filtered++;
		return;
	}
	filt_record(t, a, cfa, dec, flags);
}

/* -t alone: a call's ENTER is held back (its frame has CT_FR_PEND), to be
 * written only when the call proves long: at its exit, at a longer call's
 * inside it, or at an entry TIME after it */
/* a frame whose entry is held back (d: its depth; now: its entry).  Its
 * fl_tp[d].seq is left as it is: ct_filt_flush sets it when it writes the
 * entry (nothing reads it before) */
static inline __attribute__((always_inline)) void
push_held(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, uint32_t d, uint64_t now, bool cs)
{
	struct ct_frame *f = &t->stk[d];
	f->fn = a;
	CT_BARRIER(); /* (as in enter_at) */
	f->cfa = cfa;
	f->flags = CT_FR_FILT | CT_FR_FIN | CT_FR_NOREC | CT_FR_PEND;
	/* the lowest frame held back: this one if there was none (minima, so
	 * that no branch waits for the clock).  The lowest held call that
	 * returns short clears them (time_exit): a deadline left behind sent
	 * an entry to time_enter_due_rel for nothing, about once per TIME */
	ct_filt_hold_at(t, d, now, cs);
	t->depth = d + 1;
}

/* the deadline of the lowest entry held back has passed, or that of a
 * call that returned since (the short path does not look): the lowest one
 * still held, if any, says; if it is TIME old, the entries held back are
 * written.  Then this one is held. */
static __attribute__((noinline)) void time_enter_due_rel(struct ct_tstate *t, uintptr_t a,
							 uintptr_t cfa, uint64_t now)
{
	ct_filt_due(t, now);
	push_held(t, a, cfa, t->depth, now, ct_callsite_on);
	t->busy--;
}

static __attribute__((noinline)) void filt_enter_rel(struct ct_tstate *t, uintptr_t a,
						     uintptr_t cfa)
{
	filt_enter(t, a, cfa);
	t->busy--;
}

/* (busy held, let go on every path; tsc: the clock is the TSC) */
static inline __attribute__((always_inline)) void time_enter(struct ct_tstate *t, uintptr_t a,
							     uintptr_t cfa, bool tsc, bool cs)
{
	uint32_t d = t->depth;
	if (unlikely(d == 0 || d >= t->cap || d >= t->fl_tcap)) {
		filt_enter_rel(t, a, cfa);
		return;
	}
	uint64_t now = tsc ? ct_arch_cycles() : ct_clock();
	if (unlikely(now >= t->fl_due)) {
		time_enter_due_rel(t, a, cfa, now);
		return;
	}
	push_held(t, a, cfa, d, now, cs);
	CT_BARRIER();
	t->busy--;
}

static __attribute__((noinline)) void filt_exit_fast_rel(struct ct_tstate *t, uintptr_t fn)
{
	filt_exit_fast(t, fn, 0);
	t->busy--;
}

static __attribute__((noinline)) void time_exit_long_rel(struct ct_tstate *t, uintptr_t fn,
							 uint64_t now)
{
	ct_filt_flush(t);
	exit_slow(t, fn, now);
	t->busy--;
}

/* -t alone: an exit, in short when its entry was held back and the call
 * was short (nothing was written, nothing is).  (busy held, let go on
 * every path) */
static inline __attribute__((always_inline)) void time_exit(struct ct_tstate *t, uintptr_t fn,
							    bool tsc)
{
	uint32_t d = t->depth;
	if (likely(d - 1 < t->fl_tcap)) { /* (d != 0) */
		const struct ct_frame *f = &t->stk[d - 1];
		if (likely(f->fn == fn && (f->flags & CT_FR_PEND))) {
			uint64_t now = tsc ? ct_arch_cycles() : ct_clock();
			/* before the earliest deadline of the entries held
			 * back, this one (held since) is short: no need to
			 * read its entry time (fl_due is at most every held
			 * entry's t0 + TIME; when it has passed, t0 says) */
			if (likely(now < t->fl_due ||
				   now - t->fl_tp[d - 1].t0 < ct_filt.min_time)) {
				t->depth = d - 1;
				/* the lowest entry held back goes: none is left
				 * below it, so no stale deadline sends the next
				 * entries to time_enter_due_rel */
				if (t->fl_plo == d - 1) {
					t->fl_plo = CT_PEND_NONE;
					t->fl_due = UINT64_MAX;
				}
				t->fl_filtered++;
				CT_BARRIER();
				t->busy--;
				return;
			}
			/* long: its entry is written (and those below), then
			 * its exit, at the time just read */
			time_exit_long_rel(t, fn, now);
			return;
		}
	}
	filt_exit_fast_rel(t, fn);
}

/* filt_enter_fast's call that is recorded, or marks a change of state */
static __attribute__((noinline)) void filt_record(struct ct_tstate *t, uintptr_t a, uintptr_t cfa,
						  unsigned dec, uintptr_t flags)
{
	uint32_t d = t->depth;
	uint64_t now = ct_clock();
	uint64_t delta = now - t->last;
	if (likely(dec == CT_FD_RECORD && !ct_callsite_on && !ct_watch_cpu &&
		   delta < (1u << CT_ENTER_DELTA_BITS) && (a >> 40) == t->hi &&
		   (!ct_filt.timed || d < t->fl_tcap))) {
		if (ct_filt.timed)
			ct_filt_note_at(t, d, now);
		uintptr_t p = ct_arch_reserve(&t->cur, 8);
		*(uint64_t *)p = CT_REC_ENTER | delta << 2 | (uint64_t)a << 24;
		t->last = now;
		struct ct_frame *f = &t->stk[d];
		f->fn = a;
		f->cfa = cfa;
		f->flags = flags;
		t->depth = d + 1;
		if (unlikely(p + 8 > t->limit))
			ct_buffer_full(t);
		if (unlikely(flags & CT_FR_READ))
			ct_read_trig(t, a, false); /* read=, after the ENTER */
	} else {
		filt_act(t, a, cfa, dec, flags);
	}
}

/* an exit while filtering: of a frame left out, or of a recorded call
 * (taken back if -t finds it short) */
static __attribute__((noinline)) void filt_exit_fast(struct ct_tstate *t, uintptr_t fn,
						     uintptr_t ret)
{
	uint32_t d = t->depth;
	uintptr_t fl = d ? t->stk[d - 1].flags : 0;
	if (unlikely(d == 0 || t->stk[d - 1].fn != fn ||
		     (ct_filt.has_trig && (fl & (CT_FR_TP | CT_FR_READ))))) {
		uint32_t nfl;
		if (unlikely(ct_filt.has_nohook) && ((nfl = ct_filt_lookup(fn)) & CT_FL_NOHOOK)) {
			/* the exit of a call whose entry was jumped over: it
			 * has no frame; this exit call goes too, if it is in
			 * the function's own body */
			if (ret - fn < nfl >> CT_FL_TRIG_SHIFT)
				ct_patch_cyg_call(ret);
			return;
		}
		filt_exit(t, fn);
		return;
	}
	if (fl & CT_FR_NOREC) {
		if (unlikely(fl & CT_FR_PEND)) {
			if (ct_filt.only_time) {
				/* -t alone: its entry is held back */
				uint64_t now = ct_clock();
				if (ct_filt_held_short(t, d - 1, now))
					return;
				ct_filt_flush(t); /* long: its entry, and those below */
				exit_slow(t, fn, now);
				return;
			}
			if (ret - fn < ct_filt_lookup(fn) >> CT_FL_TRIG_SHIFT)
				ct_patch_cyg_call(ret);
		}
		t->depth = d - 1;
		return;
	}
	uint64_t now = ct_clock();
	uint64_t delta = now - t->last;
	if (ct_filt.timed && d - 1 < t->fl_tcap && ct_filt_take_back_at(t, &t->fl_tp[d - 1], now)) {
		t->depth = d - 1;
	} else if (likely(delta < (1u << CT_EXIT_DELTA_BITS))) {
		put_exit_fast(t, now, delta, d);
	} else {
		exit_slow(t, fn, now);
	}
}

static __attribute__((noinline)) void filt_enter(struct ct_tstate *t, uintptr_t fn, uintptr_t cfa)
{
	if (!ct_thread_ready(t))
		return;
	uintptr_t flags;
	unsigned dec = ct_filt_enter(t, fn, &flags);
	filt_act(t, fn, cfa, dec, flags);
}

/* a call the filters decided on (dec, flags: ct_filt_enter's) */
static __attribute__((noinline)) void filt_act(struct ct_tstate *t, uintptr_t fn, uintptr_t cfa,
					       unsigned dec, uintptr_t flags)
{
	if (dec != CT_FD_RECORD) {
		/* every frame goes on the shadow stack: its exit hook comes.
		 * Left out either way: a frame that marks (the -N call
		 * itself) is not recorded either */
		t->fl_filtered++;
		ct_push_quiet(t, fn, cfa, flags);
		return;
	}
	uint64_t now = ct_clock();
	if (ct_filt.timed)
		ct_filt_note_entry(t, now);
	uint32_t d = t->depth;
	ct_enter_slow(t, fn, now, cfa);
	if (t->depth == d + 1) {
		t->stk[d].flags = flags;
		ct_frontend_seen(t, CT_FE_CYG);
		if (unlikely(flags & CT_FR_READ))
			ct_read_trig(t, fn, false); /* read=, after the ENTER */
	}
}

static __attribute__((noinline)) void filt_exit(struct ct_tstate *t, uintptr_t fn)
{
	if (t->cap == 0)
		return;
	uint32_t d = find_frame(t, fn);
	if (!d)
		return;
	if (unlikely(ct_filt.has_trig) && (t->stk[d - 1].flags & CT_FR_TP))
		ct_filt_exit_trig(fn); /* finish */
	if (t->stk[d - 1].flags & CT_FR_NOREC) {
		t->depth = d - 1;
		return;
	}
	uint64_t now = ct_clock();
	if (ct_filt.timed) {
		if (ct_filt_take_back(t, d - 1, now))
			return;
		ct_filt_kept(t);
	}
	if (unlikely(t->stk[d - 1].flags & CT_FR_READ))
		ct_read_trig(t, fn, true); /* read=, before the EXIT */
	if (t->nested_lost)
		ct_put_nested_lost(t);
	ct_put_exit(t, now, d - 1);
}
