/* SPDX-License-Identifier: MIT */
/*
 * Following a recording while it is made (follow.h).
 *
 * A thread of its own in record's process (the follower) reads each traced
 * thread's .ev file from where it stopped, as the drainer writes it, and
 * feeds the bytes to that thread's stream decoder (lib/read/stream.c, fed mode);
 * the drainer's thread only stamps, every so often, a copy of the words
 * each traced thread has written in its current buffer (ct_drainer_peek),
 * which the follower reads on from once it has read the file to its end:
 * those words are the next ones of the file.  The drainer never waits for
 * the follower: a follower that falls behind reads the files later, and
 * says so.  Events are handed on as decoded, or (ordered) held and given in
 * time order across threads.
 */
#include "follow.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch.h"
#include "calltrace/format.h"
#include "drain.h"
#include "error.h"
#include "session_priv.h"
#include "util.h"

#define READ_CHUNK (1u << 20)
#define ROUND_CHUNKS 8 /* READ_CHUNKs of a thread read in a round at most */

/* one traced thread; t first, so that an event's thread leads back here */
struct fthread {
	struct ct_thread t;
	int pid, gen, tid;
	/* the follower's */
	struct ct_session *s; /* its session, once its process is known */
	struct ct_stream *st; /* its decoder, from then on */
	int fd;               /* its .ev file, once there (-1 before) */
	uint64_t pos;         /* bytes of the file (and peeks) fed so far */
	uint64_t start_tsc;
	bool have_start; /* start_tsc is known (the header, or a peek) */
	bool broken;     /* corrupt, or unreadable: no more of it */
	/* ordered: the events held, a ring of qcap */
	struct ct_event *q;
	size_t qhead, qn, qcap;
	/* under the lock: the latest peek, the words written of the buffer
	 * that goes at file offset pk_off */
	unsigned char *pk;
	size_t pk_len, pk_cap;
	uint64_t pk_off, pk_tsc;
	bool pk_any;
};

struct ct_follow {
	struct ct_follow_opts o;
	struct ct_record_follow hooks;
	struct ct_drain_observer obs;
	struct ct_drainer *dr;
	char *dir;
	bool peek;
	uint64_t last_peek; /* ct_mono_ns, the drainer's */
	pthread_t thr;
	bool running;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool final; /* under the lock: all is drained */
	/* under the lock: the threads (the follower reads them unlocked
	 * except the peek fields; the drainer adds to them) */
	struct fthread **th;
	size_t nth;
	/* the follower's */
	struct ct_session **sessions; /* every one opened; the last is current */
	size_t nsessions;
	uint64_t last_open; /* ct_mono_ns of the last opening */
	size_t queued;      /* events held, all threads */
	uint64_t skipped;   /* events not given: too many held */
	uint64_t last_given;
	uint64_t last_warn;
	bool said_skip;
	bool more;           /* a thread was left with more to read: no wait */
	struct ct_msgs msgs; /* the round's, for o.say */
};

struct ct_follow *ct_follow_new(const struct ct_follow_opts *o)
{
	struct ct_follow *f = xcalloc(1, sizeof(*f));
	f->o = *o;
	if (!f->o.queue_max)
		f->o.queue_max = 1u << 20;
	if (!f->o.peek_every)
		f->o.peek_every = 25000000u;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	return f;
}

uint64_t ct_follow_skipped(const struct ct_follow *f)
{
	return f->skipped;
}

const char *ct_follow_dir(const struct ct_follow *f)
{
	return f->dir;
}

static void stop_thread(struct ct_follow *f)
{
	if (!f->running)
		return;
	pthread_mutex_lock(&f->lock);
	f->final = true;
	pthread_cond_signal(&f->cond);
	pthread_mutex_unlock(&f->lock);
	pthread_join(f->thr, NULL);
	f->running = false;
}

void ct_follow_free(struct ct_follow *f)
{
	if (!f)
		return;
	stop_thread(f);
	for (size_t i = 0; i < f->nth; i++) {
		struct fthread *t = f->th[i];
		ct_stream_close(t->st);
		if (t->fd >= 0)
			close(t->fd);
		free(t->t.path);
		free(t->q);
		free(t->pk);
		free(t);
	}
	free(f->th);
	for (size_t i = 0; i < f->nsessions; i++)
		ct_session_close(f->sessions[i]);
	free(f->sessions);
	free(f->dir);
	ct_msgs_free(&f->msgs);
	pthread_mutex_destroy(&f->lock);
	pthread_cond_destroy(&f->cond);
	free(f);
}

