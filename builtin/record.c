/* SPDX-License-Identifier: MIT */
/*
 * calltrace record: run a program with the runtime preloaded, drain every
 * thread's shared-memory ring into the data directory while it runs, and
 * whatever is left after it ends, however it ends.
 *
 * record makes itself a child subreaper, so it also waits for the
 * program's forked children and their children; it drains a process's
 * rings completely once it has reaped it.  Rings live in tmpfs files that
 * record unlinks as soon as it has mapped them, so nothing is left behind
 * if record itself is killed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <regex.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "argspec.h"
#include "builtin.h"
#include "calltrace/format.h"
#include "calltrace/procstat.h"
#include "calltrace/ring.h"
#include "symtab.h"
#include "session.h"

static const char record_usage[] =
	"usage: calltrace record [options] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND, built with -finstrument-functions, -pg, -pg -mfentry or\n"
	"-fpatchable-function-entry, and record every call and return of every\n"
	"thread and process it starts into the data directory.\n"
	"The program's stdin, stdout, stderr and exit status pass through unchanged;\n"
	"record exits with the program's status (128+N if signal N ended it).\n"
	"\n"
	"options:\n"
	"  -d, --data=DIR        data directory (default: calltrace.data; an existing\n"
	"                        one is moved to DIR.old)\n"
	"  -b, --buffer-size=SZ  bytes per trace buffer (default 256K; K and M suffixes)\n"
	"      --buffers=N       buffers per thread, 3..64 (default 8)\n"
	"      --clock=CLOCK     tsc (default where invariant) or mono\n"
	"      --drop            when all of a thread's buffers are full, drop its\n"
	"                        events (counted and marked) instead of waiting\n"
	"      --lib=PATH        the runtime library (default: found next to calltrace)\n"
	"  -A, --args=SPEC       capture arguments of the functions SPEC names:\n"
	"                        'REGEX@arg1/d,arg2/s,fparg1/f' or 'REGEX@fmt=\"%d, %s\"'\n"
	"                        (repeatable; doc/args.md)\n"
	"  -R, --retval=SPEC     capture return values: 'REGEX@retval/x' (repeatable)\n"
	"  -a, --auto-args       arguments and return values of every function, typed\n"
	"                        from DWARF (build with -g); -A/-R override it\n"
	"      --str-max=N       bytes of a string argument copied at most (default 64)\n"
	"      --args-lib=PATH   also resolve -A/-R/-a in PATH (a library the program\n"
	"                        dlopen()s)\n"
	"                        Arguments need a build that saves registers: -pg,\n"
	"                        -pg -mfentry or -fpatchable-function-entry\n"
	"  -q, --quiet           no summary at the end\n"
	"  -h, --help            this help\n";

struct ring {
	struct ct_ring_header *hdr;
	size_t len;
	int pid, gen, tid;
	uint64_t next;      /* next buffer sequence to copy */
	int fd;             /* the thread's .ev file */
	bool dead;          /* its process is gone: copy what is left */
	uint64_t bytes;
	uint64_t depth;     /* calls open in its stream so far (the summary's
			     * count of unwound calls needs it at UNWIND_TO) */
};

struct stats {
	uint64_t events, enters, exits, unwound, bytes, lost, unmatched, waits, rings;
};

/* a process that outlived record's draining (note_running) */
struct running {
	int pid;
	char name[32];
};

struct recorder {
	const char *dir;    /* absolute */
	char shm[PATH_MAX];
	struct ring **rings;
	size_t nrings, cap;
	struct stats st;
	int *pids;          /* processes seen */
	size_t npids, pidcap;
	int *tids;          /* (pid, gen, tid) triples seen, for the thread count */
	size_t ntids, tidcap;
	bool write_error;
	struct running *running; /* processes still running when record stopped */
	size_t nrunning;
};

#define likely(x) __builtin_expect(!!(x), 1)

static volatile sig_atomic_t forward_sig, interrupted, int_seen;
static pid_t child_pid;
static volatile sig_atomic_t child_alive = 1;

static void on_signal(int sig)
{
	forward_sig = sig;
	if (child_pid > 0 && child_alive)
		kill(child_pid, sig);
}

/* SIGINT/SIGQUIT from the terminal reach the program too: record only
 * notes them, and once the program has ended stops waiting for processes it
 * left behind (they run on untraced: doc/record.md) */
static void on_interrupt(int sig)
{
	(void)sig;
	int_seen = 1;
	if (!child_alive)
		interrupted = 1;
}

