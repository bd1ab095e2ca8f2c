/* SPDX-License-Identifier: MIT */
/*
 * The drainer (drain.h): the rings of the traced threads, copied into the
 * data directory.
 *
 * Each traced thread makes its ring in the private ring directory; the
 * drainer maps it and unlinks it at once, so nothing is left behind if the
 * drainer's process is killed.  It copies each full buffer to the thread's
 * .ev file and hands the buffer back; a ring whose process is gone is
 * copied to its end, including the buffer the thread was writing.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "calltrace/procstat.h"
#include "calltrace/ring.h"
#include "drain.h"
#include "error.h"
#include "flight.h"
#include "util.h"

#define likely(x) __builtin_expect(!!(x), 1)

struct ct_drain_ring {
	/* the header's fields as checked when the ring was taken: the only
	 * ones used (the program can rewrite its header at any time) */
	struct ct_ring_geom geo;
	uint64_t data_offset; /* geo.data's, to see whether it was rewritten */
	uint64_t start_tsc;
	size_t len;
	int pid, gen, tid;
	uint64_t next; /* next buffer sequence to copy */
	int fd;        /* the thread's .ev file */
	bool dead;     /* its process is gone: copy what is left */
	uint64_t bytes;
	uint64_t depth; /* calls open in its stream so far (the summary's
			     * count of unwound calls needs it at UNWIND_TO) */
	bool broken;    /* a write to its .ev failed: the rest is not
			     * written (a stream with a gap would misread) */
	bool taken;     /* --flight: its window is written */
};

