/* SPDX-License-Identifier: MIT */
/*
 * The merge of threads: the events of several streams (stream.c) in time
 * order, a k-way merge over batches of each thread's events (session.h).
 */
#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "session_priv.h"
#include "util.h"

/*
 * Each source holds a batch of its thread's events, buf[pos..n).  Its last
 * buffered event is given out only once the batch after it has been read:
 * a read error then stops the merge before that event, as it always has
 * (one event of lookahead per thread).
 */
#define MERGE_BATCH 256

struct merge_src {
	struct ct_stream *st;
	struct ct_event *buf;
	size_t pos, n;
	bool eof; /* the stream has no more events */
};

struct ct_merge {
	struct merge_src *src;
	size_t n;
	size_t *heap; /* indices into src */
	size_t nheap;
	struct ct_event *out;       /* what ct_merge_read gives out, several threads */
	const struct ct_event *cur; /* ct_merge_next: the batch being given out */
	size_t ncur;
	bool has_err; /* an error after events given out: the next call's */
	struct ct_error err;
};

/* read the source's next batch behind its unread events (at most one) */
static int src_fill(struct merge_src *src, struct ct_error *err)
{
	size_t left = src->n - src->pos;
	memmove(src->buf, src->buf + src->pos, left * sizeof(*src->buf));
	src->pos = 0;
	src->n = left;
	int r = ct_stream_read(src->st, src->buf + left, MERGE_BATCH - left, err);
	if (r < 0)
		return -1;
	if (r == 0)
		src->eof = true;
	src->n += (size_t)r;
	return 0;
}

static bool src_less(const struct ct_merge *m, size_t a, size_t b)
{
	const struct merge_src *sa = &m->src[a], *sb = &m->src[b];
	const struct ct_event *x = &sa->buf[sa->pos], *y = &sb->buf[sb->pos];
	if (x->time != y->time)
		return x->time < y->time;
	return x->thread->index < y->thread->index;
}

static void sift_down(struct ct_merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;
		if (l < m->nheap && src_less(m, m->heap[l], m->heap[best]))
			best = l;
		if (r < m->nheap && src_less(m, m->heap[r], m->heap[best]))
			best = r;
		if (best == i)
			return;
		size_t t = m->heap[i];
		m->heap[i] = m->heap[best];
		m->heap[best] = t;
		i = best;
	}
}

static void raise_fd_limit(size_t want)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < want + 64) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int ct_merge_open(struct ct_session *s, const bool *want, struct ct_merge **out,
		  struct ct_error *err)
{
	*out = NULL;
	struct ct_merge *m = xcalloc(1, sizeof(*m));
	size_t n = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		if (!want || want[i])
			n++;
	raise_fd_limit(n);
	/* keep the total buffer memory near 64 MiB however many threads */
	size_t bufsize = n ? (64u << 20) / n : STREAM_BUF;
	if (bufsize > STREAM_BUF)
		bufsize = STREAM_BUF;
	if (bufsize < (64u << 10))
		bufsize = 64u << 10;
	m->src = xcalloc(n ? n : 1, sizeof(*m->src));
	m->heap = xcalloc(n ? n : 1, sizeof(*m->heap));
	m->out = xmalloc(MERGE_BATCH * sizeof(*m->out));
	for (size_t i = 0; i < s->nthreads; i++) {
		if (want && !want[i])
			continue;
		struct merge_src *src = &m->src[m->n];
		if (ct_stream_open_buf(s, s->threads[i], bufsize, &src->st, err) < 0) {
			ct_merge_close(m);
			return -1;
		}
		src->buf = xmalloc(MERGE_BATCH * sizeof(*src->buf));
		m->n++;
		if (src_fill(src, err) < 0) {
			ct_merge_close(m);
			return -1;
		}
		if (src->n)
			m->heap[m->nheap++] = m->n - 1;
	}
	for (size_t i = m->nheap / 2; i-- > 0;)
		sift_down(m, i);
	*out = m;
	return 0;
}

/* one source left: its buffered events go out as they are */
static int merge_one(struct ct_merge *m, const struct ct_event **evs, struct ct_error *err)
{
	struct merge_src *src = &m->src[m->heap[0]];
	if (src->n - src->pos <= 1 && !src->eof && src_fill(src, err) < 0)
		return -1;
	size_t k = src->n - src->pos;
	if (!src->eof)
		k--; /* the lookahead */
	*evs = src->buf + src->pos;
	src->pos += k;
	if (src->pos == src->n)
		m->nheap = 0;
	return (int)k;
}

int ct_merge_read(struct ct_merge *m, const struct ct_event **evs, struct ct_error *err)
{
	if (m->ncur) { /* left over by ct_merge_next */
		*evs = m->cur;
		size_t k = m->ncur;
		m->ncur = 0;
		return (int)k;
	}
	if (m->has_err) {
		m->has_err = false;
		if (err)
			*err = m->err;
		return -1;
	}
	if (m->nheap == 1)
		return merge_one(m, evs, err);
	size_t k = 0;
	while (k < MERGE_BATCH && m->nheap) {
		struct merge_src *src = &m->src[m->heap[0]];
		if (src->n - src->pos == 1 && !src->eof) {
			struct ct_error e;
			if (src_fill(src, &e) < 0) {
				if (!k) {
					if (err)
						*err = e;
					return -1;
				}
				m->has_err = true;
				m->err = e;
				break;
			}
		}
		m->out[k++] = src->buf[src->pos++];
		if (src->pos == src->n)
			m->heap[0] = m->heap[--m->nheap];
		if (m->nheap)
			sift_down(m, 0);
	}
	*evs = m->out;
	return (int)k;
}

int ct_merge_next(struct ct_merge *m, struct ct_event *ev, struct ct_error *err)
{
	if (!m->ncur) {
		const struct ct_event *evs;
		int r = ct_merge_read(m, &evs, err);
		if (r <= 0)
			return r;
		m->cur = evs;
		m->ncur = (size_t)r;
	}
	*ev = *m->cur++;
	m->ncur--;
	return 1;
}

void ct_merge_close(struct ct_merge *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		ct_stream_close(m->src[i].st);
		free(m->src[i].buf);
	}
	free(m->src);
	free(m->heap);
	free(m->out);
	free(m);
}