static int err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int err(const char *fmt, ...)
{
	va_list ap;
	fputs("calltrace record: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool use_tsc = true;

static uint64_t read_clock(void)
{
	return use_tsc ? ct_arch_cycles() : mono_ns();
}

/* ---- the data directory -------------------------------------------- */

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int prepare_dir(const char *dir)
{
	struct stat st;
	if (!dir || !*dir)
		return err("empty data directory name");
	if (stat(dir, &st) == 0) {
		char info[PATH_MAX], old[PATH_MAX];
		snprintf(info, sizeof(info), "%s/info", dir);
		DIR *d = opendir(dir);
		bool empty = true;
		if (d) {
			struct dirent *e;
			while ((e = readdir(d)))
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
					empty = false;
			closedir(d);
		}
		if (!S_ISDIR(st.st_mode) || (!empty && access(info, F_OK) != 0))
			return err("%s exists and is not a calltrace data directory; "
				   "remove it or choose another with -d",
				   dir);
		if (!empty) {
			snprintf(old, sizeof(old), "%s.old", dir);
			nftw(old, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
			if (rename(dir, old) < 0)
				return err("cannot move %s to %s: %s", dir, old, strerror(errno));
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return err("cannot create %s: %s", dir, strerror(errno));
	return 0;
}

static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (*s == ' ')
			fputs("\\x20", f);
		else
			fputc(*s, f);
	}
}

/* ---- record's liveness, and the processes that outlive it ---------------- */

/* record's identity (if not given yet) and its heartbeat in the doorbell
 * (format.h): a traced thread that waits for a buffer checks them and never
 * waits for a record that is gone.  Stamped at every round of the drain
 * loop (at least every millisecond while it sleeps). */
static void stamp_heartbeat(struct ct_doorbell *db)
{
	if (!__atomic_load_n(&db->record_pid, __ATOMIC_RELAXED)) {
		struct ct_procstat ps;
		char buf[1024];
		if (ct_procstat_read((int)getpid(), &ps, buf, sizeof(buf)) == 0)
			__atomic_store_n(&db->record_start, ps.start, __ATOMIC_RELAXED);
		__atomic_store_n(&db->record_pid, (int32_t)getpid(), __ATOMIC_RELEASE);
	}
	__atomic_store_n(&db->heartbeat, mono_ns(), __ATOMIC_RELEASE);
}

struct proc_link {
	int pid, ppid;
	bool live;
};

static int cmp_link(const void *a, const void *b)
{
	int x = ((const struct proc_link *)a)->pid, y = ((const struct proc_link *)b)->pid;
	return (x > y) - (x < y);
}

/* record stops draining: note the processes still running, those whose
 * later calls will not be recorded.  They are record's descendants (it is
 * their subreaper: each one's chain of parents leads to it), zombies not
 * counted. */
static void note_running(struct recorder *r)
{
	siginfo_t si;
	if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD)
		return; /* no child, hence no descendant: the usual end */
	DIR *d = opendir("/proc");
	if (!d)
		return;
	struct proc_link *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	int self = (int)getpid();
	while ((e = readdir(d))) {
		char *end, buf[1024];
		long pid = strtol(e->d_name, &end, 10);
		struct ct_procstat ps;
		if (*end || pid <= 0 || pid == self || ct_procstat_read((int)pid, &ps, buf, sizeof(buf)) < 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			struct proc_link *nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[n++] = (struct proc_link){(int)pid, ps.ppid, ps.state != 'Z' && ps.state != 'X'};
	}
	closedir(d);
	qsort(v, n, sizeof(*v), cmp_link);
	for (size_t i = 0; i < n; i++) {
		if (!v[i].live)
			continue;
		int p = v[i].ppid;
		for (int hops = 0; p > 1 && p != self && hops < 4096; hops++) {
			struct proc_link key = {p, 0, false};
			struct proc_link *up = bsearch(&key, v, n, sizeof(*v), cmp_link);
			p = up ? up->ppid : 0;
		}
		if (p != self)
			continue;
		struct ct_procstat ps;
		char buf[1024];
		if (ct_procstat_read(v[i].pid, &ps, buf, sizeof(buf)) < 0)
			continue; /* it has just ended */
		struct running *nr = realloc(r->running, (r->nrunning + 1) * sizeof(*nr));
		if (!nr)
			break;
		r->running = nr;
		struct running *x = &r->running[r->nrunning++];
		x->pid = v[i].pid;
		size_t k = 0;
		for (unsigned j = 0; j < ps.comm_len && k + 1 < sizeof(x->name); j++)
			x->name[k++] = ps.comm[j] > ' ' && ps.comm[j] < 127 ? ps.comm[j] : '?';
		x->name[k] = 0;
	}
	free(v);
}

/* info: "still_running: N PID..." */
static void put_running(FILE *f, const struct recorder *r)
{
	if (!r->nrunning)
		return;
	fprintf(f, "still_running: %zu", r->nrunning);
	for (size_t i = 0; i < r->nrunning; i++)
		fprintf(f, " %d", r->running[i].pid);
	fputc('\n', f);
}

/* the summary: never "Nothing lost" when processes ran on untraced */
static void print_running(const struct recorder *r)
{
	if (!r->nrunning)
		return;
	fprintf(stderr, " %zu process%s still running when record stopped (", r->nrunning,
		r->nrunning == 1 ? " was" : "es were");
	for (size_t i = 0; i < r->nrunning && i < 8; i++)
		fprintf(stderr, "%s%d %s", i ? ", " : "", r->running[i].pid, r->running[i].name);
	fprintf(stderr, "%s): %s later calls are not recorded.", r->nrunning > 8 ? ", ..." : "",
		r->nrunning == 1 ? "its" : "their");
}

struct run_info {
	char **argv;
	char start_time[64];
	double hz;
	uint64_t start_clock, end_clock;
	const char *exit_status;
	bool complete;
};

static int write_info(struct recorder *r, const struct run_info *ri)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	snprintf(path, sizeof(path), "%s/info", r->dir);
	snprintf(tmp, sizeof(tmp), "%s/.info.tmp", r->dir);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return err("cannot write %s: %s", tmp, strerror(errno));
	fprintf(f, "calltrace-data: %d\ncommand: ", CT_FORMAT_VERSION);
	for (char **a = ri->argv; *a; a++) {
		if (a != ri->argv)
			fputc(' ', f);
		put_escaped(f, *a);
	}
	fprintf(f, "\nstart_time: %s\nclock: %s\nclock_hz: %.3f\nstart_clock: %llu\n",
		ri->start_time, use_tsc ? "tsc" : "mono", ri->hz,
		(unsigned long long)ri->start_clock);
	if (ri->complete) {
		fprintf(f, "end_clock: %llu\nexit_status: %s\n", (unsigned long long)ri->end_clock,
			ri->exit_status);
		fprintf(f, "processes: %zu\nthreads: %zu\nevents: %llu\nbytes: %llu\n", r->npids,
			r->ntids, (unsigned long long)r->st.events,
			(unsigned long long)r->st.bytes);
		fprintf(f, "lost: %llu\nunmatched: %llu\nwaits: %llu\nunfinished: %llu\n",
			(unsigned long long)r->st.lost, (unsigned long long)r->st.unmatched,
			(unsigned long long)r->st.waits,
			(unsigned long long)(r->st.enters - r->st.exits - r->st.unwound));
		put_running(f, r);
		fprintf(f, "complete: 1\n");
	}
	if (fclose(f) != 0 || rename(tmp, path) < 0)
		return err("cannot write %s: %s", path, strerror(errno));
	return 0;
}

/* ---- draining ------------------------------------------------------- */

static void note_id(int **arr, size_t *n, size_t *cap, const int *id, size_t width)
{
	for (size_t i = 0; i < *n; i++)
		if (!memcmp(*arr + i * width, id, width * sizeof(int)))
			return;
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*arr = realloc(*arr, *cap * width * sizeof(int));
		if (!*arr) {
			perror("calltrace record");
			exit(1);
		}
	}
	memcpy(*arr + *n * width, id, width * sizeof(int));
	(*n)++;
}

static void write_all(struct recorder *r, struct ring *g, const void *p, size_t n)
{
	const char *c = p;
	while (n > 0) {
		ssize_t w = write(g->fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!r->write_error)
				err("writing %s/%d-%d-%d.ev failed: %s; the rest of the trace is "
				    "lost",
				    r->dir, g->pid, g->gen, g->tid, strerror(errno));
			r->write_error = true;
			return;
		}
		c += w;
		n -= (size_t)w;
	}
}

