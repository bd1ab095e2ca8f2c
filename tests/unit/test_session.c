/* SPDX-License-Identifier: MIT */
/* The reader: hand-made calltrace.data directories, decoded and checked. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "check.h"
#include "session.h"
#include "session_priv.h"
#include "util.h"

/* ---- writing streams ------------------------------------------------------- */

struct ev {
	uint32_t *w;
	size_t n, cap;
};

static void word(struct ev *e, uint32_t w)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 64;
		e->w = xrealloc(e->w, e->cap * sizeof(*e->w));
	}
	e->w[e->n++] = w;
}

static void enter(struct ev *e, uint32_t delta, uint64_t addr)
{
	uint64_t q = (uint64_t)CT_REC_ENTER | (uint64_t)delta << 2 |
		     (addr & ((1ULL << CT_ADDR_LOW_BITS) - 1)) << 24;
	word(e, (uint32_t)q);
	word(e, (uint32_t)(q >> 32));
}

static void leave(struct ev *e, uint32_t delta)
{
	word(e, CT_REC_EXIT | delta << 2);
}

static void ext64(struct ev *e, unsigned type, uint64_t a)
{
	word(e, ct_ext_word(type, 2, 0));
	word(e, (uint32_t)a);
	word(e, (uint32_t)(a >> 32));
}

static void ext32(struct ev *e, unsigned type, uint32_t a)
{
	word(e, ct_ext_word(type, 1, 0));
	word(e, a);
}

static void nested(struct ev *e, unsigned type, uint64_t clock, uint64_t addr)
{
	word(e, ct_ext_word(type, 4, 0));
	word(e, (uint32_t)clock);
	word(e, (uint32_t)(clock >> 32));
	word(e, (uint32_t)addr);
	word(e, (uint32_t)(addr >> 32));
}

static char dir[256];

static void write_file(const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f) {
		perror(path);
		exit(1);
	}
	fwrite(data, 1, len, f);
	fclose(f);
	free(path);
}

#define START 1000

/* write <pid>-0-<tid>.ev with the words of e, cut to `bytes` if not -1 */
static void write_ev(int pid, int tid, struct ev *e, long bytes)
{
	struct ct_ev_file_header h = {.version = CT_FORMAT_VERSION,
				      .pid = (uint32_t)pid,
				      .tid = (uint32_t)tid,
				      .gen = 0,
				      .start_tsc = START};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	size_t len = sizeof(h) + e->n * 4;
	unsigned char *buf = xmalloc(len);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), e->w, e->n * 4);
	if (bytes >= 0 && (size_t)bytes < len)
		len = (size_t)bytes;
	char name[64];
	snprintf(name, sizeof(name), "%d-0-%d.ev", pid, tid);
	write_file(name, buf, len);
	free(buf);
	free(e->w);
	memset(e, 0, sizeof(*e));
}

/* ---- reading ---------------------------------------------------------------- */

struct evlist {
	struct ct_event *v;
	size_t n;
	uint64_t lost, unmatched, unknown;
	int rc;
	char err[sizeof(((struct ct_error *)0)->msg)];
};

static struct ct_thread *find_thread(struct ct_session *s, int tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i]->tid == tid)
			return s->threads[i];
	return NULL;
}

static struct evlist decode(struct ct_session *s, int tid)
{
	struct evlist l = {0};
	struct ct_thread *t = find_thread(s, tid);
	if (!t) {
		l.rc = -2;
		return l;
	}
	struct ct_stream *st;
	struct ct_error err;
	if (ct_stream_open(s, t, &st, &err) < 0) {
		l.rc = -1;
		snprintf(l.err, sizeof(l.err), "%s", err.msg);
		return l;
	}
	size_t cap = 0;
	struct ct_event ev;
	int r;
	while ((r = ct_stream_next(st, &ev, &err)) > 0) {
		if (l.n == cap) {
			cap = cap ? cap * 2 : 64;
			l.v = xrealloc(l.v, cap * sizeof(*l.v));
		}
		l.v[l.n++] = ev;
	}
	l.rc = r;
	if (r < 0)
		snprintf(l.err, sizeof(l.err), "%s", err.msg);
	l.lost = ct_stream_lost(st);
	l.unmatched = ct_stream_unmatched(st);
	l.unknown = ct_stream_unknown(st);
	ct_stream_close(st);
	return l;
}

