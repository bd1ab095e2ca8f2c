/* SPDX-License-Identifier: MIT */
/*
 * replay's time order across threads when its filters hold entries back
 * (-t until a call is known to be long enough, -r until it is known to
 * reach into the range): the merge's events go through their thread's
 * filter, and what passes is given to out in recorded-time order
 * (replay_order.c).  One order at a time.
 */
#ifndef CT_REPLAY_ORDER_H
#define CT_REPLAY_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"
#include "session.h"

/* begin: fts[nthreads] the threads' filter states (by thread index); out
 * is called with ctx for each event, in order */
void ct_replay_order_init(struct ct_filter *filt, struct ct_filter_thread *fts, size_t nthreads,
			  ct_filter_emit_fn out, void *ctx);
/* one event of the merge, in the merge's order */
void ct_replay_order_push(const struct ct_event *ev);
/* the end of the merge: what the filters of the threads wanted (want NULL:
 * all) still hold, then all that waits */
void ct_replay_order_end(const bool *want);
/* free it (after ct_replay_order_end; the events' copies go too) */
void ct_replay_order_free(void);

#endif
