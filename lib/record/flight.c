/* SPDX-License-Identifier: MIT */
/*
 * record --flight (flight.h): the rings are used circularly by their
 * writers and never drained while the program runs; a snapshot copies what
 * each still holds.  A writer reusing its oldest buffer marks it EMPTY,
 * zeroes it, then stores its new sequence number and WRITING before any
 * record (runtime/stream.c flight_switch), so a copy is good when the buffer is
 * still FULL or WRITING after it, under the same number.
 */
#include "flight.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t rd32(const char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t rd64(const char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

uint64_t ct_flight_whole(const char *buf, uint64_t len)
{
	uint64_t pos = 0;
	len &= ~(uint64_t)3;
	while (pos + 4 <= len) {
		uint32_t w = rd32(buf + pos);
		uint64_t size;
		switch (w & 3) {
		case CT_REC_PAD:
			return pos;
		case CT_REC_EXIT:
			size = 4;
			break;
		case CT_REC_ENTER:
			/* one 8-byte store, which may be seen in halves: a
			 * function's address has bits 8..39 */
			if (pos + 8 > len || rd32(buf + pos + 4) == 0)
				return pos;
			size = 8;
			break;
		default:
			size = 4 + 4 * (uint64_t)CT_EXT_LEN(w);
			break;
		}
		if (pos + size > len)
			return pos;
		pos += size;
	}
	return pos;
}

void ct_flight_free(struct ct_flight_buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(b[i].data);
		b[i].data = NULL;
	}
}

static int cmp_seq(const void *a, const void *b)
{
	uint64_t x = ((const struct ct_flight_buf *)a)->seq,
		 y = ((const struct ct_flight_buf *)b)->seq;
	return (x > y) - (x < y);
}

size_t ct_flight_take(const struct ct_ring_geom *g, struct ct_flight_buf *out)
{
	struct ct_ring_header *r = g->hdr;
	uint64_t stride = g->stride;
	size_t n = 0;
	for (uint32_t s = 0; s < g->nslots; s++) {
		uint32_t state = __atomic_load_n(&r->slot[s].state, __ATOMIC_ACQUIRE);
		uint64_t seq = __atomic_load_n(&r->slot[s].seq, __ATOMIC_ACQUIRE);
		uint64_t fill = __atomic_load_n(&r->slot[s].fill, __ATOMIC_ACQUIRE);
		if (state != CT_SLOT_FULL && state != CT_SLOT_WRITING)
			continue;
		char *d = malloc(stride ? stride : 1);
		if (!d)
			break;
		memcpy(d, ct_ring_geom_buf(g, s), stride);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		if (__atomic_load_n(&r->slot[s].seq, __ATOMIC_ACQUIRE) != seq ||
		    __atomic_load_n(&r->slot[s].state, __ATOMIC_ACQUIRE) == CT_SLOT_EMPTY) {
			free(d); /* reused while we copied it */
			continue;
		}
		/* a buffer handed over ends at its fill (its last record may
		 * run into the slack); the one being written at its last whole
		 * record */
		uint64_t len = state == CT_SLOT_FULL && fill <= stride ? fill : stride;
		out[n++] = (struct ct_flight_buf){d, ct_flight_whole(d, len), seq};
	}
	qsort(out, n, sizeof(*out), cmp_seq);
	/* one run of sequence numbers, ending at the newest */
	size_t first = n;
	while (first > 0 && (first == n || out[first - 1].seq + 1 == out[first].seq))
		first--;
	ct_flight_free(out, first);
	memmove(out, out + first, (n - first) * sizeof(*out));
	return n - first;
}

void ct_flight_window(const struct ct_flight_buf *b, size_t n, uint64_t start_tsc, uint64_t *from,
		      uint64_t *to, uint32_t *open)
{
	uint64_t clk = start_tsc;
	bool first = true, timed = false; /* before the first event; a TIME seen */
	*open = 0;
	*from = *to = start_tsc;
	for (size_t i = 0; i < n; i++) {
		const char *p = b[i].data, *end = p + b[i].len;
		while (p + 4 <= end) {
			uint32_t w = rd32(p);
			switch (w & 3) {
			case CT_REC_PAD:
				p += 4;
				continue;
			case CT_REC_EXIT:
				clk += w >> 2;
				p += 4;
				break;
			case CT_REC_ENTER:
				if (p + 8 > end)
					goto next;
				clk += (rd64(p) >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1);
				p += 8;
				break;
			default: {
				unsigned type = CT_EXT_TYPE(w), len = CT_EXT_LEN(w);
				if (p + 4 + 4 * (size_t)len > end)
					goto next;
				if (type == CT_EXT_TIME && len >= 2)
					clk = rd64(p + 4);
				else if (type == CT_EXT_FRAMES && len >= 1 && first)
					*open = rd32(p + 4);
				p += 4 + 4 * (size_t)len;
				if (first && (type == CT_EXT_TIME || type == CT_EXT_FRAMES ||
					      type == CT_EXT_HI)) {
					timed |= type == CT_EXT_TIME;
					*from = clk;
					continue;
				}
				break;
			}
			}
			if (first && !timed)
				*from = clk;
			first = false;
		}
	next:;
	}
	*to = clk;
}