/* count the events in a buffer (records never straddle buffers) */
static void count_events(struct stats *st, uint64_t *depth, const char *buf, size_t len)
{
	const uint32_t *w = (const uint32_t *)buf, *end = w + len / 4;
	uint64_t enters = 0, exits = 0, d = *depth;
	while (w < end) {
		uint32_t v = *w;
		unsigned k = v & 3;
		if (likely(k != CT_REC_EXT)) {
			/* PAD: 1 word, EXIT: 1 word, ENTER: 2 words */
			exits += k == CT_REC_EXIT;
			enters += k == CT_REC_ENTER;
			d += (k == CT_REC_ENTER) - (uint64_t)(k == CT_REC_EXIT && d);
			w += 1 + (k >> 1);
			continue;
		}
		{
			unsigned type = CT_EXT_TYPE(v), n = CT_EXT_LEN(v);
			if (w + 1 + n > end)
				break;
			if (type == CT_EXT_NENTER) {
				st->enters++;
				st->events++;
				d++;
			} else if (type == CT_EXT_NEXIT) {
				st->exits++;
				st->events++;
				d -= d != 0;
			} else if (type == CT_EXT_UNWIND && n >= 1) {
				st->unwound += w[1];
				d = d > w[1] ? d - w[1] : 0;
			} else if (type == CT_EXT_UNWIND_TO && n >= 1) {
				/* the calls above depth w[1], however many the
				 * writer thought there were */
				if (d > w[1]) {
					st->unwound += d - w[1];
					d = w[1];
				}
			}
			w += 1 + n;
		}
	}
	*depth = d;
	st->enters += enters;
	st->exits += exits;
	st->events += enters + exits;
}

