/* SPDX-License-Identifier: MIT */
/*
 * The public reading API (include/calltrace/reader.h, doc/reader.md): the
 * session, its processes, threads and modules, and walks over the events
 * of one thread (stream.c) or of all of them merged (merge.c), each event
 * named through the views' function table (filter.c's ct_filter_func: each
 * address resolved once), its arguments formatted as replay prints them,
 * its corrected time from the stream decoder's corrected clock (ct_event's
 * ctime).  Nothing here decodes a record.
 *
 * Built into libcalltrace-reader.so with the rest of lib/ (hidden), this
 * file's ct_reader_* functions being its only exported symbols.
 */
#include "calltrace/reader.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argspec.h"
#include "counts.h"
#include "filter.h"
#include "overhead.h"
#include "session.h"
#include "session_priv.h"
#include "srcline.h"
#include "util.h"

/* events taken from the stream at a time */
#define READ_BATCH 256
/* the longest text of one call's arguments or return value */
#define ARGTEXT 4096

struct ct_reader {
	struct ct_session *s;
	struct ct_filter filt; /* no regex: the table of functions, by address */
	struct ct_names names; /* name ids */
	char **owned;          /* names copied here (marks' texts) */
	size_t nowned, capowned;
	struct ct_reader_info info;
	struct ct_reader_process *procs;
	struct ct_reader_thread *threads;
	struct ct_reader_module **mods; /* by process */
};

/* a thread's state in a walk: the name ids of its open calls (so that an
 * exit needs no lookup) */
struct rframe {
	uint64_t addr;
	uint32_t id;
};

struct rthread {
	struct rframe *stack;
	size_t cap;
};

struct ct_reader_iter {
	ct_reader *r;
	unsigned flags;
	struct ct_stream *st; /* one thread */
	struct ct_merge *m;   /* or all, merged */
	struct ct_event buf[READ_BATCH];
	const struct ct_event *evs; /* the events taken, evs[pos..n) not given yet */
	size_t pos, n;
	bool eof;
	bool has_err; /* an error met after events given out: the next call's */
	struct ct_error err;
	struct rthread *th; /* by thread index */
	char *text;         /* ct_reader_read's texts */
	size_t tlen, tcap;
	char args[ARGTEXT], ret[ARGTEXT]; /* ct_reader_next's */
	uint64_t site;                    /* ct_reader_next's last event's call site */
	uint64_t *sites;                  /* CT_READER_CALLSITES: the last batch's */
	size_t nsites, capsites;
};

