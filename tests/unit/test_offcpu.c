/* SPDX-License-Identifier: MIT */
/* record --sched on the reading side (lib/read/offcpu.c): a hand-made
 * recording whose DIR/sched holds switches out of time order (as record
 * copies them, CPU ring by CPU ring), a switch-in with no switch-out, a
 * loss, and another thread's switches: each exit's offcpu is the
 * switched-out time between its entry and its exit, to the ns. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "check.h"
#include "error.h"
#include "offcpu.h"
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

enum { A = 0x401000, B = 0x401100 };

/* thread 1 of process 10: A from clock 1010 to 1100, B inside it from
 * 1020 to 1050 (1 GHz, start 1000: ns 10..100 and 20..50).  Its .proc's
 * clock line puts clock 1000 at CLOCK_MONOTONIC 5000: mono = ns + 5000 */
static void write_ev(void)
{
	struct ct_ev_file_header h = {.version = CT_FORMAT_VERSION,
				      .pid = 10,
				      .tid = 1,
				      .gen = 0,
				      .start_tsc = 1000};
	memcpy(h.magic, CT_EV_MAGIC, 8);
	uint64_t enter_a = (uint64_t)CT_REC_ENTER | 10u << 2 | (uint64_t)A << 24;
	uint64_t enter_b = (uint64_t)CT_REC_ENTER | 10u << 2 | (uint64_t)B << 24;
	uint32_t w[6] = {(uint32_t)enter_a,      (uint32_t)(enter_a >> 32),
			 (uint32_t)enter_b,      (uint32_t)(enter_b >> 32),
			 CT_REC_EXIT | 30u << 2, CT_REC_EXIT | 50u << 2};
	unsigned char buf[sizeof(h) + sizeof(w)];
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), w, sizeof(w));
	write_file("10-0-1.ev", buf, sizeof(buf));
}

static void write_sched(const struct ct_sched_rec *r, size_t n, size_t cut)
{
	struct ct_sched_header h = {.version = CT_FORMAT_VERSION,
				    .recsize = sizeof(struct ct_sched_rec)};
	memcpy(h.magic, CT_SCHED_MAGIC, 8);
	size_t len = sizeof(h) + n * sizeof(*r);
	unsigned char *buf = xmalloc(len);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), r, n * sizeof(*r));
	write_file(CT_SCHED_FILE, buf, len - cut);
	free(buf);
}

#define OUT(tid, t)                         \
	{                                   \
		10, tid, CT_SCHED_OUT, 0, t \
	}
#define PRE(tid, t)                                            \
	{                                                      \
		10, tid, CT_SCHED_OUT | CT_SCHED_PREEMPT, 0, t \
	}
#define IN(tid, t)                         \
	{                                  \
		10, tid, CT_SCHED_IN, 0, t \
	}

