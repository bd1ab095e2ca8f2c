/* SPDX-License-Identifier: MIT */
/* lib/drain.c: a ring published in the ring directory is taken, its full
 * buffers copied into its thread's .ev, the rest once its process is gone;
 * what is not a ring is refused; the ring directory goes at the end */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "check.h"
#include "drain.h"

static char msg[8192];

static void note(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void note(const char *fmt, va_list ap)
{
	vsnprintf(msg, sizeof(msg), fmt, ap);
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

int main(void)
{
	char dir[] = "/tmp/ct-test-drain-XXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	struct ct_drainer d;
	ct_drainer_init(&d, dir, note);
	CHECK(ct_drainer_make_dir(&d, true) == 0, "the ring directory: %s", msg);
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
	msg[0] = 0;
	ct_drainer_scan(&d);
	CHECK(d.nrings == 1 && d.st.rings == 1, "one ring taken (%zu)", d.nrings);
	CHECK(d.rings_refused == 1 && strstr(msg, "/bad: not the size of a ring; ignored"),
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
	CHECK(access(shm, F_OK) != 0, "the ring directory removed");
	ct_drainer_untraced(&d, untraced);
	CHECK(untraced[CT_UNTRACED_TSC] == 0, "no doorbell, no counts");

	unlink(ev);
	rmdir(dir);
	return check_done();
}
