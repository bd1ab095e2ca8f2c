/* SPDX-License-Identifier: MIT */
/* The -F/-N/-D/-t/-C/-r/-T filters shared by the views (filter.h): what
 * each function is to them (ct_filter_func, matched once), and the stages
 * the events of a thread go through.  The set-up and the options' parsing
 * are filteropt.c's. */
#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demangle.h"
#include "output.h"
#include "sizefilt.h"

/* the names fn's regexes see (demangle.h): those of its full demangled
 * name, whichever --demangle, so that a pattern means the same functions
 * in every view and at record time */
static void match_names(const struct ct_func *fn, struct ct_match_names *m)
{
	ct_match_names_init(m, fn->full ? fn->full : fn->name);
}

void ct_filter_match(const struct ct_filter *f, struct ct_func *fn)
{
	fn->inc = false;
	fn->exc = false;
	fn->hide = false;
	fn->caller = false;
	struct ct_match_names m;
	match_names(fn, &m);
	/* every regex is tried, to know which matched nothing */
	for (size_t i = 0; i < f->ninc; i++)
		if (ct_match_names_regex(&m, &f->inc[i]))
			fn->inc = f->re_used[i] = true;
	for (size_t i = 0; i < f->nexc; i++)
		if (ct_match_names_regex(&m, &f->exc[i]))
			fn->exc = f->re_used[f->ninc + i] = true;
	for (size_t i = 0; i < f->nhid; i++)
		if (ct_match_names_regex(&m, &f->hid[i]))
			fn->hide = f->re_used[f->ninc + f->nexc + i] = true;
	for (size_t i = 0; i < f->ncal; i++)
		if (ct_match_names_regex(&m, &f->cal[i]))
			fn->caller = f->cal_used[i] = true;
	/* -T: the first that matches is the function's trigger */
	fn->trig = 0;
	for (size_t i = 0; i < f->ntrig; i++)
		if (ct_match_names_regex(&m, &f->trig[i].re)) {
			f->trig[i].used = true;
			if (!fn->trig)
				fn->trig = (uint32_t)i + 1;
		}
	ct_match_names_free(&m);
}

/* does a (demangled) name end with its parameter list?  "f(int)", and so
 * do C++ member functions with qualifiers after it: "A::f() const",
 * "A::g() const &", "A::h() volatile &&" */
/* the length of name[0, n) without a library call's "@LIBRARY" (the
 * library's name holds no ')': "f(int)@libx.so.1") */
static size_t without_library(const char *name, size_t n)
{
	for (size_t i = n; i-- > 0;) {
		if (name[i] == ')')
			return n;
		if (name[i] == '@')
			return i;
	}
	return n;
}

bool ct_name_has_params(const char *name, size_t n)
{
	static const char *const quals[] = {" const", " volatile", " &&", " &"};
	n = without_library(name, n);
	for (bool again = true; again;) {
		again = false;
		/* gcc's copies: "f(int) [clone .isra.0] [clone .cold]" */
		if (n > 0 && name[n - 1] == ']') {
			static const char clone[] = " [clone ";
			for (size_t i = n - 1; i-- > 0;) {
				if (name[i] == '[') {
					if (i > 0 && i - 1 + sizeof(clone) - 1 <= n &&
					    !memcmp(name + i - 1, clone, sizeof(clone) - 1)) {
						n = i - 1;
						again = true;
					}
					break;
				}
			}
			if (again)
				continue;
		}
		for (size_t q = 0; q < sizeof(quals) / sizeof(quals[0]); q++) {
			size_t l = strlen(quals[q]);
			if (n > l && !memcmp(name + n - l, quals[q], l)) {
				n -= l;
				again = true;
				break;
			}
		}
	}
	return n > 0 && name[n - 1] == ')';
}

