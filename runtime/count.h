/* SPDX-License-Identifier: MIT */
/*
 * record --count (runtime/count.c): exact per-thread call counts by arc,
 * no clock, no event stream.  The per-thread state is a TLS variable of its
 * own (initial-exec), whose offsets the assembly counting paths of
 * arch/<arch>/count.S know; count.c checks them with _Static_assert.
 */
#ifndef CT_RT_COUNT_H
#define CT_RT_COUNT_H

/* struct ct_count_thread */
#define CT_C_SLOTS 0 /* struct ct_count_slot *: the table (0: none yet) */
#define CT_C_MASK 8  /* (slots - 1) * 32: a byte offset mask */
#define CT_C_SLOT_SHIFT 5
#define CT_C_DEPTH 16  /* uint32_t: entries of stk in use */
#define CT_C_CAP 20    /* uint32_t: stk's capacity (0: not set up) */
#define CT_C_STK 24    /* uintptr_t *: the calls open */
#define CT_C_CFA 32    /* uintptr_t *: their CFAs */
#define CT_C_MIRROR 40 /* struct ct_mirror_slot *: the stack's mirror (0: none yet) */
#define CT_C_MMASK 48  /* its byte mask, applied to a CFA * 2 */
#define CT_C_MSEQ 56   /* uint64_t: the thread's hooked calls so far (the mirror's numbers) */

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calltrace/format.h"
#include "internal.h" /* enum ct_thread_state */

struct ct_count_thread {
	struct ct_count_slot *slots; /* the table being filled (NULL: none yet) */
	uint64_t mask;               /* (nslots - 1) << CT_C_SLOT_SHIFT */
	uint32_t depth;              /* entries of stk in use */
	uint32_t cap;                /* stk's capacity (0: not set up) */
	uintptr_t *stk;              /* the calls open: a -finstrument-functions
				      * call's function, a hooked one's site
				      * (--sample); stk[0] = 0 (no caller) */
	uintptr_t *cfa;              /* aarch64's hooked calls: each one's CFA,
				      * left when the stack pointer is above it;
				      * a -finstrument-functions call: its hook's
				      * CFA (beside a mirror its own, if found)
				      * | 1 (odd: left at its exit, never by the
				      * stack pointer), | 2 if from[] holds its
				      * caller (count.c CFA_CYG, CFA_CALLER) */
	/* record --count --sample, x86-64's hooked front ends (count.S): the
	 * stack's mirror, where each call is written at its CFA (mirror.c) */
	struct ct_mirror_slot *mirror;
	uint64_t mmask;
	uint64_t mseq;
	uintptr_t *ret;              /* aarch64: each hooked call's return address into
			 * its caller; a -finstrument-functions call's
			 * beside a mirror (0: none) */
	uintptr_t *from;             /* ... and then its caller, as counted */
	struct ct_count_slot *last;  /* the slot hit last (-finstrument-functions) */
	struct ct_count_header *hdr; /* the table's file, mapped */
	size_t map_len;
	uint64_t grow_at; /* slots used at which a bigger table is started */
	uint32_t in_slow; /* the slow path runs (a signal handler's calls
			   * count without starting a table) */
	enum ct_thread_state state;
	int tid;
	uint32_t seq;
	uint64_t lost; /* calls not counted before a table existed */
	/* the stack the mirror's walks may read: a mapping [lo, hi) that
	 * held the stack pointer (0, 0: none known), and how often it was
	 * looked up (mirror.c) */
	uintptr_t stk_lo, stk_hi;
	uint32_t range_reads;
	/* the stack of the context swapcontext/setcontext switched to last
	 * (its uc_stack: a coroutine's; 0, 0: the thread's own), and the
	 * last such stacks found whole in one mapping (mirror.c) */
	uintptr_t co_lo, co_hi;
	struct {
		uintptr_t lo, hi;
	} co_ok[4];
	uint32_t co_next;
	/* the tables it filled before this one: mapped until the thread ends */
	struct {
		void *map;
		size_t len;
	} old[8];
	uint32_t nold;
	/* record --count --sample: the thread's samples so far (each one's
	 * tag in the slots it counted in) */
	uint64_t sample_seq;
	/* ... and its table of samples: a file of its own (CT_COUNT_SAMPLE_PREFIX),
	 * so that the arcs' probe chains stay as short as without samples;
	 * only the signal handler writes it (the signal is blocked while it
	 * runs), and it grows there */
	struct {
		struct ct_count_slot *slots; /* NULL: none */
		uint64_t mask;               /* as the arcs' */
		struct ct_count_header *hdr;
		size_t map_len;
		uint64_t grow_at;
		uint32_t seq;
		uint32_t nold;
		struct {
			void *map;
			size_t len;
		} old[8];
	} st;
};

