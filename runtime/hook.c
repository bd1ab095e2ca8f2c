/* SPDX-License-Identifier: MIT */
/*
 * The register-seeing front ends: -pg (mcount), -pg -mfentry (__fentry__)
 * and -fpatchable-function-entry (calls patched in by patch.c).  Their
 * trampolines (arch/x86_64/tramp.S) call ct_hook_enter at a function's entry;
 * it writes the ENTER record, pushes the frame on the shadow stack with the
 * original return address, and replaces that address in the function's
 * return-address slot by ct_return_tramp, which calls ct_hook_return when
 * the function returns.  See doc/frontends.md.
 *
 * Safety rules (a frame must always find its way back):
 * - a frame is found at its return by its CFA (slot + 8 on x86-64 and for
 *   aarch64's library calls; aarch64 -pg's slot is in the frame record:
 *   frame_slot, FR_CFA_SLOT), searching from the top: the frames above it
 *   vanished and are closed with UNWIND;
 * - a hooked frame taken off the shadow stack for any reason goes through
 *   ct_hook_dropping: if its slot is above the current stack pointer (a live
 *   frame, e.g. on another stack) it gets its real return address back;
 *   otherwise it is remembered as an orphan, found again by CFA should it
 *   ever return;
 * - whatever reads return addresses (the C++ unwinder, backtrace(), a
 *   context switch) first gets the real ones back (unhook_all) and the
 *   frames that survive are hooked again afterwards (rehook_all).
 * - signals: `busy` (nested.c) is held by the C parts.  A handler that
 *   interrupts them takes the nested path: NENTER/NEXIT records and its own
 *   small stack of hooked frames (all of which return before the
 *   interrupted hook resumes, unless the handler jumps away: then they are
 *   simply left, and the interrupted hook never resumes either).
 *
 * Split by job: hook_unwind.c holds the frames given back through the
 * unwinder's walk; hook_priv.h what it shares with this file.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "args.h"
#include "count.h"
#include "hook_priv.h"
#include "insn.h"
#include "internal.h"
#include "offsets.h"
#include "regs.h"

/* the assembly fast paths (arch/<arch>/tramp.S) know these offsets */
_Static_assert(CT_EXT_HI_WORD == (CT_REC_EXT | CT_EXT_HI << 2 | 1 << 8), "HI word");
_Static_assert(offsetof(struct ct_tstate, cur) == CT_T_CUR, "cur");
_Static_assert(offsetof(struct ct_tstate, limit) == CT_T_LIMIT, "limit");
_Static_assert(offsetof(struct ct_tstate, last) == CT_T_LAST, "last");
_Static_assert(offsetof(struct ct_tstate, hi) == CT_T_HI, "hi");
_Static_assert(offsetof(struct ct_tstate, busy) == CT_T_BUSY, "busy");
_Static_assert(offsetof(struct ct_tstate, depth) == CT_T_DEPTH, "depth");
_Static_assert(offsetof(struct ct_tstate, cap) == CT_T_CAP, "cap");
_Static_assert(offsetof(struct ct_tstate, stk) == CT_T_STK, "stk");
_Static_assert(offsetof(struct ct_tstate, hook) == CT_T_HOOK, "hook");
_Static_assert(offsetof(struct ct_tstate, args_fn) == CT_T_ARGS_FN, "args_fn");
_Static_assert(offsetof(struct ct_tstate, args_af) == CT_T_ARGS_AF, "args_af");
_Static_assert(sizeof(struct ct_frame) == 1u << CT_FRAME_SHIFT, "frame size");
_Static_assert(offsetof(struct ct_frame, fn) == CT_FR_FN, "fn");
_Static_assert(offsetof(struct ct_frame, cfa) == CT_FR_CFA, "cfa");
_Static_assert(offsetof(struct ct_frame, ret) == CT_FR_RET, "ret");
_Static_assert(offsetof(struct ct_frame, flags) == CT_FR_FLAGS, "flags");
_Static_assert(CT_FR_HOOKED == CT_FR_HOOKED_BIT, "hooked");
_Static_assert(offsetof(struct ct_config, use_tsc) == CT_CFG_USE_TSC, "use_tsc");
_Static_assert(sizeof(ct_hook_fast) == 1, "ct_hook_fast is tested as a byte");
_Static_assert(CT_REC_ENTER == 2 && CT_REC_EXIT == 1, "record kinds");
_Static_assert(sizeof(struct ct_args_fast) == 1u << CT_AF_SHIFT, "args_fast size");
_Static_assert(offsetof(struct ct_args_fast, ent_hdr) == CT_AF_ENT_HDR, "ent_hdr");
_Static_assert(offsetof(struct ct_args_fast, ret_hdr) == CT_AF_RET_HDR, "ret_hdr");
_Static_assert(offsetof(struct ct_args_fast, ent) == CT_AF_ENT, "ent");
_Static_assert(offsetof(struct ct_args_fast, ret) == CT_AF_RET, "ret");
_Static_assert(offsetof(struct ct_args_fast, flags) == CT_AF_FLAGS, "af flags");
_Static_assert(CT_AF_WANT_RET == CT_ARGS_WANT_RET, "want ret");
_Static_assert(sizeof(ct_args_enabled) == 1, "ct_args_enabled is tested as a byte");
/* the trampolines' layouts (arch/<arch>/regs.h) */
_Static_assert(offsetof(struct ct_arch_regs, gp) == CT_REGS_GP &&
		       offsetof(struct ct_arch_regs, fp) == CT_REGS_FP &&
		       offsetof(struct ct_arch_regs, sp) == CT_REGS_SP,
	       "regs slots");
_Static_assert(offsetof(struct ct_arch_retregs, ret) == CT_RETREGS_RET &&
		       offsetof(struct ct_arch_retregs, ret2) == CT_RETREGS_RET2 &&
		       offsetof(struct ct_arch_retregs, fret) == CT_RETREGS_FRET &&
		       offsetof(struct ct_arch_retregs, fret2) == CT_RETREGS_FRET2 &&
		       sizeof(struct ct_arch_retregs) == CT_RETREGS_SIZE,
	       "retregs slots");
