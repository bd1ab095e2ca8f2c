/* SPDX-License-Identifier: MIT */
/*
 * The stream decoder's private parts, shared by its two files: stream.c
 * (opening, the buffer, the fast path for plain ENTER and EXIT records,
 * ct_stream_read) and stream_ext.c (the general path: every record kind,
 * the EXT records, the end of a stream).
 */
#ifndef CT_STREAM_PRIV_H
#define CT_STREAM_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "argpool.h"
#include "cclock.h"
#include "readtext.h"
#include "session.h"
#include "util.h"


#define MAX_RECORD (4u + 4u * 255u)
/* the deepest nesting a stream may have (doc/format.md): a bound on the
 * memory a hostile stream can make the decoder and the views take (32 bytes
 * per open call here, as much again in a view), 64 << 18 so that the
 * stack's capacity, doubled from 64, reaches it exactly */
#define MAX_DEPTH (1u << 24)

/* ---- the stream decoder -------------------------------------------------- */

struct frame {
	uint64_t addr;
	uint64_t start;         /* ns */
	uint64_t cstart;        /* ns on the corrected clock */
	struct ct_callargs *ca; /* captured arguments/return value, or NULL */
	uint64_t waited0;       /* the stream's waited at this entry */
	uint64_t site;          /* its call site (record --callsite), or 0 */
	unsigned lib;           /* 1: a library call */
	uint64_t samples;       /* record --sample: samples in it so far */
};

/* the CT_EVF_LIBCALL bit of a library call (lib 0 or 1), without a branch */
#define LIBFLAG(lib) ((unsigned)(lib) << 4)
_Static_assert(CT_EVF_LIBCALL == 1u << 4, "LIBFLAG");

/* the library calls' addresses of a process seen lately: a cache before
 * its map (struct proc_priv's lcnames), looked up at each entry */
#define LC_CACHE 256

struct ct_stream {
	struct ct_session *s;
	struct ct_thread *t;
	int fd;
	unsigned char *buf;
	size_t bufsize, len, pos;
	uint64_t buf_off; /* file offset of buf[0] */
	uint64_t size;    /* the file's size when opened: nothing after it is read */
	bool eof;         /* read() returned 0 */
	bool ended;       /* no more records */
	/* a stream fed by ct_stream_feed (lib/record/follow.c), no file: running out
	 * of bytes means "wait for more" until ct_stream_feed_end */
	bool feed, feed_end;

	uint64_t base;       /* delta base (clock) */
	uint64_t hi;         /* address bits 40..63 */
	uint64_t last_time;  /* ns of the last event given out */
	uint64_t waited;     /* ns the thread waited for the trace writer, so far */
	struct cclock cc;    /* the corrected clock (cclock.h) */
	uint64_t first_time; /* ns of the first event given out */
	bool started;        /* one was */

	struct frame *stack;
	size_t depth, cap;
	uint64_t nenter;            /* entries so far */
	const struct ct_u64map *lc; /* the process's library calls, or NULL
				     * when it made none */
	uint64_t lc_lo, lc_hi;      /* the lowest and highest of them */
	unsigned lines;             /* the .proc lines they were taken from
				     * (proc_priv's lines) */
	struct {
		uint64_t key; /* address + 1; 0: empty */
		bool lib;
	} lcc[LC_CACHE];

	/* exits owed before the next record is decoded */
	size_t pend_n;
	unsigned pend_flags;
	uint64_t pend_time;
	bool pend_final; /* then one more exit with final_flags */
	unsigned final_flags;

	uint64_t lost, unmatched, unknown;
	uint64_t samples, samples_out; /* record --sample: all, outside any call */
	uint64_t samples_over;         /* ... the overruns of those taken */
	bool warned_bad;
	bool tag; /* the process's modules overlap in time: tag addresses */
	struct ct_error ioerr;
	bool failed;
	/* an error met by ct_stream_read after some events: reported by the
	 * next call, once those events are consumed */
	bool has_err;
	struct ct_error err;

	struct ct_args_pool args; /* decoded arguments, see argspec.h */
	uint64_t nev_last;        /* events given by the last read */

	/* record --flight: a window that begins inside open calls (its first
	 * CT_EXT_FRAMES): those calls, entered before it, outermost first */
	uint64_t *pre;
	uint32_t pre_n, pre_i;
	uint64_t skip;  /* exits of open calls FRAMES left out, to skip */
	size_t nbefore; /* the outermost open calls entered before it */
	bool window;    /* such a window: returns with no call open are
			   * skipped (counted as unmatched), never errors */

	/* record --sched: the thread's off-CPU intervals, or NULL; their
	 * CLOCK_MONOTONIC is an event's time + oc_shift */
	const struct ct_offcpu_thr *oc;
	int64_t oc_shift;

	struct ct_reads reads; /* read= triggers: the entries' values */

	/* record -W cpu: the CPU (+ 1) stated last (0: none yet); a CPU
	 * record that changed it waits for the next ENTER (cpu_pend), whose
	 * event is followed by the watch point's mark (cpu_mark) */
	uint64_t cpu1;
	bool cpu_pend, cpu_mark;
};

/* make n bytes available at buf[pos], reading more of the file (the
 * buffer moved); false at its end (or an error: st->failed) */
bool ct_stream_fill(struct ct_stream *st, size_t n);

/* make n bytes available at buf[pos]; false at end of file (or error) */
static inline bool ensure(struct ct_stream *st, size_t n)
{
	if (st->len - st->pos >= n)
		return true;
	return ct_stream_fill(st, n);
}

static inline uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static inline uint64_t clamp_time(struct ct_stream *st, uint64_t t)
{
	if (t < st->last_time)
		t = st->last_time;
	st->last_time = t;
	return t;
}

/* is addr (an entry's, untagged) a library call of the stream's process? */
static inline bool is_lib(struct ct_stream *st, uint64_t addr)
{
	if (addr < st->lc_lo || addr > st->lc_hi) /* (none: lo > hi) */
		return false;
	size_t i = (size_t)((addr ^ addr >> 12) & (LC_CACHE - 1));
	if (st->lcc[i].key != addr + 1) {
		st->lcc[i].key = addr + 1;
		st->lcc[i].lib = ct_u64map_get(st->lc, addr) != NULL;
	}
	return st->lcc[i].lib;
}

/* decode up to the next event, any record kind, refilling the buffer as
 * needed: the general (and slow) path of ct_stream_read (stream_ext.c);
 * 1: an event in ev, 0: none (the end, or a fed stream waiting for more),
 * -1: an error in err */
int ct_stream_slow(struct ct_stream *st, struct ct_event *ev, struct ct_error *err);

#endif
