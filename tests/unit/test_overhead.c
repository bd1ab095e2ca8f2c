/* SPDX-License-Identifier: MIT */
/* The overhead correction: the "overhead" line of a .proc file, the figures
 * of each front end, and the stream decoder's corrected clock (fast and
 * slow decoding paths): known durations, never going back, calls never
 * shorter than their callees, the recorded clock with --raw. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "check.h"
#include "overhead.h"
#include "session.h"
#include "util.h"

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

struct ev {
	uint32_t w[256];
	size_t n;
};

static void word(struct ev *e, uint32_t w)
{
	e->w[e->n++] = w;
}

static void enter(struct ev *e, uint32_t delta, uint64_t addr)
{
	uint64_t q = (uint64_t)CT_REC_ENTER | (uint64_t)delta << 2 | addr << 24;
	word(e, (uint32_t)q);
	word(e, (uint32_t)(q >> 32));
}

static void leave(struct ev *e, uint32_t delta)
{
	word(e, CT_REC_EXIT | delta << 2);
}

static void nested(struct ev *e, unsigned type, uint64_t clock, uint64_t addr)
{
	word(e, ct_ext_word(type, 4, 0));
	word(e, (uint32_t)clock);
	word(e, (uint32_t)(clock >> 32));
	word(e, (uint32_t)addr);
	word(e, (uint32_t)(addr >> 32));
}

#define START 1000

static void write_ev(int pid, int tid, const struct ev *e)
{
	struct ct_ev_file_header h = {.version = CT_FORMAT_VERSION,
				      .pid = (uint32_t)pid,
				      .tid = (uint32_t)tid,
				      .start_tsc = START};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	unsigned char buf[sizeof(h) + sizeof(e->w)];
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), e->w, e->n * 4);
	char name[64];
	snprintf(name, sizeof(name), "%d-0-%d.ev", pid, tid);
	write_file(name, buf, sizeof(h) + e->n * 4);
}

enum { MAIN = 0x401000, PARENT = 0x401100, LEAF = 0x401200, MID = 0x401300, SIG = 0x401400 };

/*
 * main {            enter at 10
 *   parent {        +10
 *     leaf ×3       each: enter +5, exit +20
 *     mid {         +5
 *       leaf ×2     each: enter +5, exit +20
 *     }             +5
 *     [signal handler SIG, recorded by the nested path]
 *   }               +100
 * }                 +10
 */
static void make_data(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ct-test-overhead-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	const char *info = "calltrace-data: 1\ncommand: ./prog\nclock: mono\n"
			   "clock_hz: 1000000000\nstart_clock: 1000\nend_clock: 99999\n"
			   "complete: 1\n";
	write_file("info", info, strlen(info));
	/* 100 calls: inner 1500 ticks (15 ns per call), outer 4000 (40 ns);
	 * LEAF is a library function the program calls */
	const char *proc = "calltrace-proc 1\npid 10\nppid 1\ngen 0\nexe /bin/prog\n"
			   "clock 1000 5 6\noverhead 100 1500 4000\n"
			   "overhead-hook 100 2500 6000\nlibcall 401200 strlen\n";
	write_file("10-0.proc", proc, strlen(proc));
	/* a process that recorded through both front ends (no events) */
	const char *both = "calltrace-proc 1\npid 12\nppid 1\ngen 0\nexe /bin/prog\n"
			   "overhead 100 1500 7000\noverhead-hook 100 2500 6000\n"
			   "frontend hook\nfrontend cyg\nfrontend bogus\n";
	write_file("12-0.proc", both, strlen(both));
	/* the same with library calls: those get the hooked figures */
	const char *lib = "calltrace-proc 1\npid 13\nppid 1\ngen 0\nexe /bin/prog\n"
			  "overhead 100 1500 7000\noverhead-hook 100 2500 6000\n"
			  "frontend hook\nfrontend cyg\nlibcall 7f0000001000 memcpy\n";
	write_file("13-0.proc", lib, strlen(lib));
	const char *old = "calltrace-proc 1\npid 11\nppid 1\ngen 0\nexe /bin/prog\n";
	write_file("11-0.proc", old, strlen(old));

	struct ev e = {0};
	enter(&e, 10, MAIN);
	enter(&e, 10, PARENT);
	for (int i = 0; i < 3; i++) {
		enter(&e, 5, LEAF);
		leave(&e, 20);
	}
	enter(&e, 5, MID);
	for (int i = 0; i < 2; i++) {
		enter(&e, 5, LEAF);
		leave(&e, 20);
	}
	leave(&e, 5);
	/* base clock is now START + 10+10+3*25+5+2*25+5 = START + 155 */
	nested(&e, CT_EXT_NENTER, START + 160, SIG);
	nested(&e, CT_EXT_NEXIT, START + 170, SIG);
	leave(&e, 100);
	leave(&e, 10);
	write_ev(10, 1, &e);
	e.n = 0;
	enter(&e, 10, MAIN);
	enter(&e, 10, LEAF);
	leave(&e, 50);
	leave(&e, 10);
	write_ev(11, 2, &e);
}