static int ev_is(const struct evlist *l, size_t i, enum ct_event_kind k, uint64_t addr,
		 uint64_t time, uint32_t depth, unsigned flags)
{
	if (i >= l->n) {
		printf("  event %zu missing (have %zu)\n", i, l->n);
		return 0;
	}
	const struct ct_event *e = &l->v[i];
	if (e->kind == k && e->addr == addr && e->time == time && e->depth == depth &&
	    e->flags == flags)
		return 1;
	printf("  event %zu: %s addr %#" PRIx64 " time %" PRIu64
	       " depth %u flags %u; want %s %#" PRIx64 " %" PRIu64 " %u %u\n",
	       i, e->kind == CT_ENTER ? "enter" : "exit", e->addr, e->time, e->depth, e->flags,
	       k == CT_ENTER ? "enter" : "exit", addr, time, depth, flags);
	return 0;
}

#define EV(l, i, k, a, t, d, f) CHECK(ev_is(&(l), i, k, a, t, d, f), "event %d", i)

enum { A = 0x401000, B = 0x401100, C = 0x401200, S = 0x402000, T = 0x402100 };

static void make_data(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ct-test-session-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	const char *info =
		"calltrace-data: 1\ncommand: ./prog a\\x20b\nstart_time: 2024-01-01T00:00:00Z\n"
		"clock: mono\nclock_hz: 1000000000\nstart_clock: 1000\nend_clock: 99999\n"
		"exit_status: exit 0\nprocesses: 2\nthreads: 3\nevents: 42\nlost: 7\n"
		"complete: 1\n";
	write_file("info", info, strlen(info));
	const char *proc =
		"calltrace-proc 1\npid 10\nppid 1\ngen 0\nexe /bin/prog\narg ./prog\n"
		"arg a\\x20b\nclock 1000 5 6\n"
		"module 1000 0 400000 500000 - /nonexistent/prog\n"
		"module 1000 7f0000000000 7f0000001000 7f0000002000 deadbeef /nonexistent/libx.so\n"
		"module 1000 10000000 10000000 10001000 cafe00 /nonexistent/liby.so\n"
		"unmodule 2000 10000000 /nonexistent/liby.so\n"
		"module 3000 10000000 10000000 10001000 cafe01 /nonexistent/libz.so\n"
		"sample 250000 62 perf\n"
		"arg cut-short-line";
	write_file("10-0.proc", proc, strlen(proc));
	const char *proc2 = "calltrace-proc 1\npid 9\nppid 1\ngen 0\nexe /bin/other\n";
	write_file("9-0.proc", proc2, strlen(proc2));

	struct ev e = {0};
	/* tid 1: plain */
	enter(&e, 10, A);
	enter(&e, 5, B);
	leave(&e, 3);
	leave(&e, 2);
	write_ev(10, 1, &e, -1);
	/* tid 2: TIME */
	enter(&e, 1, A);
	ext64(&e, CT_EXT_TIME, START + 5000000);
	leave(&e, 7);
	write_ev(10, 2, &e, -1);
	/* tid 3: HI */
	ext32(&e, CT_EXT_HI, 0x12);
	enter(&e, 1, 0x123456789aULL);
	ext32(&e, CT_EXT_HI, 0x13);
	enter(&e, 1, 0x42);
	leave(&e, 1);
	leave(&e, 1);
	write_ev(10, 3, &e, -1);
	/* tid 4: UNWIND */
	enter(&e, 10, A);
	enter(&e, 1, B);
	enter(&e, 1, C);
	ext32(&e, CT_EXT_UNWIND, 2);
	/* UNWIND_TO: down to 1 open (whatever the count said), then to 5
	 * open, with 1 open: nothing */
	enter(&e, 1, B);
	enter(&e, 1, C);
	ext64(&e, CT_EXT_UNWIND_TO, 1 | (uint64_t)7 << 32);
	ext64(&e, CT_EXT_UNWIND_TO, 5);
	leave(&e, 4);
	write_ev(10, 4, &e, -1);
	/* tid 5: NENTER/NEXIT */
	enter(&e, 10, A);
	nested(&e, CT_EXT_NENTER, START + 12, S);
	nested(&e, CT_EXT_NENTER, START + 13, T);
	nested(&e, CT_EXT_NEXIT, START + 20, S);
	nested(&e, CT_EXT_NEXIT, START + 21, 0xbad); /* nothing matches */
	leave(&e, 15);
	write_ev(10, 5, &e, -1);
	/* tid 6: LOST, PAD, a call, LOST, then an unknown EXT (corrupt) */
	ext64(&e, CT_EXT_LOST, 7);
	word(&e, 0);
	enter(&e, 1, A);
	ext64(&e, CT_EXT_LOST, 3);
	leave(&e, 1);
	word(&e, ct_ext_word(40, 3, 9));
	word(&e, 0xffffffff);
	word(&e, 0xffffffff);
	word(&e, 0xffffffff);
	write_ev(10, 6, &e, -1);
	/* tid 7: truncated inside an ENTER */
	enter(&e, 10, A);
	enter(&e, 5, B);
	enter(&e, 5, C);
	write_ev(10, 7, &e, 32 + 16 + 4);
	/* tid 8: EXT whose length runs past the end */
	enter(&e, 10, A);
	word(&e, ct_ext_word(CT_EXT_TIME, 200, 0));
	word(&e, 1);
	write_ev(10, 8, &e, -1);
	/* tid 16: record --sample's SAMPLE records (n samples at depth d) */
	enter(&e, 10, A);
	word(&e, ct_ext_word(CT_EXT_SAMPLE, 1, 2)); /* A */
	word(&e, 1);
	enter(&e, 1, B);
	word(&e, ct_ext_word(CT_EXT_SAMPLE, 1, 3)); /* B */
	word(&e, 2);
	word(&e, ct_ext_word(CT_EXT_SAMPLE, 1, 1)); /* deeper than open: B */
	word(&e, 5);
	word(&e, ct_ext_word(CT_EXT_SAMPLE, 1, 4)); /* outside any call */
	word(&e, 0);
	leave(&e, 3);                               /* B: 4 */
	word(&e, ct_ext_word(CT_EXT_SAMPLE, 1, 1)); /* B's depth, B gone: A */
	word(&e, 2);
	leave(&e, 2); /* A: 2 + 4 + 1 */
	write_ev(10, 16, &e, -1);
	/* tid 17: a SAMPLE without its depth */
	enter(&e, 10, A);
	word(&e, ct_ext_word(CT_EXT_SAMPLE, 0, 1));
	leave(&e, 2);
	write_ev(10, 17, &e, -1);
	/* tid 9: bad magic */
	write_file("10-0-9.ev", "NOTCALLTRACE-AT-ALL-BUT-LONG-ENOUGH-TO-HAVE-A-HEADER", 52);
	/* tid 11: short header */
	write_file("10-0-11.ev", "CTEV", 4);
	write_file("10-0-14.ev", "", 0);
	write_file("10-0-15.ev", "ELF", 3);
	/* tid 12: 100000-deep recursion */
	for (int i = 0; i < 100000; i++)
		enter(&e, 1, A + (uint64_t)(i % 7));
	for (int i = 0; i < 100000; i++)
		leave(&e, 1);
	write_ev(10, 12, &e, -1);
	/* pid 9 (sorts first), tid 20 and 21: merge */
	enter(&e, 10, A); /* 10 */
	leave(&e, 20);    /* 30 */
	enter(&e, 5, B);  /* 35 */
	leave(&e, 5);     /* 40 */
	write_ev(9, 21, &e, -1);
	enter(&e, 10, C); /* 10: tie with tid 21, but 20 has the lower index */
	leave(&e, 22);    /* 32 */
	write_ev(9, 20, &e, -1);
	/* tid 13: bad version */
	struct ct_ev_file_header h = {.version = 99};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	write_file("10-0-13.ev", &h, sizeof(h));
	/* not streams: ignored */
	write_file("README", "x", 1);
	write_file("10-0-x.ev", "x", 1);
}

