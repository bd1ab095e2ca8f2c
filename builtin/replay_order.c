/* SPDX-License-Identifier: MIT */
/*
 * replay's time order across threads, with filters that hold entries back
 * (replay_order.h).  The merge (lib/read/merge.c) gives the threads' events
 * in time order; this keeps them in it through the filters.
 *
 * -t holds a thread's entry until its call is known to be long enough, -r
 * one before the range until its call is known to reach into it.  Lines of
 * the other threads that happened after such an entry must come after it:
 * they wait in a queue (a heap by recorded time) until no thread holds an
 * entry older than them and the merge has gone past them.  Each thread
 * that holds entries is in a second heap, by its oldest held entry; the
 * oldest is asked (ct_filter_thread_advance) after each event whether the
 * merge's time has decided it, so that nothing waits longer than -t's TIME
 * (or than the range's start) of the recorded clock.  Events in the queue
 * own a copy of their arguments and mark text, which their stream would
 * free after a while.  The queue is bounded: beyond ORDER_MAX events the
 * oldest go out anyway (said once on stderr), and an entry released later
 * comes after lines that happened after it.
 */

#include "builtin/replay_order.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "message.h"
#include "util.h"

#define ORDER_MAX (1u << 18)

struct qev {
	struct ct_fevent fe;
	uint64_t key; /* its time, never less than its thread's previous one */
	uint64_t seq; /* the order it passed the filter in */
	void *own;    /* its arguments' or its mark's copy, or NULL */
};

struct order {
	struct ct_filter *filt;
	struct ct_filter_thread *fts; /* per thread index */
	size_t nthreads;
	ct_filter_emit_fn out; /* where the events go, in order (replay's lines) */
	void *ctx;
	struct qev *q; /* heap by (key, thread index, seq) */
	size_t nq, qcap;
	struct ct_fevent *stage; /* what the filter just let pass, in order */
	size_t nstage, stcap;
	size_t *held; /* heap of thread indices by (oldest held time, index) */
	size_t nheld;
	size_t *hpos;   /* by thread index: its place in held, or SIZE_MAX */
	uint64_t *hkey; /* by thread index: its oldest held entry's time */
	uint64_t *last; /* by thread index: the key of its last event queued */
	uint64_t seq;
	uint64_t now; /* the merge's position: (time, thread index) */
	size_t now_idx;
	void *prev_own; /* of the event shown last (it may be the pending entry) */
	bool forced;    /* ORDER_MAX was reached */
};

static struct order ord;

static void stage_emit(void *ctx, const struct ct_fevent *fe)
{
	(void)ctx;
	if (ord.nstage == ord.stcap) {
		ord.stcap = ord.stcap ? 2 * ord.stcap : 64;
		ord.stage = xrealloc(ord.stage, ord.stcap * sizeof(*ord.stage));
	}
	ord.stage[ord.nstage++] = *fe;
}

static bool qev_less(const struct qev *a, const struct qev *b)
{
	if (a->key != b->key)
		return a->key < b->key;
	if (a->fe.ev.thread->index != b->fe.ev.thread->index)
		return a->fe.ev.thread->index < b->fe.ev.thread->index;
	return a->seq < b->seq;
}

static void q_up(size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		if (!qev_less(&ord.q[i], &ord.q[p]))
			return;
		struct qev t = ord.q[i];
		ord.q[i] = ord.q[p];
		ord.q[p] = t;
		i = p;
	}
}

static void q_down(size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, rr = l + 1, b = i;
		if (l < ord.nq && qev_less(&ord.q[l], &ord.q[b]))
			b = l;
		if (rr < ord.nq && qev_less(&ord.q[rr], &ord.q[b]))
			b = rr;
		if (b == i)
			return;
		struct qev t = ord.q[i];
		ord.q[i] = ord.q[b];
		ord.q[b] = t;
		i = b;
	}
}

/* a copy of what the event points to that its stream may free: its
 * arguments and return value, or its mark's text */
