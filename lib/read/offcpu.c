/* SPDX-License-Identifier: MIT */
/*
 * record --sched: the threads' off-CPU intervals (offcpu.h).
 *
 * DIR/sched holds the kernel's switch-outs and switch-ins of every traced
 * thread as record read them, per CPU (so not in time order across CPUs):
 * sorted here by thread and time, each switch-out is paired with the
 * thread's next switch-in.  A switch-out with no switch-in after it (the
 * thread ended switched out, the file ends, records were lost) counts for
 * nothing; a switch-in with no switch-out is skipped.  A call's off-CPU
 * time is then a difference of two look-ups (ct_offcpu_before at its exit
 * and at its entry), so that no event's decoding changes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "calltrace/format.h"
#include "offcpu.h"
#include "session_priv.h"

#define SCHED_MAX (1ull << 32) /* bytes of DIR/sched read at most */

static int by_tid_time(const void *a, const void *b)
{
	const struct ct_sched_rec *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	/* the same instant: the switch-in after the switch-out */
	return (int)(x->kind & 0xff) - (int)(y->kind & 0xff);
}

int ct_offcpu_load(struct ct_session *s, struct ct_error *err)
{
	struct session_priv *sp = priv(s);
	char *path = xasprintf("%s/%s", s->dir, CT_SCHED_FILE);
	size_t len;
	struct ct_error e;
	char *data = ct_read_file(path, true, SCHED_MAX, &len, &e);
	if (!data) {
		int rc = 0;
		if (errno != ENOENT) {
			*err = e;
			rc = -1;
		}
		free(path);
		return rc;
	}
	struct ct_sched_header h;
	if (len < sizeof(h) || memcmp(data, CT_SCHED_MAGIC, 8)) {
		ct_set_err(err, "%s: not a calltrace context-switch file (bad magic)", path);
		goto bad;
	}
	memcpy(&h, data, sizeof(h));
	if (h.version != CT_FORMAT_VERSION || h.recsize != sizeof(struct ct_sched_rec)) {
		ct_set_err(err,
			   "%s: unsupported context-switch file (version %u, records of %u "
			   "bytes; this reader knows %d and %zu)",
			   path, h.version, h.recsize, CT_FORMAT_VERSION,
			   sizeof(struct ct_sched_rec));
		goto bad;
	}
	size_t n = (len - sizeof(h)) / sizeof(struct ct_sched_rec);
	struct ct_sched_rec *r = xmalloc((n ? n : 1) * sizeof(*r));
	memcpy(r, data + sizeof(h), n * sizeof(*r));
	free(data);
	if ((len - sizeof(h)) % sizeof(struct ct_sched_rec))
		ct_session_warn(s, "%s: cut short (a partial record at its end, skipped)", path);
	qsort(r, n, sizeof(*r), by_tid_time);
	uint64_t lost = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && r[j].tid == r[i].tid)
			j++;
		struct ct_offcpu_thr *o = xcalloc(1, sizeof(*o));
		size_t cap = 0;
		bool out = false;
		uint64_t from = 0, sum = 0;
		for (size_t k = i; k < j; k++) {
			unsigned kind = r[k].kind & 0xff;
			if (kind == CT_SCHED_LOST) {
				lost += r[k].n;
				out = false; /* what came between is not known */
			} else if (kind == CT_SCHED_OUT) {
				out = true;
				from = r[k].ns;
			} else if (kind == CT_SCHED_IN && out) {
				out = false;
				if (o->n == cap) {
					cap = cap ? 2 * cap : 16;
					o->out = xrealloc(o->out, cap * sizeof(uint64_t));
					o->in = xrealloc(o->in, cap * sizeof(uint64_t));
					o->cum = xrealloc(o->cum, cap * sizeof(uint64_t));
				}
				o->out[o->n] = from;
				o->in[o->n] = r[k].ns;
				o->cum[o->n] = sum;
				sum += r[k].ns - from;
				o->n++;
			}
		}
		*ct_u64map_slot(&sp->offcpu, r[i].tid) = o;
		i = j;
	}
	free(r);
	if (lost)
		ct_session_warn(s,
				"%s: the kernel dropped %" PRIu64
				" context-switch records: off-CPU times around them are "
				"short of the truth",
				path, lost);
	s->sched = true;
	free(path);
	return 0;
bad:
	free(data);
	free(path);
	return -1;
}

void ct_offcpu_free(struct ct_session *s)
{
	struct session_priv *sp = priv(s);
	for (size_t i = 0; i < sp->offcpu.cap; i++)
		if (sp->offcpu.used && sp->offcpu.used[i]) {
			struct ct_offcpu_thr *o = sp->offcpu.vals[i];
			free(o->out);
			free(o->in);
			free(o->cum);
			free(o);
		}
	ct_u64map_free(&sp->offcpu);
}

const struct ct_offcpu_thr *ct_offcpu_thread(const struct ct_session *s, int tid)
{
	if (!s->sched)
		return NULL;
	return ct_u64map_get(&priv(s)->offcpu, (uint64_t)(uint32_t)tid);
}

uint64_t ct_offcpu_before(const struct ct_offcpu_thr *o, uint64_t m)
{
	/* the last interval that began at or before m */
	size_t lo = 0, hi = o->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (o->out[mid] <= m)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return 0;
	size_t k = lo - 1;
	return o->cum[k] + (m < o->in[k] ? m : o->in[k]) - o->out[k];
}

size_t ct_offcpu_spans(const struct ct_session *s, const struct ct_thread *t, uint64_t **from,
		       uint64_t **to)
{
	*from = *to = NULL;
	const struct ct_proc *p = t->proc;
	const struct ct_offcpu_thr *o = p && p->clock_ref ? ct_offcpu_thread(s, t->tid) : NULL;
	if (!o || !o->n)
		return 0;
	/* recorded ns = mono - shift (stream.c's oc_setup) */
	int64_t shift = (int64_t)p->start_mono - (int64_t)clock_ns(s, p->start_clock);
	*from = xmalloc(o->n * sizeof(uint64_t));
	*to = xmalloc(o->n * sizeof(uint64_t));
	size_t k = 0;
	for (size_t i = 0; i < o->n; i++) {
		int64_t a = (int64_t)o->out[i] - shift, b = (int64_t)o->in[i] - shift;
		if (b <= 0)
			continue;
		(*from)[k] = a > 0 ? (uint64_t)a : 0;
		(*to)[k++] = (uint64_t)b;
	}
	return k;
}
