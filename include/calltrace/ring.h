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

static inline char *ct_ring_buf(struct ct_ring_header *r, uint32_t slot)
{
	return (char *)r + r->data_offset + (uint64_t)slot * r->buf_stride;
}

/* the slot holding buffer number seq in the given state, or -1 */
static inline int ct_ring_find(struct ct_ring_header *r, uint64_t seq, uint32_t state)
{
	uint32_t n = r->nslots < CT_RING_MAX_SLOTS ? r->nslots : CT_RING_MAX_SLOTS;
	for (uint32_t i = 0; i < n; i++)
		if (__atomic_load_n(&r->slot[i].state, __ATOMIC_ACQUIRE) == state &&
		    r->slot[i].seq == seq)
			return (int)i;
	return -1;
}

/* bytes in use of a buffer its writer never handed over (the writer died):
 * buffers are zeroed when drained, so it ends at the last non-zero word */
static inline uint64_t ct_ring_used(const char *buf, uint64_t stride)
{
	const uint32_t *w = (const uint32_t *)buf;
	uint64_t n = stride / 4;
	while (n > 0 && w[n - 1] == 0)
		n--;
	return n * 4;
}

/* after copying: zero the bytes written, then give the slot back */
static inline void ct_ring_release(struct ct_ring_header *r, uint32_t slot, uint64_t used)
{
	char *b = ct_ring_buf(r, slot);
	uint64_t n = used < r->buf_stride ? used : r->buf_stride;
	__builtin_memset(b, 0, n);
	__atomic_store_n(&r->slot[slot].state, CT_SLOT_EMPTY, __ATOMIC_RELEASE);
}

/* Copy out, in sequence order from *next, every buffer its writer handed
 * over, and with `final` (the writer is gone) the one it was writing too.
 * Each goes to copy(ctx, bytes, length), then is zeroed and given back,
 * waking the writer if it waits for it.  Returns whether anything was
 * copied. */
typedef void (*ct_ring_copy_fn)(void *ctx, const char *buf, uint64_t len);
static inline int ct_ring_drain(struct ct_ring_header *r, uint64_t *next, int final,
				ct_ring_copy_fn copy, void *ctx)
{
	int did = 0, s;
	while ((s = ct_ring_find(r, *next, CT_SLOT_FULL)) >= 0) {
		uint64_t fill = r->slot[s].fill;
		if (fill > r->buf_stride)
			fill = r->buf_stride;
		copy(ctx, ct_ring_buf(r, (uint32_t)s), fill);
		ct_ring_release(r, (uint32_t)s, fill);
		if (__atomic_load_n(&r->waiting, __ATOMIC_SEQ_CST))
			syscall(SYS_futex, &r->slot[s].state, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
		(*next)++;
		did = 1;
	}
	if (final && (s = ct_ring_find(r, *next, CT_SLOT_WRITING)) >= 0) {
		const char *b = ct_ring_buf(r, (uint32_t)s);
		copy(ctx, b, ct_ring_used(b, r->buf_stride));
		(*next)++;
		did = 1;
	}
	return did;
}

/* the header of a thread's .ev file, from its (first) ring */
static inline struct ct_ev_file_header ct_ev_header_of(const struct ct_ring_header *r)
{
	struct ct_ev_file_header h = {{0}, 0, 0, 0, 0, 0};
	__builtin_memcpy(h.magic, CT_EV_MAGIC, 8);
	h.version = CT_FORMAT_VERSION;
	h.pid = r->pid;
	h.tid = r->tid;
	h.gen = r->gen;
	h.start_tsc = r->start_tsc;
	return h;
}

#endif