struct ct_func *ct_filter_func(struct ct_filter *f, struct ct_proc *p, uint64_t addr)
{
	struct ct_u64map *m;
	if (p == f->last_proc && f->last_map) {
		if (f->last_fn && f->last_fn->addr == addr)
			return f->last_fn;
		m = f->last_map;
	} else {
		void **slot = ct_u64map_slot(&f->procs, (uint64_t)(uintptr_t)p);
		if (!*slot) {
			m = xmalloc(sizeof(*m));
			ct_u64map_init(m);
			*slot = m;
		}
		m = *slot;
		f->last_proc = p;
		f->last_map = m;
	}
	struct ct_func *fn = ct_u64map_get(m, addr);
	if (fn)
		return f->last_fn = fn;
	fn = xcalloc(1, sizeof(*fn));
	fn->addr = addr;
	const struct ct_sym_info *si = f->s ? ct_session_resolve(f->s, p, addr) : NULL;
	fn->name = si && si->name ? si->name : "?";
	fn->full = si ? si->full : NULL;
	fn->namelen = strlen(fn->name);
	fn->has_params = ct_name_has_params(fn->name, fn->namelen);
	if (ct_text_clean(fn->name, fn->namelen)) {
		fn->text = fn->name;
		fn->textlen = fn->namelen;
	} else {
		fn->text = ct_text_dup(fn->name);
		fn->textlen = strlen(fn->text);
	}
	fn->user = -1;
	if (f->ninc || f->nexc || f->nhid || f->ntrig || f->ncal || f->nloc)
		ct_filter_match(f, fn);
	/* -L: a function of a matching source file or module is as a -F one */
	for (size_t i = 0; i < f->nloc && si; i++)
		if ((si->file && !regexec(&f->loc[i], si->file, 0, NULL, 0)) ||
		    (si->module && !regexec(&f->loc[i], si->module, 0, NULL, 0)))
			fn->inc = f->loc_used[i] = true;
	fn->libcall = si && si->libcall;
	if (f->no_libcall && fn->libcall)
		fn->hide = true;
	if (si && ct_size_filtered(f->min_size, si->size))
		fn->hide = true; /* -Z */
	*ct_u64map_slot(m, addr) = fn;
	return f->last_fn = fn;
}

void ct_filter_thread_init(struct ct_filter_thread *t)
{
	memset(t, 0, sizeof(*t));
	t->f_depth = CT_DEPTH_NONE;
	t->n_depth = CT_DEPTH_NONE;
	t->c_depth = CT_DEPTH_NONE;
	ct_vtrig_thread_init(&t->vt);
}

void ct_filter_thread_free(struct ct_filter_thread *t)
{
	free(t->pend);
	free(t->fns);
	free(t->hid);
	free(t->rpend);
	free(t->rshown);
	free(t->fst);
	free(t->cpend);
	free(t->cshown);
	ct_vtrig_thread_free(&t->vt);
	ct_filter_thread_init(t);
}

/* -t: emit the held-back entries pend[0..n) */
static void flush_pending(struct ct_filter_thread *t, size_t n, ct_filter_emit_fn emit, void *ctx)
{
	for (size_t i = 0; i < n; i++)
		emit(ctx, &t->pend[i]);
	if (t->npend > n)
		memmove(t->pend, t->pend + n, (t->npend - n) * sizeof(*t->pend));
	t->npend -= n;
}

/* -t stage, for events that passed -F/-N/-D */
static void time_stage(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_fevent *fe,
		       ct_filter_emit_fn emit, void *ctx)
{
	/* an entry held back for at least min_time is a long call: release it
	 * (the held entries are in time order, so the long ones are a prefix) */
	size_t n = 0;
	while (n < t->npend && fe->ev.time >= t->pend[n].ev.time &&
	       fe->ev.time - t->pend[n].ev.time >= f->min_time)
		n++;
	if (n)
		flush_pending(t, n, emit, ctx);

	if (fe->ev.kind == CT_ENTER) {
		if (t->npend == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 64;
			t->pend = xrealloc(t->pend, t->cap * sizeof(*t->pend));
		}
		t->pend[t->npend++] = *fe;
		return;
	}
	if (t->npend && t->pend[t->npend - 1].depth == fe->depth) {
		/* its entry is still held: decide now */
		uint64_t dur = fe->ev.time >= fe->ev.start ? fe->ev.time - fe->ev.start : 0;
		if (dur < f->min_time) {
			t->npend--; /* the call and (already dropped) callees vanish */
			return;
		}
		flush_pending(t, t->npend, emit, ctx);
	} else if (t->npend) {
		/* cannot happen with well-nested events: keep the order anyway */
		flush_pending(t, t->npend, emit, ctx);
	}
	emit(ctx, fe);
}

