/* SPDX-License-Identifier: MIT */
/* record --flight's snapshots: see snapshot.h. */
#include "snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "message.h"

char *ct_snapshot_lines(unsigned n, const char *reason, uint64_t clock,
			const struct ct_flight_win *w, size_t nw)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (n)
		fprintf(f, "snapshot: %u\n", n);
	fprintf(f, "snapshot_reason: %s\nsnapshot_clock: %llu\n", reason,
		(unsigned long long)clock);
	for (size_t i = 0; i < nw; i++)
		fprintf(f, "window: %d-%d-%d %llu %llu\n", w[i].pid, w[i].gen, w[i].tid,
			(unsigned long long)w[i].from, (unsigned long long)w[i].to);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* copy the small file name of the data directory into dir (a snapshot) */
static void copy_small(const char *from, const char *dir, const char *name)
{
	char src[PATH_MAX * 2], dst[PATH_MAX * 2], buf[65536];
	snprintf(src, sizeof(src), "%s/%s", from, name);
	snprintf(dst, sizeof(dst), "%s/%s", dir, name);
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0)
		return;
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	ssize_t n;
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ct_error("writing %s: %s", dst, strerror(errno));
			break;
		}
	if (out >= 0)
		close(out);
	close(in);
}

int ct_snapshot_take(const struct ct_snapshot_dir *sd, struct ct_drainer *dr,
		     const struct ct_info *base, unsigned n, const char *reason)
{
	char dir[PATH_MAX + 32];
	snprintf(dir, sizeof(dir), "%s/snapshot.%u", sd->dirabs, n);
	if (mkdir(dir, 0700) < 0) {
		ct_error("cannot create %s: %s; no snapshot", dir, strerror(errno));
		return -1;
	}
	struct ct_drain_stats st;
	struct ct_flight_win *w = NULL;
	size_t nw = 0;
	ct_drainer_snapshot(dr, dir, &st, &w, &nw);
	DIR *dd = opendir(sd->dirabs);
	struct dirent *e;
	while (dd && (e = readdir(dd))) {
		size_t l = strlen(e->d_name);
		if ((l > 5 && !strcmp(e->d_name + l - 5, ".proc")) ||
		    !strcmp(e->d_name, CT_ARGS_FILE))
			copy_small(sd->dirabs, dir, e->d_name);
	}
	if (dd)
		closedir(dd);
	struct ct_info ri = *base;
	ri.complete = true;
	ri.exit_status = "running";
	size_t np = 0;
	for (size_t i = 0; i < nw; i++) {
		size_t j = 0;
		while (j < i && w[j].pid != w[i].pid)
			j++;
		np += j == i;
	}
	ri.processes = np;
	ri.threads = nw;
	ri.events = st.events;
	ri.bytes = st.bytes;
	ri.unfinished = ct_drain_unfinished(&st);
	ri.running = NULL;
	ri.nrunning = 0;
	char *extra = ct_snapshot_lines(n, reason, ri.end_clock, w, nw);
	ri.extra = extra;
	struct ct_info_file fi;
	ct_info_init(&fi, dir, ct_verror);
	ct_info_write(&fi, &ri);
	if (!sd->quiet)
		fprintf(stderr,
			"calltrace: snapshot %u (%s): %llu events of %zu thread%s in "
			"%s/snapshot.%u/\n",
			n, reason, (unsigned long long)st.events, nw, nw == 1 ? "" : "s", sd->shown,
			n);
	free(extra);
	free(w);
	return 0;
}

bool ct_snapshot_requested(const struct ct_doorbell *db, char *reason, size_t len)
{
	uint32_t req = __atomic_load_n(&db->snap_req, __ATOMIC_ACQUIRE);
	if (req == __atomic_load_n(&db->snap_done, __ATOMIC_RELAXED))
		return false;
	size_t k = (size_t)snprintf(reason, len, "program: ");
	for (size_t i = 0; i < sizeof(db->snap_reason) && db->snap_reason[i] && k + 1 < len; i++)
		reason[k++] = (unsigned char)db->snap_reason[i] < ' ' || db->snap_reason[i] == 127
				      ? '?'
				      : db->snap_reason[i];
	reason[k] = 0;
	return true;
}

void ct_snapshot_served(struct ct_doorbell *db)
{
	uint32_t req = __atomic_load_n(&db->snap_req, __ATOMIC_ACQUIRE);
	__atomic_store_n(&db->snap_done, req, __ATOMIC_RELEASE);
	__atomic_store_n(&db->snap_lock, 0, __ATOMIC_RELEASE);
	syscall(SYS_futex, &db->snap_done, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void ct_snapshot_link_symbols(const char *dirabs, unsigned nsnap)
{
	char sym[PATH_MAX + 8];
	snprintf(sym, sizeof(sym), "%s/sym", dirabs);
	for (unsigned n = 1; n <= nsnap; n++) {
		char to[PATH_MAX + 32], a[PATH_MAX * 3], b[PATH_MAX * 3];
		snprintf(to, sizeof(to), "%s/snapshot.%u/sym", dirabs, n);
		DIR *d = opendir(sym);
		if (!d || mkdir(to, 0700) < 0) {
			if (d)
				closedir(d);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			if (l < 5 || strcmp(e->d_name + l - 4, ".sym"))
				continue;
			snprintf(a, sizeof(a), "%s/%s", sym, e->d_name);
			snprintf(b, sizeof(b), "%s/%s", to, e->d_name);
			if (link(a, b) < 0 && errno != EEXIST)
				ct_error("cannot link %s to %s: %s", a, b, strerror(errno));
		}
		closedir(d);
	}
}