/* a message for record to print (d->msgs); 1 */
static int derr(struct ct_drainer *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int derr(struct ct_drainer *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_msg_vadd(&d->msgs, CT_MSG_ERROR, fmt, ap);
	va_end(ap);
	return 1;
}


void ct_drainer_init(struct ct_drainer *d, const char *dir)
{
	memset(d, 0, sizeof(*d));
	d->dir = dir;
	d->dir_fd = -1;
	d->shm_fd = -1;
}

static void note_error(struct ct_drainer *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note_error(struct ct_drainer *d, const char *fmt, ...)
{
	d->write_errors++;
	if (d->first_error[0])
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->first_error, sizeof(d->first_error), fmt, ap);
	va_end(ap);
	derr(d, "%s", d->first_error);
}

/* ---- draining ------------------------------------------------------- */

/* room for one more id of width ints in *arr: false when out of memory */
static bool room_for_id(int **arr, size_t n, size_t *cap, size_t width)
{
	if (n < *cap)
		return true;
	size_t c = *cap ? *cap * 2 : 64;
	int *a = realloc(*arr, c * width * sizeof(int));
	if (!a)
		return false;
	*arr = a;
	*cap = c;
	return true;
}

/* add id (width ints) to *arr unless it is there; room_for_id made room */
static void note_id(int *arr, size_t *n, const int *id, size_t width)
{
	for (size_t i = 0; i < *n; i++)
		if (!memcmp(arr + i * width, id, width * sizeof(int)))
			return;
	memcpy(arr + *n * width, id, width * sizeof(int));
	(*n)++;
}

/* write n bytes to the ring's stream; the bytes written (n unless it failed,
 * and then the stream is broken: nothing more is written to it) */
static size_t write_all(struct ct_drainer *d, struct ct_drain_ring *g, const void *p, size_t n)
{
	const char *c = p;
	size_t done = 0;
	while (!g->broken && done < n) {
		ssize_t w = write(g->fd, c + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			note_error(d,
				   "writing %s/%d-%d-%d.ev failed: %s; the rest of its stream is "
				   "lost",
				   d->dir, g->pid, g->gen, g->tid,
				   w < 0 ? strerror(errno) : "no space");
			g->broken = true;
			break;
		}
		done += (size_t)w;
	}
	return done;
}

/* the low byte of a CT_EXT_CALLSITE's first word (format.h) */
#define CALLSITE_LOW ((uint32_t)CT_REC_EXT | (uint32_t)CT_EXT_CALLSITE << 2)

/* count the events in a buffer (records never straddle buffers): drain.h.
 * The walk goes from one record to the next by the branch it takes on the
 * record's kind (and a CALLSITE's form), not by a length computed from the
 * word it loaded: the branches are foreseen (a program's calls repeat), so
 * that the next load does not wait for this one.  It did: each record cost
 * a load's latency and the arithmetic after it (an in-memory walk of fib's
 * stream, 6.0 -> 2.4 ns per call; of the Lua workload's, 8.9 -> 4.2, and
 * with --callsite 13.3 -> 6.4; doc/performance.md, "Call sites") */
void ct_drain_count(struct ct_drain_stats *st, uint64_t *depth, const void *buf, size_t len)
{
	const uint32_t *w = buf;
	size_t i = 0, nw = len / 4;
	uint64_t enters = 0, exits = 0, d = *depth;
	while (i < nw) {
		uint32_t v = w[i];
		unsigned k = v & 3;
		if (k == CT_REC_ENTER) { /* 2 words */
			enters++;
			d++;
			i += 2;
			/* record --callsite: its CALLSITE, right after it
			 * (one of another length is the walk's below; one
			 * cut short at the end ends the walk either way) */
			if (likely(i < nw) && (w[i] & 0xffu) == CALLSITE_LOW) {
				unsigned n = CT_EXT_LEN(w[i]);
				if (n == 0)
					i += 1;
				else if (n == 1)
					i += 2;
			}
			continue;
		}
		if (k == CT_REC_EXIT) { /* 1 word */
			exits++;
			d -= d != 0;
			i++;
			continue;
		}
		if (k == CT_REC_PAD) {
			i++;
			continue;
		}
		unsigned type = CT_EXT_TYPE(v), n = CT_EXT_LEN(v);
		if (i + 1 + n > nw)
			break;
		if (type == CT_EXT_NENTER) {
			st->enters++;
			st->events++;
			d++;
		} else if (type == CT_EXT_NEXIT) {
			st->exits++;
			st->events++;
			d -= d != 0;
		} else if (type == CT_EXT_INJECT) {
			st->injected++;
		} else if (type == CT_EXT_UNWIND && n >= 1) {
			st->unwound += w[i + 1];
			d = d > w[i + 1] ? d - w[i + 1] : 0;
		} else if (type == CT_EXT_UNWIND_TO && n >= 1) {
			/* the calls above depth w[1], however many the writer
			 * thought there were */
			if (d > w[i + 1]) {
				st->unwound += d - w[i + 1];
				d = w[i + 1];
			}
		}
		i += 1 + n;
	}
	*depth = d;
	st->enters += enters;
	st->exits += exits;
	st->events += enters + exits;
}

/* the thread's .ev file: private, never through a link; continued (appended
 * to) when an earlier ring of the same thread began it */
static int open_stream(struct ct_drainer *d, struct ct_drain_ring *g)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%d-%d-%d.ev", d->dir, g->pid, g->gen, g->tid);
	/* through the directory record opened and checked, when it has it */
	int fd = openat(d->dir_fd >= 0 ? d->dir_fd : AT_FDCWD,
			d->dir_fd >= 0 ? strrchr(path, '/') + 1 : path,
			O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())) {
		close(fd);
		fd = -1;
		errno = EEXIST;
	}
	if (fd < 0) {
		note_error(d, "cannot create %s: %s; its stream is lost", path, strerror(errno));
		g->broken = true;
		return -1;
	}
	g->fd = fd;
	if (st.st_size == 0) {
		struct ct_ev_file_header h = ct_ev_header_make((uint32_t)g->pid, (uint32_t)g->tid,
							       (uint32_t)g->gen, g->start_tsc);
		size_t w = write_all(d, g, &h, sizeof(h));
		d->st.bytes += w;
		d->unwritten_bytes += sizeof(h) - w;
	}
	return fd;
}

static void add_stats(struct ct_drain_stats *to, const struct ct_drain_stats *s)
{
	to->events += s->events;
	to->enters += s->enters;
	to->exits += s->exits;
	to->unwound += s->unwound;
	to->injected += s->injected;
}

/* copy a drained buffer to the stream; what cannot be written is counted
 * (events and bytes), what was written is in the totals */
static void copy_out(struct ct_drainer *d, struct ct_drain_ring *g, const char *buf, uint64_t n)
{
	if (n == 0)
		return;
	if (g->fd < 0 && !g->broken)
		open_stream(d, g);
	struct ct_drain_stats all = {0}, part = {0};
	uint64_t depth = g->depth;
	ct_drain_count(&all, &g->depth, buf, n);
	size_t done = g->broken ? 0 : write_all(d, g, buf, n);
	if (done == n) {
		add_stats(&d->st, &all);
	} else {
		/* the events wholly written stay readable */
		ct_drain_count(&part, &depth, buf, done & ~(size_t)3);
		add_stats(&d->st, &part);
		d->unwritten_events += all.events - part.events;
		d->unwritten_bytes += n - done;
	}
	g->bytes += done;
	d->st.bytes += done;
}

