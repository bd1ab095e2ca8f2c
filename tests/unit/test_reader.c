/* SPDX-License-Identifier: MIT */
/*
 * The public reading API (include/calltrace/reader.h) on hand-made
 * recordings: tables, names, both walks (one event at a time and in
 * batches) against the reader underneath (session.h), corrected times,
 * symbols, and each kind of error with its code and message.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "calltrace/reader.h"
#include "check.h"
#include "session.h"
#include "util.h"

/* ---- writing a recording (as tests/unit/test_session.c does) -------------- */

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

static char dir[256];

static void write_file(const char *d, const char *name, const void *data, size_t len)
{
	char *path = xasprintf("%s/%s", d, name);
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

static void write_ev(const char *d, int pid, int tid, struct ev *e)
{
	struct ct_ev_file_header h = {.version = CT_FORMAT_VERSION,
				      .pid = (uint32_t)pid,
				      .tid = (uint32_t)tid,
				      .start_tsc = START};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	size_t len = sizeof(h) + e->n * 4;
	unsigned char *buf = xmalloc(len);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), e->w, e->n * 4);
	char name[64];
	snprintf(name, sizeof(name), "%d-0-%d.ev", pid, tid);
	write_file(d, name, buf, len);
	free(buf);
	free(e->w);
	memset(e, 0, sizeof(*e));
}

enum { A = 0x401000, B = 0x401100, C = 0x401200 };

static const char info_text[] =
	"calltrace-data: 1\ncommand: ./prog\nstart_time: 2024-01-01T00:00:00Z\n"
	"clock: mono\nclock_hz: 1000000000\nstart_clock: 1000\nend_clock: 2000\n"
	"exit_status: exit 0\nprocesses: 1\nthreads: 2\nevents: 10\ncomplete: 1\n";

static void make_data(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ct-test-reader-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	write_file(dir, "info", info_text, strlen(info_text));
	const char *proc = "calltrace-proc 1\npid 10\nppid 1\ngen 0\nexe /bin/prog\narg ./prog\n"
			   "clock 1000 5 6\noverhead 1 1 2\n"
			   "module 1000 0 400000 500000 beef /nonexistent/prog\n";
	write_file(dir, "10-0.proc", proc, strlen(proc));
	struct ev e = {0};
	/* tid 10: A { B { } C { } } */
	enter(&e, 10, A); /* 10 */
	enter(&e, 5, B);  /* 15 */
	leave(&e, 5);     /* 20 */
	enter(&e, 5, C);  /* 25 */
	leave(&e, 5);     /* 30 */
	leave(&e, 10);    /* 40 */
	write_ev(dir, 10, 10, &e);
	/* tid 11: B { C { } }, in between */
	enter(&e, 12, B); /* 12 */
	enter(&e, 10, C); /* 22 */
	leave(&e, 10);    /* 32 */
	leave(&e, 1);     /* 33 */
	write_ev(dir, 10, 11, &e);
}

/* ---- the checks ------------------------------------------------------------ */

static void test_tables(ct_reader *r)
{
	CHECK(ct_reader_api_version() == CT_READER_API_VERSION, "version %d",
	      ct_reader_api_version());
	const struct ct_reader_info *in = ct_reader_info(r);
	CHECK(in && !strcmp(in->command, "./prog") && in->complete && in->events == 10 &&
		      in->duration_ns == 1000 && !strcmp(in->clock, "mono"),
	      "info");
	CHECK(ct_reader_process_count(r) == 1, "processes %zu", ct_reader_process_count(r));
	const struct ct_reader_process *p = ct_reader_process(r, 0);
	CHECK(p && p->pid == 10 && p->ppid == 1 && !strcmp(p->exe, "/bin/prog") && p->argc == 1 &&
		      !strcmp(p->argv[0], "./prog") && !p->argv[1] && p->nmodules == 1,
	      "process 0");
	CHECK(!ct_reader_process(r, 1), "no process 1");
	const struct ct_reader_module *m = ct_reader_module(r, 0, 0);
	CHECK(m && !strcmp(m->path, "/nonexistent/prog") && !strcmp(m->buildid, "beef") &&
		      m->lo == 0x400000 && m->hi == 0x500000 && m->unload_ns == UINT64_MAX,
	      "module");
	CHECK(!ct_reader_module(r, 0, 1) && !ct_reader_module(r, 1, 0), "no such module");
	CHECK(ct_reader_thread_count(r) == 2, "threads %zu", ct_reader_thread_count(r));
	const struct ct_reader_thread *t = ct_reader_thread(r, 1);
	CHECK(t && t->tid == 11 && t->pid == 10 && t->process == 0 && t->index == 1, "thread 1");
	CHECK(!ct_reader_thread(r, 2), "no thread 2");

	struct ct_reader_sym sym;
	struct ct_reader_error err;
	CHECK(ct_reader_resolve(r, 0, B, &sym, &err) == 0 && !strcmp(sym.module, m->path) &&
		      sym.offset == B && !strcmp(sym.name, "prog+0x401100"),
	      "resolve: %s %s", sym.name, sym.module);
	CHECK(ct_reader_resolve(r, 0, 0x10, &sym, &err) == 0 && !sym.module &&
		      !strcmp(sym.name, "0x10"),
	      "resolve outside: %s", sym.name);
	CHECK(ct_reader_resolve(r, 3, B, &sym, &err) < 0 && err.code == CT_READER_E_ARG,
	      "resolve bad process");
}