/* --hide: forget the hidden calls (the -F call they were in ended) */
static void hid_reset(struct ct_filter_thread *t)
{
	if (t->nhid)
		memset(t->hid, 0, t->hidcap * sizeof(*t->hid));
	t->nhid = 0;
}

/* --hide: is the call at depth d a hidden one?  (entry: it becomes one) */
static bool hid_enter(struct ct_filter_thread *t, uint32_t d)
{
	if (d >= t->hidcap) {
		size_t n = t->hidcap ? t->hidcap : 64;
		while (n <= d)
			n *= 2;
		t->hid = xrealloc(t->hid, n * sizeof(*t->hid));
		memset(t->hid + t->hidcap, 0, (n - t->hidcap) * sizeof(*t->hid));
		t->hidcap = n;
	}
	if (t->hid[d])
		return true; /* cannot happen with well-nested events */
	t->hid[d] = true;
	t->nhid++;
	return true;
}

static bool hid_exit(struct ct_filter_thread *t, uint32_t d)
{
	if (!t->nhid || d >= t->hidcap || !t->hid[d])
		return false;
	t->hid[d] = false;
	t->nhid--;
	return true;
}

/* what follows -r: -t, or the view */
static void after_range(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_fevent *fe,
			ct_filter_emit_fn emit, void *ctx)
{
	f->r_kept++;
	if (f->min_time)
		time_stage(f, t, fe, emit, ctx);
	else
		emit(ctx, fe);
}

/* -r: whether the open call at shown depth d was passed on */
static bool *rshown_at(struct ct_filter_thread *t, uint32_t d)
{
	if (d >= t->rshcap) {
		size_t n = t->rshcap ? t->rshcap : 64;
		while (n <= d)
			n *= 2;
		t->rshown = xrealloc(t->rshown, n * sizeof(*t->rshown));
		memset(t->rshown + t->rshcap, 0, (n - t->rshcap) * sizeof(*t->rshown));
		t->rshcap = n;
	}
	return &t->rshown[d];
}

/* -r: the entries held back reach into the range: passed on, in order */
static void range_release(struct ct_filter *f, struct ct_filter_thread *t, ct_filter_emit_fn emit,
			  void *ctx)
{
	for (size_t i = 0; i < t->nrpend; i++) {
		*rshown_at(t, t->rpend[i].depth) = true;
		after_range(f, t, &t->rpend[i], emit, ctx);
	}
	t->nrpend = 0;
}

/* -r stage, for events that passed -F/-N/--hide/-D: the calls that overlap
 * [r_lo, r_hi).  A call entered before r_lo is held back until an event
 * after r_lo comes while it is open (it reaches into the range), or its
 * exit before that (it does not: it goes, with what it called) */
static void range_stage(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_fevent *fe,
			ct_filter_emit_fn emit, void *ctx)
{
	uint64_t tm = fe->ev.time;
	/* an event after START, or a call entered right at it, while the
	 * held calls are open: they reach into the range (an exit at START
	 * ends a call [s, START) that does not) */
	if (t->nrpend && (tm > f->r.lo || (tm == f->r.lo && fe->ev.kind == CT_ENTER)))
		range_release(f, t, emit, ctx);
	if (fe->ev.kind == CT_ENTER) {
		bool *shown = rshown_at(t, fe->depth);
		*shown = false;
		if (tm >= f->r.hi)
			return; /* after the range */
		if (tm < f->r.lo) {
			if (t->nrpend == t->rcap) {
				t->rcap = t->rcap ? 2 * t->rcap : 64;
				t->rpend = xrealloc(t->rpend, t->rcap * sizeof(*t->rpend));
			}
			t->rpend[t->nrpend++] = *fe;
			return;
		}
		*shown = true;
		after_range(f, t, fe, emit, ctx);
		return;
	}
	if (t->nrpend && t->rpend[t->nrpend - 1].depth == fe->depth) {
		t->nrpend--; /* it ended before the range: gone */
		return;
	}
	bool *shown = rshown_at(t, fe->depth);
	if (*shown) {
		*shown = false;
		after_range(f, t, fe, emit, ctx);
	}
}

