/* SPDX-License-Identifier: MIT */
/* lib/record/datadir.c: preparing a data directory (DIR.old, what is
 * refused, what is planted, its lock) and writing info */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "datadir.h"
#include "error.h"

/* the last error */
static struct ct_error err;
#define msg (err.msg)

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *slurp(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	return buf;
}

/* ct_datadir_prepare, the directory closed again (its lock released) */
static int prepare(const char *dir)
{
	int fd = -1;
	msg[0] = 0;
	int rc = ct_datadir_prepare(dir, &fd, &err);
	if (rc == 0 && fd < 0)
		return -1;
	if (fd >= 0)
		close(fd);
	return rc;
}

static void test_prepare(const char *top)
{
	char dir[4096], old[4096], p[4200];
	snprintf(dir, sizeof(dir), "%s/data", top);
	snprintf(old, sizeof(old), "%s/data.old", top);
	struct stat st;

	CHECK(prepare(dir) == 0, "a new directory: %s", msg);
	CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	      "made, mode 0700");
	CHECK(prepare(dir) == 0, "an empty one is used: %s", msg);
	CHECK(access(old, F_OK) != 0, "and not moved");

	/* a recording is moved to DIR.old */
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	snprintf(p, sizeof(p), "%s/1-0-1.ev", dir);
	put(p, "x");
	CHECK(prepare(dir) == 0, "a recording: %s", msg);
	snprintf(p, sizeof(p), "%s/1-0-1.ev", old);
	CHECK(access(p, F_OK) == 0, "moved to DIR.old");

	/* again: the older DIR.old, a recording, is replaced */
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	CHECK(prepare(dir) == 0, "a second recording: %s", msg);
	snprintf(p, sizeof(p), "%s/1-0-1.ev", old);
	CHECK(access(p, F_OK) != 0, "the older DIR.old is gone");
	snprintf(p, sizeof(p), "%s/info", old);
	CHECK(access(p, F_OK) == 0, "DIR.old is the last recording");

	/* a DIR.old that holds something else is never removed */
	snprintf(p, sizeof(p), "%s/notes.txt", old);
	put(p, "mine");
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	CHECK(prepare(dir) == 1, "refused");
	CHECK(strstr(msg, "exists and is not a calltrace recording (it holds notes.txt, which is "
			  "not part of a recording): it is left as it is"),
	      "message: %s", msg);
	snprintf(p, sizeof(p), "%s/notes.txt", old);
	CHECK(access(p, F_OK) == 0, "left as it is");

	/* a directory that is not a recording is refused */
	snprintf(p, sizeof(p), "%s/other", top);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/other/x", top);
	put(p, "x");
	snprintf(p, sizeof(p), "%s/other", top);
	CHECK(prepare(p) == 1, "not a data directory");
	CHECK(strstr(msg, "exists and is not a calltrace data directory; remove it or choose "
			  "another with -d"),
	      "message: %s", msg);
	CHECK(prepare("") == 1 && !strcmp(msg, "empty data directory name"), "empty name: %s", msg);

	/* a trailing slash: DIR.old beside DIR, not in it */
	snprintf(p, sizeof(p), "%s/slash", top);
	CHECK(prepare(p) == 0, "slash: %s", msg);
	snprintf(p, sizeof(p), "%s/slash/info", top);
	put(p, "calltrace-data: 1\n");
	snprintf(p, sizeof(p), "%s/slash/", top);
	CHECK(prepare(p) == 0, "slash/: %s", msg);
	snprintf(p, sizeof(p), "%s/slash.old/info", top);
	CHECK(access(p, F_OK) == 0, "moved to slash.old");
}

/* ct_datadir_prepare's lock: a recording being written is neither
 * written by another record nor moved, nor removed as DIR.old */