extern __thread struct ct_count_thread ct_count_self __attribute__((tls_model("initial-exec")));
/* ct_count_on, record --count's switch, is declared in internal.h */

/* the -finstrument-functions hooks' counting paths (cyg.c tail-calls them;
 * cfa: the entry hook's own, inside the traced function's frame; ret: the
 * traced function's return address) */
void ct_count_enter(void *fn, uintptr_t cfa, uintptr_t ret) __attribute__((visibility("hidden")));
void ct_count_exit(void *fn) __attribute__((visibility("hidden")));
/* --count --sample, the x86-64 hooked front ends' entries (count.S):
 * a call whose hook returns to site and whose frame's CFA is cfa, counted
 * as --count alone counts it and written in the stack's mirror, when
 * count.S's own path cannot (no mirror yet: it is made here) */
void ct_count_enter_site(uintptr_t site, uintptr_t cfa) __attribute__((visibility("hidden")));
/* a hooked call counted by its site and its caller's return address ret
 * (the trampolines, without --sample) */
void ct_count_site(uintptr_t ret, uintptr_t site) __attribute__((visibility("hidden")));
/* ... aarch64's (patch.S), with the return address into the caller */
void ct_count_enter_site_lr(uintptr_t site, uintptr_t cfa, uintptr_t ret)
	__attribute__((visibility("hidden")));
/* a forked child: its tables are its own (fork.c) */
void ct_count_after_fork(void) __attribute__((visibility("hidden")));
/* record --count --sample: n samples, from the signal handler (sample.c);
 * hooks: they interrupted the runtime's own code; sp: the interrupted
 * stack pointer (the hooked front ends' calls below it are over); pc and
 * lr (aarch64's link register; 0 elsewhere): the interrupted ones */
void ct_count_sample(uint32_t n, bool hooks, uintptr_t sp, uintptr_t pc, uintptr_t lr)
	__attribute__((visibility("hidden")));
/* the thread ends: its mappings go (thread.c) */
void ct_count_thread_exit(void) __attribute__((visibility("hidden")));

/* ---- the stack's mirror (mirror.c) ------------------------------------- */

/* the call made last whose CFA is in [a, a + 16), the slot's at a * 2 &
 * mask: site, its hook's return address; ret, its own, into the caller
 * (0: none ever); seq, its number among the thread's hooked calls */
struct ct_mirror_slot {
	uintptr_t site, ret;
	uint64_t seq, spare;
};

/* the thread's mirror made, and the stack it may read found from sp;
 * false if it cannot be (a mirror that takes every write and is never
 * read is set instead) */
bool ct_mirror_setup(struct ct_count_thread *c, uintptr_t sp) __attribute__((visibility("hidden")));
/* the thread ends: its mirror goes */
void ct_mirror_free(struct ct_count_thread *c) __attribute__((visibility("hidden")));
/* swapcontext or setcontext switches to a context whose uc_stack is
 * [sp, sp + size) (NULL, 0: none, the thread's own stack) */
void ct_mirror_switch(const void *sp, size_t size) __attribute__((visibility("hidden")));

/* a walk down the stack to a stack pointer: the hooked calls open there,
 * the outermost first */
struct ct_mirror_walk {
	const struct ct_count_thread *c;
	uintptr_t sp, end, a, lo;
	uint64_t seq; /* the last call's number */
};
struct ct_mirror_call {
	uintptr_t cfa, site, ret;
};
/* the walk over [sp, end) of the thread's stack; false: no walk (no
 * mirror, or sp on a stack whose extent is not known); signal: from the
 * signal handler (it may look the extent up) */
bool ct_mirror_walk_begin(struct ct_count_thread *c, uintptr_t sp, uintptr_t end, bool signal,
			  struct ct_mirror_walk *w) __attribute__((visibility("hidden")));
bool ct_mirror_walk_next(struct ct_mirror_walk *w, struct ct_mirror_call *call)
	__attribute__((visibility("hidden")));
#endif

#endif