static struct ct_thread *thread_of(struct ct_session *s, int tid)
{
	for (size_t i = 0; i < s->nthreads; i++)
		if (s->threads[i]->tid == tid)
			return s->threads[i];
	return NULL;
}

/* the exits of the thread, in order, read `batch` events at a time; the
 * corrected clock never goes back */
static size_t exits(struct ct_session *s, int tid, size_t batch, struct ct_event *out, size_t max)
{
	struct ct_stream *st;
	struct ct_error err;
	struct ct_event evs[64];
	size_t n = 0;
	if (ct_stream_open(s, thread_of(s, tid), &st, &err) < 0) {
		printf("open: %s\n", err.msg);
		return 0;
	}
	int r;
	uint64_t last = 0;
	while ((r = ct_stream_read(st, evs, batch, &err)) > 0)
		for (int i = 0; i < r; i++) {
			CHECK(evs[i].ctime >= last && evs[i].ctime <= evs[i].time,
			      "batch %zu: corrected time %" PRIu64 " after %" PRIu64
			      " (recorded %" PRIu64 ")",
			      batch, evs[i].ctime, last, evs[i].time);
			last = evs[i].ctime;
			if (evs[i].kind == CT_EXIT && n < max)
				out[n++] = evs[i];
		}
	CHECK(r == 0, "read: %s", err.msg);
	ct_stream_close(st);
	return n;
}

/* the leaves of thread 1 last 20 ns as recorded, less inner (15 ns): 5 ns,
 * whatever the batch; the calls around them are never shorter than their
 * callees together; the same with --raw gives the recorded times */
static void test_clock(struct ct_session *s)
{
	static const uint64_t want_addr[] = {LEAF, LEAF, LEAF, LEAF, LEAF, MID, SIG, PARENT, MAIN};
	size_t batches[] = {64, 1, 3};
	for (size_t b = 0; b < 3; b++) {
		struct ct_event ex[16];
		size_t n = exits(s, 1, batches[b], ex, 16);
		CHECK(n == 9, "batch %zu: %zu exits", batches[b], n);
		for (size_t i = 0; i < n && i < 9; i++) {
			CHECK(ex[i].addr == want_addr[i], "batch %zu, exit %zu: addr %#" PRIx64,
			      batches[b], i, ex[i].addr);
			CHECK(ct_event_dur(&ex[i]) <= ct_event_raw_dur(&ex[i]),
			      "exit %zu: corrected %" PRIu64 " above recorded %" PRIu64, i,
			      ct_event_dur(&ex[i]), ct_event_raw_dur(&ex[i]));
			if (want_addr[i] == LEAF)
				CHECK(ct_event_dur(&ex[i]) == 5,
				      "batch %zu, leaf %zu: %" PRIu64 " ns", batches[b], i,
				      ct_event_dur(&ex[i]));
		}
		/* mid holds leaves 3 and 4; parent all but main */
		CHECK(ct_event_dur(&ex[5]) >= ct_event_dur(&ex[3]) + ct_event_dur(&ex[4]),
		      "mid shorter than its leaves");
		uint64_t kids = ct_event_dur(&ex[0]) + ct_event_dur(&ex[1]) + ct_event_dur(&ex[2]) +
				ct_event_dur(&ex[5]) + ct_event_dur(&ex[6]);
		CHECK(ct_event_dur(&ex[7]) >= kids,
		      "parent %" PRIu64 " below its callees' %" PRIu64, ct_event_dur(&ex[7]), kids);
		CHECK(ct_event_dur(&ex[8]) >= ct_event_dur(&ex[7]), "main below parent");
	}
	s->raw = true;
	struct ct_event ex[16];
	size_t n = exits(s, 1, 64, ex, 16);
	for (size_t i = 0; i < n; i++)
		CHECK(ex[i].ctime == ex[i].time && ex[i].cstart == ex[i].start,
		      "--raw: exit %zu corrected %" PRIu64 ", recorded %" PRIu64, i, ex[i].ctime,
		      ex[i].time);
	s->raw = false;
}