struct copy_ctx {
	struct ct_drainer *d;
	struct ct_drain_ring *g;
};

static void copy_buffer(void *ctx, const char *buf, uint64_t len)
{
	struct copy_ctx *c = ctx;
	copy_out(c->d, c->g, buf, len);
}

/* --flight: write the window the ring holds (once), note it */
static bool flight_copy(struct ct_drainer *d, struct ct_drain_ring *g)
{
	struct ct_flight_buf b[CT_RING_MAX_SLOTS];
	if (g->taken)
		return false;
	g->taken = true;
	size_t n = ct_flight_take(&g->geo, b);
	uint64_t from, to;
	uint32_t open;
	ct_flight_window(b, n, g->start_tsc, &from, &to, &open);
	struct ct_flight_win *w = realloc(d->wins, (d->nwins + 1) * sizeof(*w));
	if (w) {
		d->wins = w;
		d->wins[d->nwins++] = (struct ct_flight_win){g->pid, g->gen, g->tid, from, to};
	}
	g->depth = open;
	d->st.before += open;
	for (size_t i = 0; i < n; i++)
		copy_out(d, g, b[i].data, b[i].len);
	ct_flight_free(b, n);
	return n > 0;
}

/* copy every full buffer; once the owner is gone, also the one it was
 * writing.  Returns whether anything was copied. */
static bool drain_ring(struct ct_drainer *d, struct ct_drain_ring *g)
{
	if (d->flight)
		return g->dead && flight_copy(d, g);
	struct copy_ctx c = {d, g};
	return ct_ring_geom_drain(&g->geo, &g->next, g->dead, copy_buffer, &c);
}

/* a field of a header the program shares with us, read once */
#define ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

/* the ring is finished: account for it and let it go.  A program that
 * rewrote the geometry of its ring's header is told of (the copy taken
 * with the ring was used throughout) */
static void close_ring(struct ct_drainer *d, size_t i)
{
	struct ct_drain_ring *g = d->rings[i];
	struct ct_ring_header *h = g->geo.hdr;
	d->st.lost += ONCE(h->lost);
	d->st.unmatched += ONCE(h->unmatched);
	d->st.waits += ONCE(h->waits);
	d->st.filtered += ONCE(h->filtered);
	if (ONCE(h->data_offset) != g->data_offset || ONCE(h->buf_stride) != g->geo.stride ||
	    ONCE(h->nslots) != g->geo.nslots)
		derr(d,
		     "the ring of thread %d-%d-%d: its header's layout was changed by the program "
		     "after it was taken; ignored (the layout it was taken with was used)",
		     g->pid, g->gen, g->tid);
	if (g->fd >= 0)
		close(g->fd);
	munmap(h, g->len);
	free(g);
	d->rings[i] = d->rings[--d->nrings];
}

static bool grow_rings(struct ct_drainer *d)
{
	size_t cap = d->cap ? d->cap * 2 : 64;
	struct ct_drain_ring **n = realloc(d->rings, cap * sizeof(*n));
	if (!n)
		return false;
	d->rings = n;
	d->cap = cap;
	return true;
}

static void kill_rings_of(struct ct_drainer *d, int pid, int below_gen)
{
	for (size_t i = 0; i < d->nrings; i++)
		if (d->rings[i]->pid == pid && d->rings[i]->gen < below_gen)
			d->rings[i]->dead = true;
}

/* the largest ring the runtime makes: 64 buffers of 1 GiB and their slack */
#define RING_MAX_BYTES ((uint64_t)CT_RING_MAX_SLOTS * ((1ull << 30) + (1ull << 20)) + (1u << 20))

/* the header of a ring of size bytes at h, checked: each field read once,
 * and the geometry and identity kept in g from then on.  NULL, or why not. */
