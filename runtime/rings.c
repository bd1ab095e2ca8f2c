/* SPDX-License-Identifier: MIT */
/*
 * The rings of this process.  Under `calltrace record` that process drains
 * them; this list only lets a forked child let go of its parent's rings
 * (those mapped at the fork: a ring unmapped before leaves it).
 * When the runtime is linked into a program that runs without `record`, a
 * writer thread of our own drains them into the data directory instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calltrace/ring.h"
#include "internal.h"

#define MAX_RINGS 4096

struct ring_ent {
	struct ct_ring_header *r;
	size_t len;
	int fd;               /* unused (-1) */
	struct ct_held_fd ev; /* its .ev file (linked mode), checked before use */
	bool opened;          /* ev was opened (and may have been lost since) */
	uint64_t next;        /* next buffer sequence to drain */
};

static struct ring_ent rings[MAX_RINGS];
static int nrings;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t writer;
static int writer_running;
static volatile int writer_stop;
static uint64_t calib_clock, calib_mono;

void ct_rings_add(struct ct_ring_header *r, size_t len, int fd)
{
	pthread_mutex_lock(&lock);
	if (nrings < MAX_RINGS) {
		rings[nrings].r = r;
		rings[nrings].len = len;
		rings[nrings].fd = fd;
		rings[nrings].ev.fd = -1;
		rings[nrings].opened = false;
		rings[nrings].next = 0;
		nrings++;
	} else {
		ct_log("more than %d live threads: not all are drained", MAX_RINGS);
	}
	pthread_mutex_unlock(&lock);
	if (ct_cfg.linked && !writer_running)
		ct_rings_writer_start();
}

/* a ring of this process unmapped (its thread ended or stopped tracing;
 * record mode): out of the list first, so that a forked child never
 * unmaps its range, which may hold something else by then (a thread stack
 * glibc caches) */
void ct_rings_unmap(struct ct_ring_header *r, size_t len)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nrings; i++) {
		if (rings[i].r == r) {
			rings[i] = rings[--nrings];
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	munmap(r, len);
}

void ct_rings_forget_all(void)
{
	/* fork copied the parent's mappings: unmap them in this child */
	for (int i = 0; i < nrings; i++) {
		if (!ct_cfg.linked)
			munmap(rings[i].r, rings[i].len);
		ct_fd_close(&rings[i].ev);
	}
	nrings = 0;
	writer_running = 0;
	pthread_mutex_init(&lock, NULL);
}

/* ---- linked mode: our own writer ----------------------------------- */

static void write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ct_log("write to the trace failed: %s", strerror(errno));
			return;
		}
		p += w;
		n -= (size_t)w;
	}
}

static void stream_path(char *path, size_t len, const struct ct_ring_header *r)
{
	ct_fmt(path, len, "%s/%u-%u-%u.ev", ct_cfg.dir, r->pid, r->gen, r->tid);
}

/* the stream file: private, never through a link; another ring of the same
 * thread may have begun it (a thread that traced again after its exit) */
static void open_stream(struct ring_ent *e)
{
	char path[4200];
	stream_path(path, sizeof(path), e->r);
	e->opened = true;
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ct_log("cannot create %s: %s", path, strerror(errno));
		return;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0) {
		struct ct_ev_file_header h = ct_ev_header_of(e->r);
		write_all(fd, (const char *)&h, sizeof(h));
	}
	if (!ct_fd_hold(&e->ev, fd))
		ct_log("%s is not a regular file: not written", path);
}

/* copy one buffer to the ring's .ev file, opened on first use, and checked
 * to be still ours before each buffer (fds.c) */
static void copy_buffer(void *ctx, const char *buf, uint64_t len)
{
	struct ring_ent *e = ctx;
	int fd;
	if (!e->opened) {
		open_stream(e);
		fd = e->ev.fd;
	} else {
		char path[4200];
		stream_path(path, sizeof(path), e->r);
		fd = ct_fd_get(&e->ev, path);
	}
	if (fd >= 0)
		write_all(fd, buf, len);
}

/* drain one ring; final: also the buffer still being written */
static int drain(struct ring_ent *e, int final)
{
	return ct_ring_drain(e->r, &e->next, final, copy_buffer, e);
}