static void test_figures(struct ct_session *s)
{
	struct ct_overhead o;
	struct ct_proc *p10 = thread_of(s, 1)->proc, *p11 = thread_of(s, 2)->proc;
	CHECK(p10->ovh_calls == 100 && p10->ovh_inner == 1500 && p10->ovh_outer == 4000,
	      "parsed %" PRIu64 " %" PRIu64 " %" PRIu64, p10->ovh_calls, p10->ovh_inner,
	      p10->ovh_outer);
	CHECK(ct_overhead_of(s, p10, &o) && o.inner_ps == 15000 && o.outer_ps == 40000,
	      "ps %" PRIu64 " %" PRIu64, o.inner_ps, o.outer_ps);
	/* the hooked front ends' figures, parsed; without "frontend" lines
	 * the -finstrument-functions ones are used (above) */
	CHECK(p10->ovh_hook_calls == 100 && p10->ovh_hook_inner == 2500 &&
		      p10->ovh_hook_outer == 6000 && p10->frontends == 0,
	      "parsed hook %" PRIu64 " %" PRIu64 " %" PRIu64 " fe %u", p10->ovh_hook_calls,
	      p10->ovh_hook_inner, p10->ovh_hook_outer, p10->frontends);
	CHECK(ct_overhead_measured(s, p10, CT_PROC_FE_HOOK, &o) && o.inner_ps == 25000 &&
		      o.outer_ps == 60000,
	      "hook ps %" PRIu64 " %" PRIu64, o.inner_ps, o.outer_ps);
	/* a process that used the hooked front end gets its figures */
	struct ct_proc ph = *p10;
	ph.frontends = CT_PROC_FE_HOOK;
	CHECK(ct_overhead_of(s, &ph, &o) && o.inner_ps == 25000 && o.outer_ps == 60000,
	      "hooked process: %" PRIu64 " %" PRIu64, o.inner_ps, o.outer_ps);
	ph.frontends = CT_PROC_FE_CYG;
	CHECK(ct_overhead_of(s, &ph, &o) && o.inner_ps == 15000 && o.outer_ps == 40000,
	      "cyg process: %" PRIu64 " %" PRIu64, o.inner_ps, o.outer_ps);
	/* with library calls, before the "frontend hook" line that the first
	 * of them writes after its entry (live and top may read that far):
	 * the library calls' figures are the hooked ones all the same */
	CHECK(ph.libcalls && o.lib_inner_ps == 25000 && o.lib_outer_ps == 60000 && o.split,
	      "cyg process with library calls: lib %" PRIu64 " %" PRIu64, o.lib_inner_ps,
	      o.lib_outer_ps);
	ph.libcalls = false;
	CHECK(ct_overhead_of(s, &ph, &o) && o.lib_inner_ps == 15000 && !o.split,
	      "cyg process without library calls: lib %" PRIu64, o.lib_inner_ps);
	ph.libcalls = true;
	/* hooked, but its figures are missing: none rather than the others */
	ph.frontends = CT_PROC_FE_HOOK;
	ph.ovh_hook_calls = 0;
	CHECK(!ct_overhead_of(s, &ph, &o), "hooked process without its figures");
	/* both front ends: the smaller of each figure */
	struct ct_proc *p12 = NULL;
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i]->pid == 12)
			p12 = s->procs[i];
	CHECK(p12 && p12->frontends == (CT_PROC_FE_CYG | CT_PROC_FE_HOOK), "frontend lines");
	if (p12)
		CHECK(ct_overhead_of(s, p12, &o) && o.inner_ps == 15000 && o.outer_ps == 60000 &&
			      o.lib_inner_ps == 15000 && o.lib_outer_ps == 60000 && !o.split,
		      "mixed process: %" PRIu64 " %" PRIu64, o.inner_ps, o.outer_ps);
	/* both, with library calls: the program's calls came through
	 * -finstrument-functions, the library calls through the hooks */
	struct ct_proc *p13 = NULL;
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i]->pid == 13)
			p13 = s->procs[i];
	CHECK(p13 && p13->libcalls && !p12->libcalls, "libcall lines");
	if (p13)
		CHECK(ct_overhead_of(s, p13, &o) && o.inner_ps == 15000 && o.outer_ps == 70000 &&
			      o.lib_inner_ps == 25000 && o.lib_outer_ps == 60000 && o.split,
		      "with library calls: %" PRIu64 " %" PRIu64 " lib %" PRIu64 " %" PRIu64,
		      o.inner_ps, o.outer_ps, o.lib_inner_ps, o.lib_outer_ps);
	/* an older trace: no figures, no correction */
	CHECK(!ct_overhead_of(s, p11, &o) && !o.inner_ps && !o.outer_ps, "old trace");
	/* another clock rate: 2 GHz, 3000 ticks over 100 calls = 15 ns */
	struct ct_session s2 = {.clock_hz = 2e9};
	struct ct_proc p2 = {.ovh_calls = 100, .ovh_inner = 3000, .ovh_outer = 2000};
	CHECK(ct_overhead_of(&s2, &p2, &o) && o.inner_ps == 15000, "2 GHz: %" PRIu64, o.inner_ps);
	/* outer is never below inner */
	CHECK(o.outer_ps == 15000, "outer raised to inner: %" PRIu64, o.outer_ps);
}

int main(void)
{
	make_data();
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		printf("FAIL open: %s\n", err.msg);
		return 1;
	}
	test_clock(s);
	test_figures(s);
	ct_session_close(s);
	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("cannot remove %s\n", dir);
	free(cmd);
	return check_done();
}
