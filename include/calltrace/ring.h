/* SPDX-License-Identifier: MIT */
/*
 * Draining a ring (struct ct_ring_header): shared by `calltrace record` and
 * the runtime's own writer thread (when the runtime is linked in and runs
 * without `record`).  Header-only; libc alone.
 */
#ifndef CALLTRACE_RING_H
#define CALLTRACE_RING_H

#include <limits.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "calltrace/format.h"

/* A ring's geometry: where its buffers are, how far apart, how many.  The
 * drainer in `record` checks the header of a ring a traced thread hands it
 * once (lib/record/drain.c), copies these into its own memory and uses only the
 * copy: the program can rewrite its header at any time.  What the writer
 * changes as it goes (a slot's state, sequence number and fill) is read
 * once per use and bounded by this geometry.  The runtime's writer thread
 * takes it from a header it wrote itself (ct_ring_geom_of). */
struct ct_ring_geom {
	struct ct_ring_header *hdr; /* the slots, the counts */
	char *data;                 /* buffer 0 */
	uint64_t stride;            /* from one buffer to the next */
	uint32_t nslots;            /* at most CT_RING_MAX_SLOTS */
};

/* the geometry of a ring whose header this process wrote itself */
static inline struct ct_ring_geom ct_ring_geom_of(struct ct_ring_header *r)
{
	struct ct_ring_geom g = {r, (char *)r + r->data_offset, r->buf_stride,
				 r->nslots < CT_RING_MAX_SLOTS ? r->nslots : CT_RING_MAX_SLOTS};
	return g;
}

/* buffer `slot` (< g->nslots) */
static inline char *ct_ring_geom_buf(const struct ct_ring_geom *g, uint32_t slot)
{
	return g->data + (uint64_t)slot * g->stride;
}

/* the slot holding buffer number seq in the given state, or -1 */
static inline int ct_ring_geom_find(const struct ct_ring_geom *g, uint64_t seq, uint32_t state)
{
	struct ct_ring_header *r = g->hdr;
	for (uint32_t i = 0; i < g->nslots; i++)
		if (__atomic_load_n(&r->slot[i].state, __ATOMIC_ACQUIRE) == state &&
		    __atomic_load_n(&r->slot[i].seq, __ATOMIC_RELAXED) == seq)
			return (int)i;
	return -1;
}

/* bytes in use of a buffer its writer never handed over (the writer died).
 * Buffers are zeroed when drained, so what was written lies before the
 * last non-zero word; but a record may end in zero words (an argument 0,
 * the high half of a small u64), so the buffer ends at the end of the
 * record that holds that word: the records are walked from the start by
 * their lengths, zero words skipped as PAD (as a reader does; a word
 * reserved by a hook a signal interrupted is zero too), up to it.  At most
 * stride: a record cut short there is the reader's to find. */
static inline uint64_t ct_ring_used(const char *buf, uint64_t stride)
{
	const uint32_t *w = (const uint32_t *)buf;
	uint64_t n = stride / 4;
	while (n > 0 && w[n - 1] == 0)
		n--;
	uint64_t i = 0;
	while (i < n) {
		uint32_t x = w[i];
		switch (x & 3) {
		case CT_REC_ENTER:
			i += 2;
			break;
		case CT_REC_EXT:
			i += 1 + (uint64_t)CT_EXT_LEN(x);
			break;
		default: /* PAD, EXIT */
			i++;
			break;
		}
	}
	return i < stride / 4 ? i * 4 : stride / 4 * 4;
}

/* after copying: zero the bytes written, then give the slot back */
static inline void ct_ring_geom_release(const struct ct_ring_geom *g, uint32_t slot, uint64_t used)
{
	char *b = ct_ring_geom_buf(g, slot);
	uint64_t n = used < g->stride ? used : g->stride;
	__builtin_memset(b, 0, n);
	__atomic_store_n(&g->hdr->slot[slot].state, CT_SLOT_EMPTY, __ATOMIC_RELEASE);
}

/* Copy out, in sequence order from *next, every buffer its writer handed
 * over, and with `final` (the writer is gone) the one it was writing too.
 * Each goes to copy(ctx, bytes, length), then is zeroed and given back,
 * waking the writer if it waits for it.  Returns whether anything was
 * copied. */
typedef void (*ct_ring_copy_fn)(void *ctx, const char *buf, uint64_t len);
static inline int ct_ring_geom_drain(const struct ct_ring_geom *g, uint64_t *next, int final,
				     ct_ring_copy_fn copy, void *ctx)
{
	struct ct_ring_header *r = g->hdr;
	int did = 0, s;
	while ((s = ct_ring_geom_find(g, *next, CT_SLOT_FULL)) >= 0) {
		/* read once: the bound checked is the length used */
		uint64_t fill = __atomic_load_n(&r->slot[s].fill, __ATOMIC_RELAXED);
		if (fill > g->stride)
			fill = g->stride;
		copy(ctx, ct_ring_geom_buf(g, (uint32_t)s), fill);
		ct_ring_geom_release(g, (uint32_t)s, fill);
		if (__atomic_load_n(&r->waiting, __ATOMIC_SEQ_CST))
			syscall(SYS_futex, &r->slot[s].state, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
		(*next)++;
		did = 1;
	}
	if (final && (s = ct_ring_geom_find(g, *next, CT_SLOT_WRITING)) >= 0) {
		const char *b = ct_ring_geom_buf(g, (uint32_t)s);
		copy(ctx, b, ct_ring_used(b, g->stride));
		(*next)++;
		did = 1;
	}
	return did;
}

/* the same, for a ring whose header this process wrote (the runtime's
 * writer thread, linked in) */
static inline int ct_ring_find(struct ct_ring_header *r, uint64_t seq, uint32_t state)
{
	struct ct_ring_geom g = ct_ring_geom_of(r);
	return ct_ring_geom_find(&g, seq, state);
}

static inline int ct_ring_drain(struct ct_ring_header *r, uint64_t *next, int final,
				ct_ring_copy_fn copy, void *ctx)
{
	struct ct_ring_geom g = ct_ring_geom_of(r);
	return ct_ring_geom_drain(&g, next, final, copy, ctx);
}

/* the header of a thread's .ev file */
static inline struct ct_ev_file_header ct_ev_header_make(uint32_t pid, uint32_t tid, uint32_t gen,
							 uint64_t start_tsc)
{
	struct ct_ev_file_header h = {{0}, 0, 0, 0, 0, 0};
	__builtin_memcpy(h.magic, CT_EV_MAGIC, 8);
	h.version = CT_FORMAT_VERSION;
	h.pid = pid;
	h.tid = tid;
	h.gen = gen;
	h.start_tsc = start_tsc;
	return h;
}

/* the header of a thread's .ev file, from its (first) ring, whose header
 * this process wrote */
static inline struct ct_ev_file_header ct_ev_header_of(const struct ct_ring_header *r)
{
	return ct_ev_header_make(r->pid, r->tid, r->gen, r->start_tsc);
}

#endif