_Static_assert(CT_ENTER_DELTA_BITS == 22 && CT_EXIT_DELTA_BITS == 30, "delta bits");
/* -t alone: the trampolines' held paths (ct_held_fast) */
_Static_assert(offsetof(struct ct_tstate, fl_tp) == CT_T_FL_TP, "fl_tp");
_Static_assert(offsetof(struct ct_tstate, fl_tcap) == CT_T_FL_TCAP, "fl_tcap");
_Static_assert(offsetof(struct ct_tstate, fl_filtered) == CT_T_FL_FILTERED, "fl_filtered");
_Static_assert(offsetof(struct ct_tstate, fl_plo) == CT_T_FL_PLO, "fl_plo");
_Static_assert(offsetof(struct ct_tstate, fl_due) == CT_T_FL_DUE, "fl_due");
_Static_assert(sizeof(struct ct_tpend) == CT_TP_SIZE, "tpend size");
_Static_assert(offsetof(struct ct_tpend, t0) == CT_TP_T0, "t0");
_Static_assert(offsetof(struct ct_filt_conf, min_time) == CT_FILT_MIN_TIME, "min_time");
_Static_assert(sizeof(((struct ct_tstate *)0)->fl_plo) == 4 && CT_PEND_NONE == UINT32_MAX,
	       "fl_plo: 32 bits, none all ones");
_Static_assert(sizeof(ct_held_fast) == 1, "ct_held_fast is tested as a byte");

/* called from arch/<arch>/tramp.S */
int ct_hook_enter(struct ct_arch_regs *r, uintptr_t site, uintptr_t kind) CT_HIDDEN;
void ct_hook_ret_args(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_retregs *r,
		      uint64_t now, uint32_t depth) CT_HIDDEN;
uintptr_t ct_hook_return(const struct ct_arch_retregs *r, uintptr_t cfa) CT_HIDDEN;

bool ct_hook_fast; /* internal.h */
bool ct_held_fast; /* internal.h */

/* the calibration's (calibrate.c): its hooked calls only ever take the fast
 * paths, which do not read it, but should one not, it is a real area */
struct ct_hook_area *ct_hook_scratch_area(void)
{
	static struct ct_hook_area scratch;
	memset(&scratch, 0, sizeof(scratch));
	return &scratch;
}

/* a longjmp out of a signal handler: its nested frames are gone */
void ct_hook_reset_nested(struct ct_tstate *t)
{
	if (t->hook)
		t->hook->nn = 0;
}

/* the thread ends */
void ct_hook_release(struct ct_tstate *t)
{
	if (t->hook) {
		munmap(t->hook, sizeof(struct ct_hook_area));
		t->hook = NULL;
	}
}

/* the function's address, from the call site: mcount_fn (hook_priv.h) */
uint64_t ct_mc_cache[MC_CACHE] CT_HIDDEN; /* read by tramp.S too */

#ifdef CT_ARCH_SLOT_IN_FRAME_RECORD
/* aarch64 -pg: the return-address slot is the saved link register of the
 * traced function's frame record (x29 + 8), wherever its prologue put the
 * record; the frame's CFA is its entry stack pointer, as on x86-64, which
 * the prologue's offset of x29 from it gives (arch/aarch64/insn.h
 * ct_insn_a64_fp_off), once per call site (a second cache beside
 * ct_mc_cache, each entry whole in one word: the offset in 16-byte units
 * in the high 16 bits, 0xffff for a prologue it does not follow, the call
 * site's 48 bits below; an offset that does not fit is worked out at each
 * call).  1: a prologue it does not follow (the call is not traced, and
 * counted as lost). */
static uint64_t mc_fp_cache[MC_CACHE];

static intptr_t mcount_fp_off(uintptr_t site, uintptr_t fn)
{
	uint64_t *e = &mc_fp_cache[(site ^ site >> 12) % MC_CACHE];
	uint64_t v = __atomic_load_n(e, __ATOMIC_RELAXED);
	if (likely((v & 0xffffffffffffull) == site && v != 0))
		return v >> 48 == 0xffff ? 1 : -(intptr_t)(v >> 48 << 4);
	intptr_t off = ct_insn_a64_fp_off(fn, site - 4);
	uint64_t units = off > 0 ? 0xffff : (uint64_t)-off >> 4;
	if (site < (1ull << 48) && (off > 0 || ((-off & 15) == 0 && units < 0xffff)))
		__atomic_store_n(e, units << 48 | site, __ATOMIC_RELAXED);
	return off;
}

/* record --count --sample, aarch64 _mcount (tramp.S): the call goes on the
 * counting stack with its CFA, from the prologue as ct_hook_enter finds
 * it, and the return address into its caller (the slot's); a prologue it
 * does not follow: counted by call site, not on the stack */
void ct_hook_count_mcount(uintptr_t site, const uintptr_t *slot) CT_HIDDEN;
void ct_hook_count_mcount(uintptr_t site, const uintptr_t *slot)
{
	intptr_t off = mcount_fp_off(site, mcount_fn(site));
	if (unlikely(off > 0))
		ct_count_site(*slot, site);
	else
		ct_count_enter_site_lr(site, (uintptr_t)slot - 8 - (uintptr_t)off, *slot);
}

/* a hooked frame's slot, from its entry on the shadow stack: a library
 * call's is below its CFA (FR_CFA_SLOT); a -pg frame's is found by its
 * function's prologue read again (rare: a throw, backtrace(), a context
 * switch), up to the first call, which is _mcount's; 0 if not followed */