/* what follows -C: -r, -t, or the view */
static void after_caller(struct ct_filter *f, struct ct_filter_thread *t,
			 const struct ct_fevent *fe, ct_filter_emit_fn emit, void *ctx)
{
	if (f->r_ranged)
		range_stage(f, t, fe, emit, ctx);
	else if (f->min_time)
		time_stage(f, t, fe, emit, ctx);
	else
		emit(ctx, fe);
}

/* -C: whether the open call at shown depth d was passed on */
static bool *cshown_at(struct ct_filter_thread *t, uint32_t d)
{
	if (d >= t->cshcap) {
		size_t n = t->cshcap ? t->cshcap : 64;
		while (n <= d)
			n *= 2;
		t->cshown = xrealloc(t->cshown, n * sizeof(*t->cshown));
		memset(t->cshown + t->cshcap, 0, (n - t->cshcap) * sizeof(*t->cshown));
		t->cshcap = n;
	}
	return &t->cshown[d];
}

/* -C stage, for events that passed -F/-N/--hide/-D/-T: a matching call
 * passes with the held entries of its callers (outermost first), then its
 * exit; what it calls goes.  Another call is held until a matching one
 * comes inside it, and goes at its exit if none did. */
static void caller_stage(struct ct_filter *f, struct ct_filter_thread *t,
			 const struct ct_fevent *fe, ct_filter_emit_fn emit, void *ctx)
{
	uint32_t d = fe->depth;
	if (t->c_depth != CT_DEPTH_NONE) {
		if (d > t->c_depth)
			return; /* inside the matching call */
		if (fe->ev.kind == CT_ENTER || d < t->c_depth)
			t->c_depth = CT_DEPTH_NONE; /* resync */
	}
	if (fe->ev.kind == CT_ENTER) {
		/* resync: held entries as deep are over */
		while (t->ncpend && t->cpend[t->ncpend - 1].depth >= d)
			t->ncpend--;
		bool *shown = cshown_at(t, d);
		if (!fe->fn || !fe->fn->caller) {
			*shown = false;
			if (t->ncpend == t->ccap) {
				t->ccap = t->ccap ? 2 * t->ccap : 64;
				t->cpend = xrealloc(t->cpend, t->ccap * sizeof(*t->cpend));
			}
			t->cpend[t->ncpend++] = *fe;
			return;
		}
		for (size_t i = 0; i < t->ncpend; i++) {
			*cshown_at(t, t->cpend[i].depth) = true;
			after_caller(f, t, &t->cpend[i], emit, ctx);
		}
		t->ncpend = 0;
		shown = cshown_at(t, d); /* (moved by the calls above) */
		*shown = true;
		t->c_depth = d;
		f->c_kept++;
		after_caller(f, t, fe, emit, ctx);
		return;
	}
	if (t->c_depth == d)
		t->c_depth = CT_DEPTH_NONE;
	if (t->ncpend && t->cpend[t->ncpend - 1].depth == d) {
		t->ncpend--; /* no matching call inside: gone */
		return;
	}
	bool *shown = cshown_at(t, d);
	if (*shown) {
		*shown = false;
		after_caller(f, t, fe, emit, ctx);
	}
}

/* -F with -D: the -F calls open deeper than d are gone (resync) */
static void fst_trim(struct ct_filter_thread *t, uint32_t d)
{
	while (t->nfst && t->fst[t->nfst - 1].d > d)
		t->nfst--;
}

