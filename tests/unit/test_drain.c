/* SPDX-License-Identifier: MIT */
/* lib/record/drain.c: a ring published in the ring directory is taken, its full
 * buffers copied into its thread's .ev, the rest once its process is gone;
 * what is not a ring is refused; the ring directory goes at the end; a
 * program that rewrites its ring's header after it was taken changes
 * nothing of what is copied, zeroed or handed on */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "check.h"
#include "drain.h"

static char msg[8192];
static struct ct_error err;

/* the drainer's messages since the last look, one a line, in msg (they
 * are taken: d->msgs emptied) */
static const char *said(struct ct_drainer *d)
{
	size_t n = 0;
	msg[0] = 0;
	for (size_t i = 0; i < d->msgs.n && n < sizeof(msg); i++)
		n += (size_t)snprintf(msg + n, sizeof(msg) - n, "%s\n", d->msgs.v[i].text);
	ct_msgs_free(&d->msgs);
	return msg;
}

#define STRIDE 4096u

/* a ring of 3 buffers of thread 4243 of process 4242: buffer 0 handed over
 * (an ENTER and an EXIT), buffer 1 being written (an ENTER) */
static int put_ring(const char *shm, const char *name)
{
	uint64_t off = (sizeof(struct ct_ring_header) + 4095) & ~(uint64_t)4095;
	size_t len = off + 3 * STRIDE;
	char *m = calloc(1, len);
	if (!m)
		return -1;
	struct ct_ring_header *h = (struct ct_ring_header *)m;
	h->magic = CT_RING_MAGIC;
	h->version = CT_FORMAT_VERSION;
	h->pid = 4242;
	h->tid = 4243;
	h->start_tsc = 1234;
	h->nslots = 3;
	h->buf_size = h->buf_stride = STRIDE;
	h->data_offset = off;
	h->lost = 7;
	uint32_t *b0 = (uint32_t *)(m + off), *b1 = (uint32_t *)(m + off + STRIDE);
	b0[0] = CT_REC_ENTER | 4u << 2;
	b0[1] = 0x1000;
	b0[2] = CT_REC_EXIT | 4u << 2;
	h->slot[0] = (struct ct_ring_slot){CT_SLOT_FULL, 0, 12, 0};
	b1[0] = CT_REC_ENTER | 4u << 2;
	b1[1] = 0x1000;
	h->slot[1] = (struct ct_ring_slot){CT_SLOT_WRITING, 0, 0, 1};
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", shm, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int ok = fd >= 0 && write(fd, m, len) == (ssize_t)len;
	if (fd >= 0)
		close(fd);
	free(m);
	return ok ? 0 : -1;
}

/* ct_drain_count's events, by the format's rules one record at a time (the
 * specification ct_drain_count's walk, which takes an ENTER's CALLSITE with
 * it, must agree with) */
static void count_spec(struct ct_drain_stats *st, uint64_t *depth, const uint32_t *w, size_t nw)
{
	uint64_t d = *depth;
	size_t i = 0;
	while (i < nw) {
		uint32_t v = w[i];
		unsigned k = v & 3;
		if (k == CT_REC_ENTER) {
			st->enters++, st->events++, d++;
			i += 2;
			continue;
		}
		if (k != CT_REC_EXT) {
			if (k == CT_REC_EXIT) {
				st->exits++, st->events++;
				d -= d != 0;
			}
			i++;
			continue;
		}
		unsigned type = CT_EXT_TYPE(v), n = CT_EXT_LEN(v);
		if (i + 1 + n > nw)
			break; /* cut short: the rest is not counted */
		if (type == CT_EXT_NENTER)
			st->enters++, st->events++, d++;
		else if (type == CT_EXT_NEXIT)
			st->exits++, st->events++, d -= d != 0;
		else if (type == CT_EXT_INJECT)
			st->injected++;
		else if (type == CT_EXT_UNWIND && n >= 1)
			st->unwound += w[i + 1], d = d > w[i + 1] ? d - w[i + 1] : 0;
		else if (type == CT_EXT_UNWIND_TO && n >= 1 && d > w[i + 1])
			st->unwound += d - w[i + 1], d = w[i + 1];
		i += 1 + n;
	}
	*depth = d;
}