static uintptr_t frame_slot(const struct ct_frame *f)
{
	if (f->flags & FR_CFA_SLOT)
		return f->cfa - 8;
	uintptr_t p = f->fn;
	for (int n = 0; n < 64; n++, p += 4) {
		uint32_t w;
		memcpy(&w, (const void *)p, 4);
		if ((w & 0xfc000000u) == 0x94000000u) { /* bl */
			intptr_t off = ct_insn_a64_fp_off(f->fn, p);
			return off > 0 ? 0 : f->cfa + (uintptr_t)off + 8;
		}
	}
	return 0;
}
#else
/* the word below the CFA */
#define frame_slot(f) ((f)->cfa - 8)
#endif

/* ---- dropping, unhooking and hooking again ----------------------------- */

static void orphan_add(struct ct_tstate *t, uintptr_t cfa, uintptr_t ret)
{
	struct ct_hook_area *h = hook_area(t);
	if (!h)
		return;
	/* one slot holds one frame: an orphan at the same CFA is dead, take
	 * its place (so that frames parked for long, e.g. the bottom of a
	 * coroutine, are not pushed out by the ones dropped at every switch);
	 * else a free entry, else the oldest */
	uint32_t i, free_i = NORPHANS;
	for (i = 0; i < NORPHANS; i++) {
		if (h->orphan[i].cfa == cfa)
			break;
		if (!h->orphan[i].ret && free_i == NORPHANS)
			free_i = i;
	}
	if (i == NORPHANS)
		i = free_i != NORPHANS ? free_i : h->onext++ % NORPHANS;
	h->orphan[i].cfa = cfa;
	h->orphan[i].ret = ret;
}

static uintptr_t orphan_take(struct ct_tstate *t, uintptr_t cfa)
{
	struct ct_hook_area *h = t->hook;
	if (!h)
		return 0;
	for (uint32_t i = 0; i < NORPHANS; i++) {
		if (h->orphan[i].cfa == cfa && h->orphan[i].ret) {
			uintptr_t r = h->orphan[i].ret;
			h->orphan[i].cfa = h->orphan[i].ret = 0;
			return r;
		}
	}
	return 0;
}

/* the frames stk[from..depth) are about to leave the shadow stack */
void ct_hook_dropping(struct ct_tstate *t, uint32_t from, uintptr_t sp)
{
	if (!t->hook)
		return; /* nothing was ever hooked in this thread */
	for (uint32_t i = from; i < t->depth; i++) {
		struct ct_frame *f = &t->stk[i];
		if (!f->ret)
			continue;
		if (!(f->flags & CT_FR_HOOKED)) {
			f->ret = 0;              /* unhooked or parked: nothing to give back */
			f->flags &= CT_FR_FBITS; /* the filter's, for ct_filt_recorded */
			continue;
		}
		uintptr_t *slot = (uintptr_t *)frame_slot(f);
		uintptr_t ret = f->ret;
		bool live = (!CT_SLOT_KEYED || slot) && (uintptr_t)slot >= sp;
		bool reg_ra = f->flags & FR_CFA_SLOT;
		/* an entry off the stack has ret 0: the -finstrument-functions
		 * hot path reuses it without clearing it */
		f->ret = 0;
		f->flags &= CT_FR_FBITS;
		if (live && *slot == TRAMP) {
			*slot = ret;
		} else if (ret != TRAMP && (!live || reg_ra)) {
			/* off this stack, or (aarch64) a return address that was
			 * a register and is kept where the function's code put
			 * it: should the frame still return, it comes to the
			 * trampoline, which finds it here */
			orphan_add(t, f->cfa, ret);
		}
	}
}

/* give every hooked frame above sp its return address back; with gen,
 * mark them parked under that number (a context switch).  A frame whose
 * slot does not hold the trampoline any more is counted (returned) and
 * goes into miss[] (the first NMISS): on aarch64 the return address of a
 * frame whose slot is below its CFA (FR_CFA_SLOT: a library call, a
 * patched entry) was a register, which the function saved where its CFI
 * says.  Such a frame keeps its hook: the unwinder's walk gives it back
 * (hook_unwind.c), or its return comes to the trampoline, which must
 * know it.  Any other frame (-pg's, x86-64's) is unhooked all the same */
static unsigned unhook_all(struct ct_tstate *t, uintptr_t sp, uint32_t gen, uint32_t *miss)
{
	unsigned nmiss = 0;
	for (uint32_t i = 0; i < t->depth; i++) {
		struct ct_frame *f = &t->stk[i];
		if (!f->ret || !(f->flags & CT_FR_HOOKED) || f->cfa - 8 < sp)
			continue;
		uintptr_t *slot = (uintptr_t *)frame_slot(f);
		if (CT_SLOT_KEYED && !slot)
			continue;
		if (*slot == TRAMP) {
			*slot = f->ret;
		} else if (f->ret != TRAMP) {
			if (miss) {
				if (nmiss < NMISS)
					miss[nmiss] = i;
				nmiss++;
			}
			if (f->flags & FR_CFA_SLOT)
				continue;
		}
		frame_unhooked(f, gen);
	}
	return nmiss;
}

/* unhook_all, and the frames it missed given back through the
 * unwinder's walks (hook_unwind.c): aarch64's FR_CFA_SLOT frames, and
 * with any_slot every frame whose slot no longer held the trampoline (a
 * call that reads return addresses: x86-64's too) */
static void unhook_all_walked(struct ct_tstate *t, uintptr_t sp, uint32_t gen, bool any_slot)
{
	uint32_t miss[NMISS];
	bool walk = any_slot || CT_ARCH_RA_IN_REG;
	unsigned nmiss = unhook_all(t, sp, gen, walk ? miss : NULL);
	if (walk && unlikely(nmiss))
		ct_hook_unhook_unwinder(t, miss, nmiss, gen);
}

/* hook again the frames above sp that still hold their return address
 * (gen: only those parked under that number) */