static void *own_copy(struct ct_fevent *fe)
{
	if (fe->ev.kind == CT_MARK) {
		char *t = xstrdup((const char *)(uintptr_t)fe->ev.addr);
		fe->ev.addr = (uintptr_t)t;
		return t;
	}
	const struct ct_callargs *a = fe->ev.args;
	if (!a)
		return NULL;
	size_t words = (size_t)(a->args ? a->nargs : 0) + (a->ret ? a->nret : 0);
	struct ct_callargs *c = xmalloc(sizeof(*c) + words * sizeof(uint32_t));
	uint32_t *w = (uint32_t *)(c + 1);
	*c = *a;
	if (a->args) {
		memcpy(w, a->args, a->nargs * sizeof(uint32_t));
		c->args = w;
		w += a->nargs;
	}
	if (a->ret) {
		memcpy(w, a->ret, a->nret * sizeof(uint32_t));
		c->ret = w;
	}
	fe->ev.args = c;
	return c;
}

/* show an event (own: what it owns, freed once the next is shown) */
static void order_out(const struct ct_fevent *fe, void *own)
{
	ord.out(ord.ctx, fe);
	free(ord.prev_own);
	ord.prev_own = own;
}

/* may an event with this key of thread idx be shown: is it before every
 * event still to come, from the merge and from the entries held? */
static bool order_ready(uint64_t key, size_t idx)
{
	if (key > ord.now || (key == ord.now && idx > ord.now_idx))
		return false;
	if (ord.nheld) {
		size_t h = ord.held[0];
		if (key > ord.hkey[h] || (key == ord.hkey[h] && idx > h))
			return false;
	}
	return true;
}

/* what the filter let pass: shown at once when its turn has come, else
 * queued */
static void order_take(void)
{
	for (size_t i = 0; i < ord.nstage; i++) {
		struct ct_fevent *fe = &ord.stage[i];
		size_t idx = (size_t)fe->ev.thread->index;
		uint64_t key = fe->ev.time > ord.last[idx] ? fe->ev.time : ord.last[idx];
		ord.last[idx] = key;
		if (!ord.nq && order_ready(key, idx)) {
			order_out(fe, NULL);
			continue;
		}
		if (ord.nq == ord.qcap) {
			ord.qcap = ord.qcap ? 2 * ord.qcap : 256;
			ord.q = xrealloc(ord.q, ord.qcap * sizeof(*ord.q));
		}
		struct qev *e = &ord.q[ord.nq];
		e->fe = *fe;
		e->key = key;
		e->seq = ord.seq++;
		e->own = own_copy(&e->fe);
		q_up(ord.nq++);
	}
	ord.nstage = 0;
}

static bool held_less(size_t a, size_t b)
{
	return ord.hkey[a] != ord.hkey[b] ? ord.hkey[a] < ord.hkey[b] : a < b;
}

static void held_swap(size_t i, size_t j)
{
	size_t t = ord.held[i];
	ord.held[i] = ord.held[j];
	ord.held[j] = t;
	ord.hpos[ord.held[i]] = i;
	ord.hpos[ord.held[j]] = j;
}