/* -F with -D: the -F call at depth d, shown depth sd, is entered */
static void fst_push(struct ct_filter_thread *t, uint32_t d, uint32_t sd)
{
	if (t->nfst == t->fstcap) {
		t->fstcap = t->fstcap ? 2 * t->fstcap : 16;
		t->fst = xrealloc(t->fst, t->fstcap * sizeof(*t->fst));
	}
	t->fst[t->nfst].d = d;
	t->fst[t->nfst].sd = sd;
	t->nfst++;
}

void ct_filter_push_fn(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_event *ev,
		       struct ct_func *fn, ct_filter_emit_fn emit, void *ctx)
{
	uint32_t d = ev->depth, sd, base = 0;
	/* -F with -D: -D counts from the innermost -F call */
	bool nested = (f->ninc || f->nloc) && f->max_depth;

	if (ev->kind == CT_ENTER) {
		if (t->n_depth != CT_DEPTH_NONE) {
			if (d > t->n_depth)
				return;
			t->n_depth = CT_DEPTH_NONE; /* resync */
		}
		if (fn->exc) {
			t->n_depth = d;
			return;
		}
		if ((f->ninc || f->nloc)) {
			if (t->f_depth != CT_DEPTH_NONE && d <= t->f_depth)
				t->f_depth = CT_DEPTH_NONE; /* resync */
			if (t->f_depth == CT_DEPTH_NONE) {
				if (!fn->inc)
					return;
				t->f_depth = d;
				hid_reset(t);
				t->nfst = 0;
			}
			sd = d - t->f_depth;
		} else {
			sd = d;
		}
		if (nested) {
			fst_trim(t, d);
			if (t->nfst && t->fst[t->nfst - 1].d == d)
				t->nfst--; /* cannot happen with well-nested events */
			if (fn->inc)
				fst_push(t, d, sd - t->nhid);
			base = t->nfst ? t->fst[t->nfst - 1].sd : 0;
		}
		if (fn->hide && hid_enter(t, d))
			return;
		sd -= t->nhid;
		/* a call too deep that a deeper -F call may be under: left out
		 * as --hide leaves calls out, so that one shows under the
		 * nearest shown caller */
		if (nested && sd - base >= f->max_depth) {
			hid_enter(t, d);
			return;
		}
		/* -T: a call the triggers leave out is hidden as --hide hides */
		if (f->ntrig &&
		    ct_vtrig_enter(&t->vt, fn->trig ? &f->trig[fn->trig - 1] : NULL, d, sd)) {
			hid_enter(t, d);
			return;
		}
	} else {
		if (t->n_depth != CT_DEPTH_NONE) {
			if (d > t->n_depth)
				return;
			bool own = d == t->n_depth;
			t->n_depth = CT_DEPTH_NONE;
			if (own)
				return;
		}
		if (fn->exc)
			return;
		if ((f->ninc || f->nloc)) {
			if (t->f_depth == CT_DEPTH_NONE)
				return;
			if (d < t->f_depth) {
				t->f_depth = CT_DEPTH_NONE; /* resync */
				return;
			}
			sd = d - t->f_depth;
			if (d == t->f_depth)
				t->f_depth = CT_DEPTH_NONE;
		} else {
			sd = d;
		}
		if (f->ntrig)
			ct_vtrig_exit(&t->vt, d);
		if (hid_exit(t, d))
			return;
		sd -= t->nhid;
		if (nested) {
			/* a shown call (those too deep were hidden) */
			fst_trim(t, d);
			if (t->nfst && t->fst[t->nfst - 1].d == d)
				t->nfst--;
			base = sd;
		}
	}
	if (f->max_depth && sd - base >= f->max_depth)
		return;

	struct ct_fevent fe = {.ev = *ev, .fn = fn, .depth = sd};
	if (f->ncal)
		caller_stage(f, t, &fe, emit, ctx);
	else
		after_caller(f, t, &fe, emit, ctx);
}