static void rehook_all(struct ct_tstate *t, uintptr_t sp, uint32_t gen)
{
	for (uint32_t i = 0; i < t->depth; i++) {
		struct ct_frame *f = &t->stk[i];
		if (!f->ret || !frame_rehook_wanted(f, gen) || f->cfa - 8 < sp)
			continue;
		uintptr_t *slot = (uintptr_t *)frame_slot(f);
		if ((CT_SLOT_KEYED && !slot) || *slot != f->ret)
			continue;
		*slot = TRAMP;
		frame_rehooked(f);
	}
}

/* the caller chain of the call whose return-address slot is slot, from
 * the shadow stack, innermost first, into w[1..]: the called function,
 * the return address into its caller, then each frame's return address
 * (or, for a frame that keeps none, -finstrument-functions', its caller's
 * address); an address that names a function's start is stored plus one,
 * since the reader looks each one up less one (a return address names the
 * call before it).  The number of addresses */
static unsigned shadow_chain(const struct ct_tstate *t, uintptr_t fn, const uintptr_t *slot,
			     uint32_t *w)
{
	uint64_t a[CT_BACKTRACE_MAX];
	unsigned k = 0;
	a[k++] = (uint64_t)fn + 1;
	if (*slot && *slot != TRAMP)
		a[k++] = *slot;
	for (uint32_t i = t->depth; i-- > 0 && k < CT_BACKTRACE_MAX;) {
		const struct ct_frame *f = &t->stk[i];
		if (f->ret && f->ret != TRAMP)
			a[k++] = f->ret;
		else if (!f->ret && i > 0)
			a[k++] = (uint64_t)t->stk[i - 1].fn + 1;
	}
	for (unsigned i = 0; i < k; i++) {
		w[1 + 2 * i] = (uint32_t)a[i];
		w[2 + 2 * i] = (uint32_t)(a[i] >> 32);
	}
	return k;
}

/* the backtrace trigger (filter.c), in an entry hook (busy held) of fn:
 * the caller chain as the unwinder sees it untraced (hooked frames get
 * their return addresses back meanwhile), less the runtime's own frames,
 * as a BACKTRACE record.  A library call's entry (libcall.c) comes through
 * a stub the unwinder cannot get past: when the chain misses the call's
 * own return address, it is taken from the shadow stack instead */
void ct_hook_backtrace(struct ct_tstate *t, uintptr_t fn)
{
	void *buf[CT_BACKTRACE_MAX + 16];
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	if (t->hook)
		unhook_all_walked(t, sp, 0, false);
	int n = ct_backtrace_real(buf, (int)(sizeof(buf) / sizeof(buf[0])));
	if (t->hook) {
		if (CT_ARCH_RA_IN_REG)
			ct_hook_rehook_unwinder(t, sp, 0); /* (first: it stops at a hooked frame) */
		rehook_all(t, sp, 0);
	}
	Dl_info self, di;
	if (!dladdr((void *)ct_hook_backtrace, &self))
		return;
	uint32_t w[1 + 2 * CT_BACKTRACE_MAX];
	unsigned k = 0;
	bool seen = false;
	for (int i = 0; i < n && k < CT_BACKTRACE_MAX; i++) {
		if (dladdr(buf[i], &di) && di.dli_fbase == self.dli_fbase)
			continue; /* the runtime's own frames */
		uint64_t a = (uint64_t)(uintptr_t)buf[i];
		seen |= t->bt_slot && a == *t->bt_slot;
		w[1 + 2 * k] = (uint32_t)a;
		w[2 + 2 * k] = (uint32_t)(a >> 32);
		k++;
	}
	if (t->bt_slot && !seen) {
		k = shadow_chain(t, fn, t->bt_slot, w);
	} else if (t->bt_slot && k > 0 && k < CT_BACKTRACE_MAX &&
		   (w[1] | (uint64_t)w[2] << 32) == *t->bt_slot) {
		/* the chain starts at the caller: a library call's entry
		 * that the unwinder got past (aarch64's ct_libcall_tramp has
		 * CFI, and the stub branched), the function not begun; it
		 * goes first, as a function's start (plus one) */
		memmove(w + 3, w + 1, 2 * k * sizeof(*w));
		w[1] = (uint32_t)(fn + 1);
		w[2] = (uint32_t)((uint64_t)(fn + 1) >> 32);
		k++;
	}
	if (!k || !t->ring || !t->cap)
		return;
	w[0] = ct_ext_word(CT_EXT_BACKTRACE, 2 * k, 0);
	t->fl_epoch++; /* -t never takes it back */
	ct_put_words(t, w, 1 + 2 * k);
}

/* ---- entry ---------------------------------------------------------- */

/* the CFA of a hooked frame, from its slot: slot + 8 on x86-64; aarch64's
 * ct_hook_enter works it out from the prologue (cfa_a64) and hands it on */
#ifdef CT_ARCH_SLOT_IN_FRAME_RECORD
#define SLOT_CFA(slot) cfa_a64
#define WITH_CFA , uintptr_t cfa_a64
#define PASS_CFA , cfa_a64
#else
#define SLOT_CFA(slot) ((uintptr_t)(slot) + 8)
#define WITH_CFA
#define PASS_CFA
#endif

static void nested_enter(struct ct_tstate *t, uintptr_t fn, uintptr_t *slot WITH_CFA)
{
	if (t->plug_in)
		return; /* a call a plugin's callback makes: not traced */
	struct ct_hook_area *h = t->hook;
	if (!h || h->nn >= NSTACK - 8 || *slot == TRAMP) {
		ct_nested_drop(t);
		return;
	}
	uintptr_t i = ct_arch_reserve(&h->nn, 1);
	h->n[i].fn = fn;
	h->n[i].cfa = SLOT_CFA(slot);
	h->n[i].ret = *slot;
	*slot = TRAMP;
	ct_nested(t, CT_EXT_NENTER, (void *)fn);
}

/* close the frames that a new frame at cfa shows to be gone: those deeper
 * than it, and a hooked one in its very slot, unless the slot still holds
 * the trampoline (a tail call: the frame lives on in the new one) */