static void set_error(struct ct_reader_error *err, int code, const char *msg)
{
	if (!err)
		return;
	err->code = code;
	/* cut, when it must be, before a whole character (msg is safe to
	 * print: error.h) */
	size_t n = strlen(msg);
	if (n >= sizeof(err->message)) {
		n = sizeof(err->message) - 1;
		while (n && ((unsigned char)msg[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(err->message, msg, n);
	err->message[n] = 0;
}

static void set_ok(struct ct_reader_error *err)
{
	if (err) {
		err->code = CT_READER_OK;
		err->message[0] = 0;
	}
}

int ct_reader_api_version(void)
{
	return CT_READER_API_VERSION;
}

/* ---- opening ------------------------------------------------------------ */

static void fill_tables(ct_reader *r)
{
	struct ct_session *s = r->s;
	r->info = (struct ct_reader_info){
		.dir = s->dir,
		.command = s->command,
		.start_time = s->start_time,
		.clock = s->clock_name,
		.clock_hz = s->clock_hz,
		.duration_ns = s->end_clock > s->start_clock ? ct_session_ns(s, s->end_clock) : 0,
		.complete = s->complete,
		.exit_status = s->exit_status,
		.lost = s->lost,
		.events = s->events,
		.ev_bytes = s->ev_bytes,
	};
	r->procs = xcalloc(s->nprocs ? s->nprocs : 1, sizeof(*r->procs));
	r->mods = xcalloc(s->nprocs ? s->nprocs : 1, sizeof(*r->mods));
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct ct_proc *p = s->procs[i];
		r->procs[i] = (struct ct_reader_process){
			.index = i,
			.pid = p->pid,
			.ppid = p->ppid,
			.gen = p->gen,
			.exe = p->exe,
			.argc = p->argc,
			.argv = (const char *const *)p->argv,
			.start_ns = ct_session_ns(s, p->start_clock),
			.nmodules = p->nmodules,
		};
		r->mods[i] = xcalloc(p->nmodules ? p->nmodules : 1, sizeof(**r->mods));
		for (size_t j = 0; j < p->nmodules; j++) {
			const struct ct_module *m = &p->modules[j];
			r->mods[i][j] = (struct ct_reader_module){
				.path = m->path,
				.buildid = m->buildid,
				.base = m->base,
				.lo = m->lo,
				.hi = m->hi,
				.load_ns = ct_session_ns(s, m->load_clock),
				.unload_ns = m->unload_clock == UINT64_MAX
						     ? UINT64_MAX
						     : ct_session_ns(s, m->unload_clock),
			};
		}
	}
	r->threads = xcalloc(s->nthreads ? s->nthreads : 1, sizeof(*r->threads));
	for (size_t i = 0; i < s->nthreads; i++) {
		const struct ct_thread *t = s->threads[i];
		size_t pi = 0;
		while (pi < s->nprocs && s->procs[pi] != t->proc)
			pi++;
		r->threads[i] = (struct ct_reader_thread){
			.index = i,
			.tid = t->tid,
			.pid = t->proc ? t->proc->pid : 0,
			.process = pi,
			.name = t->name,
			.bytes = t->bytes,
		};
	}
}

int ct_reader_open(const char *dir, unsigned flags, ct_reader **out, struct ct_reader_error *err)
{
	struct ct_error e;
	if (out)
		*out = NULL;
	if (!out || !dir) {
		set_error(err, CT_READER_E_ARG, "ct_reader_open: no directory or no handle given");
		return -1;
	}
	if (flags & ~(CT_READER_DEMANGLE_SIMPLE | CT_READER_DEMANGLE_NO)) {
		set_error(err, CT_READER_E_ARG, "ct_reader_open: unknown flags");
		return -1;
	}
	struct ct_session *s;
	if (ct_session_open(&s, dir, &e) < 0) {
		set_error(err, CT_READER_E_OPEN, e.msg);
		return -1;
	}
	s->marks = true; /* given to the walks that ask for them */
	s->demangle = flags & CT_READER_DEMANGLE_NO       ? CT_DEMANGLE_NO
		      : flags & CT_READER_DEMANGLE_SIMPLE ? CT_DEMANGLE_SIMPLE
							  : CT_DEMANGLE_FULL;
	ct_reader *r = xcalloc(1, sizeof(*r));
	r->s = s;
	ct_filter_init(&r->filt, s);
	ct_names_init(&r->names);
	fill_tables(r);
	*out = r;
	set_ok(err);
	return 0;
}

void ct_reader_close(ct_reader *r)
{
	if (!r)
		return;
	ct_filter_free(&r->filt); /* and its table of functions */
	ct_names_free(&r->names);
	for (size_t i = 0; i < r->nowned; i++)
		free(r->owned[i]);
	free(r->owned);
	for (size_t i = 0; i < r->s->nprocs; i++)
		free(r->mods[i]);
	free(r->mods);
	free(r->procs);
	free(r->threads);
	ct_session_close(r->s);
	free(r);
}

size_t ct_reader_warning_count(const ct_reader *r)
{
	return r ? priv(r->s)->warnings.n : 0;
}

const char *ct_reader_warning(const ct_reader *r, size_t i)
{
	return r && i < priv(r->s)->warnings.n ? priv(r->s)->warnings.v[i].text : NULL;
}

const struct ct_reader_info *ct_reader_info(const ct_reader *r)
{
	return r ? &r->info : NULL;
}

size_t ct_reader_process_count(const ct_reader *r)
{
	return r ? r->s->nprocs : 0;
}

const struct ct_reader_process *ct_reader_process(const ct_reader *r, size_t i)
{
	return r && i < r->s->nprocs ? &r->procs[i] : NULL;
}

size_t ct_reader_thread_count(const ct_reader *r)
{
	return r ? r->s->nthreads : 0;
}

const struct ct_reader_thread *ct_reader_thread(const ct_reader *r, size_t i)
{
	return r && i < r->s->nthreads ? &r->threads[i] : NULL;
}

const struct ct_reader_module *ct_reader_module(const ct_reader *r, size_t process, size_t i)
{
	if (!r || process >= r->s->nprocs || i >= r->s->procs[process]->nmodules)
		return NULL;
	return &r->mods[process][i];
}

/* ---- names and symbols --------------------------------------------------------- */

uint32_t ct_reader_name_count(const ct_reader *r)
{
	return r ? (uint32_t)r->names.n : 0;
}

const char *ct_reader_name(const ct_reader *r, uint32_t id)
{
	return r && id < r->names.n ? r->names.v[id] : NULL;
}

int ct_reader_resolve(ct_reader *r, size_t process, uint64_t addr, struct ct_reader_sym *sym,
		      struct ct_reader_error *err)
{
	if (!r || !sym || process >= r->s->nprocs) {
		set_error(err, CT_READER_E_ARG, "ct_reader_resolve: no such process");
		return -1;
	}
	struct ct_proc *p = r->s->procs[process];
	addr = ct_addr_untag(addr);
	const struct ct_sym_info *si = ct_session_resolve(r->s, p, addr);
	const struct ct_module *m = ct_session_module(r->s, p, addr);
	*sym = (struct ct_reader_sym){
		.name = si->name,
		.module = m ? m->path : NULL,
		.offset = m ? addr - m->base : addr,
		.file = si->file,
		.line = si->line,
	};
	set_ok(err);
	return 0;
}

/* the id of a function's name: resolved at its first event, kept in the
 * function table (whose user field is free for us) */
static inline uint32_t func_id(ct_reader *r, struct ct_proc *p, uint64_t addr)
{
	struct ct_func *fn = ct_filter_func(&r->filt, p, addr);
	if (fn->user < 0)
		fn->user = ct_names_intern(&r->names, fn->name);
	return (uint32_t)fn->user;
}

/* a mark's text: an id of its own, the text copied (the event's is not
 * kept) */
static uint32_t mark_id(ct_reader *r, const char *text)
{
	int64_t id = ct_names_find(&r->names, text);
	if (id >= 0)
		return (uint32_t)id;
	char *copy = xstrdup(text);
	*CT_PUSH(r->owned, r->nowned, r->capowned) = copy;
	return ct_names_intern(&r->names, copy);
}

/* ---- walks ------------------------------------------------------------------- */

int ct_reader_iter_open(ct_reader *r, size_t thread, unsigned flags, ct_reader_iter **out,
			struct ct_reader_error *err)
{
	struct ct_error e;
	if (out)
		*out = NULL;
	if (!r || !out) {
		set_error(err, CT_READER_E_ARG, "ct_reader_iter_open: no recording or no handle");
		return -1;
	}
	if (flags &
	    ~(CT_READER_MARKS | CT_READER_CORRECTED | CT_READER_NO_ARGS | CT_READER_CALLSITES)) {
		set_error(err, CT_READER_E_ARG, "ct_reader_iter_open: unknown flags");
		return -1;
	}
	if (thread != CT_READER_ALL_THREADS && thread >= r->s->nthreads) {
		snprintf(e.msg, sizeof(e.msg), "%s: no thread of index %zu (the recording has %zu)",
			 r->s->dir, thread, r->s->nthreads);
		set_error(err, CT_READER_E_ARG, e.msg);
		return -1;
	}
	if (!r->s->nthreads && ct_counts_only(r->s->dir)) {
		snprintf(e.msg, sizeof(e.msg),
			 "%s holds call counts only (record --count): no events to read",
			 r->s->dir);
		set_error(err, CT_READER_E_COUNTS, e.msg);
		return -1;
	}
	ct_reader_iter *it = xcalloc(1, sizeof(*it));
	it->r = r;
	it->flags = flags;
	it->th = xcalloc(r->s->nthreads ? r->s->nthreads : 1, sizeof(*it->th));
	int rc = thread == CT_READER_ALL_THREADS
			 ? ct_merge_open(r->s, NULL, &it->m, &e)
			 : ct_stream_open(r->s, r->s->threads[thread], &it->st, &e);
	if (rc < 0) {
		set_error(err, CT_READER_E_DATA, e.msg);
		ct_reader_iter_close(it);
		return -1;
	}
	*out = it;
	set_ok(err);
	return 0;
}

void ct_reader_iter_close(ct_reader_iter *it)
{
	if (!it)
		return;
	ct_stream_close(it->st);
	ct_merge_close(it->m);
	for (size_t i = 0; i < it->r->s->nthreads; i++) {
		free(it->th[i].stack);
	}
	free(it->th);
	free(it->text);
	free(it->sites);
	free(it);
}

/* more events from the stream or the merge: 1, 0 at the end, -1 */
static int take(ct_reader_iter *it, struct ct_error *e)
{
	if (it->eof)
		return 0;
	int n;
	if (it->m) {
		n = ct_merge_read(it->m, &it->evs, e);
	} else {
		n = ct_stream_read(it->st, it->buf, READ_BATCH, e);
		it->evs = it->buf;
	}
	if (n <= 0) {
		it->n = it->pos = 0;
		if (n == 0)
			it->eof = true;
		return n;
	}
	it->pos = 0;
	it->n = (size_t)n;
	return 1;
}

/* the next event to give, or NULL at the end or on an error (*rc -1, e) */
static const struct ct_event *next_event(ct_reader_iter *it, int *rc, struct ct_error *e)
{
	for (;;) {
		while (it->pos < it->n) {
			const struct ct_event *ev = &it->evs[it->pos++];
			if (ev->kind != CT_MARK || (it->flags & CT_READER_MARKS))
				return ev;
		}
		if (it->has_err) {
			it->has_err = false;
			*e = it->err;
			*rc = -1;
			return NULL;
		}
		*rc = take(it, e);
		if (*rc <= 0)
			return NULL;
	}
}

/* a thread's stack of name ids grown to hold depth */
static void grow_stack(struct rthread *rt, uint32_t depth)
{
	size_t cap = rt->cap ? rt->cap : 64;
	while (cap <= depth)
		cap *= 2;
	rt->stack = xrealloc(rt->stack, cap * sizeof(*rt->stack));
	memset(rt->stack + rt->cap, 0, (cap - rt->cap) * sizeof(*rt->stack));
	rt->cap = cap;
}

/* an event's name id.  A call's id is kept by depth in its thread's
 * stack: its exit needs no lookup, nor does the next call at that depth of
 * the same function (a loop, a recursion) */
static inline uint32_t event_name(ct_reader *r, struct rthread *rt, const struct ct_event *ev)
{
	uint32_t d = ev->depth;
	if (__builtin_expect(ev->kind == CT_MARK, 0))
		return mark_id(r, (const char *)(uintptr_t)ev->addr);
	if (__builtin_expect(d >= rt->cap, 0))
		grow_stack(rt, d);
	struct rframe *f = &rt->stack[d];
	if (f->addr == ev->addr && f->addr)
		return f->id;
	uint32_t id = func_id(r, ev->thread->proc, ev->addr);
	if (ev->kind == CT_ENTER)
		*f = (struct rframe){ev->addr, id};
	return id;
}

/* an event's name id and corrected time */
static inline uint32_t event_id(ct_reader_iter *it, const struct ct_event *ev, uint64_t *ctime)
{
	struct rthread *rt = &it->th[ev->thread->index];
	uint32_t id = event_name(it->r, rt, ev);
	*ctime = it->flags & CT_READER_CORRECTED ? ev->ctime : ev->time;
	return id;
}

/* the text of an event's arguments (ret false, on its entry) or return
 * value (ret true, on its exit) into buf, or false when it has none */
static bool args_text(ct_reader_iter *it, const struct ct_event *ev, bool ret, char *buf,
		      size_t len)
{
	const struct ct_callargs *a = ev->args;
	if (!a || (it->flags & CT_READER_NO_ARGS))
		return false;
	if (!ret && (ev->kind != CT_ENTER || !a->has_args))
		return false;
	if (ret && (ev->kind != CT_EXIT || !a->has_ret ||
		    (ev->flags & (CT_EVF_SYNTHETIC | CT_EVF_UNFINISHED))))
		return false;
	ct_event_args_text(it->r->s, ev->thread->proc, a, ret, buf, len);
	return true;
}

static uint64_t public_addr(const struct ct_event *ev)
{
	return ev->kind == CT_MARK ? 0 : ct_addr_untag(ev->addr);
}

int ct_reader_next(ct_reader_iter *it, struct ct_reader_event *out, struct ct_reader_error *err)
{
	struct ct_error e;
	int rc = 0;
	if (!it || !out) {
		set_error(err, CT_READER_E_ARG, "ct_reader_next: no walk or no event given");
		return -1;
	}
	const struct ct_event *ev = next_event(it, &rc, &e);
	if (!ev) {
		if (rc < 0)
			set_error(err, CT_READER_E_DATA, e.msg);
		else
			set_ok(err);
		return rc;
	}
	uint64_t ctime;
	uint32_t id = event_id(it, ev, &ctime);
	*out = (struct ct_reader_event){
		.kind = ev->kind == CT_ENTER  ? CT_READER_ENTRY
			: ev->kind == CT_EXIT ? CT_READER_EXIT
					      : CT_READER_MARK,
		.flags = ev->flags,
		.depth = ev->depth,
		.thread = (uint32_t)ev->thread->index,
		.time_ns = ev->time,
		.start_ns = ev->kind == CT_EXIT ? ev->start : ev->time,
		.ctime_ns = ctime,
		.addr = public_addr(ev),
		.name_id = id,
		.name = it->r->names.v[id],
		.args = args_text(it, ev, false, it->args, sizeof(it->args)) ? it->args : NULL,
		.retval = args_text(it, ev, true, it->ret, sizeof(it->ret)) ? it->ret : NULL,
	};
	it->site = ct_addr_untag(ev->site);
	set_ok(err);
	return 1;
}

/* a text of this batch: its offset in it->text */
static uint32_t batch_text(ct_reader_iter *it, const struct ct_event *ev, bool ret)
{
	if (!args_text(it, ev, ret, it->args, sizeof(it->args)))
		return CT_READER_NONE;
	size_t n = strlen(it->args) + 1;
	if (it->tlen + n > UINT32_MAX - 1)
		return CT_READER_NONE;
	if (it->tlen + n > it->tcap) {
		size_t cap = it->tcap ? it->tcap : 4096;
		while (cap < it->tlen + n)
			cap *= 2;
		it->text = xrealloc(it->text, cap);
		it->tcap = cap;
	}
	memcpy(it->text + it->tlen, it->args, n);
	uint32_t off = (uint32_t)it->tlen;
	it->tlen += n;
	return off;
}

int ct_reader_read(ct_reader_iter *it, struct ct_reader_rec *recs, size_t max,
		   struct ct_reader_error *err)
{
	struct ct_error e;
	if (!it || (!recs && max)) {
		set_error(err, CT_READER_E_ARG, "ct_reader_read: no walk or no records given");
		return -1;
	}
	if (max > INT32_MAX)
		max = INT32_MAX;
	it->tlen = 0;
	size_t k = 0;
	bool sites = it->flags & CT_READER_CALLSITES;
	if (sites && it->capsites < max) {
		it->capsites = max;
		it->sites = xrealloc(it->sites, max * sizeof(*it->sites));
	}
	bool marks = it->flags & CT_READER_MARKS, corrected = it->flags & CT_READER_CORRECTED;
	while (k < max) {
		if (it->pos == it->n) {
			int rc = 0;
			if (it->has_err) {
				it->has_err = false;
				e = it->err;
				rc = -1;
			} else {
				rc = take(it, &e);
			}
			if (rc < 0 && !k) {
				set_error(err, CT_READER_E_DATA, e.msg);
				return -1;
			}
			if (rc < 0) { /* given by the next call */
				it->has_err = true;
				it->err = e;
			}
			if (rc <= 0)
				break;
		}
		/* the events taken, as many as fit */
		const struct ct_event *ev = &it->evs[it->pos], *end = ev + (it->n - it->pos);
		if ((size_t)(end - ev) > max - k)
			end = ev + (max - k);
		it->pos += (size_t)(end - ev);
		const struct ct_thread *last = NULL;
		struct rthread *rt = NULL;
		for (; ev < end; ev++) {
			if (__builtin_expect(ev->kind == CT_MARK && !marks, 0))
				continue;
			if (ev->thread != last) {
				last = ev->thread;
				rt = &it->th[last->index];
			}
			struct ct_reader_rec *o = &recs[k++];
			o->name = event_name(it->r, rt, ev);
			o->time_ns = ev->time;
			o->start_ns = ev->kind == CT_EXIT ? ev->start : ev->time;
			o->ctime_ns = corrected ? ev->ctime : ev->time;
			o->addr = public_addr(ev);
			o->depth = ev->depth;
			o->thread = (uint32_t)last->index;
			o->kind = ev->kind == CT_ENTER  ? CT_READER_ENTRY
				  : ev->kind == CT_EXIT ? CT_READER_EXIT
							: CT_READER_MARK;
			o->flags = (uint8_t)ev->flags;
			o->reserved = 0;
			o->args = o->ret = CT_READER_NONE;
			if (sites)
				it->sites[k - 1] = ct_addr_untag(ev->site);
			if (__builtin_expect(ev->args != NULL, 0)) {
				o->args = batch_text(it, ev, false);
				o->ret = batch_text(it, ev, true);
			}
		}
	}
	it->nsites = sites ? k : 0;
	set_ok(err);
	return (int)k;
}

uint64_t ct_reader_callsite(const ct_reader_iter *it)
{
	return it ? it->site : 0;
}

const uint64_t *ct_reader_batch_callsites(const ct_reader_iter *it, size_t *n)
{
	bool on = it && (it->flags & CT_READER_CALLSITES);
	if (n)
		*n = on ? it->nsites : 0;
	return on ? it->sites : NULL;
}

const char *ct_reader_callsite_line(ct_reader *r, size_t process, uint64_t site)
{
	if (!r || process >= r->s->nprocs)
		return NULL;
	return ct_srcline_site(r->s, r->s->procs[process], site);
}

const char *ct_reader_batch_text(const ct_reader_iter *it, size_t *len)
{
	if (len)
		*len = it ? it->tlen : 0;
	return it && it->text ? it->text : "";
}

_Static_assert(sizeof(struct ct_reader_rec) == 56, "ct_reader_rec is 56 bytes (Python reads it)");
_Static_assert(CT_READER_EV_SIGNAL == CT_EVF_SIGNAL && CT_READER_EV_SYNTHETIC == CT_EVF_SYNTHETIC &&
		       CT_READER_EV_UNFINISHED == CT_EVF_UNFINISHED &&
		       CT_READER_EV_BEFORE == CT_EVF_BEFORE &&
		       CT_READER_EV_LIBCALL == CT_EVF_LIBCALL,
	       "the event flags are passed on as they are");
