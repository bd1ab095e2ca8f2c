/* SPDX-License-Identifier: MIT */
/*
 * Reading call counts (see counts.h).  Each .cnt file is read whole
 * (bounded), line by line; a line that is not what doc/format.md describes
 * is an error naming the file and the line.
 *
 * Arcs keyed by function addresses (-finstrument-functions) name their
 * functions directly.  Arcs keyed by sites (-pg, -mfentry, patched entries)
 * name the functions that contain them: the callee holds the hook's return
 * address, the caller the return address of the call.  A caller that is no
 * traced function of the process (it never appears as a callee: main's
 * caller in libc, a library that calls back into the program) is shown as
 * no caller (<root>), as a full recording shows the outermost calls.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltrace/format.h"
#include "counts.h"
#include "error.h"
#include "output.h"
#include "session.h"
#include "util.h"

#define MAX_CNT_BYTES (512u << 20)

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && !strcmp(s + n - m, suffix);
}

bool ct_counts_only(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool cnt = false, ev = false;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		cnt |= ends_with(e->d_name, ".cnt");
		ev |= ends_with(e->d_name, ".ev");
	}
	closedir(d);
	return cnt && !ev;
}

/* one arc as read, before names are merged */
struct raw {
	uint32_t caller, callee;
	uint64_t calls, sself, stotal;
	bool site; /* its caller came from a return address */
};

struct rthread {
	struct ct_count_thread t;
	struct raw *raw;
	size_t nraw, cap, addrcap, fcap;
};

static const char *own(struct ct_counts *c, char *s)
{
	*CT_PUSH(c->owned, c->nowned, c->owncap) = s;
	return s;
}

/* the name of the function holding addr in process p (NULL: none known):
 * the symbol's name without the "+0xOFF" of an address inside it */
static uint32_t func_name(struct ct_counts *c, struct ct_session *s, struct ct_proc *p,
			  uint64_t addr)
{
	if (!p) {
		char b[32];
		snprintf(b, sizeof(b), "0x%" PRIx64, addr);
		int64_t id = ct_names_find(&c->names, b);
		return id >= 0 ? (uint32_t)id : ct_names_intern(&c->names, own(c, xstrdup(b)));
	}
	const struct ct_sym_info *si = ct_session_resolve(s, p, addr);
	const char *name = si->name, *plus = strrchr(name, '+');
	size_t mlen = si->module ? strlen(si->module) : 0;
	if (si->module && plus && plus[1] == '0' && plus[2] == 'x' &&
	    !((size_t)(plus - name) == mlen && !strncmp(name, si->module, mlen))) {
		char *b = xmalloc((size_t)(plus - name) + 1);
		memcpy(b, name, (size_t)(plus - name));
		b[plus - name] = 0;
		int64_t id = ct_names_find(&c->names, b);
		if (id >= 0) {
			free(b);
			return (uint32_t)id;
		}
		return ct_names_intern(&c->names, own(c, b));
	}
	return ct_names_intern(&c->names, name);
}

static struct ct_proc *find_proc(struct ct_session *s, int pid, int gen)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i]->pid == pid && s->procs[i]->gen == gen)
			return s->procs[i];
	return NULL;
}

/* the first 40 bytes of a line, escaped for a message (output.h): a file
 * may hold any byte */
static const char *shown(const char *l, char out[4 * 40 + 1])
{
	size_t n = strnlen(l, 40);
	out[ct_text_escape(out, l, n)] = 0;
	return out;
}

/* parse one .cnt file into rt; 0, or -1 with err filled (the file's name
 * and bytes from it escaped as every view's text) */