static void test_open(struct ct_session *s)
{
	CHECK(s->command && !strcmp(s->command, "./prog 'a b'"), "command %s", s->command);
	CHECK(s->clock_hz == 1e9, "clock_hz %g", s->clock_hz);
	CHECK(s->start_clock == 1000 && s->end_clock == 99999, "clocks");
	CHECK(s->complete, "complete");
	CHECK(s->lost == 7 && s->events == 42, "lost %" PRIu64 " events %" PRIu64, s->lost,
	      s->events);
	CHECK(s->exit_status && !strcmp(s->exit_status, "exit 0"), "exit_status");
	CHECK(s->nprocs == 2, "nprocs %zu", s->nprocs);
	CHECK(s->nprocs == 2 && s->procs[0]->pid == 9 && s->procs[1]->pid == 10, "procs sorted");
	struct ct_proc *p = s->procs[1];
	CHECK(p->ppid == 1 && !strcmp(p->exe, "/bin/prog"), "proc fields");
	CHECK(p->argc == 2 && !strcmp(p->argv[1], "a b") && p->argv[2] == NULL, "argv (argc %d)",
	      p->argc);
	CHECK(p->start_clock == 1000, "proc clock");
	CHECK(p->nmodules == 4, "nmodules %zu", p->nmodules);
	if (p->nmodules == 4) {
		CHECK(p->modules[0].buildid == NULL && p->modules[0].lo == 0x400000 &&
			      p->modules[0].hi == 0x500000,
		      "module 0");
		CHECK(!strcmp(p->modules[1].buildid, "deadbeef") &&
			      p->modules[1].base == 0x7f0000000000ULL,
		      "module 1");
		CHECK(p->modules[2].unload_clock == 2000 &&
			      p->modules[3].unload_clock == UINT64_MAX,
		      "unmodule");
	}
	CHECK(s->nthreads == 18, "nthreads %zu", s->nthreads);
	CHECK(p->sample_ns == 250000 && p->sample_sig == 62, "sample line: %" PRIu64 " %d",
	      p->sample_ns, p->sample_sig);
	CHECK(s->procs[0]->sample_ns == 0, "no sample line");
	int sorted = 1;
	for (size_t i = 0; i < s->nthreads; i++) {
		if (s->threads[i]->index != (int)i)
			sorted = 0;
		if (i && s->threads[i - 1]->proc->pid == s->threads[i]->proc->pid &&
		    s->threads[i - 1]->tid >= s->threads[i]->tid)
			sorted = 0;
	}
	CHECK(sorted && s->threads[0]->proc->pid == 9 && s->threads[0]->tid == 20,
	      "threads sorted");
	CHECK(ct_session_ns(s, 1000) == 0 && ct_session_ns(s, 500) == 0 &&
		      ct_session_ns(s, 1000 + 123456789) == 123456789,
	      "ns");
}