/* random streams of every kind of record, ENTERs mostly with a CALLSITE of
 * either form after them (as record --callsite writes them), counted by
 * ct_drain_count and by count_spec at every length (so that every record,
 * the CALLSITEs too, is also cut short at the end once) */
static void test_count(void)
{
	enum { N = 4096 };
	static uint32_t w[N];
	uint64_t seed = 0x9e3779b97f4a7c15u;
	size_t n = 0;
	while (n + 8 < N) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		unsigned r = (unsigned)(seed >> 33);
		switch (r % 12) {
		case 0:
		case 1:
		case 2: /* an ENTER and its CALLSITE, short or long */
			w[n++] = CT_REC_ENTER | (r & 0xfffu) << 2;
			w[n++] = r;
			if (r & 0x1000)
				w[n++] = ct_ext_word(CT_EXT_CALLSITE, 0, r >> 16);
			else
				w[n++] = ct_ext_word(CT_EXT_CALLSITE, 1, r >> 16), w[n++] = r;
			break;
		case 3: /* an ENTER alone */
			w[n++] = CT_REC_ENTER;
			w[n++] = r;
			break;
		case 4:
		case 5:
		case 6:
			w[n++] = CT_REC_EXIT | (r & 0xfffu) << 2;
			break;
		case 7: /* padding, and a CALLSITE after something else */
			w[n++] = 0;
			if (r & 1)
				w[n++] = ct_ext_word(CT_EXT_CALLSITE, 0, 5);
			break;
		case 8:
			w[n++] = ct_ext_word(r & 1 ? CT_EXT_NENTER : CT_EXT_NEXIT, 2, 0);
			w[n++] = r;
			w[n++] = r;
			break;
		case 9:
			w[n++] = ct_ext_word(r & 1 ? CT_EXT_UNWIND : CT_EXT_UNWIND_TO, 1, 0);
			w[n++] = r % 5;
			break;
		case 10:
			w[n++] = ct_ext_word(CT_EXT_INJECT, CT_INJ_PAYLOAD, 1);
			for (unsigned j = 0; j < CT_INJ_PAYLOAD; j++)
				w[n++] = r;
			break;
		default: /* one the walk only steps over */
			w[n++] = ct_ext_word(CT_EXT_TIME, 2, 0);
			w[n++] = r;
			w[n++] = 0;
			break;
		}
	}
	int bad = 0;
	uint64_t cs_enters = 0;
	for (size_t len = 0; len <= n; len++) {
		struct ct_drain_stats a = {0}, b = {0};
		uint64_t da = 3, db = 3;
		ct_drain_count(&a, &da, w, len * 4);
		count_spec(&b, &db, w, len);
		if (memcmp(&a, &b, sizeof(a)) || da != db) {
			if (bad++ < 5)
				printf("at %zu words: events %llu/%llu enters %llu/%llu exits "
				       "%llu/%llu unwound %llu/%llu injected %llu/%llu depth "
				       "%llu/%llu\n",
				       len, (unsigned long long)a.events,
				       (unsigned long long)b.events, (unsigned long long)a.enters,
				       (unsigned long long)b.enters, (unsigned long long)a.exits,
				       (unsigned long long)b.exits, (unsigned long long)a.unwound,
				       (unsigned long long)b.unwound,
				       (unsigned long long)a.injected,
				       (unsigned long long)b.injected, (unsigned long long)da,
				       (unsigned long long)db);
		}
		if (len == n)
			cs_enters = a.enters;
	}
	CHECK(bad == 0, "ct_drain_count against the format's rules: %d lengths differ", bad);
	CHECK(cs_enters > 400 && n > 4000, "not vacuous: %llu entries in %zu words",
	      (unsigned long long)cs_enters, n);
}

