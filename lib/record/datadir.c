/* SPDX-License-Identifier: MIT */
/*
 * Writing a data directory (datadir.h): making it ready for a recording,
 * and its info file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "datadir.h"
#include "error.h"

/* ---- preparing the directory ------------------------------------------ */

/* names a recording holds: info (and its temporary names: .info.tmp from
 * record, .info.PID from the linked-in runtime), PID-GEN.proc,
 * PID-GEN-TID.ev, PID-GEN-TID.cnt (and .PID-GEN-TID.cnt.tmp: record --count),
 * args.spec, filter.spec; sym/ holds KEY.sym (and KEY.sym.tmpPID) */
static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n > m && !strcmp(s + n - m, suffix);
}

static bool digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static bool recording_name(const char *n)
{
	return !strcmp(n, "info") || !strcmp(n, ".info.tmp") ||
	       (!strncmp(n, ".info.", 6) && digits(n + 6)) || !strcmp(n, CT_ARGS_FILE) ||
	       !strcmp(n, CT_FILTER_FILE) ||
	       (!strncmp(n, "filter.x", 8) && ends_with(n, ".spec")) ||
	       !strcmp(n, CT_LIBCALL_FILE) || ends_with(n, ".proc") || ends_with(n, ".ev") ||
	       ends_with(n, ".cnt") || (n[0] == '.' && ends_with(n, ".cnt.tmp"));
}

static bool sym_name(const char *n)
{
	const char *t = strstr(n, ".sym");
	return t && t != n && (!t[4] || (!strncmp(t + 4, ".tmp", 4) && digits(t + 8)));
}

/* Whether dfd (a directory) holds only what a recording holds, every entry
 * a regular file of ours (sym/ a directory of ours holding only .sym
 * files), nothing else and no link; with del, remove them.  why gets the
 * reason when it does not. */
static bool check_tree(int dfd, bool top, bool del, char *why, size_t wl)
{
	int fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		snprintf(why, wl, "cannot read it: %s", strerror(errno));
		return false;
	}
	rewinddir(d); /* the offset is dfd's, which may have been read */
	bool ok = true;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		const char *n = e->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		struct stat st;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			snprintf(why, wl, "cannot stat %s: %s", n, strerror(errno));
			ok = false;
		} else if (st.st_uid != geteuid()) {
			snprintf(why, wl, "%s%s belongs to another user", top ? "" : "sym/", n);
			ok = false;
		} else if (top && !strncmp(n, "snapshot.", 9) && digits(n + 9) &&
			   S_ISDIR(st.st_mode)) {
			/* record --flight: a snapshot, a recording of its own */
			int sfd = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			ok = sfd >= 0 && check_tree(sfd, true, del, why, wl);
			if (sfd < 0)
				snprintf(why, wl, "cannot open %s: %s", n, strerror(errno));
			else
				close(sfd);
			if (ok && del && unlinkat(dfd, n, AT_REMOVEDIR) < 0) {
				snprintf(why, wl, "cannot remove %s: %s", n, strerror(errno));
				ok = false;
			}
		} else if (top && !strcmp(n, "sym") && S_ISDIR(st.st_mode)) {
			int sfd = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sfd < 0) {
				snprintf(why, wl, "cannot open sym/: %s", strerror(errno));
				ok = false;
			} else {
				ok = check_tree(sfd, false, del, why, wl);
				close(sfd);
				if (ok && del && unlinkat(dfd, n, AT_REMOVEDIR) < 0) {
					snprintf(why, wl, "cannot remove sym/: %s",
						 strerror(errno));
					ok = false;
				}
			}
		} else if (S_ISLNK(st.st_mode)) {
			snprintf(why, wl, "%s%s is a symbolic link", top ? "" : "sym/", n);
			ok = false;
		} else if (!S_ISREG(st.st_mode) || !(top ? recording_name(n) : sym_name(n))) {
			snprintf(why, wl, "it holds %s%s, which is not part of a recording",
				 top ? "" : "sym/", n);
			ok = false;
		} else if (del && unlinkat(dfd, n, 0) < 0) {
			snprintf(why, wl, "cannot remove %s: %s", n, strerror(errno));
			ok = false;
		}
	}
	closedir(d);
	return ok;
}