static void test_streams(struct ct_session *s)
{
	struct evlist l;

	l = decode(s, 1);
	CHECK(l.rc == 0 && l.n == 4, "plain: rc %d n %zu %s", l.rc, l.n, l.err);
	EV(l, 0, CT_ENTER, A, 10, 0, 0);
	EV(l, 1, CT_ENTER, B, 15, 1, 0);
	EV(l, 2, CT_EXIT, B, 18, 1, 0);
	EV(l, 3, CT_EXIT, A, 20, 0, 0);
	CHECK(l.n == 4 && l.v[3].start == 10 && l.v[2].start == 15, "start");
	CHECK(l.n == 4 && l.v[0].thread == find_thread(s, 1), "thread");
	free(l.v);

	l = decode(s, 2);
	CHECK(l.rc == 0 && l.n == 2, "time: n %zu", l.n);
	EV(l, 0, CT_ENTER, A, 1, 0, 0);
	EV(l, 1, CT_EXIT, A, 5000007, 0, 0);
	free(l.v);

	l = decode(s, 3);
	CHECK(l.n == 4, "hi: n %zu", l.n);
	EV(l, 0, CT_ENTER, 0x12ULL << 40 | 0x123456789aULL, 1, 0, 0);
	EV(l, 1, CT_ENTER, 0x13ULL << 40 | 0x42, 2, 1, 0);
	EV(l, 2, CT_EXIT, 0x13ULL << 40 | 0x42, 3, 1, 0);
	free(l.v);

	l = decode(s, 4);
	CHECK(l.n == 10 && l.rc == 0, "unwind: n %zu rc %d %s", l.n, l.rc, l.err);
	/* a synthetic exit takes the time of the next timed record */
	EV(l, 3, CT_EXIT, C, 13, 2, CT_EVF_SYNTHETIC);
	EV(l, 4, CT_EXIT, B, 13, 1, CT_EVF_SYNTHETIC);
	EV(l, 5, CT_ENTER, B, 13, 1, 0);
	EV(l, 6, CT_ENTER, C, 14, 2, 0);
	EV(l, 7, CT_EXIT, C, 14, 2, CT_EVF_SYNTHETIC);
	EV(l, 8, CT_EXIT, B, 14, 1, CT_EVF_SYNTHETIC);
	EV(l, 9, CT_EXIT, A, 18, 0, 0);
	free(l.v);

	l = decode(s, 5);
	CHECK(l.n == 6 && l.unmatched == 1, "nested: n %zu unmatched %" PRIu64, l.n, l.unmatched);
	EV(l, 0, CT_ENTER, A, 10, 0, 0);
	EV(l, 1, CT_ENTER, S, 12, 1, CT_EVF_SIGNAL);
	EV(l, 2, CT_ENTER, T, 13, 2, CT_EVF_SIGNAL);
	EV(l, 3, CT_EXIT, T, 20, 2, CT_EVF_SYNTHETIC);
	EV(l, 4, CT_EXIT, S, 20, 1, CT_EVF_SIGNAL);
	EV(l, 5, CT_EXIT, A, 25, 0, 0);
	free(l.v);

	l = decode(s, 6);
	CHECK(l.n == 2 && l.lost == 10 && l.rc == -1 && strstr(l.err, "10-0-6.ev: offset 72: ") &&
		      strstr(l.err, "unknown record type"),
	      "lost/corrupt: n %zu lost %" PRIu64 " rc %d err '%s'", l.n, l.lost, l.rc, l.err);
	EV(l, 0, CT_ENTER, A, 1, 0, 0);
	EV(l, 1, CT_EXIT, A, 2, 0, 0);
	free(l.v);

	/* calls still open at the end of a stream last to the last event of
	 * their process (stream.c's proc_end): process 10's, thread 2's exit
	 * of A after its TIME record, at 5000007 */
	l = decode(s, 7);
	CHECK(l.rc == 0 && l.n == 4, "truncated: rc %d n %zu", l.rc, l.n);
	EV(l, 1, CT_ENTER, B, 15, 1, 0);
	EV(l, 2, CT_EXIT, B, 5000007, 1, CT_EVF_UNFINISHED);
	EV(l, 3, CT_EXIT, A, 5000007, 0, CT_EVF_UNFINISHED);
	free(l.v);

	l = decode(s, 8);
	CHECK(l.rc == 0 && l.n == 2, "ext past end: rc %d n %zu", l.rc, l.n);
	EV(l, 1, CT_EXIT, A, 5000007, 0, CT_EVF_UNFINISHED);
	free(l.v);

	l = decode(s, 9);
	CHECK(l.rc == -1 && strstr(l.err, "10-0-9.ev: not a calltrace event stream (bad magic)"),
	      "bad magic: %s", l.err);
	l = decode(s, 11);
	CHECK(l.rc == 0 && l.n == 0, "short header: rc %d n %zu %s", l.rc, l.n, l.err);
	l = decode(s, 14);
	CHECK(l.rc == 0 && l.n == 0, "empty: rc %d n %zu %s", l.rc, l.n, l.err);
	l = decode(s, 15);
	CHECK(l.rc == -1 && strstr(l.err, "bad magic"), "short foreign: %s", l.err);
	l = decode(s, 13);
	CHECK(l.rc == -1 && strstr(l.err, "version"), "version: %s", l.err);

	l = decode(s, 12);
	CHECK(l.rc == 0 && l.n == 200000, "deep: n %zu", l.n);
	if (l.n == 200000) {
		int bad = 0;
		for (int i = 0; i < 100000; i++) {
			const struct ct_event *en = &l.v[i], *ex = &l.v[199999 - i];
			if (en->kind != CT_ENTER || en->depth != (uint32_t)i ||
			    ex->kind != CT_EXIT || ex->depth != (uint32_t)i ||
			    ex->addr != en->addr || ex->start != en->time || ex->flags)
				bad++;
		}
		CHECK(bad == 0, "deep: %d bad pairs", bad);
	}
	free(l.v);
}

