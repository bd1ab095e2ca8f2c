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

#include "error.h"

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

/* copy the small file name of the data directory (from) into a snapshot
 * (to, shown as dir); a write that fails said in msgs */
static void copy_small(int from, int to, const char *dir, const char *name, struct ct_msgs *msgs)
{
	char buf[65536];
	int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (in < 0)
		return;
	int out = openat(to, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	ssize_t n;
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			ct_msg_add(msgs, CT_MSG_ERROR, "writing %s/%s: %s", dir, name,
				   strerror(errno));
			break;
		}
	if (out >= 0)
		close(out);
	close(in);
}

int ct_snapshot_take(const struct ct_snapshot_dir *sd, struct ct_drainer *dr,
		     const struct ct_info *base, unsigned n, const char *reason,
		     struct ct_snapshot_taken *got, struct ct_msgs *msgs, struct ct_error *err)
{
	char dir[PATH_MAX + 32], name[32];
	snprintf(name, sizeof(name), "snapshot.%u", n);
	snprintf(dir, sizeof(dir), "%s/%s", sd->dirabs, name);
	int sfd = -1;
	if (mkdirat(sd->dfd, name, 0700) < 0 ||
	    (sfd = openat(sd->dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0) {
		ct_set_err(err, "cannot create %s: %s; no snapshot", dir, strerror(errno));
		return -1;
	}
	struct ct_drain_stats st;
	struct ct_flight_win *w = NULL;
	size_t nw = 0;
	ct_drainer_snapshot(dr, dir, sfd, &st, &w, &nw);
	int lfd = openat(sd->dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dd = lfd >= 0 ? fdopendir(lfd) : NULL;
	if (!dd && lfd >= 0)
		close(lfd);
	struct dirent *e;
	while (dd && (e = readdir(dd))) {
		size_t l = strlen(e->d_name);
		if ((l > 5 && !strcmp(e->d_name + l - 5, ".proc")) ||
		    !strcmp(e->d_name, CT_ARGS_FILE))
			copy_small(sd->dfd, sfd, dir, e->d_name, msgs);
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
	struct ct_error ie;
	ct_info_init(&fi, dir);
	fi.dfd = sfd;
	if (ct_info_write(&fi, &ri, &ie) < 0)
		ct_msg_add(msgs, CT_MSG_ERROR, "%s", ie.msg);
	close(sfd);
	got->events = st.events;
	got->threads = nw;
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

void ct_snapshot_link_symbols(const char *dirabs, int dfd, unsigned nsnap, struct ct_msgs *msgs)
{
	for (unsigned n = 1; n <= nsnap; n++) {
		char to[64];
		snprintf(to, sizeof(to), "snapshot.%u/sym", n);
		int sfd = openat(dfd, "sym", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		DIR *d = sfd >= 0 ? fdopendir(sfd) : NULL;
		if (!d && sfd >= 0)
			close(sfd);
		if (!d || mkdirat(dfd, to, 0700) < 0) {
			if (d)
				closedir(d);
			continue;
		}
		struct dirent *e;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			char b[PATH_MAX];
			if (l < 5 || strcmp(e->d_name + l - 4, ".sym"))
				continue;
			snprintf(b, sizeof(b), "%s/%s", to, e->d_name);
			if (linkat(dirfd(d), e->d_name, dfd, b, 0) < 0 && errno != EEXIST)
				ct_msg_add(msgs, CT_MSG_ERROR, "cannot link %s/sym/%s to %s/%s: %s",
					   dirabs, e->d_name, dirabs, b, strerror(errno));
		}
		closedir(d);
	}
}