static int read_cnt(struct ct_counts *c, struct ct_session *s, const char *path, struct rthread *rt,
		    struct ct_error *err)
{
	size_t len;
	char *text = ct_read_file(path, true, MAX_CNT_BYTES, &len, err);
	if (!text)
		return -1;
	char *tpath = ct_text_dup(path);
	struct ct_proc *p = NULL;
	int version = -1, pid = -1, gen = -1, tid = -1;
	unsigned line = 0;
	int rc = 0;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		line++;
		char kind, extra;
		unsigned long long from, to, n;
		int v;
		if (line == 1) {
			if (sscanf(l, "calltrace-counts %d %c", &version, &extra) != 1 ||
			    version != CT_FORMAT_VERSION) {
				ct_set_err(err, "%s: not a calltrace count file of this version",
					   tpath);
				rc = -1;
				break;
			}
		} else if (sscanf(l, "pid %d %c", &v, &extra) == 1 && v > 0) {
			pid = v;
		} else if (sscanf(l, "gen %d %c", &v, &extra) == 1 && v >= 0) {
			gen = v;
		} else if (sscanf(l, "tid %d %c", &v, &extra) == 1 && v > 0) {
			tid = v;
		} else if (sscanf(l, "lost %llu %c", &n, &extra) == 1) {
			rt->t.lost = n;
		} else if (sscanf(l, "%c %llx %llx %llu %c", &kind, &from, &to, &n, &extra) == 4 &&
			   (kind == 'f' || kind == 's') && pid > 0 && gen >= 0 && tid > 0) {
			if (!p && !(p = find_proc(s, pid, gen)))
				ct_session_warn(s, "%s: no %d-%d.proc: addresses are not resolved",
						tpath, pid, gen);
			struct raw r = {.calls = n, .site = kind == 's'};
			if (kind == 'f') {
				r.callee = func_name(c, s, p, to);
				r.caller = from ? func_name(c, s, p, from) : CT_COUNT_ROOT;
			} else {
				r.callee = func_name(c, s, p, to - 1);
				r.caller = from ? func_name(c, s, p, from - 1) : CT_COUNT_ROOT;
			}
			*CT_PUSH(rt->raw, rt->nraw, rt->cap) = r;
			*CT_PUSH(rt->t.addrs, rt->t.naddrs, rt->addrcap) =
				(struct ct_count_addr){kind == 'f' ? to : to - 1, n};
		} else if (sscanf(l, "%c %llx %llx %llu %c", &kind, &from, &to, &n, &extra) == 4 &&
			   (kind == 'S' || kind == 'T' || kind == 'F') && pid > 0 && gen >= 0 &&
			   tid > 0 && (to || (kind == 'S' && from <= 2))) {
			/* record --count --sample: samples (format.md) */
			if (!p && !(p = find_proc(s, pid, gen)))
				ct_session_warn(s, "%s: no %d-%d.proc: addresses are not resolved",
						tpath, pid, gen);
			c->sampled = true;
			if (p && !rt->t.sample_ns)
				rt->t.sample_ns = p->sample_ns;
			if (kind == 'S' && !to && from == 2) {
				rt->t.samples_over += n; /* (not samples) */
				continue;
			}
			if (kind == 'S')
				rt->t.samples += n;
			if (kind == 'S' && !to) {
				*(from ? &rt->t.samples_hooks : &rt->t.samples_out) += n;
			} else if (kind == 'F') {
				*CT_PUSH(rt->t.fsmp, rt->t.nfsmp, rt->fcap) =
					(struct ct_count_fsmp){func_name(c, s, p, to), n};
			} else {
				/* (from: an address in the caller, which
				 * may be untraced, as a site's caller) */
				struct raw r = {.callee = func_name(c, s, p, to), .site = true};
				r.caller = from ? func_name(c, s, p, from) : CT_COUNT_ROOT;
				*(kind == 'S' ? &r.sself : &r.stotal) = n;
				*CT_PUSH(rt->raw, rt->nraw, rt->cap) = r;
			}
		} else {
			char b[4 * 40 + 1];
			ct_set_err(err, "%s: line %u: bad line '%s'", tpath, line, shown(l, b));
			rc = -1;
			break;
		}
	}
	if (!rc && (pid <= 0 || gen < 0 || tid <= 0)) {
		ct_set_err(err, "%s: no pid, gen and tid lines", tpath);
		rc = -1;
	}
	rt->t.pid = pid;
	rt->t.gen = gen;
	rt->t.tid = tid;
	free(text);
	free(tpath);
	return rc;
}

static int cmp_arc(const void *pa, const void *pb)
{
	const struct ct_count_arc *a = pa, *b = pb;
	if (a->callee != b->callee)
		return a->callee < b->callee ? -1 : 1;
	return a->caller < b->caller ? -1 : a->caller > b->caller;
}

struct cntname {
	int pid, gen, tid;
	char *name;
};

static int cmp_cntname(const void *pa, const void *pb)
{
	const struct cntname *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->gen != b->gen)
		return a->gen < b->gen ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

