/* SPDX-License-Identifier: MIT */
/*
 * The store of a stream's decoded arguments (lib/argpool.c), for the
 * stream decoder (lib/stream.c): each call's struct ct_callargs (argspec.h),
 * kept alive a while after its call's exit.
 */
#ifndef CT_ARGPOOL_H
#define CT_ARGPOOL_H

#include <stddef.h>
#include <stdint.h>

struct ct_callargs;

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

/* a call's values: n words of its ARGS record w (NULL: none yet) */
struct ct_callargs *ct_args_new(uint32_t spec, const uint32_t *w, uint32_t n);
/* its return value: n words of its RETVAL record */
void ct_args_set_ret(struct ct_callargs *a, const uint32_t *w, uint32_t n);
void ct_args_release(struct ct_callargs *a);
/* its call ended (or it is a mark's): freed when old enough */
void ct_args_retire(struct ct_args_pool *p, struct ct_callargs *a);
/* a read of the stream begins (events: those the last one gave): free what
 * is old enough */
void ct_args_tick(struct ct_args_pool *p, uint64_t events);
void ct_args_pool_free(struct ct_args_pool *p);

#endif