static const char *take_header(struct ct_drain_ring *g, struct ct_ring_header *h, uint64_t size)
{
	uint32_t magic = ONCE(h->magic), version = ONCE(h->version), nslots = ONCE(h->nslots);
	uint64_t buf_size = ONCE(h->buf_size), stride = ONCE(h->buf_stride),
		 off = ONCE(h->data_offset);
	/* buffers of whole words, 8-aligned, as the runtime makes them */
	if (magic != CT_RING_MAGIC || version != CT_FORMAT_VERSION || nslots > CT_RING_MAX_SLOTS ||
	    buf_size > stride || off < sizeof(*h) || off > size || stride > size || off % 8 ||
	    stride % 8 || off + (uint64_t)nslots * stride > size)
		return "not a calltrace ring of this version";
	g->geo = (struct ct_ring_geom){h, (char *)h + off, stride, nslots};
	g->data_offset = off;
	g->pid = (int)ONCE(h->pid);
	g->gen = (int)ONCE(h->gen);
	g->tid = (int)ONCE(h->tid);
	g->start_tsc = ONCE(h->start_tsc);
	g->len = (size_t)size;
	return NULL;
}

/* a ring a traced thread published in our directory: map it and unlink it.
 * Only a regular file of ours of a sane size is taken, never through a
 * link, and only if its header describes what fits in it. */
static void add_ring(struct ct_drainer *d, const char *name)
{
	int fd = openat(d->shm_fd, name, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT) {
			derr(d, "cannot open %s/%s: %s; ignored", d->shm, name, strerror(errno));
			unlinkat(d->shm_fd, name, 0);
			d->rings_refused++;
		}
		return;
	}
	struct stat st;
	void *map = MAP_FAILED;
	const char *why = NULL;
	if (fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_uid != geteuid())
		why = "it belongs to another user";
	else if (st.st_size < (off_t)sizeof(struct ct_ring_header) ||
		 (uint64_t)st.st_size > RING_MAX_BYTES)
		why = "not the size of a ring";
	else if ((map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			     0)) == MAP_FAILED)
		why = strerror(errno);
	close(fd);
	struct ct_drain_ring *g = NULL;
	if (!why && (!(g = calloc(1, sizeof(*g))) || (d->nrings == d->cap && !grow_rings(d)) ||
		     !room_for_id(&d->pids, d->npids, &d->pidcap, 1) ||
		     !room_for_id(&d->tids, d->ntids, &d->tidcap, 3)))
		why = "out of memory";
	if (!why)
		why = take_header(g, map, (uint64_t)st.st_size);
	/* once its header is taken: a ring gone from the directory is one
	 * whose geometry is ours */
	unlinkat(d->shm_fd, name, 0);
	if (why) {
		derr(d, "%s/%s: %s; ignored", d->shm, name, why);
		if (map != MAP_FAILED)
			munmap(map, (size_t)st.st_size);
		free(g);
		d->rings_refused++;
		return;
	}
	g->fd = -1;
	/* an exec replaced the older image of this pid: its rings are final */
	kill_rings_of(d, g->pid, g->gen);
	/* an earlier ring of this very thread: finish it first, then continue
	 * its stream file */
	for (size_t i = 0; i < d->nrings; i++) {
		struct ct_drain_ring *o = d->rings[i];
		if (o->pid == g->pid && o->gen == g->gen && o->tid == g->tid) {
			o->dead = true;
			drain_ring(d, o);
			g->fd = o->fd;
			g->broken = o->broken;
			o->fd = -1;
			close_ring(d, i);
			break;
		}
	}
	d->rings[d->nrings++] = g;
	d->st.rings++;
	int pid = g->pid, ptg[3] = {g->pid, g->gen, g->tid};
	note_id(d->pids, &d->npids, &pid, 1);
	note_id(d->tids, &d->ntids, ptg, 3);
}

void ct_drainer_scan(struct ct_drainer *d)
{
	rewinddir(d->shm_dir);
	struct dirent *e;
	while ((e = readdir(d->shm_dir)))
		if (e->d_name[0] != '.' &&
		    strncmp(e->d_name, CT_COUNT_PREFIX, strlen(CT_COUNT_PREFIX)) != 0 &&
		    strncmp(e->d_name, CT_COUNT_SAMPLE_PREFIX, strlen(CT_COUNT_SAMPLE_PREFIX)) != 0)
			add_ring(d, e->d_name); /* (record --count's tables: countmerge.c) */
}

bool ct_drainer_drain(struct ct_drainer *d)
{
	bool did = false;
	for (size_t i = 0; i < d->nrings;) {
		struct ct_drain_ring *g = d->rings[i];
		did |= drain_ring(d, g);
		bool done = __atomic_load_n(&g->geo.hdr->done, __ATOMIC_ACQUIRE) &&
			    ct_ring_geom_find(&g->geo, g->next, CT_SLOT_FULL) < 0;
		if (g->dead || (done && !d->flight)) {
			close_ring(d, i);
			continue;
		}
		i++;
	}
	return did;
}

