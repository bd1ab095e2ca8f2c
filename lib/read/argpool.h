/* SPDX-License-Identifier: MIT */
/*
 * The store of a stream's decoded arguments and return values (lib/read/stream.c):
 * each call's ct_callargs (argspec.h), kept while the call is open and for
 * a while after its exit, then freed.
 */
#ifndef CT_ARGPOOL_H
#define CT_ARGPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "argspec.h"

/* A call's ct_callargs lives while its call is open, and after its exit
 * for at least CT_ARGS_KEEP_READS reads of the stream and
 * CT_ARGS_KEEP_EVENTS events, so that events held back by a consumer
 * (replay's leaf lookahead, the merge's batches) still point to it. */
#define CT_ARGS_KEEP_READS 8
#define CT_ARGS_KEEP_EVENTS 4096

struct ct_args_pool {
	struct ct_callargs **q; /* retired, oldest first (ring) */
	uint64_t *q_read, *q_event;
	size_t head, n, cap;
	uint64_t reads, events;
	uint64_t bad; /* records that did not fit their spec */
};

/* a call's arguments (w: n words of the ARGS record; NULL: none yet) */
struct ct_callargs *ct_args_new(uint32_t spec, const uint32_t *w, uint32_t n);
/* its return value (n words of the RETVAL record) */
void ct_args_set_ret(struct ct_callargs *a, const uint32_t *w, uint32_t n);
/* freed now (a call still open when the stream closes) */
void ct_args_release(struct ct_callargs *a);
/* the call has ended: freed once old enough (ct_args_tick) */
void ct_args_retire(struct ct_args_pool *p, struct ct_callargs *a);
/* a read of the stream begins, the last one having given events: free
 * what is old enough */
void ct_args_tick(struct ct_args_pool *p, uint64_t events);
void ct_args_pool_free(struct ct_args_pool *p);

#endif