static int open_stream(struct recorder *r, struct ring *g)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%d-%d-%d.ev", r->dir, g->pid, g->gen, g->tid);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		err("cannot create %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_size == 0) {
		struct ct_ev_file_header h = ct_ev_header_of(g->hdr);
		g->fd = fd;
		write_all(r, g, &h, sizeof(h));
		r->st.bytes += sizeof(h);
	}
	g->fd = fd;
	return fd;
}

static void copy_out(struct recorder *r, struct ring *g, const char *buf, uint64_t n)
{
	if (n == 0)
		return;
	if (g->fd < 0 && open_stream(r, g) < 0)
		return;
	write_all(r, g, buf, n);
	count_events(&r->st, &g->depth, buf, n);
	g->bytes += n;
	r->st.bytes += n;
}

struct copy_ctx {
	struct recorder *r;
	struct ring *g;
};

static void copy_buffer(void *ctx, const char *buf, uint64_t len)
{
	struct copy_ctx *c = ctx;
	copy_out(c->r, c->g, buf, len);
}

/* copy every full buffer; once the owner is gone, also the one it was
 * writing.  Returns whether anything was copied. */
static bool drain_ring(struct recorder *r, struct ring *g)
{
	struct copy_ctx c = {r, g};
	return ct_ring_drain(g->hdr, &g->next, g->dead, copy_buffer, &c);
}

/* the ring is finished: account for it and let it go */
static void close_ring(struct recorder *r, size_t i)
{
	struct ring *g = r->rings[i];
	r->st.lost += g->hdr->lost;
	r->st.unmatched += g->hdr->unmatched;
	r->st.waits += g->hdr->waits;
	if (g->fd >= 0)
		close(g->fd);
	munmap(g->hdr, g->len);
	free(g);
	r->rings[i] = r->rings[--r->nrings];
}

static void kill_rings_of(struct recorder *r, int pid, int below_gen)
{
	for (size_t i = 0; i < r->nrings; i++)
		if (r->rings[i]->pid == pid && r->rings[i]->gen < below_gen)
			r->rings[i]->dead = true;
}

