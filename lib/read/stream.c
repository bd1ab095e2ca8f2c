/* SPDX-License-Identifier: MIT */
/*
 * The stream decoder: one thread's .ev file (doc/format.md) as clean enter
 * and exit events (session.h).
 *
 * It reads the file through a fixed-size buffer and keeps only the open
 * call stack, so memory is bounded by the stack depth, never by the length
 * of the trace.  Each event gets its time on the thread's corrected clock
 * too (cclock.h, cclock.c: the tracer's cost taken out).
 */
#include "session.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "argpool.h"
#include "argspec.h"
#include "cclock.h"
#include "calltrace/format.h"
#include "injtext.h"
#include "offcpu.h"
#include "readtext.h"
#include "session_priv.h"
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
};

/* a new corrected clock, with its figures */
static void cc_setup(struct ct_stream *st)
{
	ct_cclock_init(&st->cc, st->s, st->t ? st->t->proc : NULL, !st->feed);
}

void ct_stream_cost(const struct ct_stream *st, struct ct_cost *c)
{
	ct_cclock_cost(&st->cc, c);
	c->span = st->started ? st->last_time - st->first_time : 0;
}

/* record --sched: the thread's off-CPU intervals, placed on the recorded
 * clock by its process's "clock" line */
static void oc_setup(struct ct_stream *st)
{
	const struct ct_proc *p = st->t->proc;
	st->oc = p && p->clock_ref ? ct_offcpu_thread(st->s, st->t->tid) : NULL;
	if (st->oc)
		st->oc_shift = (int64_t)p->start_mono - (int64_t)clock_ns(st->s, p->start_clock);
}

/* each exit's offcpu: the thread's off-CPU time before it less that
 * before its entry */
static void oc_fill(const struct ct_stream *st, struct ct_event *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (ev[i].kind != CT_EXIT)
			continue;
		int64_t a = (int64_t)ev[i].start + st->oc_shift;
		int64_t b = (int64_t)ev[i].time + st->oc_shift;
		uint64_t wa = a > 0 ? ct_offcpu_before(st->oc, (uint64_t)a) : 0;
		uint64_t wb = b > 0 ? ct_offcpu_before(st->oc, (uint64_t)b) : 0;
		ev[i].offcpu = wb > wa ? wb - wa : 0;
	}
}

/* the library calls of the stream's process (its "libcall" lines): a fed
 * stream (live, top) knows them as a file's does, so that both correct
 * them with the same figures */
static void lc_setup(struct ct_stream *st)
{
	const struct ct_thread *t = st->t;
	st->lc = NULL;
	st->lc_lo = UINT64_MAX; /* above lc_hi: no address is a library call */
	st->lc_hi = 0;
	memset(st->lcc, 0, sizeof(st->lcc));
	if (!t || !t->proc)
		return;
	const struct proc_priv *pp = (const struct proc_priv *)(const void *)t->proc;
	st->lines = pp->lines;
	st->lc = pp->lcnames.len ? &pp->lcnames : NULL;
	for (size_t i = 0; st->lc && i < pp->lcnames.cap; i++) {
		if (!pp->lcnames.used[i])
			continue;
		uint64_t a = pp->lcnames.keys[i];
		st->lc_lo = a < st->lc_lo ? a : st->lc_lo;
		st->lc_hi = a > st->lc_hi ? a : st->lc_hi;
	}
}

/* make n bytes available at buf[pos]; false at end of file (or error) */
static bool ensure(struct ct_stream *st, size_t n)
{
	if (st->len - st->pos >= n)
		return true;
	if (st->eof || st->failed || st->feed)
		return false;
	if (st->pos) {
		memmove(st->buf, st->buf + st->pos, st->len - st->pos);
		st->buf_off += st->pos;
		st->len -= st->pos;
		st->pos = 0;
	}
	while (st->len < n) {
		uint64_t at = st->buf_off + st->len;
		size_t want = st->bufsize - st->len;
		if (at >= st->size) {
			st->eof = true;
			return false;
		}
		if (want > st->size - at)
			want = (size_t)(st->size - at);
		ssize_t r = read(st->fd, st->buf + st->len, want);
		if (r > 0)
			st->s->bytes_read += (uint64_t)r;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			ct_set_err(&st->ioerr, "%s: offset %" PRIu64 ": %s", st->t->path,
				   st->buf_off + st->len, strerror(errno));
			st->failed = true;
			return false;
		}
		if (r == 0) {
			st->eof = true;
			return false;
		}
		st->len += (size_t)r;
	}
	return true;
}