/* ---- the threads ---------------------------------------------------------- */

/* the thread (pid, gen, tid), made when new; under the lock */
static struct fthread *thread_of(struct ct_follow *f, int pid, int gen, int tid)
{
	for (size_t i = f->nth; i-- > 0;)
		if (f->th[i]->tid == tid && f->th[i]->pid == pid && f->th[i]->gen == gen)
			return f->th[i];
	struct fthread *t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	t->gen = gen;
	t->tid = tid;
	t->fd = -1;
	t->t.tid = tid;
	t->t.index = (int)f->nth;
	t->t.path = xasprintf("%s/%d-%d-%d.ev", f->dir, pid, gen, tid);
	f->th = xrealloc(f->th, (f->nth + 1) * sizeof(*f->th));
	f->th[f->nth++] = t;
	return t;
}

/* the .ev files in the data directory: a thread each */
static void scan_dir(struct ct_follow *f)
{
	DIR *d = opendir(f->dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid, gen, tid, n = 0;
		if (sscanf(e->d_name, "%d-%d-%d.ev%n", &pid, &gen, &tid, &n) != 3 || e->d_name[n] ||
		    n < 8)
			continue;
		pthread_mutex_lock(&f->lock);
		thread_of(f, pid, gen, tid);
		pthread_mutex_unlock(&f->lock);
	}
	closedir(d);
}

/* ---- the drainer's side: peeks -------------------------------------------- */

/* the bytes of a buffer being written that are whole records, walked by
 * their lengths as ct_flight_whole (flight.c) walks one: the runtime writes
 * a record's payload before its header word (release), so a non-zero
 * header is a record written, zero payload words and all (an HI record of
 * addresses below 2^40, as under qemu-aarch64 or in a -no-pie program; an
 * argument 0).  A zero header is a record not written yet (buffers are
 * zeroed before they are reused), an ENTER's zero address word one whose
 * 8-byte store is seen in halves.  from is where an earlier call stopped:
 * a record's start */
static uint64_t written_len(const char *buf, uint64_t from, uint64_t len)
{
	const uint32_t *w = (const uint32_t *)(const void *)buf;
	uint64_t i = from / 4, n = len / 4;
	while (i < n) {
		uint32_t x = __atomic_load_n(&w[i], __ATOMIC_ACQUIRE);
		uint64_t size;
		switch (x & 3) {
		case CT_REC_PAD:
			return i * 4;
		case CT_REC_EXIT:
			size = 1;
			break;
		case CT_REC_ENTER:
			if (i + 2 > n || !__atomic_load_n(&w[i + 1], __ATOMIC_ACQUIRE))
				return i * 4;
			size = 2;
			break;
		default:
			size = 1 + (uint64_t)CT_EXT_LEN(x);
			break;
		}
		if (i + size > n)
			return i * 4;
		i += size;
	}
	return i * 4;
}

static void on_peek(void *ctx, const struct ct_drain_chunk *c)
{
	struct ct_follow *f = ctx;
	pthread_mutex_lock(&f->lock);
	struct fthread *t = thread_of(f, c->pid, c->gen, c->tid);
	if (!t->pk_any || t->pk_off != c->file_off) {
		/* another buffer */
		t->pk_any = true;
		t->pk_off = c->file_off;
		t->pk_tsc = c->start_tsc;
		t->pk_len = 0;
	}
	uint64_t end = written_len(c->buf, t->pk_len, c->len);
	if (end > t->pk_len) {
		if (end > t->pk_cap) {
			t->pk_cap = (size_t)end;
			t->pk = xrealloc(t->pk, t->pk_cap);
		}
		memcpy(t->pk + t->pk_len, c->buf + t->pk_len, (size_t)(end - t->pk_len));
		t->pk_len = (size_t)end;
	}
	pthread_mutex_unlock(&f->lock);
}

/* ---- the follower: sessions ----------------------------------------------- */

static struct ct_proc *proc_in(struct ct_session *s, int pid, int gen)
{
	for (size_t i = 0; s && i < s->nprocs; i++)
		if (s->procs[i]->pid == pid && s->procs[i]->gen == gen)
			return s->procs[i];
	return NULL;
}

