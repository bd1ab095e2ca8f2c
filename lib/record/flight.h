/* SPDX-License-Identifier: MIT */
/*
 * The flight recorder's side of record (record --flight, doc/record.md):
 * taking what a ring still holds, oldest buffer first, each cut to its
 * whole records, while its writer may still be running.  libc and the
 * shared headers only.
 */
#ifndef CT_FLIGHT_H
#define CT_FLIGHT_H

#include <stddef.h>
#include <stdint.h>

#include "calltrace/format.h"
#include "calltrace/ring.h"

/* one buffer of a ring, copied */
struct ct_flight_buf {
	char *data;   /* malloc'd */
	uint64_t len; /* bytes of whole records */
	uint64_t seq; /* its sequence number in the thread's stream */
};

/* the bytes at the start of buf[0..len) that are whole records: up to the
 * first zero header word (a record not written yet, or being written), an
 * ENTER whose address word is not there yet, or a record cut short */
uint64_t ct_flight_whole(const char *buf, uint64_t len);

/* Copy the buffers the ring of geometry g (checked, and copied out of its
 * header: calltrace/ring.h) still holds (handed over, and the one being
 * written), oldest first, into out[] (room for CT_RING_MAX_SLOTS): only
 * those that are one run of sequence numbers up to the newest, and none
 * that the writer began to reuse while it was copied.  Their number (0 when
 * nothing is whole, or out of memory); free with ct_flight_free. */
size_t ct_flight_take(const struct ct_ring_geom *g, struct ct_flight_buf *out);
void ct_flight_free(struct ct_flight_buf *b, size_t n);

/* what a window of n buffers spans: the clock of its first and last
 * records (start_tsc is the delta base of a stream's first buffer), and the
 * calls open at its start (its first CT_EXT_FRAMES, 0 without one) */
void ct_flight_window(const struct ct_flight_buf *b, size_t n, uint64_t start_tsc, uint64_t *from,
		      uint64_t *to, uint32_t *open);

#endif
