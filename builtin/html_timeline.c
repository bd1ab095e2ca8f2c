/* SPDX-License-Identifier: MIT */
/* The HTML report's timeline: see html_timeline.h */
#include "builtin/html_timeline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util.h"

#define TL_RESOLUTION 40000
#define TL_MAX_CALLS 100000
#define TL_MAX_MARKS 5000
#define TL_MAX_OFF 50000

struct tl_call {
	uint64_t start, end;
	uint64_t time; /* the duration the other views show */
	uint32_t fn, depth;
	uint32_t thread; /* index in threads */
};

struct tl_mark {
	uint64_t t;
	uint32_t thread;
	char *text;
};

struct tl_off {
	uint64_t start, end;
	uint32_t thread;
};

struct tl_thread {
	int pid, tid;
	char name[300];
	char cmd[200];        /* its process's command line, cut */
	uint64_t calls, kept; /* calls seen, calls kept (before later compactions) */
};

struct ct_timeline {
	struct tl_call *calls;
	size_t n, cap;
	struct tl_mark *marks;
	size_t nmarks, capmarks;
	uint64_t marks_left; /* marks not kept */
	struct tl_off *offs; /* record --sched: off-CPU spans, by thread */
	size_t noffs, capoffs;
	struct tl_thread *threads;
	size_t nthreads, capthreads;
	uint64_t min_ns;  /* calls shorter are not kept */
	uint64_t left;    /* calls not kept */
	uint64_t longest; /* of the calls not kept */
};

struct ct_timeline *ct_timeline_new(uint64_t span)
{
	struct ct_timeline *tl = xcalloc(1, sizeof(*tl));
	tl->min_ns = span / TL_RESOLUTION;
	if (!tl->min_ns)
		tl->min_ns = 1;
	return tl;
}

void ct_timeline_free(struct ct_timeline *tl)
{
	if (!tl)
		return;
	for (size_t i = 0; i < tl->nmarks; i++)
		free(tl->marks[i].text);
	free(tl->marks);
	free(tl->offs);
	free(tl->calls);
	free(tl->threads);
	free(tl);
}

void ct_timeline_thread(struct ct_timeline *tl, const struct ct_thread *t)
{
	struct tl_thread *th = CT_PUSH(tl->threads, tl->nthreads, tl->capthreads);
	memset(th, 0, sizeof(*th));
	th->pid = t->proc ? t->proc->pid : 0;
	th->tid = t->tid;
	ct_thread_label(t, th->name, sizeof(th->name));
	/* the process's command, so that the lanes of many processes (a
	 * build, git's children) can be told apart: its arguments, else its
	 * executable, cut at the buffer's size */
	size_t n = 0;
	const struct ct_proc *p = t->proc;
	for (int i = 0; p && p->argv && i < p->argc && p->argv[i]; i++) {
		int w = snprintf(th->cmd + n, sizeof(th->cmd) - n, "%s%s", i ? " " : "",
				 p->argv[i][0] ? p->argv[i] : "''");
		if (w < 0 || (size_t)w >= sizeof(th->cmd) - n)
			break;
		n += (size_t)w;
	}
	if (!n && p && p->exe)
		snprintf(th->cmd, sizeof(th->cmd), "%s", p->exe);
}

/* too many calls: the shortest go, min_ns doubling until a quarter of the
 * room is free */
static void compact(struct ct_timeline *tl)
{
	while (tl->n > TL_MAX_CALLS * 3 / 4) {
		tl->min_ns *= 2;
		size_t k = 0;
		for (size_t i = 0; i < tl->n; i++) {
			const struct tl_call *c = &tl->calls[i];
			uint64_t d = c->end - c->start;
			if (d >= tl->min_ns) {
				tl->calls[k++] = *c;
				continue;
			}
			tl->left++;
			if (d > tl->longest)
				tl->longest = d;
		}
		tl->n = k;
	}
}

void ct_timeline_call(struct ct_timeline *tl, uint32_t fn, uint32_t depth, uint64_t start,
		      uint64_t end, uint64_t time)
{
	if (!tl->nthreads)
		return;
	uint64_t d = end > start ? end - start : 0;
	tl->threads[tl->nthreads - 1].calls++;
	if (d < tl->min_ns) {
		tl->left++;
		if (d > tl->longest)
			tl->longest = d;
		return;
	}
	*CT_PUSH(tl->calls, tl->n, tl->cap) =
		(struct tl_call){.start = start,
				 .end = start + d,
				 .time = time,
				 .fn = fn,
				 .depth = depth,
				 .thread = (uint32_t)(tl->nthreads - 1)};
	if (tl->n > TL_MAX_CALLS)
		compact(tl);
}

