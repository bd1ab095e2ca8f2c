/* SPDX-License-Identifier: MIT */
/*
 * record's answers to the images exec'd from programs its record-time
 * filters were not matched against (doc/record.md, "Programs it execs";
 * the doorbell's fx_* fields, runtime/filter.c): their own decisions,
 * matched by the same code as before the run, in DIR/filter.x<REQ>.spec.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "message.h"
#include "recfilter.h"
#include "recorder.h"
#include "specout.h"
#include "util.h"

/* DIR/filter.x<to>.spec as a copy of DIR/filter.x<from>.spec */
static int copy_filter(struct recorder *r, uint32_t from, uint32_t to, struct ct_error *e)
{
	char name[64], path[PATH_MAX + 64];
	snprintf(name, sizeof(name), CT_FILTER_EXEC_FMT, from);
	int fd = openat(r->dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ct_set_err(e, "%s/%s: %s", r->dirabs, name, strerror(errno));
		return -1;
	}
	snprintf(name, sizeof(name), CT_FILTER_EXEC_FMT, to);
	FILE *out = ct_specout_create(r->dirabs, r->dfd, name, path, sizeof(path), e);
	if (!out) {
		close(fd);
		return -1;
	}
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, out);
	close(fd);
	if ((fclose(out) != 0) | (n < 0)) {
		ct_set_err(e, "cannot write %s: %s", path, strerror(errno));
		unlinkat(r->dfd, name, 0);
		return -1;
	}
	return 0;
}

/* an image exec'd from a program that DIR/filter.spec does not cover asks
 * for decisions of its own (the doorbell's fx_*, runtime/filter.c): the
 * regexes matched against /proc/PID/exe and the modules it needs, into
 * DIR/filter.x<REQ>.spec (each program once: then a copy); no file when
 * it cannot, and a warning says why */
void ct_record_exec_filters(struct recorder *r)
{
	struct ct_doorbell *db = r->dr.db;
	if (!db || !r->filters)
		return;
	uint32_t req = __atomic_load_n(&db->fx_req, __ATOMIC_ACQUIRE);
	if (req == __atomic_load_n(&db->fx_done, __ATOMIC_RELAXED))
		return;
	int pid = __atomic_load_n(&db->fx_pid, __ATOMIC_RELAXED);
	char lnk[64], exe[PATH_MAX];
	snprintf(lnk, sizeof(lnk), "/proc/%d/exe", pid);
	ssize_t n = pid > 0 ? readlink(lnk, exe, sizeof(exe) - 1) : -1;
	struct ct_error e = {0};
	int rc = -1;
	if (n <= 0) {
		ct_set_err(&e, "%s: %s", lnk, pid > 0 ? strerror(errno) : "no such process");
		snprintf(exe, sizeof(exe), "process %d", pid);
	} else if (exe[n] = 0, access(exe, R_OK) < 0) {
		/* (a program exec'd from a file deleted since: "PATH (deleted)") */
		ct_set_err(&e, "cannot read it: %s", strerror(errno));
	} else {
		size_t i = 0;
		while (i < r->nfx && strcmp(r->fx[i].path, exe))
			i++;
		if (i < r->nfx) {
			rc = copy_filter(r, r->fx[i].req, req, &e);
		} else {
			char name[64], path[PATH_MAX + 64];
			struct ct_msgs warn = {0};
			snprintf(name, sizeof(name), CT_FILTER_EXEC_FMT, req);
			rc = ct_recfilter_prepare_as(&r->o.rf, exe, r->dirabs, r->dfd, name,
						     r->ri.hz, path, sizeof(path), &warn, &e);
			ct_msgs_free(&warn); /* (said of the program, not again) */
			if (rc == 0) {
				r->fx = xrealloc(r->fx, (r->nfx + 1) * sizeof(*r->fx));
				r->fx[r->nfx].path = xstrdup(exe);
				r->fx[r->nfx++].req = req;
			}
		}
	}
	if (rc < 0)
		ct_warn("%s (exec'd, pid %d): the record-time filters (-F, -N, --hide, -T) "
			"were not matched against its functions: %s",
			exe, pid, e.msg);
	__atomic_store_n(&db->fx_done, req, __ATOMIC_RELEASE);
	__atomic_store_n(&db->fx_lock, 0, __ATOMIC_RELEASE);
	syscall(SYS_futex, &db->fx_done, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void ct_record_exec_free(struct recorder *r)
{
	for (size_t i = 0; i < r->nfx; i++)
		free(r->fx[i].path);
	free(r->fx);
	r->fx = NULL;
	r->nfx = 0;
}
