/* SPDX-License-Identifier: MIT */
/*
 * The stream decoder: one thread's .ev file (doc/format.md) as clean enter
 * and exit events (session.h).
 *
 * It reads the file through a fixed-size buffer and keeps only the open
 * call stack, so memory is bounded by the stack depth, never by the length
 * of the trace.  Each event gets its time on the thread's corrected clock
 * too (cclock.h, cclock.c: the tracer's cost taken out).
 *
 * This file opens a stream, fills its buffer and decodes plain ENTER and
 * EXIT records on a fast path; every other record, and the end of a
 * stream, go the general way, in stream_ext.c (stream_priv.h).
 */
#include "stream_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "offcpu.h"
#include "session_priv.h"

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

/* (stream_priv.h) */
bool ct_stream_fill(struct ct_stream *st, size_t n)
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

void ct_stream_samples(const struct ct_stream *st, uint64_t *all, uint64_t *outside, uint64_t *over)
{
	*all = st->samples;
	*outside = st->samples_out;
	*over = st->samples_over;
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


/*
 * The fast path: plain ENTER and EXIT records, with nothing pending, while at
 * least 12 bytes (an ENTER and the word after it) are buffered.  It does
 * exactly what ct_stream_slow does for these two records, with the stream's
 * state in locals; anything else (EXT records, a growing stack, a corrupt
 * EXIT, the end of the buffer, the thread's first event, a gap of 2^44 ns
 * or more before a batch's first event, a clock that does not fit the
 * figures below) is left to ct_stream_slow.  Returns the number of events
 * decoded into ev[0..max).
 *
 * Its speed is that of every view (doc/performance.md): each event's
 * fields are stored one by one (a compound literal would zero the whole
 * event first); the corrected clock (cc_step) is kept in scalars with its
 * ns and ps as one figure, so that no division is on the chain from one
 * event to the next, and what it took out and clipped is added up once
 * per batch, from the sums the step leaves (nothing per event); a clock of
 * more than 1 GHz (ns_int 0: the TSC) has a loop of its own with one
 * multiplication per event, and a process with no library calls one with
 * no look-up.  A batch is at most FAST_BATCH events, so that the figures
 * checked at its start bound those within it: a record's delta is below
 * 2^30 ticks, so with ns_int 0 an event is less than 2^30 ns after the one
 * before, the clock since the start (d) stays below 2^63 + 2^46 and the
 * corrected ps below 2^63.
 */
#define FAST_BATCH (1u << 16)

static inline __attribute__((always_inline)) size_t fast_loop(struct ct_stream *st,
							      struct ct_event *ev, size_t max,
							      const bool frac_only, const bool libs)
{
	const struct session_priv *sp = priv(st->s);
	/* clock_ns, with the rate in registers */
	const uint64_t start = sp->pub.start_clock, ns_int = sp->ns_int, ns_frac = sp->ns_frac;
	const unsigned char *p = st->buf + st->pos, *const last = st->buf + st->len - 12;
	struct frame *const stack = st->stack;
	const size_t depth0 = st->depth, cap = st->cap, nbefore = st->nbefore;
	size_t depth = depth0;
	/* base - start: stream_fast checked base >= start */
	uint64_t d = st->base - start, last_time = st->last_time;
	const uint64_t hi = st->hi, waited = st->waited;
	struct ct_event *e = ev, *const end = ev + (max < FAST_BATCH ? max : FAST_BATCH);
	struct ct_thread *const t = st->t;
	/* an ENTER followed by a CALLSITE always, or by an ARGS with specs,
	 * goes the slow way (mask of the EXT types that stop it) */
	const uint64_t stop = 1ull << CT_EXT_CALLSITE | (sp->pub.argtab ? 1ull << CT_EXT_ARGS : 0);
	/* cc_step's state: c_ps is the corrected ns * 1000 + rem */
	const uint64_t raw0 = st->cc.raw, ps0 = st->cc.ns * 1000 + st->cc.rem, owed0 = st->cc.owed;
	uint64_t c_raw = raw0, c_ps = ps0, c_owed = owed0;
	/* libs: the library calls' entries and exits (for the sums); the
	 * range of their addresses, in registers */
	uint64_t nlib_ent = 0, nlib_exit = 0;
	const uint64_t lc_lo = st->lc_lo, lc_hi = st->lc_hi;
	struct {
		uint64_t pre, post;
	} fig[2][2]; /* the figures, by [exit][lib] */
	for (int k = 0; k < 2; k++)
		for (int l = 0; l < 2; l++)
			fig[k][l].pre = st->cc.pre[k][l], fig[k][l].post = st->cc.post[k][l];

	while (e < end && p <= last) {
		uint32_t w = rd32(p);
		uint64_t time, nd;
		unsigned lib = 0;
		uint64_t addr = 0;
		const bool exit = (w & 3) == CT_REC_EXIT;
		if (exit) {
			if (depth <= nbefore) /* none open, or one entered before */
				break;
			nd = d + (w >> 2);
		} else if ((w & 3) == CT_REC_ENTER) {
			if (depth == cap)
				break;
			uint32_t nx = rd32(p + 8); /* its next record */
			if (__builtin_expect((nx & 3) == CT_REC_EXT, 0) &&
			    ((stop >> CT_EXT_TYPE(nx)) & 1))
				break;
			uint64_t q = rd64(p);
			nd = d + ((q >> 2) & ((1u << CT_ENTER_DELTA_BITS) - 1));
			addr = (q >> 24) | hi;
		} else {
			break;
		}
		if (frac_only)
			time = (uint64_t)(((unsigned __int128)nd * ns_frac + (1ULL << 63)) >> 64);
		else
			time = fixed_ns(nd, ns_int, ns_frac);
		time = time < last_time ? last_time : time;
		/* (ns_int 0: the bounds above hold) cc_at's long way, or c_ps
		 * near its end: the slow path */
		if (!frac_only && __builtin_expect(((time - c_raw) >> 53 | c_ps >> 63) != 0, 0))
			break;
		d = nd;
		last_time = time;
		struct frame *f;
		if (exit) {
			f = &stack[--depth];
			if (libs) {
				lib = f->lib;
				nlib_exit += lib;
			}
		} else {
			if (libs && addr >= lc_lo && addr <= lc_hi) {
				lib = is_lib(st, addr);
				nlib_ent += lib;
			}
			f = &stack[depth];
		}
		cc_step(&c_ps, &c_owed, time - c_raw, fig[exit][lib].pre, fig[exit][lib].post);
		c_raw = time;
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
			p += 8;
		}
		e++;
	}
	const size_t n = (size_t)(e - ev);
	/* entries less exits is what the stack grew by */
	const uint64_t nent = (n + depth - depth0) / 2, nexit = n - nent;
	st->pos = (size_t)(p - st->buf);
	st->depth = depth;
	st->base = d + start;
	st->last_time = last_time;
	st->nenter += nent;
	const uint64_t fsum = (nent - nlib_ent) * (fig[0][0].pre + fig[0][0].post) +
			      nlib_ent * (fig[0][1].pre + fig[0][1].post) +
			      (nexit - nlib_exit) * (fig[1][0].pre + fig[1][0].post) +
			      nlib_exit * (fig[1][1].pre + fig[1][1].post);
	/* what cc_step took out: the ps the recorded clock moved, less those
	 * the corrected one did; clipped: what was owed (the figures of each
	 * event, and what was owed before the batch, less what is owed after
	 * it), less that (every sum modulo 2^64, as cc_at's) */
	const uint64_t taken = (c_raw - raw0) * 1000 - (c_ps - ps0);
	st->cc.taken += taken;
	st->cc.clipped += owed0 + fsum - c_owed - taken;
	st->cc.raw = c_raw;
	st->cc.ns = c_ps / 1000;
	st->cc.rem = c_ps % 1000;
	st->cc.owed = c_owed;
	return n;
}