void ct_timeline_mark(struct ct_timeline *tl, uint64_t t, const char *text)
{
	if (!tl->nthreads)
		return;
	if (tl->nmarks >= TL_MAX_MARKS) {
		tl->marks_left++;
		return;
	}
	*CT_PUSH(tl->marks, tl->nmarks, tl->capmarks) =
		(struct tl_mark){.t = t,
				 .thread = (uint32_t)(tl->nthreads - 1),
				 .text = xstrdup(text ? text : "")};
}

void ct_timeline_offcpu(struct ct_timeline *tl, const uint64_t *from, const uint64_t *to, size_t n)
{
	if (!tl->nthreads)
		return;
	for (size_t i = 0; i < n && tl->noffs < TL_MAX_OFF; i++)
		if (to[i] > from[i] && to[i] - from[i] >= tl->min_ns)
			*CT_PUSH(tl->offs, tl->noffs, tl->capoffs) =
				(struct tl_off){from[i], to[i], (uint32_t)(tl->nthreads - 1)};
}

void ct_timeline_want(const struct ct_timeline *tl, bool *want)
{
	for (size_t i = 0; i < tl->n; i++)
		want[tl->calls[i].fn] = true;
}

void ct_timeline_write(const struct ct_timeline *tl, FILE *out, const uint32_t *fout)
{
	uint64_t t0 = UINT64_MAX, t1 = 0;
	for (size_t i = 0; i < tl->n; i++) {
		if (tl->calls[i].start < t0)
			t0 = tl->calls[i].start;
		if (tl->calls[i].end > t1)
			t1 = tl->calls[i].end;
	}
	for (size_t i = 0; i < tl->nmarks; i++) {
		if (tl->marks[i].t < t0)
			t0 = tl->marks[i].t;
		if (tl->marks[i].t > t1)
			t1 = tl->marks[i].t;
	}
	if (t0 > t1)
		t0 = t1 = 0;
	fprintf(out,
		"\"timeline\":{\"start\":%" PRIu64 ",\"end\":%" PRIu64 ",\"min_ns\":%" PRIu64
		",\"left\":%" PRIu64 ",\"longest_left\":%" PRIu64 ",\"max_calls\":%d"
		",\"marks_left\":%" PRIu64 ",\"threads\":[",
		t0, t1, tl->min_ns, tl->left, tl->longest, TL_MAX_CALLS, tl->marks_left);
	/* a thread's calls and marks are together, in the threads' order */
	size_t ci = 0, mi = 0, oi = 0;
	for (size_t k = 0; k < tl->nthreads; k++) {
		const struct tl_thread *th = &tl->threads[k];
		fprintf(out, "%s\n{\"pid\":%d,\"tid\":%d,\"name\":", k ? "," : "", th->pid,
			th->tid);
		ct_json_string_script(out, th->name);
		fputs(",\"cmd\":", out);
		ct_json_string_script(out, th->cmd);
		fprintf(out, ",\"calls_all\":%" PRIu64 ",\"calls\":[", th->calls);
		/* [fn, depth, start, duration on the recorded clock, the
		 * duration the other views show], in the order of their exits */
		bool first = true;
		for (; ci < tl->n && tl->calls[ci].thread == k; ci++) {
			const struct tl_call *c = &tl->calls[ci];
			if (!fout[c->fn])
				continue;
			fprintf(out, "%s[%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
				first ? "" : ",", fout[c->fn] - 1, c->depth, c->start,
				c->end - c->start, c->time);
			first = false;
		}
		fputs("],\"marks\":[", out);
		first = true;
		for (; mi < tl->nmarks && tl->marks[mi].thread == k; mi++) {
			const struct tl_mark *m = &tl->marks[mi];
			fprintf(out, "%s[%" PRIu64 ",", first ? "" : ",", m->t);
			ct_json_string_script(out, m->text);
			putc_unlocked(']', out);
			first = false;
		}
		putc_unlocked(']', out);
		/* record --sched: [start, duration] of each off-CPU span */
		if (oi < tl->noffs && tl->offs[oi].thread == k) {
			fputs(",\"off\":[", out);
			first = true;
			for (; oi < tl->noffs && tl->offs[oi].thread == k; oi++) {
				fprintf(out, "%s[%" PRIu64 ",%" PRIu64 "]", first ? "" : ",",
					tl->offs[oi].start, tl->offs[oi].end - tl->offs[oi].start);
				first = false;
			}
			putc_unlocked(']', out);
		}
		putc_unlocked('}', out);
	}
	fputs("]},\n", out);
}