static void resync_entry(struct ct_tstate *t, uintptr_t cfa, bool tail)
{
	uint32_t d = t->depth, i = d;
	/* frames parked by swapcontext are alive on a stack that waits to
	 * resume, wherever the new one lies (a coroutine's stack may be an
	 * array in a caller's frame, above the frames it runs inside): they
	 * are never taken as gone by their address */
	while (i > 0 && (t->stk[i - 1].flags & (FR_PARKED | FR_LEFT)) != FR_PARKED &&
	       (t->stk[i - 1].cfa < cfa ||
		(t->stk[i - 1].cfa == cfa && t->stk[i - 1].ret && !tail)))
		i--;
	if (i == d)
		return;
	/* a handler on an alternate signal stack is not deeper than the
	 * frames it interrupted, whatever the addresses say */
	stack_t ss;
	if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))
		return;
	uint32_t n = ct_filt_on ? ct_filt_unwinding(t, i, d) : d - i;
	ct_hook_dropping(t, i, (uintptr_t)__builtin_frame_address(0));
	t->depth = i;
	ct_emit_unwind(t, n);
}

/* -t alone: the flags of a hooked frame whose entry is held back (cyg.c
 * push_held's, and the trampoline) */
#define HELD_HOOKED (CT_FR_HOOKED | CT_FR_FILT | CT_FR_FIN | CT_FR_NOREC | CT_FR_PEND)
_Static_assert(HELD_HOOKED == CT_FR_HELD_HOOKED, "held hooked flags");

static __attribute__((noinline)) void enter_slow(struct ct_tstate *t, uintptr_t fn, uint64_t now,
						 uintptr_t *slot,
						 const struct ct_arch_regs *r WITH_CFA)
{
	uintptr_t cfa = SLOT_CFA(slot);
	if (!ct_thread_ready(t) || !hook_area(t))
		return;
	/* a tail call: the caller jumped here in its own frame, whose slot
	 * holds the trampoline already; the new frame returns through it */
	bool tail = *slot == TRAMP;
	if (t->depth > 0 && t->stk[t->depth - 1].cfa <= cfa)
		resync_entry(t, cfa, tail);
	if (tail && !(t->depth > 0 && t->stk[t->depth - 1].cfa == cfa &&
		      (t->stk[t->depth - 1].flags & CT_FR_HOOKED)))
		return; /* not a frame we know: leave it alone */
	uint32_t d = t->depth;
	uintptr_t flags = CT_FR_HOOKED;
	if (unlikely(ct_filt_on)) {
		/* record-time filters: a call left out that needs no exit gets
		 * no trampoline (it costs this look-up); one whose exit ends a
		 * -N or -F call goes on the shadow stack without a record */
		t->bt_slot = slot;
		t->fl_regs = r;
		unsigned dec = ct_filt_enter(t, fn, &flags);
		t->bt_slot = NULL;
		t->fl_regs = NULL;
		flags |= CT_FR_HOOKED;
		if (dec == CT_FD_SKIP) {
			t->fl_filtered++;
			return;
		}
		if (dec == CT_FD_MARK) {
			/* not recorded (the -N call itself): left out too */
			t->fl_filtered++;
			if (!ct_push_quiet(t, fn, cfa, 0))
				return;
		} else if (ct_cyg_held && !ct_args_enabled && d < t->fl_tcap) {
			/* -t alone, with -finstrument-functions' entries held
			 * back (cyg.c): this one is held back as they are, and
			 * written (after theirs) only if the call proves long
			 * (return_slow).  Writing it now would write theirs
			 * too, for good, and the take-back of this one would
			 * erase them with it.  Past the deadline, the entries
			 * held TIME ago are written first (so that a crash
			 * loses at most the last TIME of them) */
			if (unlikely(now >= t->fl_due))
				ct_filt_due(t, now);
			if (!ct_push_quiet(t, fn, cfa, 0))
				return;
			flags |= CT_FR_NOREC | CT_FR_PEND;
			ct_filt_hold_at(t, d, now, ct_callsite_on);
		} else {
			/* entries held back are written first, so that a
			 * take-back of this call's records leaves them */
			if (unlikely(t->fl_plo != CT_PEND_NONE))
				ct_filt_flush(t);
			if (ct_filt.timed)
				ct_filt_note_entry(t, now);
			ct_enter_slow(t, fn, now, cfa);
		}
	} else {
		ct_enter_slow(t, fn, now, cfa);
	}
	if (t->depth != d + 1)
		return; /* not pushed (dropped): leave the return alone */
	struct ct_frame *f = &t->stk[d];
	/* a tail-called frame's "return address" is the trampoline: its
	 * return also ends the frame below it */
	f->ret = *slot;
	f->flags = flags;
	*slot = TRAMP;
	ct_frontend_seen(t, CT_FE_HOOK); /* the first entry of each thread comes here */
}

/* called by the entry trampolines: kind 0 __fentry__, 1 mcount, 2 patched,
 * 3 a library call.  1: skip the function's body, returning to its caller
 * with the saved %rax (record --inject's return=V); 2: skip it, jumping to
 * ct_inj_thrower with the saved %rdi and %rsi (throw=) */
/* the saved registers as the arguments, for --plugin's args
 * (CT_PLUGIN_ARGS) and --inject's if=: none at aarch64's _mcount (kind 1),
 * called after the prologue, where gcc has put the return address in x0
 * and the prologue may have moved the rest (as -A's register items are
 * refused there: doc/args.md) */
#ifdef CT_ARCH_SLOT_IN_FRAME_RECORD
#define ARG_REGS(kind, r) ((kind) == 1 ? NULL : (r))
#else
#define ARG_REGS(kind, r) (r)
#endif

