/* SPDX-License-Identifier: MIT */
/* lib/record/datadir.c: preparing a data directory (DIR.old, what is refused)
 * and writing info */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "datadir.h"

static char msg[8192];

static void note(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static void note(const char *fmt, va_list ap)
{
	vsnprintf(msg, sizeof(msg), fmt, ap);
}

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

static void test_prepare(const char *top)
{
	char dir[4096], old[4096], p[4200];
	snprintf(dir, sizeof(dir), "%s/data", top);
	snprintf(old, sizeof(old), "%s/data.old", top);
	struct stat st;

	CHECK(ct_datadir_prepare(dir, note) == 0, "a new directory: %s", msg);
	CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	      "made, mode 0700");
	CHECK(ct_datadir_prepare(dir, note) == 0, "an empty one is used: %s", msg);
	CHECK(access(old, F_OK) != 0, "and not moved");

	/* a recording is moved to DIR.old */
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	snprintf(p, sizeof(p), "%s/1-0-1.ev", dir);
	put(p, "x");
	CHECK(ct_datadir_prepare(dir, note) == 0, "a recording: %s", msg);
	snprintf(p, sizeof(p), "%s/1-0-1.ev", old);
	CHECK(access(p, F_OK) == 0, "moved to DIR.old");

	/* again: the older DIR.old, a recording, is replaced */
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	CHECK(ct_datadir_prepare(dir, note) == 0, "a second recording: %s", msg);
	snprintf(p, sizeof(p), "%s/1-0-1.ev", old);
	CHECK(access(p, F_OK) != 0, "the older DIR.old is gone");
	snprintf(p, sizeof(p), "%s/info", old);
	CHECK(access(p, F_OK) == 0, "DIR.old is the last recording");

	/* a DIR.old that holds something else is never removed */
	snprintf(p, sizeof(p), "%s/notes.txt", old);
	put(p, "mine");
	snprintf(p, sizeof(p), "%s/info", dir);
	put(p, "calltrace-data: 1\n");
	msg[0] = 0;
	CHECK(ct_datadir_prepare(dir, note) == 1, "refused");
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
	msg[0] = 0;
	CHECK(ct_datadir_prepare(p, note) == 1, "not a data directory");
	CHECK(strstr(msg, "exists and is not a calltrace data directory; remove it or choose "
			  "another with -d"),
	      "message: %s", msg);
	msg[0] = 0;
	CHECK(ct_datadir_prepare("", note) == 1 && !strcmp(msg, "empty data directory name"),
	      "empty name: %s", msg);
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
	ct_info_init(&f, dir, note);
	CHECK(ct_info_write(&f, &ri) == 0, "the first info: %s", msg);
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
	CHECK(ct_info_write(&f, &ri) == 0, "the final info: %s", msg);
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
	test_info(top);
	test_untraced();
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	if (system(cmd) != 0)
		printf("cannot remove %s\n", top);
	return check_done();
}
