/* SPDX-License-Identifier: MIT */
/*
 * The hooked front ends' private parts (runtime/hook.c), shared with the
 * file split from it: hook_unwind.c (frames given back and hooked again
 * through the unwinder's walk, and aarch64's frame_slot).  The shadow stack's
 * frame bits beside internal.h's CT_FR_*, the per-thread hook area, and
 * the function's address from an mcount call site.  Not for the other
 * files of the runtime: internal.h is theirs.
 */
#ifndef CT_RT_HOOK_PRIV_H
#define CT_RT_HOOK_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>

#include "insn.h"
#include "internal.h"

void ct_return_tramp(void) CT_HIDDEN;

#define NSTACK 64    /* frames of the nested path */
#define NORPHANS 256 /* hooked frames dropped while perhaps alive */

struct ct_nframe {
	uintptr_t fn, cfa, ret;
};

struct ct_hook_area {
	uintptr_t nn; /* nested frames in use (reserved with one xadd) */
	struct ct_nframe n[NSTACK];
	struct {
		uintptr_t cfa, ret;
	} orphan[NORPHANS];
	uint32_t onext;
	uint32_t park_gen;
};

#define TRAMP ((uintptr_t)ct_return_tramp)
#ifdef CT_ARCH_SLOT_IN_FRAME_RECORD
#define CT_SLOT_KEYED 1
#else
#define CT_SLOT_KEYED 0
#endif
#define FR_PARKED (1ul << 30) /* unhooked by a context switch */
#define FR_LEFT (1ul << 29)   /* ... by setcontext: its stack never resumes */
/* ... whose number (31 bits) is in the high bits (bit 32: CT_FR_ATRET) */
#define FR_GEN_SHIFT 33
/* aarch64 (CT_SLOT_KEYED): a hooked frame whose return-address slot is the
 * word below its CFA, as on x86-64, not the saved link register of its
 * frame record as -pg's is: a library call's, whose slot libcall.S makes
 * there (every kind but 1, mcount; frame_slot).  Taken from the top of
 * the parked generation, one bit shorter there; 0 elsewhere (every slot
 * is below its CFA) */
#if CT_SLOT_KEYED
#define FR_CFA_SLOT (1ul << 63)
#define FR_GEN_MAX 0x3fffffffu
#else
#define FR_CFA_SLOT 0ul
#define FR_GEN_MAX 0x7fffffffu
#endif
#define FR_GEN_MASK ((uintptr_t)FR_GEN_MAX << FR_GEN_SHIFT)

/* a frame whose real return address was given back: not hooked, and with
 * gen (a context switch's number) parked under it */
static inline void frame_unhooked(struct ct_frame *f, uint32_t gen)
{
	f->flags &= ~CT_FR_HOOKED;
	if (gen)
		f->flags = (f->flags & ~FR_GEN_MASK) | FR_PARKED | (uintptr_t)gen << FR_GEN_SHIFT;
}

/* is f parked under gen? */
static inline bool frame_parked_under(const struct ct_frame *f, uint32_t gen)
{
	return (f->flags & FR_PARKED) && (f->flags & FR_GEN_MASK) >> FR_GEN_SHIFT == gen;
}

/* is f, not hooked, one to hook again now: parked under gen, or with gen
 * 0 not parked at all */
static inline bool frame_rehook_wanted(const struct ct_frame *f, uint32_t gen)
{
	return !(f->flags & CT_FR_HOOKED) &&
	       (gen ? frame_parked_under(f, gen) : !(f->flags & FR_PARKED));
}

/* a frame hooked again: no longer parked */
static inline void frame_rehooked(struct ct_frame *f)
{
	f->flags = (f->flags & ~(FR_PARKED | FR_GEN_MASK)) | CT_FR_HOOKED;
}

static inline struct ct_hook_area *hook_area(struct ct_tstate *t)
{
	if (likely(t->hook != NULL))
		return t->hook;
	void *p = mmap(NULL, sizeof(struct ct_hook_area), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	t->hook = p;
	return p;
}

/* The decoding is arch/x86_64/insn.h's.  mcount's caller is found by
 * looking back for its prologue, once per call site (a small lock-free
 * cache of one-word entries: call site in the high bits, distance below) */
#define MC_CACHE CT_MC_CACHE
extern uint64_t ct_mc_cache[MC_CACHE] CT_HIDDEN;

static inline uintptr_t mcount_fn(uintptr_t site)
{
	uint64_t *e = &ct_mc_cache[(site ^ site >> 12) % MC_CACHE];
	uint64_t v = __atomic_load_n(e, __ATOMIC_RELAXED);
	if (likely(v >> 16 == (site & 0xffffffffffffull)) && v != 0)
		return site - (v & 0xffff);
	uintptr_t fn = ct_insn_prologue_before(site);
	if (site - fn < 0x10000 && site < (1ull << 48))
		__atomic_store_n(e, (uint64_t)site << 16 | (site - fn), __ATOMIC_RELAXED);
	return fn;
}

#define NMISS 8 /* (unhook_all: the frames of one walk, at most) */
#ifndef CT_ARCH_RA_IN_REG
#define CT_ARCH_RA_IN_REG 0 /* the return address in a register (aarch64's x30) */
#endif

/* hook_unwind.c's: the frames unhook_all missed (miss[], nmiss of them)
 * given back by the unwinder's walk (gen: and parked under that number);
 * the FR_CFA_SLOT frames above sp so given back hooked again (gen: those
 * parked under it, 0: those not parked) */
void ct_hook_unhook_unwinder(struct ct_tstate *t, const uint32_t *miss, unsigned nmiss,
			     uint32_t gen) CT_HIDDEN;
void ct_hook_rehook_unwinder(struct ct_tstate *t, uintptr_t sp, uint32_t gen) CT_HIDDEN;

#endif