static void held_fix(size_t i)
{
	while (i && held_less(ord.held[i], ord.held[(i - 1) / 2])) {
		held_swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	for (;;) {
		size_t l = 2 * i + 1, rr = l + 1, b = i;
		if (l < ord.nheld && held_less(ord.held[l], ord.held[b]))
			b = l;
		if (rr < ord.nheld && held_less(ord.held[rr], ord.held[b]))
			b = rr;
		if (b == i)
			return;
		held_swap(i, b);
		i = b;
	}
}

/* the thread's oldest held entry may have changed */
static void held_update(size_t idx)
{
	uint64_t h = ct_filter_thread_held(&ord.fts[idx]);
	size_t at = ord.hpos[idx];
	if (h == UINT64_MAX) {
		if (at == SIZE_MAX)
			return;
		ord.hpos[idx] = SIZE_MAX;
		if (at != --ord.nheld) {
			ord.held[at] = ord.held[ord.nheld];
			ord.hpos[ord.held[at]] = at;
			held_fix(at);
		}
		return;
	}
	if (at != SIZE_MAX && ord.hkey[idx] == h)
		return;
	ord.hkey[idx] = h;
	if (at == SIZE_MAX) {
		at = ord.nheld++;
		ord.held[at] = idx;
		ord.hpos[idx] = at;
	}
	held_fix(at);
}

/* show what the queue has whose turn has come (and its oldest when it is
 * too long) */
static void order_drain(void)
{
	while (ord.nq && (order_ready(ord.q[0].key, (size_t)ord.q[0].fe.ev.thread->index) ||
			  ord.nq > ORDER_MAX)) {
		if (!order_ready(ord.q[0].key, (size_t)ord.q[0].fe.ev.thread->index) &&
		    !ord.forced) {
			ord.forced = true;
			ct_warn("more than %u events waited for calls held back by the filters: "
				"some lines come after lines of other threads that happened "
				"later",
				ORDER_MAX);
		}
		struct qev e = ord.q[0];
		ord.q[0] = ord.q[--ord.nq];
		q_down(0);
		order_out(&e.fe, e.own);
	}
}

/* what the filter lets pass when nothing waits and nothing was held: it
 * is the event just pushed, whose turn it is */
static void direct_emit(void *ctx, const struct ct_fevent *fe)
{
	(void)ctx;
	size_t idx = (size_t)fe->ev.thread->index;
	if (fe->ev.time > ord.last[idx])
		ord.last[idx] = fe->ev.time;
	order_out(fe, NULL);
}

/* one event of the merge, through its thread's filter, in time order */
void ct_replay_order_push(const struct ct_event *ev)
{
	size_t idx = (size_t)ev->thread->index;
	ord.now = ev->time;
	ord.now_idx = idx;
	if (!ord.nheld && !ord.nq) {
		ct_filter_push(ord.filt, &ord.fts[idx], ev, direct_emit, NULL);
		held_update(idx);
		return;
	}
	ct_filter_push(ord.filt, &ord.fts[idx], ev, stage_emit, NULL);
	held_update(idx); /* what it holds now comes after what it let pass */
	order_take();
	/* the oldest entry held may be decided by the merge's time alone */
	while (ord.nheld) {
		size_t h = ord.held[0];
		uint64_t k = ord.hkey[h];
		ct_filter_thread_advance(ord.filt, &ord.fts[h], ord.now, stage_emit, NULL);
		held_update(h);
		order_take();
		if (ord.nheld && ord.held[0] == h && ord.hkey[h] == k)
			break;
	}
	order_drain();
}

void ct_replay_order_init(struct ct_filter *filt, struct ct_filter_thread *fts, size_t nthreads,
			  ct_filter_emit_fn out, void *ctx)
{
	memset(&ord, 0, sizeof(ord));
	ord.filt = filt;
	ord.fts = fts;
	ord.nthreads = nthreads;
	ord.out = out;
	ord.ctx = ctx;
	size_t n = nthreads ? nthreads : 1;
	ord.held = xcalloc(n, sizeof(*ord.held));
	ord.hpos = xmalloc(n * sizeof(*ord.hpos));
	for (size_t i = 0; i < n; i++)
		ord.hpos[i] = SIZE_MAX;
	ord.hkey = xcalloc(n, sizeof(*ord.hkey));
	ord.last = xcalloc(n, sizeof(*ord.last));
}

/* the end: what the filters still hold, then the whole queue */
void ct_replay_order_end(const bool *want)
{
	for (size_t i = 0; i < ord.nthreads; i++) {
		if (want && !want[i])
			continue;
		ct_filter_thread_end(ord.filt, &ord.fts[i], stage_emit, NULL);
		held_update(i);
		order_take();
	}
	ord.now = UINT64_MAX;
	ord.now_idx = SIZE_MAX;
	ord.nheld = 0;
	while (ord.nq) {
		struct qev e = ord.q[0];
		ord.q[0] = ord.q[--ord.nq];
		q_down(0);
		order_out(&e.fe, e.own);
	}
}

void ct_replay_order_free(void)
{
	for (size_t i = 0; i < ord.nq; i++)
		free(ord.q[i].own);
	free(ord.prev_own);
	free(ord.q);
	free(ord.stage);
	free(ord.held);
	free(ord.hpos);
	free(ord.hkey);
	free(ord.last);
	memset(&ord, 0, sizeof(ord));
}