/* whether dfd is a calltrace recording: its info starts with
 * "calltrace-data:", and it holds nothing a recording does not hold */
static bool is_recording(int dfd, char *why, size_t wl)
{
	struct stat st;
	if (fstat(dfd, &st) < 0 || st.st_uid != geteuid()) {
		snprintf(why, wl, "it belongs to another user");
		return false;
	}
	int fd = openat(dfd, "info", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char head[16];
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    read(fd, head, sizeof(head)) != (ssize_t)sizeof(head) ||
	    memcmp(head, "calltrace-data: ", sizeof(head))) {
		snprintf(why, wl, "it has no calltrace info file");
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return check_tree(dfd, true, false, why, wl);
}

/* try to take the lock of a data directory (flock on its descriptor, held
 * while it stays open): false only when another holder has it.  A file
 * system that cannot lock (ENOLCK, EINVAL) is used without one. */
static bool lock_dir(int fd)
{
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		return errno != EWOULDBLOCK;
	}
	return true;
}

static int busy(struct ct_error *err, const char *shown)
{
	ct_set_err(err,
		   "%s is in use: another calltrace record is writing into it; wait for it to end "
		   "or choose another directory with -d",
		   shown);
	return CT_DATADIR_BUSY;
}

/* remove DIR.old (base old in pfd), which must be a recording that no
 * record is writing: nothing else is ever removed.  0, 1 or
 * CT_DATADIR_BUSY after a message. */