/* the process (pid, gen) in the current session, opening a new one when it
 * is not there (not more than every 20 ms, unless final); NULL while its
 * .proc is not written */
static struct ct_proc *find_proc(struct ct_follow *f, int pid, int gen, bool final,
				 struct ct_session **sp)
{
	struct ct_session *s = f->nsessions ? f->sessions[f->nsessions - 1] : NULL;
	struct ct_proc *p = proc_in(s, pid, gen);
	uint64_t now = ct_mono_ns();
	if (!p && (final || !f->nsessions || now - f->last_open >= 20000000u)) {
		struct ct_error e;
		struct ct_session *ns;
		f->last_open = now;
		if (ct_session_open(&ns, f->dir, &e) == 0) {
			ns->demangle = f->o.demangle;
			ns->with_syms = f->o.with_syms;
			ns->verbose = f->o.verbose;
			p = proc_in(ns, pid, gen);
			if (!p && s) {
				/* not there yet: the last one stays current */
				ct_session_close(ns);
			} else {
				f->sessions =
					xrealloc(f->sessions, (f->nsessions + 1) * sizeof(ns));
				f->sessions[f->nsessions++] = ns;
				s = ns;
			}
		}
	}
	*sp = s;
	return p;
}

/* ---- the follower: reading and decoding ------------------------------------ */

static void hold(struct ct_follow *f, struct fthread *t, const struct ct_event *ev)
{
	if (f->queued >= f->o.queue_max) {
		f->skipped++;
		return;
	}
	if (t->qn == t->qcap) {
		size_t cap = t->qcap ? t->qcap * 2 : 256;
		struct ct_event *q = xmalloc(cap * sizeof(*q));
		for (size_t i = 0; i < t->qn; i++)
			q[i] = t->q[(t->qhead + i) % t->qcap];
		free(t->q);
		t->q = q;
		t->qhead = 0;
		t->qcap = cap;
	}
	t->q[(t->qhead + t->qn++) % t->qcap] = *ev;
	f->queued++;
}

/* decode what the thread was fed */
static void decode(struct ct_follow *f, struct fthread *t)
{
	struct ct_event ev[256];
	int n;
	struct ct_error e;
	while (!t->broken && (n = ct_stream_read(t->st, ev, 256, &e)) != 0) {
		if (n < 0) {
			ct_msg_add(&f->msgs, CT_MSG_WARN, "%s; the rest of thread %d is not shown",
				   e.msg, t->tid);
			t->broken = true;
			break;
		}
		for (int i = 0; i < n; i++)
			ev[i].args = NULL;
		if (!f->o.ordered) {
			f->o.events(f->o.ctx, t->s, ev, (size_t)n);
			continue;
		}
		for (int i = 0; i < n; i++)
			hold(f, t, &ev[i]);
	}
}

/* the thread's next bytes, decoded.  Its process's .proc may have grown
 * since it was read: the lines written before these bytes were (a library
 * call's line before its first call, a module's before calls into it) are
 * read now, after the bytes and before their events, so that the stream
 * knows them as the file's reader does (stream.c takes them up) */
static void feed(struct ct_follow *f, struct fthread *t, const void *buf, size_t n)
{
	ct_stream_feed(t->st, buf, n);
	t->pos += n;
	ct_session_proc_update(t->s, t->t.proc);
	decode(f, t);
}