/* the events of the reader underneath, merged: what the API must give */
struct refev {
	enum ct_event_kind kind;
	uint64_t time, addr;
	uint32_t depth;
	int thread; /* its index */
};

static size_t reference(const char *d, struct refev *v, size_t max)
{
	struct ct_session *s;
	struct ct_merge *m;
	struct ct_error e;
	struct ct_event ev;
	size_t n = 0;
	if (ct_session_open(&s, d, &e) < 0)
		return 0;
	if (ct_merge_open(s, NULL, &m, &e) == 0) {
		while (n < max && ct_merge_next(m, &ev, &e) > 0)
			v[n++] = (struct refev){ev.kind, ev.time, ev.addr, ev.depth,
						ev.thread->index};
		ct_merge_close(m);
	}
	ct_session_close(s);
	return n;
}

static void test_walks(ct_reader *r)
{
	struct refev ref[32];
	size_t nref = reference(dir, ref, 32);
	CHECK(nref == 10, "reference events %zu", nref);

	struct ct_reader_error err;
	ct_reader_iter *it;
	CHECK(ct_reader_iter_open(r, CT_READER_ALL_THREADS, 0, &it, &err) == 0, "open: %s",
	      err.message);
	struct ct_reader_event ev;
	size_t n = 0;
	int rc;
	while ((rc = ct_reader_next(it, &ev, &err)) > 0) {
		if (n < nref) {
			const struct refev *x = &ref[n];
			CHECK(ev.kind == (x->kind == CT_ENTER ? CT_READER_ENTRY : CT_READER_EXIT) &&
				      ev.time_ns == x->time && ev.depth == x->depth &&
				      ev.addr == x->addr && ev.thread == (uint32_t)x->thread &&
				      ev.ctime_ns == ev.time_ns,
			      "merged event %zu", n);
			CHECK(!strcmp(ev.name, ct_reader_name(r, ev.name_id)) && !ev.args &&
				      !ev.retval,
			      "event %zu's name", n);
		}
		n++;
	}
	CHECK(rc == 0 && n == nref, "merged: rc %d, %zu events", rc, n);
	ct_reader_iter_close(it);
	/* A, B, C and no more names, whatever the order met */
	CHECK(ct_reader_name_count(r) == 3, "names %u", ct_reader_name_count(r));

	/* thread 0 alone in batches of 4: its 6 events, exits named as their entries */
	CHECK(ct_reader_iter_open(r, 0, CT_READER_CORRECTED, &it, &err) == 0, "open 0");
	struct ct_reader_rec recs[4];
	struct ct_reader_rec all[8];
	size_t k = 0;
	while ((rc = ct_reader_read(it, recs, 4, &err)) > 0)
		for (int i = 0; i < rc && k < 8; i++)
			all[k++] = recs[i];
	CHECK(rc == 0 && k == 6, "thread 0: rc %d, %zu events", rc, k);
	static const uint64_t times[] = {10, 15, 20, 25, 30, 40};
	static const uint32_t depths[] = {0, 1, 1, 1, 1, 0};
	static const uint64_t addrs[] = {A, B, B, C, C, A};
	static const uint64_t ctimes[] = {10, 14, 18, 22, 26, 35};
	for (size_t i = 0; i < k && i < 6; i++) {
		CHECK(all[i].time_ns == times[i] && all[i].depth == depths[i] &&
			      all[i].addr == addrs[i] && all[i].thread == 0 &&
			      all[i].kind == (i == 0 || i == 1 || i == 3 ? CT_READER_ENTRY
									 : CT_READER_EXIT) &&
			      all[i].args == CT_READER_NONE && all[i].ret == CT_READER_NONE,
		      "thread 0 event %zu: time %" PRIu64 " depth %u", i, all[i].time_ns,
		      all[i].depth);
		/* corrected by the .proc's "overhead" figures (1 ns inside a
		 * call, 2 ns per call around it: doc/overhead.md) */
		CHECK(all[i].ctime_ns == ctimes[i], "ctime %zu: %" PRIu64 ", want %" PRIu64, i,
		      all[i].ctime_ns, ctimes[i]);
	}
	CHECK(k == 6 && all[0].name == all[5].name && all[1].name == all[2].name &&
		      all[3].name == all[4].name && all[0].name != all[1].name &&
		      all[2].start_ns == 15 && all[5].start_ns == 10,
	      "exits named as their entries");
	CHECK(k && !strcmp(ct_reader_name(r, all[0].name), "prog+0x401000"), "A's name %s",
	      k ? ct_reader_name(r, all[0].name) : "");
	ct_reader_iter_close(it);

	CHECK(ct_reader_iter_open(r, 2, 0, &it, &err) < 0 && err.code == CT_READER_E_ARG &&
		      strstr(err.message, "no thread") && !it,
	      "thread 2: %s", err.message);
	CHECK(ct_reader_iter_open(r, 0, 0x100, &it, &err) < 0 && err.code == CT_READER_E_ARG,
	      "bad flags");
}