static void add_ring(struct recorder *r, const char *name)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s/%s", r->shm, name) >= (int)sizeof(path))
		return;
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	void *map = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(struct ct_ring_header))
		map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	unlink(path);
	if (map == MAP_FAILED) {
		err("cannot map %s: %s", path, strerror(errno));
		return;
	}
	struct ct_ring_header *h = map;
	if (h->magic != CT_RING_MAGIC || h->version != CT_FORMAT_VERSION ||
	    h->nslots > CT_RING_MAX_SLOTS ||
	    h->data_offset + (uint64_t)h->nslots * h->buf_stride > (uint64_t)st.st_size) {
		err("%s: not a calltrace ring of this version; ignored", path);
		munmap(map, (size_t)st.st_size);
		return;
	}
	struct ring *g = calloc(1, sizeof(*g));
	g->hdr = h;
	g->len = (size_t)st.st_size;
	g->pid = (int)h->pid;
	g->gen = (int)h->gen;
	g->tid = (int)h->tid;
	g->fd = -1;
	/* an exec replaced the older image of this pid: its rings are final */
	kill_rings_of(r, g->pid, g->gen);
	/* an earlier ring of this very thread: finish it first, then continue
	 * its stream file */
	for (size_t i = 0; i < r->nrings; i++) {
		struct ring *o = r->rings[i];
		if (o->pid == g->pid && o->gen == g->gen && o->tid == g->tid) {
			o->dead = true;
			drain_ring(r, o);
			g->fd = o->fd;
			o->fd = -1;
			close_ring(r, i);
			break;
		}
	}
	if (r->nrings == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 64;
		r->rings = realloc(r->rings, r->cap * sizeof(*r->rings));
	}
	r->rings[r->nrings++] = g;
	r->st.rings++;
	int pid = g->pid, ptg[3] = {g->pid, g->gen, g->tid};
	note_id(&r->pids, &r->npids, &r->pidcap, &pid, 1);
	note_id(&r->tids, &r->ntids, &r->tidcap, ptg, 3);
}

static void scan_shm(struct recorder *r)
{
	DIR *d = opendir(r->shm);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			add_ring(r, e->d_name);
	closedir(d);
}

static bool drain_all(struct recorder *r)
{
	bool did = false;
	for (size_t i = 0; i < r->nrings;) {
		struct ring *g = r->rings[i];
		did |= drain_ring(r, g);
		bool done = __atomic_load_n(&g->hdr->done, __ATOMIC_ACQUIRE) &&
			    ct_ring_find(g->hdr, g->next, CT_SLOT_FULL) < 0;
		if (g->dead || done) {
			close_ring(r, i);
			continue;
		}
		i++;
	}
	return did;
}

/* record stops draining (every ring is marked dead): copy what is left, then
 * tell the writers that are still running that nobody drains any more (the
 * doorbell's `closed`, which they look at before each of their timed waits;
 * those waiting now are woken) and let the rings go.  Only then: a writer
 * that sees `closed` writes its buffer again from its start. */
static void stop_draining(struct recorder *r, struct ct_doorbell *db)
{
	for (size_t i = 0; i < r->nrings; i++)
		drain_ring(r, r->rings[i]);
	__atomic_store_n(&db->closed, 1, __ATOMIC_SEQ_CST);
	while (r->nrings > 0) {
		struct ct_ring_header *h = r->rings[0]->hdr;
		uint32_t n = h->nslots < CT_RING_MAX_SLOTS ? h->nslots : CT_RING_MAX_SLOTS;
		if (__atomic_load_n(&h->waiting, __ATOMIC_SEQ_CST))
			for (uint32_t s = 0; s < n; s++)
				syscall(SYS_futex, &h->slot[s].state, FUTEX_WAKE, INT_MAX, NULL, NULL,
					0);
		close_ring(r, 0);
	}
}

/* ---- the clock -------------------------------------------------------- */

static double measure_hz(uint64_t *clock0, uint64_t *mono0)
{
	if (!use_tsc) {
		*clock0 = *mono0 = mono_ns();
		return 1e9;
	}
	/* a first estimate, for the info file written now (it is what a
	 * reader gets if record itself is killed); the rate is measured again
	 * over the whole run at the end */
	uint64_t m0 = mono_ns(), c0 = ct_arch_cycles();
	struct timespec ts = {0, 2 * 1000 * 1000};
	nanosleep(&ts, NULL);
	uint64_t m1 = mono_ns(), c1 = ct_arch_cycles();
	*clock0 = c0;
	*mono0 = m0;
	return (double)(c1 - c0) * 1e9 / (double)(m1 - m0);
}

static const char *find_runtime(const char *opt, char *buf, size_t len)
{
	const char *env = getenv("CALLTRACE_LIB");
	if (opt)
		return opt;
	if (env && *env)
		return env;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	if ((size_t)snprintf(buf, len, "%s/libcalltrace.so", exe) < len && access(buf, R_OK) == 0)
		return buf;
	if ((size_t)snprintf(buf, len, "%s/../lib/calltrace/libcalltrace.so", exe) < len &&
	    access(buf, R_OK) == 0)
		return buf;
	return NULL;
}

static const char *signame(int sig)
{
	const char *s = sigabbrev_np(sig);
	return s ? s : "?";
}

static void print_size(char *buf, size_t len, uint64_t n)
{
	if (n >= 10u << 20)
		snprintf(buf, len, "%.1f MB", n / 1048576.0);
	else if (n >= 10u << 10)
		snprintf(buf, len, "%.1f KB", n / 1024.0);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
}