static inline uint32_t rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t rd64(const unsigned char *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

int ct_stream_open_buf(struct ct_session *s, struct ct_thread *t, size_t bufsize,
		       struct ct_stream **out, struct ct_error *err)
{
	*out = NULL;
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(t->path, true, &size, &why);
	if (fd < 0) {
		ct_set_err(err, "%s: %s", t->path, why);
		return -1;
	}
	struct ct_stream *st = xcalloc(1, sizeof(*st));
	st->s = s;
	st->t = t;
	st->fd = fd;
	cc_setup(st);
	st->size = size;
	st->tag = t->proc && ct_proc_overlaps(t->proc);
	lc_setup(st);
	oc_setup(st);
	/* no bigger than the file (the fuzzer opens many small ones) */
	if (bufsize > size + 64)
		bufsize = (size_t)size + 64;
	st->bufsize = bufsize < MAX_RECORD + 64 ? MAX_RECORD + 64 : bufsize;
	st->buf = xmalloc(st->bufsize);
	st->cap = 64;
	st->stack = xmalloc(st->cap * sizeof(*st->stack));
	struct ct_ev_file_header h;
	if (!ensure(st, sizeof(h))) {
		if (st->failed) {
			*err = st->ioerr;
			ct_stream_close(st);
			return -1;
		}
		/* a thread killed before its header was whole: no events */
		size_t n = st->len < 8 ? st->len : 8;
		if (memcmp(st->buf, CT_EV_MAGIC, n)) {
			ct_set_err(err, "%s: not a calltrace event stream (bad magic)", t->path);
			ct_stream_close(st);
			return -1;
		}
		ct_session_warn(s, "%s: %s; no events", t->path,
				st->len ? "header cut short" : "empty file");
		st->ended = true;
		*out = st;
		return 0;
	}
	const unsigned char *p = st->buf;
	if (memcmp(p, CT_EV_MAGIC, 8)) {
		ct_set_err(err, "%s: not a calltrace event stream (bad magic)", t->path);
		ct_stream_close(st);
		return -1;
	}
	uint32_t version = rd32(p + 8);
	if (version != CT_FORMAT_VERSION) {
		ct_set_err(err, "%s: unsupported event stream version %u (this reader knows %d)",
			   t->path, version, CT_FORMAT_VERSION);
		ct_stream_close(st);
		return -1;
	}
	uint32_t pid = rd32(p + 12), tid = rd32(p + 16), gen = rd32(p + 20);
	if ((int)pid != t->proc->pid || (int)tid != t->tid || (int)gen != t->proc->gen)
		ct_session_warn(s, "%s: header says pid %u tid %u gen %u, unlike its name", t->path,
				pid, tid, gen);
	st->base = rd64(p + 24);
	st->pos = sizeof(h);
	*out = st;
	return 0;
}

struct ct_stream *ct_stream_open_feed(struct ct_session *s, struct ct_thread *t,
				      uint64_t start_clock)
{
	struct ct_stream *st = xcalloc(1, sizeof(*st));
	st->s = s;
	st->t = t;
	st->fd = -1;
	st->feed = true;
	cc_setup(st);
	st->size = UINT64_MAX;
	st->tag = t->proc && ct_proc_overlaps(t->proc);
	lc_setup(st);
	st->bufsize = MAX_RECORD + 64;
	st->buf = xmalloc(st->bufsize);
	st->cap = 64;
	st->stack = xmalloc(st->cap * sizeof(*st->stack));
	st->base = start_clock;
	st->buf_off = sizeof(struct ct_ev_file_header);
	return st;
}

/* a fed stream's process is being recorded: lines added to its .proc since
 * (ct_session_proc_update: a front end's first call, a module loaded and
 * its library calls, ...) are taken up before the next event is decoded,
 * as the file's reader has them from the start: the figures (the corrected
 * clock itself goes on), the library calls, the module tags */
static void feed_proc_lines(struct ct_stream *st)
{
	const struct ct_thread *t = st->t;
	if (!t || !t->proc || ((const struct proc_priv *)(const void *)t->proc)->lines == st->lines)
		return;
	ct_cclock_figures(&st->cc, st->s, t->proc, false);
	lc_setup(st);
	st->tag = ct_proc_overlaps(t->proc);
}

void ct_stream_feed(struct ct_stream *st, const void *data, size_t n)
{
	if (st->pos) {
		memmove(st->buf, st->buf + st->pos, st->len - st->pos);
		st->buf_off += st->pos;
		st->len -= st->pos;
		st->pos = 0;
	}
	if (st->len + n > st->bufsize) {
		size_t c = st->bufsize;
		while (c < st->len + n)
			c *= 2;
		st->buf = xrealloc(st->buf, c);
		st->bufsize = c;
	}
	memcpy(st->buf + st->len, data, n);
	st->len += n;
}

void ct_stream_feed_end(struct ct_stream *st)
{
	st->feed_end = true;
}

bool ct_stream_ended(const struct ct_stream *st)
{
	return st->ended && !st->pend_n && !st->pend_final;
}

size_t ct_stream_depth(const struct ct_stream *st)
{
	return st->depth;
}

uint64_t ct_stream_last_time(const struct ct_stream *st)
{
	return st->last_time;
}

int ct_stream_open(struct ct_session *s, struct ct_thread *t, struct ct_stream **out,
		   struct ct_error *err)
{
	return ct_stream_open_buf(s, t, STREAM_BUF, out, err);
}

void ct_stream_samples(const struct ct_stream *st, uint64_t *all, uint64_t *outside)
{
	*all = st->samples;
	*outside = st->samples_out;
}

uint64_t ct_stream_lost(const struct ct_stream *st)
{
	return st->lost;
}

uint64_t ct_stream_unmatched(const struct ct_stream *st)
{
	return st->unmatched;
}

uint64_t ct_stream_unknown(const struct ct_stream *st)
{
	return st->unknown;
}

uint64_t ct_stream_offset(const struct ct_stream *st)
{
	return st->buf_off + st->pos;
}

void ct_stream_close(struct ct_stream *st)
{
	if (!st)
		return;
	if (st->fd >= 0)
		close(st->fd);
	if (st->args.bad)
		ct_session_warn(st->s,
				"%s: %" PRIu64 " argument or return-value records matched no call "
				"or not their spec; those values are not shown",
				st->t->path, st->args.bad);
	free(st->buf);
	free(st->pre);
	ct_reads_free(&st->reads);
	for (size_t i = 0; i < st->depth; i++)
		ct_args_release(st->stack[i].ca);
	ct_args_pool_free(&st->args);
	free(st->stack);
	free(st);
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

static void push(struct ct_stream *st, struct ct_event *ev, uint64_t addr, uint64_t time,
		 unsigned flags)
{
	if (st->depth == st->cap) {
		st->cap *= 2;
		st->stack = xrealloc(st->stack, st->cap * sizeof(*st->stack));
	}
	time = clamp_time(st, time);
	bool lib = is_lib(st, addr);
	/* a call entered before the stream (a flight window's, a forked
	 * child's inherited ones): no hook ran here */
	bool hooked = !(flags & CT_EVF_BEFORE);
	uint64_t ct = cc_at(&st->cc, time, hooked ? st->cc.pre[0][lib] : 0,
			    hooked ? st->cc.post[0][lib] : 0);
	if (__builtin_expect(st->tag, 0))
		addr = ct_proc_tag(st->s, st->t->proc, addr, time);
	ev->waited = st->waited; /* an entry's: the waits so far */
	st->nenter++;
	st->stack[st->depth] = (struct frame){addr, time, ct, NULL, st->waited, 0, lib, 0};
	ev->args = NULL;
	ev->site = 0;
	ev->samples = 0;
	ev->offcpu = 0;
	ev->kind = CT_ENTER;
	ev->flags = flags | LIBFLAG(lib);
	ev->addr = addr;
	ev->time = time;
	ev->start = time;
	ev->ctime = ct;
	ev->cstart = ct;
	ev->depth = (uint32_t)st->depth;
	ev->thread = st->t;
	st->depth++;
}

static void pop(struct ct_stream *st, struct ct_event *ev, uint64_t time, unsigned flags)
{
	struct frame *f = &st->stack[--st->depth];
	if (st->depth < st->nbefore) {
		flags |= CT_EVF_BEFORE;
		st->nbefore = st->depth;
	}
	ev->kind = CT_EXIT;
	ev->offcpu = 0;
	ev->flags = flags | LIBFLAG(f->lib);
	ev->addr = f->addr;
	ev->waited = st->waited - f->waited0;
	ev->time = clamp_time(st, time);
	ev->start = f->start;
	/* an exit the program never made (unwound, unfinished): no hook ran */
	bool hooked = !(flags & (CT_EVF_SYNTHETIC | CT_EVF_UNFINISHED));
	ev->ctime = cc_at(&st->cc, ev->time, hooked ? st->cc.pre[1][f->lib] : 0,
			  hooked ? st->cc.post[1][f->lib] : 0);
	ev->cstart = f->cstart;
	ev->depth = (uint32_t)st->depth;
	ev->thread = st->t;
	ev->args = f->ca;
	ev->site = f->site;
	ev->samples = f->samples; /* (its callees' are in it) */
	if (st->depth)
		st->stack[st->depth - 1].samples += f->samples;
	if (f->ca) {
		ct_args_retire(&st->args, f->ca);
		f->ca = NULL;
	}
}

/* record --callsite: the CALLSITE record right after the ENTER of fn just
 * decoded (format.h): the call's site, on its events */
static void take_site(struct ct_stream *st, struct ct_event *ev, uint64_t fn)
{
	uint32_t w = ensure(st, 4) ? rd32(st->buf + st->pos) : 0;
	if ((w & 3) != CT_REC_EXT || CT_EXT_TYPE(w) != CT_EXT_CALLSITE || CT_EXT_LEN(w) > 1 ||
	    !ensure(st, 4 + 4 * (size_t)CT_EXT_LEN(w)))
		return; /* (one elsewhere is skipped) */
	uint32_t lo = CT_EXT_LEN(w) ? rd32(st->buf + st->pos + 4) : 0;
	st->pos += 4 + 4 * (size_t)CT_EXT_LEN(w);
	ev->site = st->stack[st->depth - 1].site = ct_callsite_decode(fn, w, lo);
}

/* an ARGS record right after the ENTER just decoded: attach it */
static void take_args(struct ct_stream *st, struct ct_event *ev)
{
	if (!st->s->argtab || !ensure(st, 4))
		return; /* without specs, ARGS records are skipped as they come */
	uint32_t w = rd32(st->buf + st->pos);
	if ((w & 3) != CT_REC_EXT || CT_EXT_TYPE(w) != CT_EXT_ARGS)
		return;
	size_t size = 4 + 4 * (size_t)CT_EXT_LEN(w);
	if (!ensure(st, size))
		return; /* cut short: the end of the stream handles it */
	const uint32_t *p = (const uint32_t *)(const void *)(st->buf + st->pos + 4);
	st->pos += size;
	uint32_t n = CT_EXT_LEN(w);
	if (!ct_args_payload_ok(st->s->argtab, CT_EXT_ARG(w), false, p, n)) {
		st->args.bad++;
		return;
	}
	struct frame *f = &st->stack[st->depth - 1];
	f->ca = ct_args_new(CT_EXT_ARG(w), p, n);
	ev->args = f->ca;
}

/* data no writer of this version produces: stop with the file and offset */
static int corrupt(struct ct_stream *st, struct ct_error *err, uint64_t off, const char *what)
{
	st->ended = true;
	st->pend_n = 0;
	st->pend_final = false;
	if (err)
		snprintf(err->msg, sizeof(err->msg),
			 "%s: offset %" PRIu64 ": %s: the file is corrupt", st->t->path, off, what);
	return -1;
}

/* the time of the next delta-coded record, if it is already at hand */
static uint64_t peek_time(struct ct_stream *st)
{
	if (!ensure(st, 4))
		return st->base;
	uint32_t w = rd32(st->buf + st->pos);
	if ((w & 3) == CT_REC_EXIT)
		return st->base + (w >> 2);
	if ((w & 3) == CT_REC_ENTER && ensure(st, 8))
		return st->base +
		       ((rd64(st->buf + st->pos) >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1));
	return st->base;
}

/* a fed stream: is the record after the n bytes at pos at hand (what
 * peek_time reads of it)? */
static bool next_at_hand(const struct ct_stream *st, size_t n)
{
	size_t have = st->len - st->pos;
	if (have < n + 4)
		return false;
	uint32_t w = rd32(st->buf + st->pos + n);
	return (w & 3) != CT_REC_ENTER || have >= n + 8;
}

/* a CT_MARK event with text[0..n) (n < 1024), at the stream's clock */
static void mark_event(struct ct_stream *st, struct ct_event *ev, const char *text, size_t n)
{
	uint32_t tw[1024 / 4 + 1] = {0};
	if (n > 1023)
		n = 1023;
	memcpy(tw, text, n);
	/* kept alive as a call's arguments are */
	struct ct_callargs *a = ct_args_new(0, tw, (uint32_t)((n + 4) / 4));
	ct_args_retire(&st->args, a);
	uint64_t time = clamp_time(st, clock_ns(st->s, st->base));
	uint64_t ct = cc_at(&st->cc, time, 0, 0);
	*ev = (struct ct_event){.kind = CT_MARK,
				.addr = (uintptr_t)a->args,
				.time = time,
				.start = time,
				.ctime = ct,
				.cstart = ct,
				.depth = (uint32_t)st->depth,
				.thread = st->t,
				.waited = st->waited};
}

/* the recorded time of the last event of thread t, read through (0 when
 * it cannot be read: its error is the views' to report) */
static uint64_t skim_last(struct ct_session *s, struct ct_thread *t)
{
	struct ct_stream *st;
	struct ct_error err;
	if (ct_stream_open(s, t, &st, &err) < 0)
		return 0;
	struct ct_event evs[256];
	while (ct_stream_read(st, evs, 256, &err) > 0)
		;
	uint64_t last = st->last_time;
	ct_stream_close(st);
	return last;
}

/* where the calls still open at the end of a stream end: at the last
 * event of their process (a thread blocked in a call to the end has its
 * last event at that call's entry; its process went on), found once per
 * process by reading its other threads through; a fed stream (live, top)
 * or one read while doing so ends at its own last event */
static uint64_t proc_end(struct ct_stream *st)
{
	struct session_priv *sp = priv(st->s);
	struct proc_priv *pp = (struct proc_priv *)(void *)st->t->proc;
	if (st->feed || !pp || sp->skimming)
		return st->last_time;
	if (!pp->end_known) {
		pp->end_known = true;
		sp->skimming = true;
		uint64_t bytes = st->s->bytes_read; /* the views' progress */
		for (size_t i = 0; i < st->s->nthreads; i++) {
			struct ct_thread *t = st->s->threads[i];
			if (t->proc == st->t->proc && t != st->t) {
				uint64_t last = skim_last(st->s, t);
				pp->end_ns = last > pp->end_ns ? last : pp->end_ns;
			}
		}
		st->s->bytes_read = bytes;
		sp->skimming = false;
		/* this thread's end is known too: it is here */
		if (st->last_time > pp->end_ns)
			pp->end_ns = st->last_time;
	}
	return pp->end_ns > st->last_time ? pp->end_ns : st->last_time;
}

/* decode up to the next event, any record kind, refilling the buffer as
 * needed: the general (and slow) path of ct_stream_read */
static int stream_next_slow(struct ct_stream *st, struct ct_event *ev, struct ct_error *err)
{
	struct ct_session *s = st->s;
	for (;;) {
		if (st->pend_n) {
			st->pend_n--;
			pop(st, ev, st->pend_time, st->pend_flags);
			return 1;
		}
		if (st->pend_final) {
			st->pend_final = false;
			pop(st, ev, st->pend_time, st->final_flags);
			return 1;
		}
		if (st->pre_i < st->pre_n) {
			/* a flight window's calls entered before it */
			push(st, ev, st->pre[st->pre_i++], clock_ns(s, st->base), CT_EVF_BEFORE);
			st->nbefore = st->depth;
			return 1;
		}
		if (st->ended)
			return 0;
		if (!ensure(st, 4)) {
			if (st->failed) {
				if (err)
					*err = st->ioerr;
				st->ended = true;
				return -1;
			}
			if (st->feed && !st->feed_end)
				return 0; /* more to come */
			goto end;
		}
		uint64_t off = st->buf_off + st->pos;
		const unsigned char *p = st->buf + st->pos;
		uint32_t w = rd32(p);
		switch (w & 3) {
		case CT_REC_PAD:
			st->pos += 4;
			continue;
		case CT_REC_EXIT:
			st->pos += 4;
			st->base += w >> 2;
			if (!st->depth && st->window) {
				/* of a call entered before the window, not listed */
				if (st->skip)
					st->skip--;
				else
					st->unmatched++;
				continue;
			}
			if (!st->depth)
				return corrupt(st, err, off, "a return with no call open");
			pop(st, ev, clock_ns(s, st->base), 0);
			return 1;
		case CT_REC_ENTER: {
			if (!ensure(st, 8)) {
				if (st->feed && !st->feed_end)
					return 0;
				goto end;
			}
			if (st->depth >= MAX_DEPTH)
				return corrupt(st, err, off, "calls nested deeper than 16777216");
			uint64_t q = rd64(st->buf + st->pos);
			st->pos += 8;
			st->base += (q >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1);
			uint64_t addr = (q >> 24) | st->hi;
			push(st, ev, addr, clock_ns(s, st->base), 0);
			take_site(st, ev, addr);
			take_args(st, ev);
			return 1;
		}
		default: /* EXT */
			break;
		}
		unsigned type = CT_EXT_TYPE(w), len = CT_EXT_LEN(w);
		size_t size = 4 + 4 * (size_t)len;
		if (!ensure(st, size)) {
			if (st->feed && !st->feed_end)
				return 0; /* the rest is still to come */
			goto end;         /* cut short: the stream ends here */
		}
		if ((type == CT_EXT_UNWIND || type == CT_EXT_UNWIND_TO) && st->feed &&
		    !st->feed_end && !next_at_hand(st, size))
			return 0; /* its exits take the next record's time */
		p = st->buf + st->pos + 4;
		st->pos += size;
		switch (type) {
		case CT_EXT_TIME:
			if (len < 2) {
				return corrupt(st, err, off, "TIME record too short");
			}
			st->base = rd64(p);
			continue;
		case CT_EXT_HI:
			if (len < 1) {
				return corrupt(st, err, off, "HI record too short");
			}
			st->hi = (uint64_t)(rd32(p) & 0xffffff) << CT_ADDR_LOW_BITS;
			continue;
		case CT_EXT_UNWIND: {
			if (len < 1) {
				return corrupt(st, err, off, "UNWIND record too short");
			}
			uint32_t n = rd32(p);
			if (n > st->depth && st->window) {
				uint64_t more = n - st->depth;
				st->skip -= more < st->skip ? more : st->skip;
				n = (uint32_t)st->depth;
			}
			if (n > st->depth)
				return corrupt(st, err, off, "UNWIND of more calls than are open");
			st->pend_n = n;
			st->pend_flags = CT_EVF_SYNTHETIC;
			st->pend_time = clock_ns(s, peek_time(st));
			continue;
		}
		case CT_EXT_UNWIND_TO: {
			/* the open frames above the outermost `depth` ended (a
			 * longjmp out of a handler that interrupted a hook) */
			if (len < 1) {
				return corrupt(st, err, off, "UNWIND_TO record too short");
			}
			uint32_t keep = rd32(p);
			if (st->skip) {
				/* a flight window: the calls not listed are the
				 * outermost, below those open here */
				uint64_t all = st->depth + st->skip;
				uint64_t close = all > keep ? all - keep : 0;
				if (close > st->depth)
					st->skip -= close - st->depth;
				keep = close >= st->depth ? 0 : (uint32_t)(st->depth - close);
			}
			st->pend_n = st->depth > keep ? st->depth - keep : 0;
			st->pend_flags = CT_EVF_SYNTHETIC;
			st->pend_time = clock_ns(s, peek_time(st));
			continue;
		}
		case CT_EXT_NENTER: {
			if (len < 4) {
				return corrupt(st, err, off, "NENTER record too short");
			}
			uint64_t clk = rd64(p), addr = rd64(p + 8);
			if (st->depth >= MAX_DEPTH)
				return corrupt(st, err, off, "calls nested deeper than 16777216");
			push(st, ev, addr, clock_ns(s, clk), CT_EVF_SIGNAL);
			return 1;
		}
		case CT_EXT_NEXIT: {
			if (len < 4) {
				return corrupt(st, err, off, "NEXIT record too short");
			}
			uint64_t clk = rd64(p), addr = rd64(p + 8);
			size_t i = st->depth;
			while (i > 0 && ct_addr_untag(st->stack[i - 1].addr) != addr)
				i--;
			if (!i) {
				st->unmatched++;
				continue;
			}
			st->pend_n = st->depth - i; /* frames above the match */
			st->pend_flags = CT_EVF_SYNTHETIC;
			st->pend_time = clock_ns(s, clk);
			st->pend_final = true;
			st->final_flags = CT_EVF_SIGNAL;
			continue;
		}
		case CT_EXT_FRAMES: {
			/* record --flight: the calls open where this buffer
			 * began; at the start of a stream, a window's first */
			if (len < 1)
				return corrupt(st, err, off, "FRAMES record too short");
			if (st->nenter || st->depth || st->window)
				continue; /* redundant inside a stream */
			uint32_t depth = rd32(p), n = (len - 1) / 2;
			if (n > depth)
				n = depth;
			st->window = true;
			st->skip = depth - n;
			st->pre = xmalloc((n ? n : 1) * sizeof(*st->pre));
			for (uint32_t i = 0; i < n; i++)
				st->pre[i] = rd64(p + 4 + 8 * (size_t)i);
			st->pre_n = n;
			st->pre_i = 0;
			continue;
		}
		case CT_EXT_MARK: {
			/* calltrace_mark(): an event for the views that show it */
			if (!s->marks)
				continue;
			uint32_t n = CT_EXT_ARG(w) < 4 * len ? CT_EXT_ARG(w) : 4 * len;
			mark_event(st, ev, (const char *)p, n < CT_MARK_MAX ? n : CT_MARK_MAX);
			return 1;
		}
		case CT_EXT_BACKTRACE: {
			/* the backtrace trigger: a mark naming the callers,
			 * innermost first (each return address less one, so
			 * that it names the function that made the call) */
			if (!s->marks)
				continue;
			char text[1024];
			size_t tl = (size_t)snprintf(text, sizeof(text), "backtrace:");
			for (uint32_t i = 0; i + 1 < len && tl + 8 < sizeof(text); i += 2) {
				uint64_t a = rd64(p + 4 * (size_t)i);
				const struct ct_sym_info *si =
					a ? ct_session_resolve(s, st->t->proc, a - 1) : NULL;
				int m = snprintf(text + tl, sizeof(text) - tl, "%s%s",
						 i ? " <- " : " ", si && si->name ? si->name : "?");
				tl = m < 0                           ? tl
				     : tl + (size_t)m < sizeof(text) ? tl + (size_t)m
								     : sizeof(text) - 1;
			}
			mark_event(st, ev, text, tl);
			return 1;
		}
		case CT_EXT_INJECT: { /* record --inject: a mark (lib/record/injectopt.c) */
			char text[128];
			if (!s->marks || len < CT_INJ_PAYLOAD)
				continue;
			ct_inj_text(CT_EXT_ARG(w), p, text, sizeof(text));
			mark_event(st, ev, text, strlen(text));
			ev->flags |= CT_EVF_INJECT;
			return 1;
		}
		case CT_EXT_READ: { /* a read= trigger's values: a note (readtext.c) */
			char text[256];
			if (!s->marks)
				continue;
			if (!ct_reads_text(&st->reads, st->depth, CT_EXT_ARG(w), p, len, text,
					   sizeof(text))) {
				st->unknown++;
				continue;
			}
			mark_event(st, ev, text, strlen(text));
			ev->flags |= CT_EVF_READ;
			return 1;
		}
		case CT_EXT_LOST:
			if (len < 2) {
				return corrupt(st, err, off, "LOST record too short");
			}
			st->lost += rd64(p);
			continue;
		case CT_EXT_WAIT: {
			/* the writer waited from..to: not the program's time */
			if (len < 4)
				return corrupt(st, err, off, "WAIT record too short");
			uint64_t from = clock_ns(s, rd64(p)), to = clock_ns(s, rd64(p + 8));
			if (to > from && to - from < (1ull << 62) - st->waited) {
				st->waited += to - from;
				cc_wait(&st->cc, to - from);
			}
			continue;
		}
		case CT_EXT_CALIB: {
			/* the thread measured its hooks' cost again, on
			 * another CPU (runtime/calibrate.c), from..to */
			if (len < CT_CALIB_WORDS)
				return corrupt(st, err, off, "CALIB record too short");
			uint64_t from = clock_ns(s, rd64(p)), to = clock_ns(s, rd64(p + 8));
			struct ct_calfig f = {rd32(p + 20), rd32(p + 24), rd32(p + 28),
					      rd32(p + 20), rd32(p + 32), rd32(p + 36)};
			ct_cclock_calib(&st->cc, st->s, st->t ? st->t->proc : NULL,
					(CT_EXT_ARG(w) & CT_CALIB_FIGS) ? &f : NULL,
					to > from ? to - from : 0);
			continue;
		}
		case CT_EXT_SAMPLE: {
			/* record --sample: charged to the call open at its
			 * depth, or the innermost one open (a sample taken
			 * inside a hook names the depth before or after it) */
			if (len < 1)
				return corrupt(st, err, off, "SAMPLE record too short");
			uint64_t n = CT_EXT_ARG(w), d = rd32(p);
			/* a flight window: the outermost calls it does not list */
			d = d > st->skip ? d - st->skip : 0;
			if (d > st->depth)
				d = st->depth;
			st->samples += n;
			if (d)
				st->stack[d - 1].samples += n;
			else
				st->samples_out += n;
			continue;
		}
		case CT_EXT_CALLSITE: /* not after an ENTER: nothing to attach it to */
			continue;
		case CT_EXT_ARGS: /* not after its ENTER (a signal came between) */
			st->args.bad += s->argtab != NULL; /* without specs: said once */
			continue;
		case CT_EXT_RETVAL: {
			const uint32_t *pw = (const uint32_t *)(const void *)p;
			if (!s->argtab)
				continue;
			if (!st->depth ||
			    !ct_args_payload_ok(s->argtab, CT_EXT_ARG(w), true, pw, len)) {
				st->args.bad++;
				continue;
			}
			struct frame *f = &st->stack[st->depth - 1];
			if (!f->ca)
				f->ca = ct_args_new(CT_EXT_ARG(w), NULL, 0);
			if (f->ca->spec == CT_EXT_ARG(w))
				ct_args_set_ret(f->ca, pw, len);
			else
				st->args.bad++;
			continue;
		}
		default:
			return corrupt(st, err, off, "unknown record type");
		}
	end:
		st->ended = true;
		st->pend_n = st->depth;
		st->pend_flags = CT_EVF_UNFINISHED;
		st->pend_time = st->depth ? proc_end(st) : st->last_time;
	}
}

/*
 * The fast path: plain ENTER and EXIT records, with nothing pending, while at
 * least 8 bytes (the longest of the two) are buffered.  It does exactly what
 * stream_next_slow does for these two records, with the stream's state in
 * locals; anything else (EXT records, a growing stack, a corrupt EXIT, the
 * end of the buffer, the thread's first event, a gap of more than 2^53 ns
 * between two events) is left to stream_next_slow.  Returns the number of
 * events decoded into ev[0..max).
 *
 * Its speed is that of every view (doc/performance.md): each event's
 * fields are stored one by one (a compound literal would zero the whole
 * event first), the corrected clock (cc_at) is kept in scalars with its
 * ns and ps as one figure, so that no division is on the chain from one
 * event to the next, and a clock of more than 1 GHz (ns_int 0: the TSC)
 * has a loop of its own, with one multiplication per event.
 */
static inline __attribute__((always_inline)) size_t
fast_loop(struct ct_stream *st, struct ct_event *ev, size_t max, const bool frac_only)
{
	const struct session_priv *sp = priv(st->s);
	/* clock_ns, with the rate in registers */
	const uint64_t start = sp->pub.start_clock, ns_int = sp->ns_int, ns_frac = sp->ns_frac;
	const unsigned char *p = st->buf + st->pos, *last = st->buf + st->len - 8;
	struct frame *stack = st->stack;
	size_t depth = st->depth;
	const size_t cap = st->cap, nbefore = st->nbefore;
	uint64_t base = st->base, last_time = st->last_time, nenter = st->nenter;
	const uint64_t hi = st->hi, waited = st->waited;
	struct ct_event *e = ev, *const end = ev + max;
	struct ct_thread *const t = st->t;
	/* an ENTER followed by a CALLSITE always, or by an ARGS with specs,
	 * goes the slow way (mask of the EXT types that stop it) */
	const uint64_t stop = 1ull << CT_EXT_CALLSITE | (sp->pub.argtab ? 1ull << CT_EXT_ARGS : 0);
	const bool any_lib = st->lc_lo <= st->lc_hi;
	/* cc_at's state, as scalars; c_ps is its ns * 1000 + rem */
	uint64_t c_raw = st->cc.raw, c_ps = st->cc.ns * 1000 + st->cc.rem, c_owed = st->cc.owed;
	uint64_t c_taken = st->cc.taken, c_clipped = st->cc.clipped;
	struct {
		uint64_t pre, post;
	} fig[2][2]; /* the figures, by [exit][lib] */
	for (int k = 0; k < 2; k++)
		for (int l = 0; l < 2; l++)
			fig[k][l].pre = st->cc.pre[k][l], fig[k][l].post = st->cc.post[k][l];

	while (e < end && p <= last) {
		uint32_t w = rd32(p);
		uint64_t time, nbase;
		unsigned lib;
		uint64_t addr = 0;
		const bool exit = (w & 3) == CT_REC_EXIT;
		if (exit) {
			if (depth <= nbefore) /* none open, or one entered before */
				break;
			nbase = base + (w >> 2);
		} else if ((w & 3) == CT_REC_ENTER) {
			/* its next record must be buffered too */
			if (depth == cap || p + 4 > last)
				break;
			uint32_t nx = rd32(p + 8);
			if (__builtin_expect((nx & 3) == CT_REC_EXT, 0) &&
			    ((stop >> CT_EXT_TYPE(nx)) & 1))
				break;
			uint64_t q = rd64(p);
			nbase = base + ((q >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1));
			addr = (q >> 24) | hi;
		} else {
			break;
		}
		uint64_t d = nbase > start ? nbase - start : 0;
		if (frac_only)
			time = (uint64_t)(((unsigned __int128)d * ns_frac + (1ULL << 63)) >> 64);
		else
			time = fixed_ns(d, ns_int, ns_frac);
		time = time < last_time ? last_time : time;
		/* cc_at's long way, or c_ps near its end: the slow path */
		if (__builtin_expect(((time - c_raw) >> 53 | c_ps >> 63) != 0, 0))
			break;
		base = nbase;
		last_time = time;
		struct frame *f;
		if (exit) {
			f = &stack[--depth];
			lib = f->lib;
		} else {
			lib = any_lib && is_lib(st, addr);
			f = &stack[depth];
		}
		/* cc_at, without a branch: a short call's time is clipped as
		 * often as not */
		uint64_t dp = (time - c_raw) * 1000, owed = c_owed + fig[exit][lib].pre;
		uint64_t take = dp < owed ? dp : owed;
		c_raw = time;
		c_owed = fig[exit][lib].post;
		c_taken += take;
		c_clipped += owed - take;
		c_ps += dp - take;
		const uint64_t ct = c_ps / 1000;
		e->flags = LIBFLAG(lib);
		e->time = time;
		e->ctime = ct;
		e->depth = (uint32_t)depth;
		e->thread = t;
		e->offcpu = 0;
		if (exit) {
			e->kind = CT_EXIT;
			e->addr = f->addr;
			e->start = f->start;
			e->cstart = f->cstart;
			e->waited = waited - f->waited0;
			/* one load per field: a wide one across two of the
			 * entry's stores, still in flight for a short call,
			 * would wait for them (no store forwarding) */
			uint64_t site = f->site, samples = f->samples;
			__asm__("" : "+r"(site), "+r"(samples));
			e->args = f->ca;
			e->site = site;
			e->samples = samples;
			if (__builtin_expect(samples != 0, 0) && depth)
				stack[depth - 1].samples += samples;
			if (__builtin_expect(f->ca != NULL, 0)) {
				ct_args_retire(&st->args, f->ca);
				f->ca = NULL;
			}
			p += 4;
		} else {
			e->kind = CT_ENTER;
			e->addr = addr;
			e->start = time;
			e->cstart = ct;
			e->waited = waited;
			e->args = NULL;
			e->site = 0;
			e->samples = 0;
			f->addr = addr;
			f->start = time;
			f->cstart = ct;
			f->ca = NULL;
			f->waited0 = waited;
			f->site = 0;
			f->lib = lib;
			f->samples = 0;
			depth++;
			nenter++;
			p += 8;
		}
		e++;
	}
	st->pos = (size_t)(p - st->buf);
	st->depth = depth;
	st->base = base;
	st->last_time = last_time;
	st->nenter = nenter;
	st->cc.raw = c_raw;
	st->cc.ns = c_ps / 1000;
	st->cc.rem = c_ps % 1000;
	st->cc.owed = c_owed;
	st->cc.taken = c_taken;
	st->cc.clipped = c_clipped;
	return (size_t)(e - ev);
}

static size_t stream_fast(struct ct_stream *st, struct ct_event *ev, size_t max)
{
	const struct session_priv *sp = priv(st->s);
	if (st->pend_n || st->pend_final || st->pre_i < st->pre_n || st->ended || st->tag ||
	    st->len - st->pos < 8 || (!sp->ns_int && !sp->ns_frac) || !st->cc.started ||
	    st->cc.ns >= (1ull << 53) /* c_ps would not hold it */)
		return 0;
	if (!sp->ns_int)
		return fast_loop(st, ev, max, true);
	return fast_loop(st, ev, max, false);
}

int ct_stream_read(struct ct_stream *st, struct ct_event *ev, size_t max, struct ct_error *err)
{
	if (st->has_err) {
		st->has_err = false;
		if (err)
			*err = st->err;
		return -1;
	}
	size_t n = 0;
	ct_args_tick(&st->args, st->nev_last);
	st->nev_last = 0;
	if (st->feed)
		feed_proc_lines(st);
	while (n < max) {
		n += stream_fast(st, ev + n, max - n);
		if (n == max)
			break;
		struct ct_error e;
		int r = stream_next_slow(st, ev + n, &e);
		if (r > 0) {
			n++;
			continue;
		}
		if (r < 0) {
			if (!n) {
				if (err)
					*err = e;
				return -1;
			}
			st->has_err = true;
			st->err = e;
		}
		break;
	}
	if (__builtin_expect(st->oc != NULL, 0))
		oc_fill(st, ev, n);
	st->nev_last = n;
	if (n && !st->started) {
		st->started = true;
		st->first_time = ev[0].time;
	}
	return (int)n;
}

int ct_stream_next(struct ct_stream *st, struct ct_event *ev, struct ct_error *err)
{
	return ct_stream_read(st, ev, 1, err);
}
