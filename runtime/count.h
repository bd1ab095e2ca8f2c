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
	uintptr_t *cfa;              /* each one's CFA: a hooked front end's entry
				      * (count.S, ct_count_enter_site), left when the stack
				      * pointer is above it; UINTPTR_MAX: left at
				      * its exit (-finstrument-functions) */
	uintptr_t *ret;              /* aarch64: each hooked call's return address into
			 * its caller (NULL elsewhere) */
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

/* the -finstrument-functions hooks' counting paths (cyg.c tail-calls them) */
void ct_count_enter(void *fn) __attribute__((visibility("hidden")));
void ct_count_exit(void *fn) __attribute__((visibility("hidden")));
/* --count --sample, the x86-64 hooked front ends' entries (count.S):
 * a call whose hook returns to site and whose frame's CFA is cfa, keyed by
 * its site and pushed on the counting stack (its return is not hooked: it
 * is over once the stack pointer is above cfa), when count.S's own path
 * cannot (no stack yet, or too deep) */
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
#endif

#endif
