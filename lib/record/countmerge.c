/* SPDX-License-Identifier: MIT */
/*
 * record --count: sum the threads' counting tables into the .cnt files of DIR (see
 * countmerge.h).  A table is taken only if it is a regular file of ours,
 * never through a link, of a size that holds what its header says; its
 * slots are read as they are (a thread killed in the middle of adding an
 * arc leaves at worst a slot without its count, which adds nothing).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "countmerge.h"
#include "error.h"

/* one arc of one thread */
struct arc {
	uint32_t pid, gen, tid;
	char kind; /* a .cnt line's: 'f', 's' (keyed by sites: hooked front
		    * ends), 'S', 'T', 'F' (samples: see kind_of) */
	uint64_t from, to, n;
};

/* one thread's lost count */
struct tlost {
	uint32_t pid, gen, tid;
	uint64_t lost;
};

struct collect {
	struct ct_msgs *msgs;
	struct arc *arcs;
	size_t narcs, cap;
	struct tlost *lost;
	size_t nlost, lcap;
	struct ct_count_stats *st;
};

static void say(const struct collect *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct collect *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_msg_vadd(c->msgs, CT_MSG_ERROR, fmt, ap);
	va_end(ap);
}

#define MAX_TABLE_BYTES ((uint64_t)4096 + ((uint64_t)1 << 22) * sizeof(struct ct_count_slot))

/* a table's header as read once (a process still running can rewrite
 * the one it shares with us at any time) */
struct table {
	uint32_t pid, gen, tid;
	uint64_t nslots, slots_offset, lost;
};

#define ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)

static bool add_lost(struct collect *c, const struct table *h)
{
	for (size_t i = 0; i < c->nlost; i++)
		if (c->lost[i].pid == h->pid && c->lost[i].gen == h->gen &&
		    c->lost[i].tid == h->tid) {
			c->lost[i].lost += h->lost;
			return true;
		}
	if (c->nlost == c->lcap) {
		size_t cap = c->lcap ? c->lcap * 2 : 64;
		struct tlost *n = realloc(c->lost, cap * sizeof(*n));
		if (!n)
			return false;
		c->lost = n;
		c->lcap = cap;
	}
	c->lost[c->nlost++] = (struct tlost){h->pid, h->gen, h->tid, h->lost};
	return true;
}

/* a slot's .cnt line kind, its flags taken out of *to: 'f' a call by
 * function addresses, 's' by sites, 'S' self samples on an arc (from 0,
 * to 0: outside any call; from 1: the tracer's; from 2: the overruns of
 * the samples taken, format.h), 'T' samples with an arc open, 'F' samples
 * with a function (to) open (format.h) */
static char kind_of(uint64_t from, uint64_t *to)
{
	if (*to & CT_COUNT_SITE) {
		*to &= ~CT_COUNT_SITE;
		return 's';
	}
	if (*to & CT_COUNT_SSELF) {
		*to &= ~CT_COUNT_SSELF;
		return 'S';
	}
	if (*to & CT_COUNT_STOTAL) {
		*to &= ~CT_COUNT_STOTAL;
		return from == CT_COUNT_SFUNC ? 'F' : 'T';
	}
	return 'f';
}

/* the arcs of one table file (samples: a table of samples, whose keys
 * are all samples'; an arcs' table has none); false: out of memory */
static bool read_table(struct collect *c, int shm_fd, const char *shm, const char *name,
		       bool samples)
{
	int fd = openat(shm_fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	const char *why = NULL;
	void *m = MAP_FAILED;
	if (fd < 0)
		why = strerror(errno);
	else if (fstat(fd, &st) < 0)
		why = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (st.st_uid != geteuid())
		why = "it belongs to another user";
	else if (st.st_size < 4096 || (uint64_t)st.st_size > MAX_TABLE_BYTES)
		why = "not the size of a counting table";
	else if ((m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED)
		why = strerror(errno);
	if (fd >= 0)
		close(fd);
	struct ct_count_header *mh = m;
	struct table tb, *h = &tb;
	if (!why) {
		uint32_t magic = ONCE(mh->magic), version = ONCE(mh->version);
		tb = (struct table){ONCE(mh->pid),    ONCE(mh->gen),          ONCE(mh->tid),
				    ONCE(mh->nslots), ONCE(mh->slots_offset), ONCE(mh->lost)};
		if (magic != CT_COUNT_MAGIC || version != CT_FORMAT_VERSION || !h->nslots ||
		    (h->nslots & (h->nslots - 1)) || h->slots_offset < sizeof(*mh) ||
		    h->slots_offset > (uint64_t)st.st_size || h->slots_offset % 8 ||
		    h->nslots >
			    ((uint64_t)st.st_size - h->slots_offset) / sizeof(struct ct_count_slot))
			why = "not a calltrace counting table of this version";
	}
	if (why) {
		say(c, "%s/%s: %s; ignored", shm, name, why);
		c->st->refused++;
		if (m != MAP_FAILED)
			munmap(m, (size_t)st.st_size);
		return true;
	}
	bool ok = add_lost(c, h);
	const struct ct_count_slot *s =
		(const struct ct_count_slot *)((const char *)m + h->slots_offset);
	for (uint64_t i = 0; ok && i < h->nslots; i++) {
		uint64_t to = __atomic_load_n(&s[i].to, __ATOMIC_ACQUIRE);
		uint64_t n = ONCE(s[i].n), from = ONCE(s[i].from);
		if (!to || !n || (from == CT_COUNT_SFUNC && !(to & CT_COUNT_STOTAL)))
			continue;
		bool sample_key =
			!(to & CT_COUNT_SITE) && (to & (CT_COUNT_SSELF | CT_COUNT_STOTAL));
		if (sample_key != samples)
			continue; /* (not what this table holds: damage) */
		if (c->narcs == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 1024;
			struct arc *na = realloc(c->arcs, cap * sizeof(*na));
			if (!na) {
				ok = false;
				break;
			}
			c->arcs = na;
			c->cap = cap;
		}
		char kind = kind_of(from, &to);
		c->arcs[c->narcs++] = (struct arc){h->pid, h->gen, h->tid, kind, from, to, n};
	}
	munmap(m, (size_t)st.st_size);
	return ok;
}

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))
static int cmp_arc(const void *pa, const void *pb)
{
	const struct arc *a = pa, *b = pb;
	int r;
	if ((r = CMP(a->pid, b->pid)) || (r = CMP(a->gen, b->gen)) || (r = CMP(a->tid, b->tid)) ||
	    (r = CMP(a->kind, b->kind)) || (r = CMP(a->from, b->from)))
		return r;
	return CMP(a->to, b->to);
}

