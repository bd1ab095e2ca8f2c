/* SPDX-License-Identifier: MIT */
/*
 * The stream decoder's general path (stream_priv.h): any record of a
 * thread's .ev file (doc/format.md), the EXT records among them (time,
 * address bits, unwinds, signals' calls, flight windows, marks, waits,
 * calibrations, samples, call sites, arguments and return values), and
 * the end of a stream, its calls still open closed.  stream.c's fast path
 * decodes plain ENTER and EXIT records itself and leaves the rest here.
 */
#include "stream_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "calltrace/format.h"
#include "injtext.h"
#include "session_priv.h"


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

/* the general path of ct_stream_read (stream_priv.h) */
int ct_stream_slow(struct ct_stream *st, struct ct_event *ev, struct ct_error *err)
{
	struct ct_session *s = st->s;
	for (;;) {
		if (st->cpu_mark) {
			/* record -W cpu: after the entry of the first call on
			 * another CPU, as the reference tool shows it */
			char text[48];
			st->cpu_mark = false;
			int n = snprintf(text, sizeof(text), "watch:cpu (cpu=%" PRIu64 ")",
					 st->cpu1 - 1);
			mark_event(st, ev, text, n > 0 ? (size_t)n : 0);
			ev->flags |= CT_EVF_WATCH;
			return 1;
		}
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
			st->cpu_mark = st->cpu_pend;
			st->cpu_pend = false;
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
		case CT_EXT_CPU: {
			/* record -W cpu: shown at the next entry when it
			 * changed (a writer may state the same CPU again) */
			if (len < 1)
				return corrupt(st, err, off, "CPU record too short");
			uint64_t c1 = (uint64_t)rd32(p) + 1;
			if (c1 != st->cpu1) {
				st->cpu1 = c1;
				st->cpu_pend = s->marks;
			}
			continue;
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
			if (n > 1) /* (one taken for n periods) */
				st->samples_over += n - 1;
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