/* record --sample: each SAMPLE charged to the call open at its depth (or
 * the innermost one), on that call's exit with its callees'; a bad one is
 * an error naming the file and offset */
static void test_samples(struct ct_session *s)
{
	struct ct_stream *st;
	struct ct_error err;
	struct ct_event ev[8];
	int n = -1;
	uint64_t all = 0, out = 0, over = 0;
	if (ct_stream_open(s, find_thread(s, 16), &st, &err) == 0) {
		n = ct_stream_read(st, ev, 8, &err);
		ct_stream_samples(st, &all, &out, &over);
		ct_stream_close(st);
	}
	CHECK(n == 4, "samples: %d events", n);
	if (n == 4) {
		CHECK(ev[0].samples == 0 && ev[1].samples == 0, "entries carry no samples");
		CHECK(ev[2].kind == CT_EXIT && ev[2].addr == B && ev[2].samples == 4,
		      "B's exit: %" PRIu64 " samples", ev[2].samples);
		CHECK(ev[3].kind == CT_EXIT && ev[3].addr == A && ev[3].samples == 7,
		      "A's exit: %" PRIu64 " samples", ev[3].samples);
	}
	CHECK(all == 11 && out == 4, "samples: all %" PRIu64 " outside %" PRIu64, all, out);
	/* five taken, standing for 2, 3, 1, 4, 1 periods */
	CHECK(over == 6, "samples: %" PRIu64 " periods beyond the first of each taken", over);
	struct evlist l = decode(s, 17);
	CHECK(l.rc == -1 && strstr(l.err, "10-0-17.ev: offset 40: ") &&
		      strstr(l.err, "SAMPLE record too short"),
	      "short SAMPLE: rc %d err '%s'", l.rc, l.err);
	free(l.v);
}