static struct ct_drain_chunk peeked;
static uint32_t peek_word;

static void on_peek(void *ctx, const struct ct_drain_chunk *c)
{
	(void)ctx;
	peeked = *c;
	memcpy(&peek_word, c->buf, 4); /* where it says its buffer is */
}

/* the .ev header of dir/4242-0-4243.ev, and its size */
static int ev_header(const char *dir, struct ct_ev_file_header *h, off_t *size)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/4242-0-4243.ev", dir);
	int fd = open(path, O_RDONLY);
	struct stat st;
	int ok = fd >= 0 && fstat(fd, &st) == 0 && read(fd, h, sizeof(*h)) == sizeof(*h);
	if (fd >= 0)
		close(fd);
	*size = ok ? st.st_size : -1;
	unlink(path);
	return ok ? 0 : -1;
}

/* the ring put_ring makes, taken; then, as a program sharing it could,
 * its header rewritten between the drainer's steps: its identity, then
 * a geometry that points into the header itself, then one far outside the
 * mapping with a fill beyond it.  Each step copies, zeroes, peeks at and
 * snapshots the buffers where the ring was taken with them (a drainer that
 * read the header again copied the header and zeroed part of it, then
 * died of SIGSEGV), and a message says what the program did. */
static void test_rewritten(void)
{
	char dir[] = "/tmp/ct-test-drain-XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	struct ct_drainer d;
	ct_drainer_init(&d, dir);
	CHECK(ct_drainer_make_dir(&d, true, &err) == 0, "the ring directory: %s", err.msg);
	CHECK(put_ring(d.shm, "r1") == 0, "a ring");
	/* the program's own mapping of it */
	char path[PATH_MAX + 8];
	snprintf(path, sizeof(path), "%s/r1", d.shm);
	int fd = open(path, O_RDWR);
	struct stat st;
	char *m = MAP_FAILED;
	if (fd >= 0 && fstat(fd, &st) == 0)
		m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (fd >= 0)
		close(fd);
	CHECK(m != MAP_FAILED, "the program's mapping");
	if (m == MAP_FAILED)
		return;
	struct ct_ring_header *h = (struct ct_ring_header *)m;
	uint64_t off = h->data_offset;
	ct_drainer_scan(&d);
	CHECK(d.nrings == 1, "the ring taken (%zu)", d.nrings);

	/* its identity and a geometry inside the header */
	h->pid = 999;
	h->tid = 998;
	h->start_tsc = 5;
	h->data_offset = 8;
	h->buf_stride = 8;
	h->nslots = CT_RING_MAX_SLOTS;
	struct ct_ring_header before = *h;
	CHECK(ct_drainer_drain(&d), "buffer 0 copied");
	CHECK(d.st.events == 2 && d.st.enters == 1 && d.st.exits == 1,
	      "buffer 0's ENTER and EXIT, not the header's bytes: %llu events",
	      (unsigned long long)d.st.events);
	before.slot[0].state = CT_SLOT_EMPTY;
	CHECK(!memcmp(&before, h, sizeof(before)),
	      "the header untouched but for the slot given back (nothing zeroed there)");
	static const char zero[12];
	CHECK(!memcmp(m + off, zero, 12) && ((uint32_t *)(m + off + STRIDE))[0] != 0,
	      "buffer 0 zeroed where it is, buffer 1 untouched");

	/* a geometry far outside the mapping; buffer 1 handed over with a fill
	 * beyond all; buffer 2 begun (an EXIT) */
	h->data_offset = 1ull << 40;
	h->buf_stride = 1ull << 40;
	h->nslots = 1000;
	((uint32_t *)(m + off + 2 * STRIDE))[0] = CT_REC_EXIT | 4u << 2;
	h->slot[2] = (struct ct_ring_slot){CT_SLOT_WRITING, 0, 0, 2};
	h->slot[1].fill = 1ull << 40;
	__atomic_store_n(&h->slot[1].state, CT_SLOT_FULL, __ATOMIC_RELEASE);
	CHECK(ct_drainer_drain(&d), "buffer 1 copied");
	CHECK(d.st.events == 3 && d.st.enters == 2, "buffer 1's ENTER: %llu events",
	      (unsigned long long)d.st.events);
	CHECK(((uint32_t *)(m + off + STRIDE))[0] == 0 && h->slot[1].state == CT_SLOT_EMPTY,
	      "buffer 1 zeroed and given back");

	/* the live view's peek at the buffer being written */
	struct ct_drain_observer obs = {on_peek, NULL};
	d.obs = &obs;
	ct_drainer_peek(&d);
	d.obs = NULL;
	CHECK(peeked.len == STRIDE && peek_word == (CT_REC_EXIT | 4u << 2) && peeked.pid == 4242 &&
		      peeked.tid == 4243 && peeked.start_tsc == 1234,
	      "peek: buffer 2 (%llu bytes, first word %#x), of thread %d, clock base %llu",
	      (unsigned long long)peeked.len, peek_word, peeked.tid,
	      (unsigned long long)peeked.start_tsc);

	/* a flight recorder's snapshot of what it holds: buffer 2 */
	char snap[sizeof(dir) + 8];
	snprintf(snap, sizeof(snap), "%s/snap", dir);
	mkdir(snap, 0700);
	struct ct_drain_stats sst;
	struct ct_flight_win *wins = NULL;
	size_t nwins = 0;
	ct_drainer_snapshot(&d, snap, -1, &sst, &wins, &nwins);
	CHECK(sst.events == 1 && sst.exits == 1 && nwins == 1 && wins[0].pid == 4242,
	      "the snapshot: buffer 2's EXIT (%llu events)", (unsigned long long)sst.events);
	free(wins);
	struct ct_ev_file_header eh;
	off_t size;
	CHECK(ev_header(snap, &eh, &size) == 0 && eh.pid == 4242 && eh.start_tsc == 1234 &&
		      size == (off_t)(sizeof(eh) + 4),
	      "the snapshot's stream: pid %u, %lld bytes", eh.pid, (long long)size);
	rmdir(snap);

	/* the process is gone: the buffer it was writing, by the stride the
	 * ring was taken with */
	said(&d);
	ct_drainer_process_gone(&d, 4242);
	CHECK(ct_drainer_drain(&d), "buffer 2 copied at the end");
	CHECK(d.st.events == 4 && d.st.exits == 2 && d.nrings == 0, "all 4 events: %llu",
	      (unsigned long long)d.st.events);
	CHECK(strstr(said(&d), "the ring of thread 4242-0-4243: its header's layout was changed by "
			       "the program after it was taken; ignored"),
	      "said: %s", msg);
	CHECK(ev_header(dir, &eh, &size) == 0 && eh.pid == 4242 && eh.tid == 4243 &&
		      eh.start_tsc == 1234 && size == (off_t)(sizeof(eh) + 12 + STRIDE + 4),
	      "the stream: its header as taken (pid %u, tid %u, clock base %llu), %lld bytes",
	      eh.pid, eh.tid, (unsigned long long)eh.start_tsc, (long long)size);
	CHECK(!d.write_errors && !d.rings_refused, "no error");
	munmap(m, (size_t)st.st_size);
	ct_drainer_stop(&d);
	ct_drainer_free(&d);
	ct_msgs_free(&d.msgs);
	rmdir(dir);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0); /* a failure is seen before a crash */
	test_count();

	char dir[] = "/tmp/ct-test-drain-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	struct ct_drainer d;
	ct_drainer_init(&d, dir);
	CHECK(ct_drainer_make_dir(&d, true, &err) == 0, "the ring directory: %s", err.msg);
	char shm[PATH_MAX];
	snprintf(shm, sizeof(shm), "%s", d.shm);
	struct stat st;
	CHECK(stat(shm, &st) == 0 && (st.st_mode & 0777) == 0700, "private");
	CHECK(d.db && d.db->magic == CT_DOORBELL_MAGIC && d.db->record_pid == getpid(),
	      "the doorbell");

	CHECK(put_ring(shm, "r1") == 0, "a ring");
	char bad[PATH_MAX + 8];
	snprintf(bad, sizeof(bad), "%s/bad", shm);
	int fd = open(bad, O_WRONLY | O_CREAT | O_EXCL, 0600);
	if (fd >= 0)
		close(fd);
	said(&d);
	ct_drainer_scan(&d);
	CHECK(d.nrings == 1 && d.st.rings == 1, "one ring taken (%zu)", d.nrings);
	CHECK(d.rings_refused == 1 && strstr(said(&d), "/bad: not the size of a ring; ignored"),
	      "the empty file refused: %s", msg);
	snprintf(bad, sizeof(bad), "%s/r1", shm);
	CHECK(access(bad, F_OK) != 0, "the ring unlinked once mapped");

	CHECK(ct_drainer_drain(&d), "a full buffer copied");
	CHECK(d.st.events == 2 && d.st.enters == 1 && d.st.exits == 1, "events %llu",
	      (unsigned long long)d.st.events);
	CHECK(!ct_drainer_drain(&d), "nothing more while the process runs");
	ct_drainer_process_gone(&d, 4242);
	CHECK(ct_drainer_drain(&d), "the buffer being written, once the process is gone");
	CHECK(d.st.events == 3 && d.st.enters == 2 && d.nrings == 0, "events %llu, rings %zu",
	      (unsigned long long)d.st.events, d.nrings);
	CHECK(d.st.lost == 7, "the ring's own count (%llu)", (unsigned long long)d.st.lost);
	CHECK(d.npids == 1 && d.ntids == 1, "1 process, 1 thread");
	CHECK(ct_drain_unfinished(&d.st) == 1, "one call left open (%llu)",
	      (unsigned long long)ct_drain_unfinished(&d.st));
	struct ct_drain_stats broken = {.enters = 1, .exits = 3, .unwound = 1};
	CHECK(ct_drain_unfinished(&broken) == 0, "more exits than entries: 0, not a wrapped count");

	char ev[PATH_MAX];
	snprintf(ev, sizeof(ev), "%s/4242-0-4243.ev", dir);
	uint64_t want = sizeof(struct ct_ev_file_header) + 12 + 8;
	CHECK(stat(ev, &st) == 0 && (uint64_t)st.st_size == want && (st.st_mode & 0777) == 0600,
	      "the stream: %lld bytes", (long long)st.st_size);
	CHECK(d.st.bytes == want, "bytes %llu", (unsigned long long)d.st.bytes);
	CHECK(!d.write_errors && !d.unwritten_bytes, "no write error");

	uint64_t untraced[CT_UNTRACED_MAX];
	d.db->untraced[CT_UNTRACED_TSC] = 5;
	ct_drainer_untraced(&d, untraced);
	CHECK(untraced[CT_UNTRACED_TSC] == 5 && untraced[CT_UNTRACED_RING] == 0, "untraced");
	ct_drainer_stop(&d);
	CHECK(d.db->closed == 1, "closed");
	ct_drainer_free(&d);
	ct_msgs_free(&d.msgs);
	CHECK(access(shm, F_OK) != 0, "the ring directory removed");
	ct_drainer_untraced(&d, untraced);
	CHECK(untraced[CT_UNTRACED_TSC] == 0, "no doorbell, no counts");

	unlink(ev);
	rmdir(dir);

	test_rewritten();
	return check_done();
}