static size_t stream_fast(struct ct_stream *st, struct ct_event *ev, size_t max)
{
	const struct session_priv *sp = priv(st->s);
	const uint64_t start = sp->pub.start_clock;
	if (st->pend_n || st->pend_final || st->pre_i < st->pre_n || st->ended || st->tag ||
	    st->cpu_mark || st->len - st->pos < 12 || (!sp->ns_int && !sp->ns_frac) ||
	    !st->cc.started || st->cc.ns >= (1ull << 52) /* c_ps below 2^62 */ ||
	    st->base < start || st->base >= (1ull << 63) || st->cc.raw > st->last_time)
		return 0;
	const bool libs = st->lc_lo <= st->lc_hi;
	if (sp->ns_int)
		return libs ? fast_loop(st, ev, max, false, true)
			    : fast_loop(st, ev, max, false, false);
	/* the first event's gap: below 2^44 ns + 2^30 */
	uint64_t t0 =
		(uint64_t)(((unsigned __int128)(st->base - start) * sp->ns_frac + (1ULL << 63)) >>
			   64);
	if ((t0 > st->last_time ? t0 : st->last_time) - st->cc.raw >= (1ull << 44))
		return 0;
	return libs ? fast_loop(st, ev, max, true, true) : fast_loop(st, ev, max, true, false);
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
		int r = ct_stream_slow(st, ev + n, &e);
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