CT_HIDDEN int ct_hook_enter(struct ct_arch_regs *r, uintptr_t site, uintptr_t kind)
{
	struct ct_tstate *t = &ct_self;
	int pushed = 0;
	if (unlikely(t->busy++ != 0) && t->off) {
		/* a stopped thread (thread.c ct_thread_stop): not even the
		 * function's address (finding mcount's caller may make a system call) */
		ct_nested_drop(t);
		t->busy--;
		return 0;
	}
	/* kind 3, a library call (libcall.c): the site is the function */
	uintptr_t fn = kind == 1   ? mcount_fn(site)
		       : kind == 3 ? site
				   : ct_insn_fentry_fn(site, (int)kind, &pushed);
	if (pushed)
		r->sp += 8; /* the slot and the stack arguments are a word further up */
	uintptr_t *slot = (uintptr_t *)r->sp;
#ifdef CT_ARCH_SLOT_IN_FRAME_RECORD
	/* aarch64: a library call's slot (kind 3) is below its CFA, as on
	 * x86-64 (libcall.S makes it there); -pg's (kind 1) is the saved link
	 * register of the frame record, x29 + 8, and the CFA is found from
	 * the prologue.  The frames are told apart later by FR_CFA_SLOT */
	uintptr_t cfa_a64 = (uintptr_t)slot + 8;
	if (kind == 1) {
		intptr_t fpoff = mcount_fp_off(site, fn);
		if (unlikely(fpoff > 0)) {
			/* a prologue not followed: the call is not traced, and
			 * is counted as lost (in the thread's stream: started
			 * for it) */
			if (t->busy == 1)
				ct_thread_ready(t);
			ct_nested_drop(t);
			t->busy--;
			return 0;
		}
		cfa_a64 = (uintptr_t)slot - 8 - (uintptr_t)fpoff;
	}
	r->cfa = cfa_a64; /* the parameters in its frame (args.c, CT_AL_CFA) */
#endif
	if (unlikely(t->busy != 1)) {
		nested_enter(t, fn, slot PASS_CFA);
		t->busy--;
		return 0;
	}
	uint64_t now = ct_clock();
	uint64_t delta = now - t->last;
	uint32_t d = t->depth;
	uintptr_t cfa = SLOT_CFA(slot);
	uintptr_t ret = *slot;
	t->cs_site = ret; /* record --callsite: its call site (callsite.c) */
	uint32_t cs[CT_CALLSITE_MAXW];
	unsigned n = 8 + 4 * ct_cs_words(fn, ret, cs); /* (--callsite) */
	bool rd = false;
	if (likely(!ct_filt_on && d < t->cap && d != 0 && t->hook && t->stk[d - 1].cfa > cfa &&
		   delta < (1u << CT_ENTER_DELTA_BITS) && (fn >> 40) == t->hi && ret != TRAMP)) {
		uintptr_t p = ct_put_enter_cs(t, delta, fn, cs, n);
		t->last = now;
		struct ct_frame *f = &t->stk[d];
		f->fn = fn;
		f->cfa = cfa;
		f->ret = ret;
		f->flags = CT_FR_HOOKED;
		t->depth = d + 1;
		*slot = TRAMP;
		if (unlikely(p + n > t->limit))
			ct_buffer_full(t);
	} else if (ct_cyg_held && !ct_args_enabled && d < t->fl_tcap && d < t->cap && d != 0 &&
		   t->hook && ret != TRAMP && now < t->fl_due &&
		   (t->stk[d - 1].cfa > cfa || (t->stk[d - 1].cfa == cfa && !t->stk[d - 1].ret))) {
		/* -t alone: enter_slow's entry held back, without its checks
		 * (the frame below is older, or a -finstrument-functions
		 * frame of the same CFA: the caller; nothing to resync), and
		 * before the deadline (past it, enter_slow looks) */
		struct ct_frame *f = &t->stk[d];
		f->fn = fn;
		f->cfa = cfa;
		f->ret = ret;
		f->flags = HELD_HOOKED;
		ct_filt_hold_at(t, d, now, ct_callsite_on);
		t->depth = d + 1;
		*slot = TRAMP;
	} else {
		enter_slow(t, fn, now, slot, r PASS_CFA);
		rd = ct_filt_on; /* (a read= trigger's call comes this way) */
	}
	/* aarch64: the frame just pushed, if its slot is below its CFA (not
	 * -pg's: frame_slot).  Nothing reads the mark before this: the C
	 * parts hold busy */
	if (CT_SLOT_KEYED && kind != 1 && t->depth == d + 1 && t->stk[d].fn == fn &&
	    (t->stk[d].flags & CT_FR_HOOKED))
		t->stk[d].flags |= FR_CFA_SLOT;
	if (unlikely(ct_args_enabled) && t->depth == d + 1 && t->stk[d].fn == fn &&
	    !(t->stk[d].flags & CT_FR_NOREC))
		t->stk[d].flags |= ct_args_entry(t, fn, r) & ~(CT_FR_HOOKED | FR_PARKED | FR_LEFT);
	/* a read= trigger's values, after the ENTER and ARGS */
	if (unlikely(rd) && t->depth == d + 1 && t->stk[d].fn == fn &&
	    (t->stk[d].flags & CT_FR_READ))
		ct_read_trig(t, fn, false);
	/* record --plugin (its calls take this path only); a limited
	 * plugin's return goes the C way too when it wants it (CT_FR_ATRET) */
	if (unlikely(ct_plug_on) && t->depth == d + 1 && t->stk[d].fn == fn &&
	    ct_plug_enter(t, d, fn, now, ARG_REGS(kind, r)) && ct_hook_fast)
		t->stk[d].flags |= CT_FR_ATRET;
	/* record --inject (inject.c) */
	int inj = 0;
	if (unlikely(ct_inj_on) && t->depth == d + 1 && t->stk[d].fn == fn)
		inj = ct_inj_enter(t, d, fn, ARG_REGS(kind, r), (int)kind);
	t->busy--;
	if (unlikely(inj >> 8))
		ct_inj_raise(inj >> 8);
	return inj & 3;
}

