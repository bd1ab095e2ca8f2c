/* SPDX-License-Identifier: MIT */
/*
 * Hooked frames given back and hooked again through libgcc's unwinder
 * walk (split from hook.c, whose unhook_all and rehook_all call these):
 * aarch64's frames whose return address was a register (FR_CFA_SLOT: a
 * library call, a patched entry), and the frames whose slot unhook_all
 * found not holding the trampoline any more.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#include "hook_priv.h"
#include "internal.h"

/* the unwinder's own walk finds where the return addresses of the frames
 * missed by unhook_all were saved: a frame whose return address is the
 * trampoline comes after the one that saved it, and writing the register
 * of the return address in it (_Unwind_SetGR) writes that place.  Each
 * walk ends at the trampoline (its CFI: no caller), so one walk gives one
 * frame back, the innermost.  The FR_CFA_SLOT frames so given back that
 * survive (a catch, backtrace()) are hooked again by another walk
 * (ct_hook_rehook_unwinder); the others return straight to their callers, and are
 * closed by the next entry or return found below them.  libgcc's
 * functions are looked up, not linked: the runtime needs libc alone; they
 * are there when an exception is, and a C program's backtrace() gets
 * libgcc_s loaded as glibc's own backtrace() does */
struct unw_fix {
	struct ct_tstate *t;
	const uint32_t *miss;
	unsigned nmiss;
	uint32_t gen; /* a context switch's: the frames given back are parked */
	bool fixed;
	uintptr_t (*get_ip)(void *);
	uintptr_t (*get_cfa)(void *);
	void (*set_gr)(void *, int, uintptr_t);
};

static int unw_fix_one(void *ctx, void *arg)
{
	struct unw_fix *u = arg;
	if (u->get_ip(ctx) != TRAMP)
		return 0;                /* _URC_NO_REASON: go on */
	uintptr_t cfa = u->get_cfa(ctx); /* the frame that returns to it */
	/* aarch64: a frame whose slot is below its CFA kept its hook
	 * (unhook_all): the innermost at that CFA (FR_CFA_SLOT is 0 on
	 * x86-64, where this loop goes) */
	for (uint32_t i = u->t->depth; FR_CFA_SLOT && i-- > 0;) {
		struct ct_frame *f = &u->t->stk[i];
		if (f->cfa == cfa && f->ret && f->ret != TRAMP &&
		    (f->flags & (FR_CFA_SLOT | CT_FR_HOOKED)) == (FR_CFA_SLOT | CT_FR_HOOKED)) {
			u->set_gr(ctx, CT_ARCH_DWARF_RA, f->ret);
			frame_unhooked(f, u->gen);
			u->fixed = true;
			return 5;
		}
	}
	/* the others, unhooked already: those listed in miss[] */
	for (unsigned k = u->nmiss < NMISS ? u->nmiss : NMISS; k-- > 0;) {
		struct ct_frame *f = &u->t->stk[u->miss[k]];
		if (f->cfa == cfa && f->ret && !(f->flags & FR_CFA_SLOT)) {
			u->set_gr(ctx, CT_ARCH_DWARF_RA, f->ret);
			u->fixed = true;
		}
	}
	return 5; /* _URC_END_OF_STACK: stop (the walk cannot go past it) */
}

/* hook again, through the unwinder's walk, the frames whose return
 * addresses it gave back (CT_ARCH_RA_IN_REG, FR_CFA_SLOT frames; -pg's are
 * hooked again by their slot, rehook_all): the context whose IP is a
 * frame's return address has that frame's CFA (as in unw_fix_one), and its
 * register of the return address is where the frame saved it.  With gen,
 * the frames parked under that number (swapcontext returned on their
 * stack); without, those not parked.  One walk hooks them all: it goes on
 * past each frame it hooks (the next step reads the caller's own saved
 * return address, not the one written) */
struct unw_re {
	struct ct_tstate *t;
	unsigned left;
	uint32_t gen;
	struct unw_fix *fns;
};

static int unw_rehook_one(void *ctx, void *arg)
{
	struct unw_re *u = arg;
	uintptr_t ip = u->fns->get_ip(ctx), cfa = u->fns->get_cfa(ctx);
	for (uint32_t i = u->t->depth; i-- > 0;) {
		struct ct_frame *f = &u->t->stk[i];
		/* the frame at that CFA that returns to ip: others may share
		 * the CFA (a tail-called frame, whose "return address" is
		 * the trampoline; a coroutine's first frame, on a stack that
		 * is an array at the top of a caller's frame, has that
		 * caller's CFA) */
		if (f->cfa != cfa || !(f->flags & FR_CFA_SLOT) || f->ret != ip)
			continue;
		if (frame_rehook_wanted(f, u->gen)) {
			u->fns->set_gr(ctx, CT_ARCH_DWARF_RA, TRAMP);
			frame_rehooked(f);
			u->left--;
		}
		break;
	}
	return u->left && ip != TRAMP ? 0 : 5;
}

static int (*unw_walk)(int (*)(void *, void *), void *);
static struct unw_fix unw_fns;

static bool unwinder_found(void)
{
	if (unw_walk)
		return true;
	void *h = RTLD_DEFAULT;
	if (!dlsym(h, "_Unwind_Backtrace")) {
		/* a C program: loaded as glibc's backtrace() does */
		void *l = dlopen("libgcc_s.so.1", RTLD_NOW);
		if (!l)
			return false;
		h = l;
	}
	struct unw_fix fns = {0};
	fns.get_ip = (uintptr_t(*)(void *))dlsym(h, "_Unwind_GetIP");
	fns.get_cfa = (uintptr_t(*)(void *))dlsym(h, "_Unwind_GetCFA");
	fns.set_gr = (void (*)(void *, int, uintptr_t))dlsym(h, "_Unwind_SetGR");
	int (*walk)(int (*)(void *, void *), void *) =
		(int (*)(int (*)(void *, void *), void *))dlsym(h, "_Unwind_Backtrace");
	if (!fns.get_ip || !fns.get_cfa || !fns.set_gr || !walk)
		return false;
	unw_fns = fns;
	unw_walk = walk;
	return true;
}

/* one walk gives one frame back (the innermost); as many walks as frames
 * were missed, or until one gives nothing (the frames left keep their
 * hook).  With gen (a context switch, ct_hook_park) the FR_CFA_SLOT frames
 * given back are parked under it, as unhook_all parks the others */
void ct_hook_unhook_unwinder(struct ct_tstate *t, const uint32_t *miss, unsigned nmiss,
			     uint32_t gen)
{
	if (!unwinder_found())
		return;
	struct unw_fix u = unw_fns;
	u.t = t;
	u.miss = miss;
	u.nmiss = nmiss;
	u.gen = gen;
	for (unsigned n = 0; n < nmiss; n++) {
		u.fixed = false;
		unw_walk(unw_fix_one, &u);
		if (!u.fixed)
			break;
	}
}

void ct_hook_rehook_unwinder(struct ct_tstate *t, uintptr_t sp, uint32_t gen)
{
	struct unw_re u = {t, 0, gen, &unw_fns};
	for (uint32_t i = 0; i < t->depth; i++) {
		const struct ct_frame *f = &t->stk[i];
		u.left += (f->flags & FR_CFA_SLOT) && f->ret && f->ret != TRAMP &&
			  f->cfa - 8 >= sp && frame_rehook_wanted(f, gen);
	}
	if (u.left && unwinder_found())
		unw_walk(unw_rehook_one, &u);
}