struct ct_func *ct_filter_event_func(struct ct_filter *f, struct ct_filter_thread *t,
				     const struct ct_event *ev)
{
	uint32_t d = ev->depth;
	if (ev->kind == CT_EXIT) {
		if (d < t->nfns && t->fns[d] && t->fns[d]->addr == ev->addr)
			return t->fns[d];
		return ct_filter_func(f, ev->thread->proc, ev->addr);
	}
	struct ct_func *fn = ct_filter_func(f, ev->thread->proc, ev->addr);
	if (d >= t->nfns) {
		size_t n = t->nfns ? t->nfns : 64;
		while (n <= d)
			n *= 2;
		t->fns = xrealloc(t->fns, n * sizeof(*t->fns));
		memset(t->fns + t->nfns, 0, (n - t->nfns) * sizeof(*t->fns));
		t->nfns = n;
	}
	t->fns[d] = fn;
	return fn;
}

void ct_filter_push(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_event *ev,
		    ct_filter_emit_fn emit, void *ctx)
{
	if (__builtin_expect(ev->kind == CT_MARK, 0)) {
		/* a mark: shown where its calls are (not in hidden ones) */
		uint32_t d = ev->depth;
		if (t->n_depth != CT_DEPTH_NONE ||
		    ((f->ninc || f->nloc) && (t->f_depth == CT_DEPTH_NONE || d <= t->f_depth)) ||
		    (f->ncal && (t->ncpend || t->c_depth != CT_DEPTH_NONE)) ||
		    (f->r_ranged && (ev->time < f->r.lo || ev->time >= f->r.hi)))
			return;
		struct ct_fevent fe = {.ev = *ev,
				       .fn = NULL,
				       .depth = (f->ninc || f->nloc) ? d - t->f_depth : d};
		if (!f->max_depth || fe.depth < f->max_depth)
			emit(ctx, &fe);
		return;
	}
	struct ct_func *fn = ct_filter_event_func(f, t, ev);
	if (!ct_filter_active(f)) { /* what ct_filter_push_fn would do, in short */
		struct ct_fevent fe = {.ev = *ev, .fn = fn, .depth = ev->depth};
		emit(ctx, &fe);
		return;
	}
	ct_filter_push_fn(f, t, ev, fn, emit, ctx);
}

void ct_filter_thread_advance(struct ct_filter *f, struct ct_filter_thread *t, uint64_t now,
			      ct_filter_emit_fn emit, void *ctx)
{
	if (f->r_ranged && t->nrpend && now > f->r.lo)
		range_release(f, t, emit, ctx);
	if (f->min_time && t->npend) {
		size_t n = 0;
		while (n < t->npend && now >= t->pend[n].ev.time &&
		       now - t->pend[n].ev.time >= f->min_time)
			n++;
		if (n)
			flush_pending(t, n, emit, ctx);
	}
}

uint64_t ct_filter_thread_held(const struct ct_filter_thread *t)
{
	uint64_t h = UINT64_MAX;
	if (t->npend)
		h = t->pend[0].ev.time;
	if (t->nrpend && t->rpend[0].ev.time < h)
		h = t->rpend[0].ev.time;
	if (t->ncpend && t->cpend[0].ev.time < h)
		h = t->cpend[0].ev.time;
	return h;
}

void ct_filter_thread_end(struct ct_filter *f, struct ct_filter_thread *t, ct_filter_emit_fn emit,
			  void *ctx)
{
	(void)f;
	if (t->npend)
		flush_pending(t, t->npend, emit, ctx);
	t->nrpend = 0; /* open before the range until the end: not in it */
	t->ncpend = 0; /* open until the end without a matching call */
	t->c_depth = CT_DEPTH_NONE;
	if (t->cshcap)
		memset(t->cshown, 0, t->cshcap * sizeof(*t->cshown));
	if (t->rshcap)
		memset(t->rshown, 0, t->rshcap * sizeof(*t->rshown));
	hid_reset(t);
	t->nfst = 0;
	t->f_depth = CT_DEPTH_NONE;
	t->n_depth = CT_DEPTH_NONE;
	ct_vtrig_exit(&t->vt, 0); /* every call is over */
	t->vt.off = false;
}