static void *writer_main(void *arg)
{
	(void)arg;
	while (!writer_stop) {
		int did = 0;
		pthread_mutex_lock(&lock);
		for (int i = 0; i < nrings;) {
			struct ring_ent *e = &rings[i];
			did |= drain(e, 0);
			if (__atomic_load_n(&e->r->done, __ATOMIC_ACQUIRE) &&
			    ct_ring_find(e->r, e->next, CT_SLOT_FULL) < 0) {
				ct_fd_close(&e->ev);
				munmap(e->r, e->len);
				*e = rings[--nrings];
				continue;
			}
			i++;
		}
		pthread_mutex_unlock(&lock);
		if (!did) {
			struct timespec ts = {0, 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

void ct_rings_writer_start(void)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	writer_stop = 0;
	if (pthread_create(&writer, NULL, writer_main, NULL) == 0)
		writer_running = 1;
	else
		ct_log("cannot start the trace writer thread");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* at exit: stop the writer, drain everything */
void ct_rings_flush_all(void)
{
	if (writer_running) {
		writer_stop = 1;
		pthread_join(writer, NULL);
		writer_running = 0;
	}
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nrings; i++) {
		drain(&rings[i], 1);
		ct_fd_close(&rings[i].ev);
		rings[i].opened = false;
	}
	pthread_mutex_unlock(&lock);
	ct_linked_info(true);
}

/* info's command: the arguments (/proc/self/cmdline as read before main,
 * not what a program that rewrote its title shows there at exit) separated
 * by spaces,
 * each escaped as record's writer does it (lib/datadir.c, doc/format.md):
 * \\, \n, and a space in an argument as \x20, so that an argument can
 * neither add a line to info nor split into two.  (An empty argument
 * leaves two spaces, which the format reads as one: it is lost, as in
 * record's.) */
static void put_command(FILE *f)
{
	size_t n;
	const char *cmd = ct_start_cmdline(&n);
	for (size_t i = 0; i < n; i++) {
		char c = cmd[i];
		if (c == 0) {
			if (i + 1 < n)
				fputc(' ', f);
		} else if (c == '\\') {
			fputs("\\\\", f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == ' ') {
			fputs("\\x20", f);
		} else {
			fputc(c, f);
		}
	}
}

/* DIR/info when no `record` writes it */
void ct_linked_info(bool done)
{
	char path[4200], tmp[4300];
	if (!done) {
		/* measure the clock rate over a few milliseconds now; refined at exit */
		calib_mono = ct_clock_mono();
		calib_clock = ct_clock();
		if (ct_cfg.use_tsc) {
			uint64_t m0 = calib_mono;
			while (ct_clock_mono() - m0 < 5 * 1000 * 1000)
				;
		}
	}
	uint64_t clk = ct_clock(), mono = ct_clock_mono();
	double hz = ct_cfg.use_tsc ? (double)(clk - calib_clock) * 1e9 / (double)(mono - calib_mono)
				   : 1e9;
	snprintf(path, sizeof(path), "%s/info", ct_cfg.dir);
	snprintf(tmp, sizeof(tmp), "%s/.info.%d", ct_cfg.dir, (int)getpid());
	if (!done && access(path, F_OK) == 0)
		return; /* a parent process started this recording */
	int tfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = tfd >= 0 ? fdopen(tfd, "w") : NULL;
	if (!f) {
		if (tfd >= 0)
			close(tfd);
		return;
	}
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	fprintf(f, "calltrace-data: %d\ncommand: ", CT_FORMAT_VERSION);
	put_command(f);
	fputc('\n', f);
	fprintf(f, "start_time: %04d-%02d-%02dT%02d:%02d:%02dZ\n", tm.tm_year + 1900, tm.tm_mon + 1,
		tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	fprintf(f, "clock: %s\nclock_hz: %.1f\nstart_clock: %llu\n",
		ct_cfg.use_tsc ? "tsc" : "mono", hz, (unsigned long long)calib_clock);
	if (done)
		fprintf(f, "end_clock: %llu\ncomplete: 1\n", (unsigned long long)clk);
	fprintf(f, "recorder: linked-in runtime\n");
	fclose(f);
	rename(tmp, path);
}