static void test_lock(const char *top)
{
	char dir[4096], old[4096], p[4200];
	snprintf(dir, sizeof(dir), "%s/locked", top);
	snprintf(old, sizeof(old), "%s/locked.old", top);
	int fd = -1;
	msg[0] = 0;
	CHECK(ct_datadir_prepare(dir, &fd, &err) == 0 && fd >= 0, "made: %s", msg);
	/* the descriptor: the directory itself, close-on-exec, locked */
	struct stat a, b;
	CHECK(fstat(fd, &a) == 0 && stat(dir, &b) == 0 && a.st_ino == b.st_ino &&
		      a.st_dev == b.st_dev,
	      "the descriptor is the directory");
	CHECK(fcntl(fd, F_GETFD) & FD_CLOEXEC, "close-on-exec");
	int other = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(other >= 0 && flock(other, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK, "locked");
	if (other >= 0)
		close(other);
	/* being written: a second record is refused, and moves nothing */
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	snprintf(p, sizeof(p), "%s/1-0-1.ev", dir);
	put(p, "x");
	CHECK(prepare(dir) == CT_DATADIR_BUSY, "in use: refused");
	CHECK(strstr(msg, "locked is in use: another calltrace record is writing into it"),
	      "message: %s", msg);
	CHECK(access(p, F_OK) == 0 && access(old, F_OK) != 0, "nothing moved");
	close(fd);
	/* its record gone (killed: the lock goes with it), it is moved */
	CHECK(prepare(dir) == 0, "the lock released: %s", msg);
	snprintf(p, sizeof(p), "%s/1-0-1.ev", old);
	CHECK(access(p, F_OK) == 0, "moved to DIR.old");

	/* DIR.old being written (record -d locked.old) is not removed */
	fd = open(old, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0, "DIR.old locked");
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	CHECK(prepare(dir) == CT_DATADIR_BUSY, "DIR.old in use: refused");
	CHECK(strstr(msg, "locked.old is in use"), "message: %s", msg);
	snprintf(p, sizeof(p), "%s/1-0-1.ev", old);
	CHECK(access(p, F_OK) == 0, "DIR.old kept");
	snprintf(p, sizeof(p), "%s/info", dir);
	CHECK(access(p, F_OK) == 0, "DIR kept");
	if (fd >= 0)
		close(fd);
}

/* what another user can plant where the data directory will be made */
static void test_planted(const char *top)
{
	char dir[4096], p[4400], t[4096];
	struct stat st;

	/* a link to an (empty) directory of ours: never followed */
	snprintf(t, sizeof(t), "%s/target", top);
	mkdir(t, 0700);
	snprintf(dir, sizeof(dir), "%s/linked", top);
	CHECK(symlink(t, dir) == 0, "symlink");
	CHECK(prepare(dir) == 1, "a link: refused");
	CHECK(strstr(msg, "linked is a symbolic link: a data directory is never used through a "
			  "link"),
	      "message: %s", msg);
	CHECK(lstat(dir, &st) == 0 && S_ISLNK(st.st_mode), "the link is left as it is");

	/* ... to a directory holding an info file: neither used nor moved */
	snprintf(p, sizeof(p), "%s/info", t);
	put(p, "calltrace-data: 1\n");
	CHECK(prepare(dir) == 1, "a link to a recording: refused");
	snprintf(p, sizeof(p), "%s.old", dir);
	CHECK(lstat(dir, &st) == 0 && S_ISLNK(st.st_mode) && access(p, F_OK) != 0,
	      "the link is not moved");
	snprintf(p, sizeof(p), "%s/info", t);
	CHECK(!strcmp(slurp(p), "calltrace-data: 1\n"), "its info untouched");

	/* a directory others can write into: refused */
	snprintf(dir, sizeof(dir), "%s/open", top);
	mkdir(dir, 0700);
	chmod(dir, 0777);
	CHECK(prepare(dir) == 1, "mode 0777: refused");
	CHECK(strstr(msg, "open is writable by other users (mode 777): refused"), "message: %s",
	      msg);
	chmod(dir, 0770);
	CHECK(prepare(dir) == 1, "mode 0770: refused");
	CHECK(strstr(msg, "open is writable by its group (mode 770): refused"), "message: %s", msg);
	chmod(dir, 01733);
	CHECK(prepare(dir) == 1, "mode 1733: refused");
	chmod(dir, 0755);
	CHECK(prepare(dir) == 0, "mode 0755: used: %s", msg);

	/* another user's directory */
	snprintf(dir, sizeof(dir), "%s/theirs", top);
	mkdir(dir, 0700);
	if (geteuid() == 0) {
		CHECK(chown(dir, 65534, 65534) == 0, "chown");
		CHECK(prepare(dir) == 1, "another user's: refused");
		CHECK(strstr(msg, "theirs belongs to another user"), "message: %s", msg);
	} else {
		printf("note: another user's directory not tested (not root)\n");
	}
}

static void test_info(const char *top)
{
	char dir[4096], p[4200];
	snprintf(dir, sizeof(dir), "%s/info", top);
	mkdir(dir, 0700);
	char *argv[] = {"./prog", "a b", "c\\d", NULL};
	struct ct_info ri;
	memset(&ri, 0, sizeof(ri));
	ri.argv = argv;
	ri.clock = "mono";
	ri.hz = 1e9;
	ri.start_clock = 5;
	snprintf(ri.start_time, sizeof(ri.start_time), "2026-01-01T00:00:00Z");
	struct ct_info_file f;
	ct_info_init(&f, dir);
	CHECK(ct_info_write(&f, &ri, &err) == 0, "the first info: %s", msg);
	snprintf(p, sizeof(p), "%s/info", dir);
	CHECK(!strcmp(slurp(p), "calltrace-data: 1\ncommand: ./prog a\\x20b c\\\\d\n"
				"start_time: 2026-01-01T00:00:00Z\nclock: mono\n"
				"clock_hz: 1000000000.000\nstart_clock: 5\n"),
	      "info: %s", slurp(p));
	ct_info_reserve(&f, argv);
	snprintf(p, sizeof(p), "%s/.info.tmp", dir);
	CHECK(f.fd >= 0 && access(p, F_OK) == 0, "room kept in .info.tmp");

	struct ct_running run[2] = {{11, "a"}, {12, "b"}};
	ri.complete = true;
	ri.end_clock = 9;
	ri.exit_status = "exit 0";
	ri.processes = 1;
	ri.threads = 2;
	ri.events = 4;
	ri.unfinished = 1;
	ri.untraced[CT_UNTRACED_TSC] = 3;
	ri.running = run;
	ri.nrunning = 2;
	CHECK(ct_info_write(&f, &ri, &err) == 0, "the final info: %s", msg);
	CHECK(f.fd < 0 && access(p, F_OK) != 0, ".info.tmp renamed");
	snprintf(p, sizeof(p), "%s/info", dir);
	const char *t = slurp(p);
	CHECK(strstr(t, "start_clock: 5\nend_clock: 9\nexit_status: exit 0\nprocesses: 1\n"
			"threads: 2\nevents: 4\nbytes: 0\nlost: 0\nunmatched: 0\nwaits: 0\n"
			"unfinished: 1\nwrite_errors: 0\nunwritten_events: 0\n"
			"unwritten_bytes: 0\nuntraced_tsc: 3\nstill_running: 2 11 12\n"
			"complete: 1\n"),
	      "info: %s", t);
	ct_info_discard(&f);

	/* the way out without a final info removes .info.tmp */
	ct_info_reserve(&f, argv);
	ct_info_discard(&f);
	snprintf(p, sizeof(p), "%s/.info.tmp", dir);
	CHECK(f.fd < 0 && access(p, F_OK) != 0, ".info.tmp removed");
}

static void test_untraced(void)
{
	const struct ct_untraced_kind *k = ct_untraced_kind(CT_UNTRACED_EXEC_ENV);
	CHECK(k && !strcmp(k->key, "untraced_exec_env") && !k->loss, "exec_env");
	CHECK(!ct_untraced_loss(CT_UNTRACED_EXEC_ENV), "exec_env is no loss");
	CHECK(ct_untraced_loss(CT_UNTRACED_RING), "ring is a loss");
	CHECK(!ct_untraced_kind(1000), "an unknown kind");
	CHECK(ct_untraced_loss(1000), "an unknown kind is a loss");
}

int main(void)
{
	char top[] = "/tmp/ct-test-datadir-XXXXXX";
	if (!mkdtemp(top)) {
		perror("mkdtemp");
		return 1;
	}
	test_prepare(top);
	test_lock(top);
	test_planted(top);
	test_info(top);
	test_untraced();
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("cannot remove %s\n", top);
	return check_done();
}