/* ---- return ---------------------------------------------------------- */

static __attribute__((noreturn)) void lost_frame(uintptr_t cfa)
{
	ct_log("a traced function returned to a frame the tracer does not know (stack "
	       "pointer 0x%lx): cannot continue",
	       (unsigned long)cfa);
	abort();
}

static uintptr_t nested_return(struct ct_tstate *t, uintptr_t cfa)
{
	struct ct_hook_area *h = t->hook;
	if (h) {
		for (uintptr_t i = h->nn; i-- > 0;) {
			if (h->n[i].cfa != cfa)
				continue;
			uintptr_t ret = h->n[i].ret, fn = h->n[i].fn;
			h->nn = i;
			ct_nested(t, CT_EXT_NEXIT, (void *)fn);
			return ret;
		}
	}
	/* not one of ours: a frame of the outer path (read it, touch nothing) */
	for (uint32_t i = t->depth; i-- > 0;) {
		struct ct_frame *f = &t->stk[i];
		if (f->cfa == cfa && f->ret && (f->flags & CT_FR_HOOKED))
			return f->ret;
	}
	uintptr_t ret = orphan_take(t, cfa);
	if (!ret)
		lost_frame(cfa);
	return ret;
}

static __attribute__((noinline)) uintptr_t
return_slow(struct ct_tstate *t, const struct ct_arch_retregs *r, uintptr_t cfa, uint64_t now)
{
	uint32_t d = t->depth, i = d;
	while (i > 0 && !(t->stk[i - 1].cfa == cfa && t->stk[i - 1].ret &&
			  (t->stk[i - 1].flags & CT_FR_HOOKED)))
		i--;
	if (i == 0) {
		uintptr_t ret = orphan_take(t, cfa);
		if (!ret)
			lost_frame(cfa);
		return ret;
	}
	struct ct_frame *f = &t->stk[i - 1];
	uintptr_t ret = f->ret, fn = f->fn;
	uintptr_t flags = f->flags;
	f->ret = 0;
	f->flags = 0;
	if (i < d) {
		/* frames above ours vanished without returning */
		uint32_t n = ct_filt_on ? ct_filt_unwinding(t, i, d) : d - i;
		ct_hook_dropping(t, i, cfa);
		t->depth = i;
		ct_emit_unwind(t, n);
	}
	if (unlikely(ct_filt.has_trig) && (flags & CT_FR_TP))
		ct_filt_exit_trig(fn); /* finish */
	if (unlikely(ct_plug_on))
		ct_plug_exit(t, i - 1, fn, now, r); /* (its frame still stk[i - 1]) */
	if (unlikely(flags & CT_FR_ATRET))
		ct_inj_exit(t, i - 1, fn, r); /* record --inject: retval=, errno= */
	if ((flags & (CT_FR_NOREC | CT_FR_PEND)) == (CT_FR_NOREC | CT_FR_PEND)) {
		/* -t alone: its entry was held back (enter_slow) */
		if (!ct_filt_held_short(t, i - 1, now)) {
			/* long: the entries held back (its own among them)
			 * are written, then its exit */
			f->flags = flags;
			ct_filt_flush(t);
			f->flags = 0;
			ct_put_exit(t, now, i - 1);
		}
	} else if (flags & CT_FR_NOREC) {
		t->depth = i - 1; /* a record-time filter left it out */
	} else if (!(ct_filt_on && ct_filt.timed && ct_filt_take_back(t, i - 1, now))) {
		if (ct_filt_on && ct_filt.timed)
			ct_filt_kept(t);
		if (unlikely(flags & CT_FR_READ))
			ct_read_trig(t, fn, true); /* read=, before its RETVAL and EXIT */
		if ((flags & CT_ARGS_WANT_RET) && ct_args_enabled)
			ct_args_exit(t, fn, r);
		if (t->nested_lost)
			ct_put_nested_lost(t);
		ct_put_exit(t, now, i - 1);
	}
	/* a tail-called frame: the one that jumped to it returns now too */
	if (ret == TRAMP)
		return return_slow(t, r, cfa, now);
	return ret;
}

/* the return trampoline's fast path, for a frame whose return value is
 * wanted (taken off the shadow stack already): the RETVAL record (unless
 * fn is 0: the trampoline wrote it), then the EXIT record at now, leaving
 * depth frames open */
CT_HIDDEN void ct_hook_ret_args(struct ct_tstate *t, uintptr_t fn, const struct ct_arch_retregs *r,
				uint64_t now, uint32_t depth)
{
	if (fn && ct_args_enabled)
		ct_args_exit(t, fn, r);
	ct_put_exit(t, now, depth);
}

/* called by ct_return_tramp with the return value and the hooked frame's
 * CFA; returns where the function really returns to */
