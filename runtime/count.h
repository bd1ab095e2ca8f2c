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
#define CT_C_DEPTH 16 /* uint32_t: entries of stk in use */
#define CT_C_CAP 20   /* uint32_t: stk's capacity (0: not set up) */
#define CT_C_STK 24   /* uintptr_t *: the calls open */
#define CT_C_CFA 32   /* uintptr_t *: their CFAs */

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
				      * CFA (beside hooked calls its own, if found)
				      * | 1 (odd: left at its exit, never by the
				      * stack pointer), | 2 if from[] holds its
				      * caller (count.c CFA_CYG, CFA_CALLER) */
	uintptr_t *ret;              /* aarch64: each hooked call's return address into
			 * its caller; a -finstrument-functions call's
			 * beside hooked calls (0: none) */
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
	/* record --count --sample, x86-64's hooked front ends: the thread
	 * made a hooked call (its calls are found by unwinding: stackwalk.c),
	 * and the array a sample's walk fills */
	uint32_t hooked;
	uint32_t walking; /* ct_walk_nearest's walks running (a handler's within one) */
	struct ct_walk_call *calls;
	/* the stack the walks may read: a mapping [lo, hi) that held the
	 * stack pointer (0, 0: none known), and how often it was looked up
	 * (stackwalk.c) */
	uintptr_t stk_lo, stk_hi;
	uint32_t range_reads;
	/* the stack of the context swapcontext/setcontext switched to last
	 * (its uc_stack: a coroutine's; 0, 0: the thread's own), and the
	 * last such stacks found whole in one mapping (stackwalk.c) */
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
/* a hooked call counted by its site and its caller's return address ret
 * (count.S, an arc new to the thread's table; with --sample the site is
 * noted for the samples' walks) */
void ct_count_site(uintptr_t ret, uintptr_t site) __attribute__((visibility("hidden")));
/* ... aarch64's (patch.S), with the return address into the caller */
void ct_count_enter_site_lr(uintptr_t site, uintptr_t cfa, uintptr_t ret)
	__attribute__((visibility("hidden")));
/* a forked child: its tables are its own (fork.c) */
void ct_count_after_fork(void) __attribute__((visibility("hidden")));
/* record --count --sample: n samples, from the signal handler (sample.c);
 * hooks: they interrupted the runtime's own code; uc: the interrupted
 * context */
void ct_count_sample(uint32_t n, bool hooks, const void *uc) __attribute__((visibility("hidden")));
/* the thread ends: its mappings go (thread.c) */
void ct_count_thread_exit(void) __attribute__((visibility("hidden")));

/* ---- the hooked calls open, by unwinding (stackwalk.c) --------------------- */

/* a hooked call: its CFA, its hook's site, its return address into its
 * caller (its arc's, as counted) */
struct ct_walk_call {
	uintptr_t cfa, site, ret;
};

#ifdef CT_ARCH_UNWIND
/* the thread's first hooked call under --sample, its stack pointer sp:
 * the stack the walks may read found */
void ct_walk_setup(struct ct_count_thread *c, uintptr_t sp) __attribute__((visibility("hidden")));
/* the thread ends */
void ct_walk_free(struct ct_count_thread *c) __attribute__((visibility("hidden")));
/* swapcontext or setcontext switches to a context whose uc_stack is
 * [sp, sp + size) (NULL, 0: none, the thread's own stack) */
void ct_walk_switch(const void *sp, size_t size) __attribute__((visibility("hidden")));
/* from the signal handler: the hooked calls open in the interrupted
 * context uc, in c->calls, the innermost first; how many */
uint32_t ct_walk_sample(struct ct_count_thread *c, const void *uc)
	__attribute__((visibility("hidden")));
/* from the runtime (not a handler): the innermost hooked call open whose
 * CFA is in (above, above + reach]; false if none */
bool ct_walk_nearest(struct ct_count_thread *c, uintptr_t above, uintptr_t reach,
		     struct ct_walk_call *call) __attribute__((visibility("hidden")));
#endif

#endif
#endif