static void test_merge(struct ct_session *s)
{
	bool *want = xcalloc(s->nthreads, sizeof(bool));
	for (size_t i = 0; i < s->nthreads; i++)
		want[i] = s->threads[i]->proc->pid == 9 || s->threads[i]->tid == 1;
	struct ct_merge *m;
	struct ct_error err;
	int rc = ct_merge_open(s, want, &m, &err);
	CHECK(rc == 0, "merge open: %s", err.msg);
	if (rc)
		return;
	struct ct_event ev;
	int n = 0, r;
	char got[256] = "";
	uint64_t last = 0;
	int order = 1;
	while ((r = ct_merge_next(m, &ev, &err)) > 0) {
		char one[32];
		snprintf(one, sizeof(one), "%d%c%" PRIu64 " ", ev.thread->tid,
			 ev.kind == CT_ENTER ? 'e' : 'x', ev.time);
		strncat(got, one, sizeof(got) - strlen(got) - 1);
		if (ev.time < last)
			order = 0;
		last = ev.time;
		n++;
	}
	CHECK(r == 0 && n == 10 && order, "merge: r %d n %d", r, n);
	/* tid 1: enter A 10, enter B 15, exit B 18, exit A 20 */
	const char *want_s = "20e10 21e10 1e10 1e15 1x18 1x20 21x30 20x32 21e35 21x40 ";
	CHECK(!strcmp(got, want_s), "merge order:\n  got  %s\n  want %s", got, want_s);
	ct_merge_close(m);
	free(want);
}

static void test_resolve(struct ct_session *s)
{
	struct ct_proc *p = s->procs[1];
	const struct ct_sym_info *si = ct_session_resolve(s, p, 0x401234);
	CHECK(si && !strcmp(si->name, "prog+0x401234") && !strcmp(si->module, "prog"),
	      "resolve missing file: %s", si ? si->name : "(null)");
	CHECK(ct_session_resolve(s, p, 0x401234) == si, "cached");
	si = ct_session_resolve(s, p, 0x99);
	CHECK(si && !strcmp(si->name, "0x99") && !si->module, "no module: %s", si->name);
	/* saved symbols for libx.so (build-id deadbeef) */
	char *symdir = xasprintf("%s/sym", dir);
	mkdir(symdir, 0777);
	free(symdir);
	const char *sym = "calltrace-sym 1\nbuildid deadbeef\npath /nonexistent/libx.so\n"
			  "1000 20 _ZN3foo3barEi /src/my%20dir/x.cc:42\n"
			  "1100 10 plain_c\n";
	write_file("sym/deadbeef.sym", sym, strlen(sym));
	si = ct_session_resolve(s, p, 0x7f0000001000ULL);
	CHECK(si && !strcmp(si->name, "foo::bar(int)"), "demangled: %s", si->name);
	CHECK(si && si->file && !strcmp(si->file, "/src/my dir/x.cc") && si->line == 42,
	      "file:line %s:%d", si->file ? si->file : "-", si->line);
	si = ct_session_resolve(s, p, 0x7f0000001100ULL);
	CHECK(si && !strcmp(si->name, "plain_c") && !si->file, "plain: %s", si->name);

	/* liby.so and then libz.so held 0x10000000..0x10001000: an address
	 * there is tagged with the one mapped at the event's time (ns since
	 * the start: liby from 0 to 1000, libz from 2000), others are not */
	CHECK(ct_proc_overlaps(p), "overlapping modules seen");
	uint64_t ty = ct_proc_tag(s, p, 0x10000040, 500), tz = ct_proc_tag(s, p, 0x10000040, 2500);
	CHECK(ct_addr_untag(ty) == 0x10000040 && ct_addr_module(ty) == 2 &&
		      !strcmp(p->modules[2].path, "/nonexistent/liby.so"),
	      "liby's time: module %ld", ct_addr_module(ty));
	CHECK(ct_addr_untag(tz) == 0x10000040 && ct_addr_module(tz) == 3, "libz's time: module %ld",
	      ct_addr_module(tz));
	CHECK(ct_proc_tag(s, p, 0x401000, 500) == 0x401000, "one module only: no tag");
	si = ct_session_resolve(s, p, ty);
	CHECK(si && si->module && !strcmp(si->module, "liby.so"), "tagged resolves to liby: %s",
	      si && si->module ? si->module : "-");
	si = ct_session_resolve(s, p, tz);
	CHECK(si && si->module && !strcmp(si->module, "libz.so"), "tagged resolves to libz: %s",
	      si && si->module ? si->module : "-");
	si = ct_session_resolve(s, p, 0x7f0000001008ULL);
	CHECK(si && !strcmp(si->name, "foo::bar(int)+0x8"), "inside: %s", si->name);
	/* the later of two modules at the same address */
	si = ct_session_resolve(s, p, 0x10000010);
	CHECK(si && !strcmp(si->module, "libz.so"), "latest module: %s", si->module);
}