/* the exits of thread 1: B's and A's offcpu, or -1 each */
static void read_exits(int64_t *b, int64_t *a, size_t *nwarn)
{
	*a = *b = -1;
	struct ct_session *s;
	struct ct_error err;
	if (ct_session_open(&s, dir, &err) < 0) {
		printf("open: %s\n", err.msg);
		return;
	}
	*nwarn = ct_session_warnings(s)->n;
	struct ct_stream *st;
	if (s->nthreads == 1 && ct_stream_open(s, s->threads[0], &st, &err) == 0) {
		struct ct_event ev[8];
		int n = ct_stream_read(st, ev, 8, &err);
		for (int i = 0; i < n; i++) {
			if (ev[i].kind == CT_ENTER)
				CHECK(ev[i].offcpu == 0, "an entry's offcpu %" PRIu64,
				      ev[i].offcpu);
			else if (ev[i].addr == B)
				*b = (int64_t)ev[i].offcpu;
			else if (ev[i].addr == A)
				*a = (int64_t)ev[i].offcpu;
		}
		ct_stream_close(st);
	}
	ct_session_close(s);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/ct-test-offcpu-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	const char *info = "calltrace-data: 1\ncommand: ./prog\nclock: mono\nclock_hz: 1000000000\n"
			   "start_clock: 1000\nend_clock: 2000\nexit_status: exit 0\ncomplete: 1\n";
	write_file("info", info, strlen(info));
	const char *proc = "calltrace-proc 1\npid 10\nppid 1\ngen 0\nexe /bin/prog\n"
			   "clock 1000 5000 6\n";
	write_file("10-0.proc", proc, strlen(proc));
	write_ev();

	/* A is 5010..5100, B 5020..5050 (mono).  Thread 1 off CPU:
	 * 5000..5012 (2 in A), 5030..5040 (in B), 5045..5060 (5 in B, 15
	 * in A), 5090..5200 (10 in A); a switch-in at 5070 with none out
	 * before it; thread 2's switches in the middle count for nothing.
	 * CPU 1's ring, then CPU 0's: not in time order */
	struct ct_sched_rec r[] = {
		IN(1, 5012), PRE(1, 5030), IN(1, 5060), OUT(2, 5001), IN(2, 5099), OUT(1, 5000),
		IN(1, 5040), OUT(1, 5045), IN(1, 5070), OUT(1, 5090), IN(1, 5200),
	};
	size_t nr = sizeof(r) / sizeof(r[0]);
	write_sched(r, nr, 0);
	int64_t a, b;
	size_t nw = 0;
	read_exits(&b, &a, &nw);
	CHECK(b == 15, "B's off-CPU %" PRId64 ", want 10 + 5", b);
	CHECK(a == 37, "A's off-CPU %" PRId64 ", want 2 + 10 + 15 + 10", a);
	CHECK(nw == 0, "%zu warnings", nw);

	/* a loss in thread 1 between 5045's switch-out and its switch-in:
	 * that interval is not known, the others are */
	struct ct_sched_rec lost = {10, 1, CT_SCHED_LOST, 7, 5050};
	struct ct_sched_rec r2[sizeof(r) / sizeof(r[0]) + 1];
	memcpy(r2, r, sizeof(r));
	r2[nr] = lost;
	write_sched(r2, nr + 1, 0);
	read_exits(&b, &a, &nw);
	CHECK(b == 10, "with a loss: B's off-CPU %" PRId64 ", want 10", b);
	CHECK(a == 22, "with a loss: A's off-CPU %" PRId64 ", want 2 + 10 + 10", a);
	CHECK(nw == 1, "with a loss: %zu warnings, want 1", nw);

	/* cut inside its last record (IN(1, 5200)): 5090.. gives nothing */
	write_sched(r, nr, 5);
	read_exits(&b, &a, &nw);
	CHECK(b == 15 && a == 27, "cut short: B %" PRId64 " A %" PRId64 ", want 15 27", b, a);
	CHECK(nw == 1, "cut short: %zu warnings, want 1", nw);

	/* not one: no off-CPU times, a warning; the events as they are */
	write_file(CT_SCHED_FILE, "CTSCHED2 and more than a header", 31);
	read_exits(&b, &a, &nw);
	CHECK(b == 0 && a == 0, "bad magic: B %" PRId64 " A %" PRId64, b, a);
	CHECK(nw == 1, "bad magic: %zu warnings, want 1", nw);

	/* the lookup itself: before, inside and after intervals */
	struct ct_offcpu_thr o = {2, (uint64_t[]){10, 30}, (uint64_t[]){20, 35},
				  (uint64_t[]){0, 10}};
	CHECK(ct_offcpu_before(&o, 5) == 0, "before all");
	CHECK(ct_offcpu_before(&o, 10) == 0, "at the first switch-out");
	CHECK(ct_offcpu_before(&o, 15) == 5, "inside the first");
	CHECK(ct_offcpu_before(&o, 25) == 10, "between");
	CHECK(ct_offcpu_before(&o, 33) == 13, "inside the second");
	CHECK(ct_offcpu_before(&o, 1000) == 15, "after all");

	char *cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	free(cmd);
	return check_done();
}