int cmd_record(int argc, char **argv)
{
	static const struct option opts[] = {
		{"data", required_argument, NULL, 'd'},
		{"buffer-size", required_argument, NULL, 'b'},
		{"buffers", required_argument, NULL, 'n'},
		{"clock", required_argument, NULL, 'c'},
		{"lib", required_argument, NULL, 'L'},
		{"drop", no_argument, NULL, 'D'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"args", required_argument, NULL, 'A'},
		{"retval", required_argument, NULL, 'R'},
		{"auto-args", no_argument, NULL, 'a'},
		{"str-max", required_argument, NULL, 'S'},
		{"args-lib", required_argument, NULL, 'l'},
		{NULL, 0, NULL, 0},
	};
	struct ct_args_opts ao;
	memset(&ao, 0, sizeof(ao));
	const char *dir = "calltrace.data", *lib_opt = NULL, *bufsize = NULL, *nbuf = NULL;
	const char *clock_opt = NULL;
	bool quiet = false, drop = false;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+d:b:qhA:R:a", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'b':
			bufsize = optarg;
			break;
		case 'n':
			nbuf = optarg;
			break;
		case 'c':
			clock_opt = optarg;
			break;
		case 'L':
			lib_opt = optarg;
			break;
		case 'D':
			drop = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'A':
			ao.A = realloc(ao.A, (ao.nA + 1) * sizeof(char *));
			ao.A[ao.nA++] = optarg;
			break;
		case 'R':
			ao.R = realloc(ao.R, (ao.nR + 1) * sizeof(char *));
			ao.R[ao.nR++] = optarg;
			break;
		case 'a':
			ao.autoargs = true;
			break;
		case 'l':
			ao.libs = realloc(ao.libs, (ao.nlibs + 1) * sizeof(char *));
			ao.libs[ao.nlibs++] = optarg;
			break;
		case 'S': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || !*optarg || v < 1 || v > CT_ARGS_STRMAX_MAX)
				return err("bad --str-max '%s' (1..%d)", optarg, CT_ARGS_STRMAX_MAX), 2;
			ao.strmax = (unsigned)v;
			break;
		}
		case 'h':
			fputs(record_usage, stdout);
			return 0;
		default:
			fputs(record_usage, stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fputs("calltrace record: no command given\n", stderr);
		fputs(record_usage, stderr);
		return 2;
	}
	if (bufsize) {
		char *end;
		unsigned long long v = strtoull(bufsize, &end, 0);
		if (*end == 'k' || *end == 'K')
			v <<= 10, end++;
		else if (*end == 'm' || *end == 'M')
			v <<= 20, end++;
		if (*end || v < 4096 || v > (1ull << 30))
			return err("bad buffer size '%s' (4K..1G)", bufsize), 2;
	}
	if (nbuf) {
		char *end;
		long v = strtol(nbuf, &end, 10);
		if (*end || v < 3 || v > CT_RING_MAX_SLOTS)
			return err("bad number of buffers '%s' (3..%d)", nbuf, CT_RING_MAX_SLOTS), 2;
	}
	if (clock_opt) {
		if (!strcmp(clock_opt, "mono"))
			use_tsc = false;
		else if (strcmp(clock_opt, "tsc"))
			return err("unknown clock '%s' (tsc or mono)", clock_opt), 2;
	} else {
		use_tsc = ct_arch_cycles_invariant();
	}

	char libbuf[PATH_MAX], libabs[PATH_MAX];
	const char *lib = find_runtime(lib_opt, libbuf, sizeof(libbuf));
	if (!lib || !realpath(lib, libabs))
		return err("cannot find the runtime libcalltrace.so%s%s (use --lib or "
			   "CALLTRACE_LIB)",
			   lib ? " at " : "", lib ? lib : "");

	if (prepare_dir(dir))
		return 1;
	char dirabs[PATH_MAX];
	if (!realpath(dir, dirabs))
		return err("%s: %s", dir, strerror(errno));
	char argspec[PATH_MAX + 32] = "";
	if (ao.nA || ao.nR || ao.autoargs) {
		char e[1024];
		/* a bad spec is a usage error; a file that cannot be read is not */
		for (size_t i = 0; i < ao.nA + ao.nR; i++) {
			char *re;
			struct ct_aspec sp;
			memset(&sp, 0, sizeof(sp));
			bool r = i >= ao.nA;
			if (ct_aspec_parse(r ? ao.R[i - ao.nA] : ao.A[i], r, &re, &sp, e, sizeof(e)) < 0)
				return err("%s %s", r ? "-R" : "-A", e), 2;
			regex_t rx;
			int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
			if (rc) {
				regerror(rc, &rx, e, sizeof(e));
				err("%s '%s': bad regex '%s': %s", r ? "-R" : "-A",
				    r ? ao.R[i - ao.nA] : ao.A[i], re, e);
				free(re);
				ct_aspec_free(&sp);
				return 2;
			}
			regfree(&rx);
			free(re);
			ct_aspec_free(&sp);
		}
		if (ct_args_prepare(&ao, argv[optind], dirabs, argspec, sizeof(argspec), e,
				    sizeof(e)) < 0)
			return err("%s", e);
	}
	free(ao.A);
	free(ao.R);
	free(ao.libs);

	struct recorder r;
	memset(&r, 0, sizeof(r));
	r.dir = dirabs;
	snprintf(r.shm, sizeof(r.shm), "/dev/shm/calltrace-%d", (int)getpid());
	if (mkdir(r.shm, 0700) < 0 && errno != EEXIST)
		return err("cannot create %s: %s (is /dev/shm mounted?)", r.shm, strerror(errno));

	char dbpath[PATH_MAX + 16];
	snprintf(dbpath, sizeof(dbpath), "%s/%s", r.shm, CT_DOORBELL_NAME);
	int dbfd = open(dbpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	struct ct_doorbell *db = NULL;
	if (dbfd >= 0 && ftruncate(dbfd, 4096) == 0)
		db = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, dbfd, 0);
	if (dbfd >= 0)
		close(dbfd);
	if (!db || db == MAP_FAILED)
		return err("cannot create %s: %s", dbpath, strerror(errno));

	struct run_info ri;
	memset(&ri, 0, sizeof(ri));
	ri.argv = argv + optind;
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(ri.start_time, sizeof(ri.start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	uint64_t clock0, mono0;
	ri.hz = measure_hz(&clock0, &mono0);
	ri.start_clock = read_clock();
	if (write_info(&r, &ri))
		return 1;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	fflush(NULL);
	child_pid = fork();
	if (child_pid < 0)
		return err("fork: %s", strerror(errno));
	if (child_pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		const char *old = getenv("LD_PRELOAD");
		char *pre = malloc(strlen(libabs) + (old ? strlen(old) : 0) + 2);
		strcpy(pre, libabs);
		if (old && *old) {
			strcat(pre, ":");
			strcat(pre, old);
		}
		setenv("LD_PRELOAD", pre, 1);
		setenv(CT_ENV_DIR, dirabs, 1);
		setenv(CT_ENV_SHM, r.shm, 1);
		setenv(CT_ENV_CLOCK, use_tsc ? "tsc" : "mono", 1);
		if (bufsize)
			setenv(CT_ENV_BUFSIZE, bufsize, 1);
		if (nbuf)
			setenv(CT_ENV_NBUF, nbuf, 1);
		if (*argspec)
			setenv(CT_ENV_ARGS, argspec, 1);
		else
			unsetenv(CT_ENV_ARGS);
		if (drop)
			setenv(CT_ENV_DROP, "1", 1);
		else
			unsetenv(CT_ENV_DROP);
		execvp(argv[optind], argv + optind);
		int e = errno;
		fprintf(stderr, "calltrace record: cannot run '%s': %s\n", argv[optind],
			strerror(e));
		_exit(e == ENOENT ? 127 : 126);
	}

	int status = 0;
	bool have_status = false, told = false;
	/* for the tests of --drop only: hold the drainer back at first */
	const char *pause = getenv("CALLTRACE_TEST_DRAIN_PAUSE_MS");
	uint64_t drain_from = mono_ns() + (pause ? strtoull(pause, NULL, 10) * 1000000u : 0);
	for (;;) {
		stamp_heartbeat(db);
		scan_shm(&r);
		bool did = mono_ns() >= drain_from && drain_all(&r);
		int st;
		pid_t p;
		bool gone = false;
		while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
			if (p == child_pid) {
				status = st;
				have_status = true;
				child_alive = 0;
			}
			/* everything it stored is in its rings: take the rest */
			scan_shm(&r);
			kill_rings_of(&r, p, INT_MAX);
		}
		if (p < 0 && errno == ECHILD)
			gone = true;
		if (have_status && !gone && !told && !quiet && isatty(2)) {
			fprintf(stderr, "calltrace: the program ended; waiting for the processes it "
					"left running (Ctrl-C to stop waiting)\n");
			told = true;
		}
		/* ^C: once the program has ended, stop waiting for the
		 * processes it left running (they run on, untraced) */
		if (interrupted || (int_seen && have_status))
			gone = true;
		if (gone) {
			scan_shm(&r);
			for (size_t i = 0; i < r.nrings; i++)
				r.rings[i]->dead = true;
			stop_draining(&r, db);
			note_running(&r);
			break;
		}
		if (!did) {
			/* sleep until a writer rings (ring half full, a thread
			 * ended) or a millisecond passes */
			uint32_t seq = __atomic_load_n(&db->seq, __ATOMIC_SEQ_CST);
			__atomic_store_n(&db->sleeping, 1, __ATOMIC_SEQ_CST);
			struct timespec ts = {0, 1000 * 1000};
			syscall(SYS_futex, &db->seq, FUTEX_WAIT, seq, &ts, NULL, 0);
			__atomic_store_n(&db->sleeping, 0, __ATOMIC_SEQ_CST);
		}
	}
	unlink(dbpath);
	munmap(db, 4096);
	ri.end_clock = read_clock();
	rmdir(r.shm);

	char exit_status[64];
	int code;
	if (!have_status) {
		snprintf(exit_status, sizeof(exit_status), "unknown");
		code = 1;
	} else if (WIFSIGNALED(status)) {
		snprintf(exit_status, sizeof(exit_status), "signal %d (SIG%s)", WTERMSIG(status),
			 signame(WTERMSIG(status)));
		code = 128 + WTERMSIG(status);
	} else {
		snprintf(exit_status, sizeof(exit_status), "exit %d", WEXITSTATUS(status));
		code = WEXITSTATUS(status);
	}
	ri.exit_status = exit_status;

	struct ct_error e;
	int mismatched = ct_save_symbols(dirabs, &e);
	if (mismatched < 0)
		err("saving symbol tables: %s", e.msg);
	uint64_t mono1 = mono_ns();
	if (use_tsc) {
		/* measure over at least 20 ms: the pair of readings at each end
		 * is good to about 0.1 us, so this is good to a few ppm */
		if (mono1 - mono0 < 20 * 1000 * 1000) {
			uint64_t rest = 20 * 1000 * 1000 - (mono1 - mono0);
			struct timespec ts = {0, (long)rest};
			nanosleep(&ts, NULL);
		}
		mono1 = mono_ns();
		uint64_t c1 = ct_arch_cycles();
		ri.hz = (double)(c1 - clock0) * 1e9 / (double)(mono1 - mono0);
	}
	ri.complete = true;
	write_info(&r, &ri);

	if (!quiet) {
		char size[64];
		uint64_t unfinished = r.st.enters - r.st.exits - r.st.unwound;
		print_size(size, sizeof(size), r.st.bytes);
		fprintf(stderr,
			"calltrace: %s: %zu process%s, %zu thread%s, %llu events (%llu calls) in "
			"%s, %.1f bytes per event, in %s/.",
			exit_status, r.npids, r.npids == 1 ? "" : "es", r.ntids,
			r.ntids == 1 ? "" : "s", (unsigned long long)r.st.events,
			(unsigned long long)r.st.enters, size,
			r.st.events ? (double)r.st.bytes / (double)r.st.events : 0.0, dir);
		if (r.st.lost)
			fprintf(stderr, " LOST: %llu events.", (unsigned long long)r.st.lost);
		else if (!r.nrunning)
			fprintf(stderr, " Nothing lost.");
		print_running(&r);
		if (r.st.unmatched)
			fprintf(stderr, " %llu exits without an entry.",
				(unsigned long long)r.st.unmatched);
		if (unfinished)
			fprintf(stderr, " %llu calls were still open when their thread ended.",
				(unsigned long long)unfinished);
		if (r.st.waits)
			fprintf(stderr, " The program waited %llu times for the trace writer.",
				(unsigned long long)r.st.waits);
		if (r.write_error)
			fprintf(stderr, " WRITE ERRORS: the trace is incomplete.");
		if (mismatched > 0)
			fprintf(stderr, " %d module%s changed on disk during the run: no symbols "
					"saved for %s.",
				mismatched, mismatched == 1 ? "" : "s",
				mismatched == 1 ? "it" : "them");
		fputc('\n', stderr);
	}
	free(r.running);
	return code;
}