int ct_counts_load(struct ct_session *s, const int *tids, size_t ntids, struct ct_counts *c,
		   struct ct_msgs *msgs, struct ct_error *err)
{
	int rc = 0;
	bool missing = false;
	memset(c, 0, sizeof(*c));
	ct_names_init(&c->names);
	DIR *d = opendir(s->dir);
	if (!d) {
		ct_set_err(err, "cannot read %s: %s", s->dir, strerror(errno));
		return -1;
	}
	struct cntname *files = NULL;
	size_t nfiles = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid, gen, tid, used = 0;
		if (sscanf(e->d_name, "%d-%d-%d.cnt%n", &pid, &gen, &tid, &used) == 3 && used > 0 &&
		    !e->d_name[used])
			*CT_PUSH(files, nfiles, cap) =
				(struct cntname){pid, gen, tid, xstrdup(e->d_name)};
	}
	closedir(d);
	if (nfiles)
		qsort(files, nfiles, sizeof(*files), cmp_cntname);
	for (size_t i = 0; i < ntids; i++) {
		bool found = false;
		for (size_t k = 0; k < nfiles; k++)
			found |= files[k].tid == tids[i];
		if (!found) {
			ct_msg_add(msgs, CT_MSG_ERROR, "no thread %d in %s", tids[i], s->dir);
			missing = true; /* the views exit 1: read nothing */
		}
	}
	struct rthread *rts = xcalloc(nfiles ? nfiles : 1, sizeof(*rts));
	size_t n = 0;
	for (size_t k = 0; k < nfiles && !rc && !missing; k++) {
		bool want = !ntids;
		for (size_t i = 0; i < ntids; i++)
			want |= tids[i] == files[k].tid;
		if (!want)
			continue;
		char *path = xasprintf("%s/%s", s->dir, files[k].name);
		rc = read_cnt(c, s, path, &rts[n], err);
		free(path);
		n++;
	}
	/* a caller from a return address that is no traced function (called
	 * in no thread of the recording: a forked child's main was called in
	 * its parent): none */
	bool *callee = xcalloc(c->names.n ? c->names.n : 1, sizeof(*callee));
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < rts[k].nraw; i++)
			callee[rts[k].raw[i].callee] = true;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < rts[k].nraw; i++) {
			struct raw *r = &rts[k].raw[i];
			if (r->site && r->caller != CT_COUNT_ROOT && !callee[r->caller])
				r->caller = CT_COUNT_ROOT;
		}
	free(callee);
	/* one arc per (caller, callee) name pair of a thread */
	c->threads = xcalloc(n ? n : 1, sizeof(*c->threads));
	for (size_t k = 0; k < n; k++) {
		struct rthread *rt = &rts[k];
		struct ct_count_thread *t = &c->threads[k];
		*t = rt->t;
		t->arcs = xmalloc((rt->nraw ? rt->nraw : 1) * sizeof(*t->arcs));
		for (size_t i = 0; i < rt->nraw; i++)
			t->arcs[i] = (struct ct_count_arc){rt->raw[i].caller, rt->raw[i].callee,
							   rt->raw[i].calls, rt->raw[i].sself,
							   rt->raw[i].stotal};
		if (rt->nraw)
			qsort(t->arcs, rt->nraw, sizeof(*t->arcs), cmp_arc);
		size_t w = 0;
		for (size_t i = 0; i < rt->nraw; i++) {
			if (w && !cmp_arc(&t->arcs[w - 1], &t->arcs[i])) {
				t->arcs[w - 1].calls += t->arcs[i].calls;
				t->arcs[w - 1].sself += t->arcs[i].sself;
				t->arcs[w - 1].stotal += t->arcs[i].stotal;
			} else
				t->arcs[w++] = t->arcs[i];
		}
		t->narcs = w;
		c->lost += t->lost;
		free(rt->raw);
	}
	c->nthreads = n;
	free(rts);
	for (size_t k = 0; k < nfiles; k++)
		free(files[k].name);
	free(files);
	return rc ? -1 : missing ? 1 : 0;
}

void ct_counts_free(struct ct_counts *c)
{
	for (size_t i = 0; i < c->nthreads; i++) {
		free(c->threads[i].arcs);
		free(c->threads[i].addrs);
		free(c->threads[i].fsmp);
	}
	free(c->threads);
	for (size_t i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	ct_names_free(&c->names);
	memset(c, 0, sizeof(*c));
}

void ct_counts_warn_lost(const struct ct_counts *c, struct ct_msgs *warn)
{
	if (c->lost)
		ct_msg_add(warn, CT_MSG_WARN,
			   "%llu calls were not counted while recording (a counting table was "
			   "full): the counts are too low",
			   (unsigned long long)c->lost);
}