CT_HIDDEN uintptr_t ct_hook_return(const struct ct_arch_retregs *r, uintptr_t cfa)
{
	struct ct_tstate *t = &ct_self;
	uintptr_t ret;
	if (unlikely(t->busy++ != 0)) {
		ret = nested_return(t, cfa);
		t->busy--;
		return ret;
	}
	uint64_t now = ct_clock();
	uint64_t delta = now - t->last;
	uint32_t d = t->depth;
	if (likely(d != 0)) {
		struct ct_frame *f = &t->stk[d - 1];
		/* a frame a plugin wants the exit of (CT_FR_ATRET) is one of
		 * these too, unless --inject is on (its retval= and errno=
		 * are return_slow's) */
		uintptr_t more = CT_ARGS_WANT_RET | (ct_inj_on ? 0 : CT_FR_ATRET);
		if (likely(f->cfa == cfa && (f->flags & ~(more | FR_CFA_SLOT)) == CT_FR_HOOKED &&
			   f->ret != TRAMP && f->ret && delta < (1u << CT_EXIT_DELTA_BITS))) {
			/* record --plugin: the returns of the frames it marked,
			 * and every return while the fast paths are off */
			if (unlikely(ct_plug_on))
				ct_plug_exit(t, d - 1, f->fn, now, r);
			if (unlikely((f->flags & ~FR_CFA_SLOT) != CT_FR_HOOKED)) {
				/* its return value is wanted, or a plugin's exit
				 * was: return_slow's steps for the top frame,
				 * without the search.  The frame is taken off (ret
				 * 0: a buffer switch in --drop mode leaves it
				 * alone) before the RETVAL record, which may switch
				 * buffers (a new delta base) */
				ret = f->ret;
				uintptr_t fn = f->fn, flags = f->flags;
				f->ret = 0;
				f->flags = 0;
				if ((flags & CT_ARGS_WANT_RET) && ct_args_enabled)
					ct_args_exit(t, fn, r);
				ct_put_exit(t, now, d - 1);
				t->busy--;
				return ret;
			}
			uintptr_t p = ct_arch_reserve(&t->cur, 4);
			*(uint32_t *)p = (uint32_t)(CT_REC_EXIT | delta << 2);
			t->last = now;
			t->depth = d - 1;
			ret = f->ret;
			f->ret = 0;
			if (unlikely(p + 4 > t->limit))
				ct_buffer_full(t);
			t->busy--;
			return ret;
		}
		if ((f->flags & ~FR_CFA_SLOT) == HELD_HOOKED && f->cfa == cfa && f->ret != TRAMP &&
		    f->ret && !ct_plug_on) {
			/* -t alone: a call whose entry was held back; when it
			 * was short nothing was written and nothing is (when
			 * long, return_slow writes the entries and its exit) */
			ret = f->ret;
			if (ct_filt_held_short(t, d - 1, now)) {
				f->ret = 0;
				f->flags = 0;
				t->busy--;
				return ret;
			}
		}
	}
	ret = return_slow(t, r, cfa, now);
	t->busy--;
	if (unlikely(ct_inj_on))
		ct_inj_errno_now(); /* record --inject's errno=, last */
	return ret;
}

/* a thread that stops tracing for good (thread.c ct_thread_stop, outside
 * any hook): every hooked frame above sp gets its return address back,
 * aarch64's FR_CFA_SLOT frames through the unwinder's walks (one each: a
 * deep stack would push the first ones out of the orphans); what no walk
 * reaches is left to the orphans (ct_hook_dropping) */
void ct_hook_give_back(struct ct_tstate *t, uintptr_t sp)
{
	if (!t->hook)
		return;
	unhook_all_walked(t, sp, 0, false);
	ct_hook_dropping(t, 0, sp);
}

/* ---- whatever reads return addresses (wrap.c's interposers) ------------ */

/* take the real return addresses back for a call that reads them; returns
 * whether there was anything to do (so the caller hooks again) */
bool ct_hook_begin_real(struct ct_tstate *t, uintptr_t sp)
{
	/* no hook area: this thread never hooked a frame (a program built
	 * with -finstrument-functions only): nothing to do, at no cost */
	if (!t->hook || t->cap == 0 || t->busy || t->depth == 0)
		return false;
	t->busy++;
	unhook_all_walked(t, sp, 0, true);
	t->busy--;
	return true;
}

void ct_hook_end_real(struct ct_tstate *t, uintptr_t sp)
{
	if (t->cap == 0 || t->busy)
		return;
	t->busy++;
	if (CT_ARCH_RA_IN_REG)
		ct_hook_rehook_unwinder(t, sp, 0); /* (first: it stops at a hooked frame) */
	rehook_all(t, sp, 0);
	t->busy--;
}

/* the catching frame survives, with everything above it (busy is held) */
CT_HIDDEN void ct_hook_catch(struct ct_tstate *t, uintptr_t sp)
{
	if (t->hook) {
		if (CT_ARCH_RA_IN_REG)
			ct_hook_rehook_unwinder(t, sp, 0); /* (first: it stops at a hooked frame) */
		rehook_all(t, sp, 0);
	}
}

/* coroutines: the frames of the stack being left (above sp) are parked:
 * real return addresses back, kept open, under a number that is returned
 * (0: nothing parked); they are hooked again when that stack runs again.
 * aarch64's FR_CFA_SLOT frames (patched entries, library calls) saved
 * their return address where their code says: the unwinder's walk gives
 * it back and parks them, while this stack still runs (its frames may
 * leave the shadow stack before it resumes, e.g. when the frame that
 * switched to it returns first: they must hold their real addresses
 * then); the walk hooks them again on the way back */
uint32_t ct_hook_park(struct ct_tstate *t, uintptr_t sp)
{
	if (!t->hook || t->cap == 0 || t->busy || !t->depth)
		return 0;
	t->busy++;
	uint32_t gen = ++t->hook->park_gen & FR_GEN_MAX;
	if (gen == 0)
		gen = ++t->hook->park_gen & FR_GEN_MAX;
	unhook_all_walked(t, sp, gen, false);
	t->busy--;
	return gen;
}

void ct_hook_unpark(struct ct_tstate *t, uintptr_t sp, uint32_t gen)
{
	if (!gen || t->cap == 0 || t->busy)
		return;
	t->busy++;
	if (CT_ARCH_RA_IN_REG)
		ct_hook_rehook_unwinder(t, sp, gen); /* (first: it stops at a hooked frame) */
	rehook_all(t, sp, gen);
	t->busy--;
}

/* setcontext: the stack being left never resumes.  Its frames are parked
 * under a number nobody waits for: never hooked again, nor their slots
 * read (the stack may be freed), and a later frame may close them */
void ct_hook_leave(struct ct_tstate *t, uintptr_t sp)
{
	uint32_t gen = ct_hook_park(t, sp);
	if (!gen)
		return;
	for (uint32_t i = 0; i < t->depth; i++)
		if (frame_parked_under(&t->stk[i], gen))
			t->stk[i].flags |= FR_LEFT;
}