static void test_errors(void)
{
	struct ct_session *s;
	struct ct_error err;
	CHECK(ct_session_open(&s, "/nonexistent/calltrace.data", &err) < 0 &&
		      strstr(err.msg, "/nonexistent/calltrace.data"),
	      "missing dir: %s", err.msg);
	char *empty = xasprintf("%s/empty", dir);
	mkdir(empty, 0777);
	CHECK(ct_session_open(&s, empty, &err) < 0 && strstr(err.msg, empty) &&
		      strstr(err.msg, "no info"),
	      "no info: %s", err.msg);
	char *info = xasprintf("%s/info", empty);
	FILE *f = fopen(info, "w");
	fputs("hello: world\n", f);
	fclose(f);
	CHECK(ct_session_open(&s, empty, &err) < 0 && strstr(err.msg, "not a calltrace"),
	      "foreign info: %s", err.msg);
	f = fopen(info, "w");
	fputs("calltrace-data: 1\nclock: tsc\nclock_hz: 3000000000\nstart_clock: 0\n", f);
	fclose(f);
	CHECK(ct_session_open(&s, empty, &err) == 0, "incomplete opens: %s", err.msg);
	if (s) {
		CHECK(!s->complete && s->nthreads == 0, "incomplete");
		uint64_t big = 3000000000ULL * 3600 * 24 * 365; /* a year of ticks */
		uint64_t ns = ct_session_ns(s, big);
		CHECK(ns == 1000000000ULL * 3600 * 24 * 365, "ns of a year: %" PRIu64, ns);
		CHECK(ct_session_ns(s, 3) == 1, "3 ticks -> %" PRIu64, ct_session_ns(s, 3));
		ct_session_close(s);
	}
	unlink(info);
	rmdir(empty);
	free(info);
	free(empty);
}

/* random and corrupted streams: no crash, and the events stay well formed */
/* ticks -> ns at a rate: the fixed point 1e9 * 2^64 / hz rounded down,
 * computed here in integers (hz = num / den), the same in every build.
 * setup_clock computed it in long double, whose 64-bit x87 mantissa on
 * x86-64 gave one more for 1995381000 and 1000000007 Hz, 22 more at
 * 24 MHz (an aarch64 counter's rate) than aarch64's 113 bits: far
 * enough out, the builds converted the same ticks to other ns */
static void test_rates(void)
{
	static const struct {
		const char *text;
		uint64_t num, den; /* the rate, num / den Hz */
		uint64_t d;        /* ticks after start_clock */
	} rates[] = {
		{"1995381000", 1995381000, 1, 1ULL << 63},
		{"1000000007", 1000000007, 1, (1ULL << 63) + 1},
		{"2600000000.5", 5200000001, 2, 1ULL << 63},
		{"24000000", 24000000, 1, (1ULL << 58) + 5},
		{"19200000", 19200000, 1, (1ULL << 57) + 3},
		{"2596151071.25", 10384604285, 4, 3000000000ULL * 3600},
	};
	char *rd = xasprintf("%s/rates", dir);
	char *info = xasprintf("%s/info", rd);
	mkdir(rd, 0777);
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		FILE *f = fopen(info, "w");
		fprintf(f, "calltrace-data: 1\nclock: tsc\nclock_hz: %s\nstart_clock: 1000\n",
			rates[i].text);
		fclose(f);
		struct ct_session *s;
		struct ct_error err;
		if (ct_session_open(&s, rd, &err) < 0) {
			CHECK(0, "open at %s Hz: %s", rates[i].text, err.msg);
			continue;
		}
		unsigned __int128 q =
			((unsigned __int128)1000000000 * rates[i].den << 64) / rates[i].num;
		uint64_t d = rates[i].d, ns_int = (uint64_t)(q >> 64), ns_frac = (uint64_t)q;
		unsigned __int128 want = (unsigned __int128)d * ns_int +
					 (((unsigned __int128)d * ns_frac + (1ULL << 63)) >> 64);
		uint64_t got = ct_session_ns(s, 1000 + d);
		CHECK(want == got, "%" PRIu64 " ticks at %s Hz: %" PRIu64 " ns, want %" PRIu64, d,
		      rates[i].text, got, (uint64_t)want);
		ct_session_close(s);
	}
	unlink(info);
	rmdir(rd);
	free(info);
	free(rd);
}