static void test_errors(void)
{
	ct_reader *r;
	struct ct_reader_error err;
	CHECK(ct_reader_open("/nonexistent/calltrace.data", 0, &r, &err) < 0 && !r &&
		      err.code == CT_READER_E_OPEN &&
		      strstr(err.message, "/nonexistent/calltrace.data"),
	      "missing: %s", err.message);

	/* a stream that returns from a call never made: an error naming the
	 * file and offset, after the call before it */
	char *bad = xasprintf("%s/bad", dir);
	mkdir(bad, 0700);
	write_file(bad, "info", info_text, strlen(info_text));
	struct ev e = {0};
	enter(&e, 10, A);
	leave(&e, 1);
	leave(&e, 1);
	write_ev(bad, 10, 12, &e);
	CHECK(ct_reader_open(bad, 0, &r, &err) == 0, "bad opens: %s", err.message);
	if (!r)
		return;
	CHECK(ct_reader_warning_count(r) >= 1 && strstr(ct_reader_warning(r, 0), "10-0.proc"),
	      "warning about the missing .proc: %s",
	      ct_reader_warning_count(r) ? ct_reader_warning(r, 0) : "none");
	ct_reader_iter *it;
	CHECK(ct_reader_iter_open(r, 0, 0, &it, &err) == 0, "open bad stream: %s", err.message);
	struct ct_reader_rec recs[16];
	int rc, total = 0;
	while ((rc = ct_reader_read(it, recs, 16, &err)) > 0)
		total += rc;
	CHECK(rc < 0 && total == 2 && err.code == CT_READER_E_DATA &&
		      strstr(err.message, "10-0-12.ev") && strstr(err.message, "offset"),
	      "bad stream: rc %d after %d events: %s", rc, total, err.message);
	ct_reader_iter_close(it);
	ct_reader_close(r);
	CHECK(ct_reader_open(bad, 0x80, &r, &err) < 0 && err.code == CT_READER_E_ARG,
	      "bad open flags");
	char *p = xasprintf("%s/info", bad);
	unlink(p);
	free(p);
	p = xasprintf("%s/10-0-12.ev", bad);
	unlink(p);
	free(p);
	rmdir(bad);
	free(bad);
}

int main(void)
{
	make_data();
	ct_reader *r;
	struct ct_reader_error err;
	CHECK(ct_reader_open(dir, 0, &r, &err) == 0 && err.code == 0, "open: %s", err.message);
	if (r) {
		test_tables(r);
		test_walks(r);
		ct_reader_close(r);
	}
	test_errors();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	return check_done();
}