static bool same_thread(const struct arc *a, uint32_t pid, uint32_t gen, uint32_t tid)
{
	return a->pid == pid && a->gen == gen && a->tid == tid;
}

/* DIR/PID-GEN-TID.cnt: private, created anew, never through a link */
static bool write_thread(struct collect *c, const char *dir, const struct tlost *t,
			 const struct arc *a, size_t n)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof(path), "%s/%u-%u-%u.cnt", dir, t->pid, t->gen, t->tid);
	snprintf(tmp, sizeof(tmp), "%s/.%u-%u-%u.cnt.tmp", dir, t->pid, t->gen, t->tid);
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		say(c, "cannot create %s: %s", tmp, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	fprintf(f, "calltrace-counts %d\npid %u\ngen %u\ntid %u\nlost %llu\n", CT_FORMAT_VERSION,
		t->pid, t->gen, t->tid, (unsigned long long)t->lost);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%c %llx %llx %llu\n", a[i].kind,
			(unsigned long long)(a[i].kind == 'F' ? 0 : a[i].from),
			(unsigned long long)a[i].to, (unsigned long long)a[i].n);
	bool ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path) < 0) {
		say(c, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

int ct_counts_collect(int shm_fd, const char *shm, const char *dir, struct ct_count_stats *st,
		      struct ct_msgs *msgs, struct ct_error *err)
{
	struct collect c = {.msgs = msgs, .st = st};
	memset(st, 0, sizeof(*st));
	int dfd = fcntl(shm_fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		ct_set_err(err, "cannot read %s: %s", shm, strerror(errno));
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	rewinddir(d); /* the descriptor shares its offset with the drainer's */
	bool ok = true;
	struct dirent *e;
	while (ok && (e = readdir(d)))
		if (!strncmp(e->d_name, CT_COUNT_PREFIX, strlen(CT_COUNT_PREFIX)))
			ok = read_table(&c, shm_fd, shm, e->d_name, false);
		else if (!strncmp(e->d_name, CT_COUNT_SAMPLE_PREFIX,
				  strlen(CT_COUNT_SAMPLE_PREFIX)))
			ok = read_table(&c, shm_fd, shm, e->d_name, true);
	closedir(d);
	if (!ok) {
		ct_set_err(err, "out of memory reading the counting tables");
		free(c.arcs);
		free(c.lost);
		return -1;
	}
	if (c.narcs)
		qsort(c.arcs, c.narcs, sizeof(*c.arcs), cmp_arc);
	/* the same arc in several tables of a thread: one line */
	size_t w = 0;
	for (size_t i = 0; i < c.narcs; i++) {
		if (w && !cmp_arc(&c.arcs[w - 1], &c.arcs[i]))
			c.arcs[w - 1].n += c.arcs[i].n;
		else
			c.arcs[w++] = c.arcs[i];
	}
	c.narcs = w;
	uint32_t lastpid = 0;
	for (size_t t = 0; t < c.nlost; t++) {
		const struct tlost *tl = &c.lost[t];
		size_t i = 0, n = 0;
		while (i < c.narcs && !same_thread(&c.arcs[i], tl->pid, tl->gen, tl->tid))
			i++;
		while (i + n < c.narcs && same_thread(&c.arcs[i + n], tl->pid, tl->gen, tl->tid))
			n++;
		if (!n && !tl->lost)
			continue; /* a table that counted nothing */
		for (size_t k = 0; k < n; k++)
			if (c.arcs[i + k].kind == 'f' || c.arcs[i + k].kind == 's') {
				st->calls += c.arcs[i + k].n;
				st->arcs++;
			} else if (c.arcs[i + k].kind == 'S' &&
				   !(c.arcs[i + k].from == 2 && !c.arcs[i + k].to))
				st->samples += c.arcs[i + k].n; /* (S 2 0: no samples) */
		st->lost += tl->lost;
		if (write_thread(&c, dir, tl, c.arcs + i, n))
			st->threads++;
		else
			st->failures++;
		if (tl->pid != lastpid) {
			bool seen = false;
			for (size_t k = 0; k < t; k++)
				seen |= c.lost[k].pid == tl->pid;
			st->processes += !seen;
			lastpid = tl->pid;
		}
	}
	free(c.arcs);
	free(c.lost);
	return 0;
}