static void test_fuzz(void)
{
	unsigned seed = 12345;
	int bad = 0, errors = 0;
	for (int round = 0; round < 300; round++) {
		struct ev e = {0};
		int n = 1 + (int)(rand_r(&seed) % 400);
		for (int i = 0; i < n; i++) {
			uint32_t r = (uint32_t)rand_r(&seed);
			switch (r % 8) {
			case 0:
			case 1:
			case 2:
				enter(&e, r >> 12, (uint64_t)rand_r(&seed) << 8);
				break;
			case 3:
			case 4:
				leave(&e, r >> 8);
				break;
			case 5:
				nested(&e, CT_EXT_NENTER + (r >> 3) % 2, START + (r >> 4),
				       (uint64_t)rand_r(&seed) % 4 << 8);
				break;
			case 6:
				ext32(&e, CT_EXT_HI + (r >> 3) % 2 * (CT_EXT_UNWIND - CT_EXT_HI),
				      (uint32_t)rand_r(&seed) % 5);
				break;
			default:
				word(&e, (uint32_t)rand_r(&seed) * 2654435761u);
				break;
			}
		}
		long cut = rand_r(&seed) % 2 ? -1 : 32 + (long)(rand_r(&seed) % (e.n * 4 + 1));
		write_ev(50, 1, &e, cut);
		struct ct_session *s;
		struct ct_error err;
		if (ct_session_open(&s, dir, &err) < 0) {
			errors++;
			continue;
		}
		struct evlist l = decode(s, 1);
		if (l.rc != 0)
			errors++;
		uint64_t *stack = xmalloc((l.n + 1) * sizeof(uint64_t));
		size_t depth = 0;
		uint64_t last = 0;
		for (size_t i = 0; i < l.n; i++) {
			const struct ct_event *ev = &l.v[i];
			if (ev->time < last)
				bad++;
			last = ev->time;
			if (ev->kind == CT_ENTER) {
				if (ev->depth != depth)
					bad++;
				stack[depth++] = ev->addr;
			} else {
				if (!depth || ev->depth != depth - 1 ||
				    stack[depth - 1] != ev->addr || ev->start > ev->time)
					bad++;
				if (depth)
					depth--;
			}
		}
		if (depth)
			bad++;
		free(stack);
		free(l.v);
		ct_session_close(s);
	}
	CHECK(bad == 0, "fuzz: %d malformed events", bad);
	CHECK(errors == 0, "fuzz: %d errors", errors);
	char *f = xasprintf("%s/50-0-1.ev", dir);
	unlink(f);
	free(f);
}

/* the fed decoder (lib/record/follow.c's): the bytes of a stream given a few at a
 * time (step bytes), decoding after each, give the same events as the
 * file, and the stream ends only once told no more will come */
static void fed(struct ct_session *s, int tid, size_t step)
{
	struct evlist want = decode(s, tid);
	struct ct_thread *t = find_thread(s, tid);
	size_t len;
	struct ct_error err;
	char *data = t ? ct_read_file(t->path, true, 1u << 20, &len, &err) : NULL;
	if (!data || len < sizeof(struct ct_ev_file_header)) {
		CHECK(0, "fed %d: cannot read the stream", tid);
		free(data);
		free(want.v);
		return;
	}
	struct ct_ev_file_header h;
	memcpy(&h, data, sizeof(h));
	struct ct_stream *st = ct_stream_open_feed(s, t, h.start_tsc);
	struct ct_event got[64];
	size_t n = 0;
	bool ended_early = false;
	for (size_t at = sizeof(h); at < len; at += step) {
		size_t k = len - at < step ? len - at : step;
		ct_stream_feed(st, data + at, k);
		int r;
		while ((r = ct_stream_read(st, got + n, 64 - n, &err)) > 0)
			n += (size_t)r;
		ended_early |= ct_stream_ended(st);
	}
	ct_stream_feed_end(st);
	int r;
	while ((r = ct_stream_read(st, got + n, 64 - n, &err)) > 0)
		n += (size_t)r;
	CHECK(!ended_early && ct_stream_ended(st), "fed %d step %zu: ended early %d", tid, step,
	      ended_early);
	CHECK(n == want.n, "fed %d step %zu: %zu events, the file gives %zu", tid, step, n, want.n);
	for (size_t i = 0; i < n && i < want.n; i++)
		CHECK(got[i].kind == want.v[i].kind && got[i].addr == want.v[i].addr &&
			      got[i].time == want.v[i].time && got[i].depth == want.v[i].depth &&
			      got[i].flags == want.v[i].flags,
		      "fed %d step %zu: event %zu differs", tid, step, i);
	ct_stream_close(st);
	free(data);
	free(want.v);
}

static void test_fed(struct ct_session *s)
{
	for (int tid = 1; tid <= 5; tid++) {
		fed(s, tid, 1);
		fed(s, tid, 4);
		fed(s, tid, 7);
	}
}

int main(void)
{
	make_data();
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		printf("FAIL: open %s: %s\n", dir, err.msg);
		printf("0 passed, 1 failed\n");
		return 1;
	}
	test_open(s);
	test_streams(s);
	test_samples(s);
	test_fed(s);
	test_merge(s);
	test_resolve(s);
	ct_session_close(s);
	test_errors();
	test_rates();
	test_fuzz();
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	free(cmd);
	return check_done();
}