static int remove_old(int pfd, const char *old, const char *shown, struct ct_error *err)
{
	char why[PATH_MAX + 128];
	struct stat st;
	if (fstatat(pfd, old, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		return ct_set_err_rc(err, 1, "cannot replace %s: %s", shown, strerror(errno));
	}
	int fd = openat(pfd, old, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		snprintf(why, sizeof(why), "%s",
			 errno == ENOTDIR || errno == ELOOP
				 ? "it is a symbolic link or not a directory"
				 : strerror(errno));
	if (fd < 0 || !is_recording(fd, why, sizeof(why))) {
		if (fd >= 0)
			close(fd);
		return ct_set_err_rc(err, 1,
				     "%s exists and is not a calltrace recording (%s): it is left "
				     "as it "
				     "is; "
				     "move it away or choose another directory with -d",
				     shown, why);
	}
	if (!lock_dir(fd)) {
		close(fd);
		return busy(err, shown);
	}
	bool ok = check_tree(fd, true, true, why, sizeof(why));
	close(fd);
	if (!ok || unlinkat(pfd, old, AT_REMOVEDIR) < 0)
		return ct_set_err_rc(err, 1, "cannot remove the old recording %s: %s", shown,
				     ok ? strerror(errno) : why);
	return 0;
}

/* whether directory fd holds nothing, or (false) something; *info whether
 * that is an info file (a regular file, not a link) */
static bool dir_empty(int fd, bool *info)
{
	struct stat st;
	*info = fstatat(fd, "info", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return false;
	}
	bool empty = true;
	struct dirent *e;
	while (empty && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

int ct_datadir_prepare(const char *dir, int *dfd, struct ct_error *err)
{
	*dfd = -1;
	if (!dir || !*dir)
		return ct_set_err_rc(err, 1, "empty data directory name");
	/* the name as shown (without trailing slashes), its parent and its
	 * last component: everything below is done relative to the parent,
	 * opened once, never through a link at the last component */
	char shown[PATH_MAX], parent[PATH_MAX], base[PATH_MAX], old[PATH_MAX + 8],
		oldshown[PATH_MAX + 8];
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= sizeof(shown))
		return ct_set_err_rc(err, 1, "%s: name too long", dir);
	memcpy(shown, dir, n);
	shown[n] = 0;
	const char *sl = strrchr(shown, '/');
	if (!sl) {
		snprintf(parent, sizeof(parent), ".");
		snprintf(base, sizeof(base), "%s", shown);
	} else {
		snprintf(parent, sizeof(parent), "%.*s", sl == shown ? 1 : (int)(sl - shown),
			 shown);
		snprintf(base, sizeof(base), "%s", sl[1] ? sl + 1 : ".");
	}
	if (snprintf(old, sizeof(old), "%s.old", base) >= (int)sizeof(old) ||
	    snprintf(oldshown, sizeof(oldshown), "%s.old", shown) >= (int)sizeof(oldshown) ||
	    strlen(old) > NAME_MAX)
		return ct_set_err_rc(err, 1, "%s: name too long", dir);
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return ct_set_err_rc(err, 1, "cannot create %s: %s", shown, strerror(errno));
	int rc = 1;
	/* made, or found and checked; a recording found there is moved to
	 * DIR.old and the loop makes the new one.  Others making or moving
	 * it at the same time make the loop go round again, a few times */
	for (int round = 0; round < 4; round++) {
		/* private: traces can hold captured strings */
		bool made = mkdirat(pfd, base, 0700) == 0;
		if (!made && errno != EEXIST) {
			ct_set_err(err, "cannot create %s: %s", shown, strerror(errno));
			goto out;
		}
		int fd = openat(pfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0) {
			if (errno == ENOENT)
				continue; /* gone again: made afresh */
			if (errno == ELOOP || (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
					       S_ISLNK(st.st_mode)))
				ct_set_err(err,
					   "%s is a symbolic link: a data directory is never used "
					   "through "
					   "a link; remove it or choose another with -d",
					   shown);
			else if (errno == ENOTDIR)
				ct_set_err(err,
					   "%s exists and is not a calltrace data directory; "
					   "remove it or choose another with -d",
					   shown);
			else
				ct_set_err(err, "cannot open %s: %s", shown, strerror(errno));
			goto out;
		}
		if (fstat(fd, &st) < 0) {
			ct_set_err(err, "cannot open %s: %s", shown, strerror(errno));
			close(fd);
			goto out;
		}
		if (st.st_uid != geteuid()) {
			ct_set_err(err,
				   "%s belongs to another user; choose another directory with -d",
				   shown);
			close(fd);
			goto out;
		}
		if (st.st_mode & (S_IWGRP | S_IWOTH)) {
			ct_set_err(err,
				   "%s is writable by %s (mode %03o): refused, a recording must be "
				   "private; chmod go-w it or choose another directory with -d",
				   shown, st.st_mode & S_IWOTH ? "other users" : "its group",
				   (unsigned)(st.st_mode & 07777));
			close(fd);
			goto out;
		}
		if (!lock_dir(fd)) {
			close(fd);
			rc = busy(err, shown);
			goto out;
		}
		bool info;
		if (made || dir_empty(fd, &info)) {
			*dfd = fd;
			rc = 0;
			goto out;
		}
		if (!info) {
			ct_set_err(err,
				   "%s exists and is not a calltrace data directory; "
				   "remove it or choose another with -d",
				   shown);
			close(fd);
			goto out;
		}
		/* a recording that nobody writes (its lock is ours): moved
		 * to DIR.old, which must not be one that somebody writes */
		int e = remove_old(pfd, old, oldshown, err);
		struct stat now;
		if (!e && (fstatat(pfd, base, &now, AT_SYMLINK_NOFOLLOW) < 0 ||
			   now.st_dev != st.st_dev || now.st_ino != st.st_ino)) {
			/* (replaced under us since it was opened) */
			close(fd);
			continue;
		}
		if (!e && renameat2(pfd, base, pfd, old, RENAME_NOREPLACE) < 0)
			e = ct_set_err_rc(err, 1, "cannot move %s to %s: %s", shown, oldshown,
					  strerror(errno));
		close(fd);
		if (e) {
			rc = e;
			goto out;
		}
	}
	ct_set_err(err,
		   "%s keeps changing while being prepared (another program makes or moves it)",
		   shown);
out:
	close(pfd);
	return rc;
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

/* ---- the info file ----------------------------------------------------- */

static const struct ct_untraced_kind untraced_kinds[] = {
	[CT_UNTRACED_RING] = {"untraced_ring", "thread", "threads",
			      "not traced: no ring could be made for them (after setuid, "
			      "under a seccomp filter, or out of space)",
			      true},
	[CT_UNTRACED_SECCOMP] = {"untraced_seccomp", "thread", "threads",
				 "stopped being traced when they entered seccomp", true},
	[CT_UNTRACED_TSC] = {"untraced_tsc", "thread", "threads",
			     "stopped being traced: the TSC was disabled (PR_SET_TSC)", true},
	[CT_UNTRACED_CLONE] = {"untraced_clone", "task", "tasks",
			       "not traced: made by clone() sharing their parent's thread state",
			       true},
	[CT_UNTRACED_EXEC_ENV] = {"untraced_exec_env", "exec", "execs",
				  "dropped calltrace's environment; it was put back (traced)",
				  false},
	[CT_UNTRACED_ORPHANED] = {"untraced_orphaned", "process", "processes",
				  "found record gone and stopped tracing", true},
};

const struct ct_untraced_kind *ct_untraced_kind(unsigned i)
{
	if (i < sizeof(untraced_kinds) / sizeof(untraced_kinds[0]) && untraced_kinds[i].key)
		return &untraced_kinds[i];
	return NULL;
}

bool ct_untraced_loss(unsigned i)
{
	const struct ct_untraced_kind *k = ct_untraced_kind(i);
	return !k || k->loss;
}

static const char *untraced_key(unsigned i, char *buf, size_t len)
{
	const struct ct_untraced_kind *k = ct_untraced_kind(i);
	if (k)
		return k->key;
	snprintf(buf, len, "untraced_%u", i);
	return buf;
}

/* the directory of f's files, for the *at calls: its descriptor, or the
 * current directory with f->dir in the names (info_name) */
static int info_dirfd(const struct ct_info_file *f)
{
	return f->dfd >= 0 ? f->dfd : AT_FDCWD;
}

/* the name of file in f's directory, for info_dirfd: "info", or "DIR/info" */
static const char *info_name(const struct ct_info_file *f, const char *file, char *buf, size_t len)
{
	if (f->dfd >= 0)
		return file;
	snprintf(buf, len, "%s/%s", f->dir, file);
	return buf;
}

/* DIR/.info.tmp, made afresh, private, never through a link */
static int open_info_tmp(const struct ct_info_file *f)
{
	char b[PATH_MAX];
	const char *tmp = info_name(f, ".info.tmp", b, sizeof(b));
	int dfd = info_dirfd(f);
	int fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST && unlinkat(dfd, tmp, 0) == 0)
		fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	return fd;
}

static bool pwrite_all(int fd, const char *p, size_t n)
{
	for (off_t off = 0; n > 0;) {
		ssize_t w = pwrite(fd, p, n, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return false;
		}
		p += w, n -= (size_t)w, off += w;
	}
	return true;
}

void ct_info_init(struct ct_info_file *f, const char *dir)
{
	f->dir = dir;
	f->fd = -1;
	f->dfd = -1;
}

/* the text of info (doc/format.md) */
static void put_info(FILE *f, const struct ct_info *ri)
{
	fprintf(f, "calltrace-data: %d\ncommand: ", CT_FORMAT_VERSION);
	for (char *const *a = ri->argv; *a; a++) {
		if (a != ri->argv)
			fputc(' ', f);
		put_escaped(f, *a);
	}
	fprintf(f, "\nstart_time: %s\nclock: %s\nclock_hz: %.3f\nstart_clock: %llu\n",
		ri->start_time, ri->clock, ri->hz, (unsigned long long)ri->start_clock);
	if (ri->filters) {
		/* one line: a newline in a regex is written as \n */
		fputs("record_filters: ", f);
		for (const char *c = ri->filters; *c; c++)
			fputs(*c == '\n' ? "\\n" : (char[]){*c, 0}, f);
		fputc('\n', f);
	}
	if (ri->flight)
		fprintf(f, "flight: %llu\n", (unsigned long long)ri->flight);
	if (!ri->complete)
		return;
	if (ri->filters)
		fprintf(f, "filtered_calls: %llu\n", (unsigned long long)ri->filtered);
	if (ri->inject)
		fprintf(f, "injected_faults: %llu\n", (unsigned long long)ri->injected);
	fprintf(f, "end_clock: %llu\nexit_status: %s\n", (unsigned long long)ri->end_clock,
		ri->exit_status);
	fprintf(f, "processes: %zu\nthreads: %zu\nevents: %llu\nbytes: %llu\n", ri->processes,
		ri->threads, (unsigned long long)ri->events, (unsigned long long)ri->bytes);
	fprintf(f, "lost: %llu\nunmatched: %llu\nwaits: %llu\nunfinished: %llu\n",
		(unsigned long long)ri->lost, (unsigned long long)ri->unmatched,
		(unsigned long long)ri->waits, (unsigned long long)ri->unfinished);
	fprintf(f, "write_errors: %u\nunwritten_events: %llu\nunwritten_bytes: %llu\n",
		ri->write_errors, (unsigned long long)ri->unwritten_events,
		(unsigned long long)ri->unwritten_bytes);
	if (ri->symbols_unsaved)
		fprintf(f, "symbols_unsaved: %d\n", ri->symbols_unsaved);
	for (unsigned i = 0; i < CT_UNTRACED_MAX; i++) {
		char kb[32];
		if (ri->untraced[i])
			fprintf(f, "%s: %llu\n", untraced_key(i, kb, sizeof(kb)),
				(unsigned long long)ri->untraced[i]);
	}
	if (ri->nrunning) {
		fprintf(f, "still_running: %zu", ri->nrunning);
		for (size_t i = 0; i < ri->nrunning; i++)
			fprintf(f, " %d", ri->running[i].pid);
		fputc('\n', f);
	}
	if (ri->extra)
		fputs(ri->extra, f);
	fprintf(f, "complete: 1\n");
}

int ct_info_write(struct ct_info_file *fi, const struct ct_info *ri, struct ct_error *err)
{
	char path[PATH_MAX];
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return ct_set_err_rc(err, -1, "cannot write %s/info: %s", fi->dir, strerror(errno));
	put_info(f, ri);
	if (fclose(f) != 0) {
		free(text);
		return ct_set_err_rc(err, -1, "cannot write %s/info: %s", fi->dir, strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/info", fi->dir);
	int fd = fi->fd;
	fi->fd = -1;
	if (fd < 0)
		fd = open_info_tmp(fi);
	bool ok = fd >= 0 && pwrite_all(fd, text, len) && ftruncate(fd, (off_t)len) == 0;
	int e = errno;
	if (fd >= 0 && close(fd) < 0 && ok) {
		ok = false;
		e = errno;
	}
	char tb[PATH_MAX], ib[PATH_MAX];
	const char *tmp = info_name(fi, ".info.tmp", tb, sizeof(tb));
	if (ok && renameat(info_dirfd(fi), tmp, info_dirfd(fi),
			   info_name(fi, "info", ib, sizeof(ib))) < 0) {
		ok = false;
		e = errno;
	}
	free(text);
	if (!ok) {
		if (fd >= 0)
			unlinkat(info_dirfd(fi), tmp, 0);
		return ct_set_err_rc(err, -1, "cannot write %s: %s", path, strerror(e));
	}
	return 0;
}

void ct_info_reserve(struct ct_info_file *f, char *const *argv)
{
	off_t room = 16384;
	for (char *const *a = argv; *a; a++)
		room += 4 * (off_t)strlen(*a) + 1;
	f->fd = open_info_tmp(f);
	if (f->fd >= 0 && posix_fallocate(f->fd, 0, room) != 0) {
		char b[PATH_MAX];
		close(f->fd);
		f->fd = -1;
		unlinkat(info_dirfd(f), info_name(f, ".info.tmp", b, sizeof(b)), 0);
	}
}

void ct_info_discard(struct ct_info_file *f)
{
	if (f->fd >= 0) {
		char b[PATH_MAX];
		close(f->fd);
		f->fd = -1;
		unlinkat(info_dirfd(f), info_name(f, ".info.tmp", b, sizeof(b)), 0);
	}
}
