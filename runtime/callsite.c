/* SPDX-License-Identifier: MIT */
/*
 * record --callsite: each recorded call's call site, the return address in
 * its caller, in a CT_EXT_CALLSITE record right after its ENTER (one
 * reservation for both: include/calltrace/format.h has the encoding).
 *
 * The mode is chosen once at start-up: with it the hooks' plain entry fast
 * paths are off (ct_hook_modes: ct_enter_fast), so that they stay as they
 * are, and every entry goes through a path of its own that knows the call
 * site (ct_cs_fast):
 *  - -finstrument-functions: the hook's second argument (cyg.c), kept in
 *    t->cs_site while the hook runs; the common case is ct_cs_enter here;
 *  - -pg, -pg -mfentry, patched entries, library calls: the traced
 *    function's return-address slot, which the entry trampolines read to
 *    hook the return: the common case in assembly (arch/x86_64/
 *    tramp_callsite.inc), the others in hook.c's ct_hook_enter, which
 *    keeps it in t->cs_site too;
 *  - every slower path writes its ENTER with ct_put_enter, which adds the
 *    CALLSITE of the call site it is given (stream.c); an entry held back
 *    by -t keeps its call site in t->fl_tp[depth].site until it is written
 *    (filter.c ct_filt_flush), so a call taken back or left out by a
 *    record-time filter loses its call site with it.
 * Entries with no call site: those of the nested path (a signal handler
 * that interrupted the tracer), a tail call's (its slot holds the return
 * trampoline), frames entered again (a fork child's, after --drop's gap, a
 * flight window's first frames).
 */
#include <string.h>

#include "internal.h"
#include "offsets.h"

bool ct_callsite_on; /* internal.h */
bool ct_enter_fast;  /* internal.h */
bool ct_cs_fast;     /* internal.h */
_Static_assert(sizeof(ct_enter_fast) == 1, "ct_enter_fast is tested as a byte");
_Static_assert(sizeof(ct_cs_fast) == 1, "ct_cs_fast is tested as a byte");
/* the CALLSITE words the entry trampolines write (arch/x86_64/
 * tramp_callsite.inc), as ct_callsite_encode writes them */
_Static_assert(CT_EXT_CS_SHORT_WORD == (CT_REC_EXT | CT_EXT_CALLSITE << 2) &&
		       CT_EXT_CS_LONG_WORD == (CT_REC_EXT | CT_EXT_CALLSITE << 2 | 1 << 8),
	       "CALLSITE words");
uintptr_t ct_cs_tramp; /* internal.h */
void ct_return_tramp(void) CT_HIDDEN;

void ct_callsite_init(void)
{
	const char *v = ct_getenv(CT_ENV_CALLSITE);
	ct_callsite_on = v && !strcmp(v, "1");
	ct_cs_tramp = (uintptr_t)ct_return_tramp;
}

static __attribute__((noinline)) void cs_enter_slow(struct ct_tstate *t, uintptr_t a, uint64_t now,
						    uintptr_t cfa)
{
	ct_enter_slow(t, a, now, cfa); /* (its CALLSITE from t->cs_site) */
	/* a thread's first call comes here */
	if (t->cap != 0)
		ct_frontend_seen(t, CT_FE_CYG);
}

void ct_cs_enter(struct ct_tstate *t, uintptr_t a, uintptr_t cfa, uint64_t now)
{
	uint64_t delta = now - t->last;
	uint32_t d = t->depth;
	uint32_t cs[CT_CALLSITE_MAXW];
	unsigned n = 8 + 4 * ct_cs_words(a, t->cs_site, cs);
	if (likely(d < t->cap && delta < (1u << CT_ENTER_DELTA_BITS) && (a >> 40) == t->hi)) {
		uintptr_t p = ct_put_enter_cs(t, delta, a, cs, n);
		t->last = now;
		struct ct_frame *f = &t->stk[d];
		f->fn = a;
		f->cfa = cfa;
		/* (stk[d].ret is 0 already, as cyg.c's enter_at says) */
		t->depth = d + 1;
		if (unlikely(p + n > t->limit))
			ct_buffer_full(t);
	} else {
		cs_enter_slow(t, a, now, cfa);
	}
	__asm__ volatile("" ::: "memory");
	t->busy--;
}