/* ---- the ring directory and its doorbell ------------------------------ */

/* this process's start time: field 22 of /proc/self/stat (clock ticks
 * since boot), which with the pid names the process for ever */
static uint64_t self_start_time(void)
{
	struct ct_procstat ps;
	char buf[1024];
	return ct_procstat_read((int)getpid(), &ps, buf, sizeof(buf)) == 0 ? ps.start : 0;
}

int ct_drainer_make_dir(struct ct_drainer *d, bool quiet, struct ct_error *err)
{
	const char *base = "/dev/shm";
	struct stat st;
	if (stat(base, &st) < 0 || !S_ISDIR(st.st_mode)) {
		base = getenv("TMPDIR");
		if (!base || base[0] != '/')
			base = "/tmp";
		if (!quiet)
			derr(d, "/dev/shm is missing: the trace buffers are in %s instead", base);
	}
	if (snprintf(d->shm, sizeof(d->shm), "%s/calltrace-XXXXXX", base) >= (int)sizeof(d->shm))
		return ct_set_err_rc(err, 1, "%s: name too long", base);
	if (!mkdtemp(d->shm)) {
		int e = errno;
		d->shm[0] = 0;
		return ct_set_err_rc(err, 1, "cannot create a directory in %s: %s", base,
				     strerror(e));
	}
	d->shm_fd = open(d->shm, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->shm_fd < 0)
		return ct_set_err_rc(err, 1, "cannot open %s: %s", d->shm, strerror(errno));
	if (fstat(d->shm_fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077))
		return ct_set_err_rc(err, 1, "%s: not a private directory of ours", d->shm);
	int fd = fcntl(d->shm_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0 || !(d->shm_dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return ct_set_err_rc(err, 1, "cannot read %s: %s", d->shm, strerror(errno));
	}

	fd = openat(d->shm_fd, CT_DOORBELL_NAME, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	void *m = MAP_FAILED;
	if (fd >= 0 && ftruncate(fd, CT_DOORBELL_SIZE) == 0)
		m = mmap(NULL, CT_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e = errno;
	if (fd >= 0)
		close(fd);
	if (m == MAP_FAILED)
		return ct_set_err_rc(err, 1, "cannot create %s/%s: %s", d->shm, CT_DOORBELL_NAME,
				     strerror(e));
	struct ct_doorbell *db = m;
	db->magic = CT_DOORBELL_MAGIC;
	db->version = CT_FORMAT_VERSION;
	db->record_pid = (int32_t)getpid();
	db->record_start = self_start_time();
	db->heartbeat = ct_mono_ns();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	d->db = db;
	return 0;
}

void ct_drainer_remove_dir(struct ct_drainer *d)
{
	if (d->db) {
		__atomic_store_n(&d->db->closed, 1, __ATOMIC_SEQ_CST);
		munmap(d->db, CT_DOORBELL_SIZE);
		d->db = NULL;
	}
	if (d->shm_dir) {
		struct dirent *e;
		rewinddir(d->shm_dir);
		while ((e = readdir(d->shm_dir)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(d->shm_fd, e->d_name, 0);
		closedir(d->shm_dir);
		d->shm_dir = NULL;
	}
	if (d->shm_fd >= 0) {
		close(d->shm_fd);
		d->shm_fd = -1;
	}
	if (d->shm[0] && rmdir(d->shm) < 0 && errno != ENOENT)
		derr(d, "cannot remove %s: %s", d->shm, strerror(errno));
	d->shm[0] = 0;
}

/* every ring is final: copy what is left, then tell the writers that are
 * still running that nobody drains any more (the doorbell's `closed`, which
 * they look at before each of their timed waits; those waiting now are
 * woken) and let the rings go.  Only then: a writer that sees `closed`
 * writes its buffer again from its start. */
void ct_drainer_stop(struct ct_drainer *d)
{
	ct_drainer_scan(d);
	for (size_t i = 0; i < d->nrings; i++)
		d->rings[i]->dead = true;
	for (size_t i = 0; i < d->nrings; i++)
		drain_ring(d, d->rings[i]);
	__atomic_store_n(&d->db->closed, 1, __ATOMIC_SEQ_CST);
	while (d->nrings > 0) {
		const struct ct_ring_geom *g = &d->rings[0]->geo;
		struct ct_ring_header *h = g->hdr;
		if (__atomic_load_n(&h->waiting, __ATOMIC_SEQ_CST))
			for (uint32_t s = 0; s < g->nslots; s++)
				syscall(SYS_futex, &h->slot[s].state, FUTEX_WAKE, INT_MAX, NULL,
					NULL, 0);
		close_ring(d, 0);
	}
}

/* record's identity (given when the doorbell was made) and its heartbeat
 * (format.h): a traced thread that waits for a buffer checks them and never
 * waits for a record that is gone.  Stamped at every round of the drain
 * loop (at least every millisecond while it sleeps). */
void ct_drainer_heartbeat(struct ct_drainer *d)
{
	__atomic_store_n(&d->db->heartbeat, ct_mono_ns(), __ATOMIC_RELEASE);
}

/* everything the process stored is in its rings: take the rest */
void ct_drainer_process_gone(struct ct_drainer *d, int pid)
{
	ct_drainer_scan(d);
	kill_rings_of(d, pid, INT_MAX);
}

void ct_drainer_sleep(struct ct_drainer *d, unsigned ms)
{
	struct ct_doorbell *db = d->db;
	uint32_t seq = __atomic_load_n(&db->seq, __ATOMIC_SEQ_CST);
	__atomic_store_n(&db->sleeping, 1, __ATOMIC_SEQ_CST);
	struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000 * 1000};
	syscall(SYS_futex, &db->seq, FUTEX_WAIT, seq, &ts, NULL, 0);
	__atomic_store_n(&db->sleeping, 0, __ATOMIC_SEQ_CST);
}

void ct_drainer_untraced(const struct ct_drainer *d, uint64_t untraced[CT_UNTRACED_MAX])
{
	for (unsigned i = 0; i < CT_UNTRACED_MAX; i++)
		untraced[i] = d->db ? __atomic_load_n(&d->db->untraced[i], __ATOMIC_RELAXED) : 0;
}

void ct_drainer_snapshot(struct ct_drainer *d, const char *dir, int dir_fd,
			 struct ct_drain_stats *st, struct ct_flight_win **wins, size_t *nwins)
{
	const char *main_dir = d->dir;
	int main_fd = d->dir_fd;
	struct ct_drain_stats keep = d->st;
	struct ct_flight_win *kw = d->wins;
	size_t knw = d->nwins;
	ct_drainer_scan(d);
	d->dir = dir;
	d->dir_fd = dir_fd;
	memset(&d->st, 0, sizeof(d->st));
	d->wins = NULL;
	d->nwins = 0;
	for (size_t i = 0; i < d->nrings; i++) {
		struct ct_drain_ring g = *d->rings[i];
		g.fd = -1;
		g.broken = false;
		g.taken = false;
		g.bytes = 0;
		flight_copy(d, &g);
		if (g.fd >= 0)
			close(g.fd);
	}
	*st = d->st;
	*wins = d->wins;
	*nwins = d->nwins;
	d->dir = main_dir;
	d->dir_fd = main_fd;
	d->st = keep;
	d->wins = kw;
	d->nwins = knw;
}

void ct_drainer_peek(struct ct_drainer *d)
{
	if (!d->obs || d->flight)
		return;
	for (size_t i = 0; i < d->nrings; i++) {
		struct ct_drain_ring *g = d->rings[i];
		int s = ct_ring_geom_find(&g->geo, g->next, CT_SLOT_WRITING);
		if (s < 0 || g->dead || g->broken)
			continue;
		/* where the buffer will go: the end of the stream so far (the
		 * file of an earlier ring of the thread goes on), or just past
		 * the header that its first copy will write */
		off_t end = g->fd >= 0 ? lseek(g->fd, 0, SEEK_END) : 0;
		if (end <= 0)
			end = (off_t)sizeof(struct ct_ev_file_header);
		struct ct_drain_chunk c = {g->pid,        g->gen,
					   g->tid,        g->start_tsc,
					   (uint64_t)end, ct_ring_geom_buf(&g->geo, (uint32_t)s),
					   g->geo.stride};
		d->obs->data(d->obs->ctx, &c);
	}
}

void ct_drainer_free(struct ct_drainer *d)
{
	free(d->wins);
	d->wins = NULL;
	d->nwins = 0;
	ct_drainer_remove_dir(d);
	while (d->nrings)
		close_ring(d, d->nrings - 1);
	free(d->rings);
	free(d->pids);
	free(d->tids);
	d->rings = NULL;
	d->pids = d->tids = NULL;
	d->cap = d->pidcap = d->tidcap = 0;
}
