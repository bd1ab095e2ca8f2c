/* SPDX-License-Identifier: MIT */
/* lib/record/flight.c: a buffer cut to its whole records; a ring's buffers taken
 * oldest first, one run of sequence numbers up to the newest; a window's
 * clock span and the calls open at its start; calltrace/ring.h's end of a
 * dead writer's buffer (ct_ring_used) */
#include <stdlib.h>
#include <string.h>

#include "calltrace/format.h"
#include "calltrace/ring.h"
#include "check.h"
#include "flight.h"

#define STRIDE 1024u
#define NSLOTS 4u

static uint32_t enter_lo(uint32_t delta, uint64_t fn)
{
	uint64_t q = CT_REC_ENTER | (uint64_t)delta << 2 | fn << 24;
	return (uint32_t)q;
}

static uint32_t enter_hi(uint64_t fn)
{
	return (uint32_t)((fn << 24) >> 32);
}

static void test_whole(void)
{
	uint32_t b[16] = {0};
	/* TIME, ENTER, EXIT, then nothing */
	b[0] = ct_ext_word(CT_EXT_TIME, 2, 0);
	b[1] = 1000;
	b[2] = 0;
	b[3] = enter_lo(5, 0x401000);
	b[4] = enter_hi(0x401000);
	b[5] = CT_REC_EXIT | 7u << 2;
	CHECK(ct_flight_whole((const char *)b, sizeof(b)) == 24, "up to the zero word");
	/* an ENTER seen without its address word */
	b[6] = enter_lo(1, 0x401000);
	CHECK(ct_flight_whole((const char *)b, sizeof(b)) == 24, "half an ENTER is cut");
	b[7] = enter_hi(0x401000);
	CHECK(ct_flight_whole((const char *)b, sizeof(b)) == 32, "a whole ENTER is kept");
	/* an EXT record longer than what is there */
	b[8] = ct_ext_word(CT_EXT_FRAMES, 5, 0);
	CHECK(ct_flight_whole((const char *)b, 40) == 32, "a record cut short");
	CHECK(ct_flight_whole((const char *)b, 10) == 0, "a length not of words");
	CHECK(ct_flight_whole((const char *)b, 14) == 12, "a length not of words");
	CHECK(ct_flight_whole((const char *)b, 0) == 0, "nothing");
}

/* the end of a buffer whose writer died: its last record, zero words and
 * all; zero words before it (a reservation a signal interrupted) skipped */
static void test_used(void)
{
	uint32_t b[16] = {0};
	CHECK(ct_ring_used((const char *)b, sizeof(b)) == 0, "nothing written");
	b[0] = enter_lo(5, 0x401000);
	b[1] = enter_hi(0x401000);
	/* ARGS of f(0, 5): 0, then 5 as a u64 (5, 0) */
	b[2] = ct_ext_word(CT_EXT_ARGS, 3, 0);
	b[3] = 0;
	b[4] = 5;
	b[5] = 0;
	CHECK(ct_ring_used((const char *)b, sizeof(b)) == 24, "ARGS ending in 0: %llu",
	      (unsigned long long)ct_ring_used((const char *)b, sizeof(b)));
	/* LOST 3 (a u64 whose high half is 0) after a hole of two words */
	b[8] = ct_ext_word(CT_EXT_LOST, 2, 0);
	b[9] = 3;
	CHECK(ct_ring_used((const char *)b, sizeof(b)) == 44, "after a hole: %llu",
	      (unsigned long long)ct_ring_used((const char *)b, sizeof(b)));
	b[11] = CT_REC_EXIT | 7u << 2;
	CHECK(ct_ring_used((const char *)b, sizeof(b)) == 48, "an EXIT last");
	/* a record longer than the buffer: up to its end */
	b[15] = ct_ext_word(CT_EXT_FRAMES, 9, 0);
	CHECK(ct_ring_used((const char *)b, sizeof(b)) == sizeof(b), "cut at the stride");
	CHECK(ct_ring_used((const char *)b, 0) == 0, "no buffer");
}

/* a ring of NSLOTS buffers: slot s holds buffer seq[s] (-1: empty) */
static struct ct_ring_header *make_ring(const int *seq, int writing)
{
	uint64_t off = (sizeof(struct ct_ring_header) + 63) & ~(uint64_t)63;
	struct ct_ring_header *h = calloc(1, off + NSLOTS * STRIDE);
	h->nslots = NSLOTS;
	h->buf_size = STRIDE - 256;
	h->buf_stride = STRIDE;
	h->data_offset = off;
	h->start_tsc = 100;
	for (unsigned s = 0; s < NSLOTS; s++) {
		if (seq[s] < 0)
			continue;
		uint32_t *w = (uint32_t *)((char *)h + off + s * STRIDE);
		/* TIME 1000*seq, FRAMES (depth 2: one listed), EXIT +3 */
		w[0] = ct_ext_word(CT_EXT_TIME, 2, 0);
		w[1] = 1000u * (uint32_t)seq[s];
		w[2] = 0;
		w[3] = ct_ext_word(CT_EXT_FRAMES, 3, 0);
		w[4] = 2;
		w[5] = 0x401000;
		w[6] = 0;
		w[7] = CT_REC_EXIT | 3u << 2;
		h->slot[s].seq = (uint64_t)seq[s];
		h->slot[s].state = (int)s == writing ? CT_SLOT_WRITING : CT_SLOT_FULL;
		h->slot[s].fill = (int)s == writing ? 0 : 32;
	}
	return h;
}

/* the ring's buffers, by its geometry as built */
static size_t take(struct ct_ring_header *h, struct ct_flight_buf *b)
{
	struct ct_ring_geom g = ct_ring_geom_of(h);
	return ct_flight_take(&g, b);
}

static void test_take(void)
{
	struct ct_flight_buf b[CT_RING_MAX_SLOTS];
	/* reused circularly: slots hold 4, 5, 2, 3; 5 being written */
	int seq[NSLOTS] = {4, 5, 2, 3};
	struct ct_ring_header *h = make_ring(seq, 1);
	size_t n = take(h, b);
	CHECK(n == 4, "4 buffers, got %zu", n);
	for (size_t i = 0; i < n; i++)
		CHECK(b[i].seq == 2 + i && b[i].len == 32, "buffer %zu: seq %llu, %llu bytes", i,
		      (unsigned long long)b[i].seq, (unsigned long long)b[i].len);
	uint64_t from, to;
	uint32_t open;
	ct_flight_window(b, n, h->start_tsc, &from, &to, &open);
	CHECK(from == 2000 && to == 5003 && open == 2, "window %llu..%llu, %u open",
	      (unsigned long long)from, (unsigned long long)to, open);
	ct_flight_free(b, n);
	free(h);

	/* a gap (buffer 3 missing): only what follows it */
	int gap[NSLOTS] = {4, 5, 2, -1};
	h = make_ring(gap, 1);
	n = take(h, b);
	CHECK(n == 2 && b[0].seq == 4 && b[1].seq == 5, "after the gap: %zu", n);
	ct_flight_free(b, n);
	free(h);

	/* a thread that never switched: its one buffer, no FRAMES open */
	int one[NSLOTS] = {0, -1, -1, -1};
	h = make_ring(one, 0);
	n = take(h, b);
	CHECK(n == 1 && b[0].seq == 0, "one buffer: %zu", n);
	ct_flight_free(b, n);
	free(h);
	h = make_ring((int[]){-1, -1, -1, -1}, -1);
	n = take(h, b);
	CHECK(n == 0, "an empty ring: %zu", n);
	free(h);
}

int main(void)
{
	test_whole();
	test_take();
	test_used();
	return check_done();
}
