/* SPDX-License-Identifier: MIT */
/*
 * The real definition of a function the runtime wraps, wherever it is
 * (runtime/realfn.c): after the runtime in the global scope, else in the
 * caller's scope, else in any loaded module's; never the runtime's own.
 */
#ifndef CT_RT_REALFN_H
#define CT_RT_REALFN_H
#include <stdbool.h>

struct real {
	const char *name;
	void *fn;
	unsigned gen; /* the generation when found (ct_real_forget) */
	bool said;    /* that there is none */
};

/* the definition, or NULL when nothing defines it (looked for again at
 * the next call) */
void *ct_real_find(struct real *r, const void *caller);
/* the same, saying once when there is none */
void *ct_real_or_say(struct real *r, const void *caller);
/* after a dlclose: every definition is looked for again */
void ct_real_forget(void);

/* the wrapper's caller, for ct_real_find */
#define CALLER() __builtin_extract_return_addr(__builtin_return_address(0))

#endif