/* open the thread's file and take its header; false while it is not there */
static bool open_file(struct fthread *t)
{
	if (t->fd >= 0)
		return true;
	t->fd = open(t->t.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (t->fd < 0)
		return false;
	return true;
}

/* the header's start_tsc, once the file has it; false when not yet */
static bool read_header(struct ct_follow *f, struct fthread *t)
{
	struct ct_ev_file_header h;
	if (t->have_start)
		return true;
	if (!open_file(t) || pread(t->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return false;
	if (memcmp(h.magic, CT_EV_MAGIC, 8) || h.version != CT_FORMAT_VERSION) {
		ct_msg_add(&f->msgs, CT_MSG_WARN,
			   "%s: not a calltrace event stream; thread %d is not shown", t->t.path,
			   t->tid);
		t->broken = true;
		return false;
	}
	t->start_tsc = h.start_tsc;
	t->have_start = true;
	return true;
}

/* read on: the file from pos to its end, then what the latest peek has
 * beyond it */
static void follow_thread(struct ct_follow *f, struct fthread *t, unsigned char *buf, bool final)
{
	if (t->broken)
		return;
	if (!t->have_start) {
		pthread_mutex_lock(&f->lock);
		if (t->pk_any) {
			t->start_tsc = t->pk_tsc;
			t->have_start = true;
		}
		pthread_mutex_unlock(&f->lock);
		if (!t->have_start && !read_header(f, t))
			return;
	}
	if (!t->st) {
		struct ct_session *s;
		struct ct_proc *p = find_proc(f, t->pid, t->gen, final, &s);
		if (!p)
			return;
		/* the process's first call through a front end is written before
		 * the line that says the front end (runtime/proc.c), which
		 * chooses the figures: none of its events before that line */
		if (!p->frontends && !final) {
			ct_session_proc_update(s, p);
			if (!p->frontends)
				return;
		}
		t->s = s;
		t->t.proc = p;
		t->st = ct_stream_open_feed(s, &t->t, t->start_tsc);
		t->pos = sizeof(struct ct_ev_file_header);
	}
	if (open_file(t)) {
		ssize_t r = 0;
		unsigned n = 0;
		/* a quota per round, so that every thread is read on and the
		 * events given while the program writes faster than this */
		while ((final || n++ < ROUND_CHUNKS) &&
		       (r = pread(t->fd, buf, READ_CHUNK, (off_t)t->pos)) > 0)
			feed(f, t, buf, (size_t)r);
		if (!final && n > ROUND_CHUNKS) {
			f->more = true;
			return;
		}
		if (r < 0) {
			ct_msg_add(&f->msgs, CT_MSG_WARN,
				   "%s: %s; the rest of thread %d is not shown", t->t.path,
				   strerror(errno), t->tid);
			t->broken = true;
			return;
		}
	}
	if (final) {
		ct_stream_feed_end(t->st);
		decode(f, t);
		return;
	}
	pthread_mutex_lock(&f->lock);
	if (t->pk_any && t->pos >= t->pk_off && t->pos < t->pk_off + t->pk_len) {
		size_t from = (size_t)(t->pos - t->pk_off), n = t->pk_len - from;
		if (n > READ_CHUNK)
			n = READ_CHUNK;
		memcpy(buf, t->pk + from, n);
		pthread_mutex_unlock(&f->lock);
		feed(f, t, buf, n);
		return;
	}
	pthread_mutex_unlock(&f->lock);
}

/* the recording's clock now, as ns since its start */
static uint64_t now_ns(const struct ct_session *s)
{
	bool tsc = s->clock_name && !strcmp(s->clock_name, "tsc");
	return ct_session_ns(s, tsc ? ct_arch_cycles() : ct_mono_ns());
}

/* give the held events of the threads th[0..nth) up to time upto, in time
 * order */
static void give(struct ct_follow *f, struct fthread **th, size_t nth, uint64_t upto)
{
	for (;;) {
		struct fthread *best = NULL;
		for (size_t i = 0; i < nth; i++) {
			struct fthread *t = th[i];
			if (t->qn && t->q[t->qhead].time <= upto &&
			    (!best || t->q[t->qhead].time < best->q[best->qhead].time))
				best = t;
		}
		if (!best)
			return;
		const struct ct_event *ev = &best->q[best->qhead];
		f->last_given = ev->time;
		f->o.events(f->o.ctx, best->s, ev, 1);
		best->qhead = (best->qhead + 1) % best->qcap;
		best->qn--;
		f->queued--;
	}
}

/* the round's messages to the view (o.say), then gone */
static void say(struct ct_follow *f)
{
	if (f->msgs.n && f->o.say)
		f->o.say(f->o.ctx, &f->msgs);
	ct_msgs_free(&f->msgs);
}

/* one round of the follower: read every thread on, hand the events on */
static void follow_round(struct ct_follow *f, unsigned char *buf, bool final)
{
	scan_dir(f);
	/* the threads now (the drainer's peeks may add to them meanwhile) */
	pthread_mutex_lock(&f->lock);
	size_t nth = f->nth;
	struct fthread **th = xmalloc((nth ? nth : 1) * sizeof(*th));
	memcpy(th, f->th, nth * sizeof(*th));
	pthread_mutex_unlock(&f->lock);
	for (size_t i = 0; i < nth; i++)
		follow_thread(f, th[i], buf, final);
	struct ct_session *s = f->nsessions ? f->sessions[f->nsessions - 1] : NULL;
	if (!s) {
		free(th);
		say(f);
		return;
	}
	uint64_t now = now_ns(s), mono = ct_mono_ns();
	if (f->o.ordered) {
		/* every thread's decoded position, or now less the delay; a
		 * thread not decoded yet (its process's .proc not read, or not
		 * naming a front end yet) has none: it holds the others back */
		uint64_t upto = UINT64_MAX;
		for (size_t i = 0; i < nth && !final; i++) {
			struct fthread *t = th[i];
			if (!t->st && !t->broken)
				upto = 0;
			else if (t->st && !t->broken && !ct_stream_ended(t->st) &&
				 ct_stream_last_time(t->st) < upto)
				upto = ct_stream_last_time(t->st);
		}
		uint64_t lim = now > f->o.delay ? now - f->o.delay : 0;
		if (final)
			upto = UINT64_MAX;
		else if (upto == UINT64_MAX || upto < lim)
			upto = lim;
		give(f, th, nth, upto);
		if (f->skipped && !f->said_skip) {
			f->said_skip = true;
			ct_msg_add(&f->msgs, CT_MSG_WARN,
				   "the view cannot keep up: events are skipped (counted at the "
				   "end)");
		}
	}
	/* behind: the oldest decoded position of a thread with more to read */
	if (!final && f->o.lag_warn && mono - f->last_warn >= 5000000000u) {
		uint64_t oldest = UINT64_MAX;
		for (size_t i = 0; i < nth; i++) {
			struct fthread *t = th[i];
			struct stat st;
			if (t->st && t->fd >= 0 && fstat(t->fd, &st) == 0 &&
			    (uint64_t)st.st_size > t->pos && ct_stream_last_time(t->st) < oldest)
				oldest = ct_stream_last_time(t->st);
		}
		if (oldest != UINT64_MAX && now > oldest + f->o.lag_warn) {
			f->last_warn = mono;
			ct_msg_add(&f->msgs, CT_MSG_WARN, "the view is %.1f s behind the program",
				   (double)(now - oldest) / 1e9);
		}
	}
	free(th);
	say(f);
	if (f->o.tick)
		f->o.tick(f->o.ctx, now, final);
}

static void *follower(void *arg)
{
	struct ct_follow *f = arg;
	/* the lowest priority: on a busy machine the program (and the
	 * drainer) go first, and the follower catches up when they wait */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
	unsigned char *buf = xmalloc(READ_CHUNK);
	for (;;) {
		pthread_mutex_lock(&f->lock);
		if (!f->final && !f->more) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			uint64_t ns = (uint64_t)ts.tv_nsec + f->o.peek_every;
			ts.tv_sec += (time_t)(ns / 1000000000u);
			ts.tv_nsec = (long)(ns % 1000000000u);
			pthread_cond_timedwait(&f->cond, &f->lock, &ts);
		}
		bool final = f->final;
		pthread_mutex_unlock(&f->lock);
		f->more = false;
		follow_round(f, buf, final);
		if (final)
			break;
	}
	free(buf);
	return NULL;
}

/* ---- record's hooks --------------------------------------------------------- */

static int on_start(void *ctx, struct ct_drainer *d, const char *dir, bool peek,
		    struct ct_error *err)
{
	struct ct_follow *f = ctx;
	f->dr = d;
	f->dir = xstrdup(dir);
	f->peek = peek;
	f->obs = (struct ct_drain_observer){on_peek, f};
	d->obs = &f->obs;
	/* the follower takes no signal: they are record's */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int e = pthread_create(&f->thr, NULL, follower, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		ct_set_err(err, "cannot start a thread: %s", strerror(e));
		return -1;
	}
	f->running = true;
	return 0;
}

static void on_round(void *ctx, bool final)
{
	struct ct_follow *f = ctx;
	if (final) {
		/* everything is in the files: the follower reads it to the end */
		stop_thread(f);
		return;
	}
	uint64_t mono = ct_mono_ns();
	if (f->peek && mono - f->last_peek >= f->o.peek_every) {
		f->last_peek = mono;
		ct_drainer_peek(f->dr);
	}
}

const struct ct_record_follow *ct_follow_hooks(struct ct_follow *f)
{
	f->hooks = (struct ct_record_follow){on_start, on_round, f};
	return &f->hooks;
}
