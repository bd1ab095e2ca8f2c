/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for the analysis side: one input is a whole recording.
 *
 * The input is a small container of files (tests/fuzz/pack.py writes it):
 *
 *     "\0CT:" NAME "\n" CONTENT   repeated; bytes before the first are ignored
 *
 * NAME is a file of the data directory (info, 1-0.proc, 1-0-1.ev, args.spec,
 * sym/KEY.sym; [A-Za-z0-9._-] and one "sym/" in front, at most 100 bytes);
 * CONTENT runs to the next "\0CT:" or the end.  Each input is written into
 * a fresh temporary directory (in /dev/shm, else /tmp), and every
 * subcommand's reading path runs on it in this process (no fork): the cmd_*
 * functions themselves, with their output to /dev/null, then the public
 * reading API's walks (run_api).  The directory is removed after each
 * input.
 *
 * doc/testing.md says how to run it (make fuzz) and for how long.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "calltrace/reader.h"

#define SEP "\0CT:"
#define SEPLEN 4
#define MAX_FILES 64

/* libFuzzer's entry points */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[64];   /* the fuzzer's own temporary directory */
static unsigned serial; /* a fresh data directory per input */

static void cleanup(void)
{
	rmdir(root); /* each input's directory is gone already */
}

static int setup(void)
{
	/* in memory where there is a tmpfs: a disk that stalls under load
	 * must not pass for a hang of the reader (-timeout) */
	snprintf(root, sizeof(root), "/dev/shm/ct-fuzz-XXXXXX");
	if (!mkdtemp(root))
		snprintf(root, sizeof(root), "/tmp/ct-fuzz-XXXXXX");
	if (root[1] == 't' && !mkdtemp(root)) {
		perror("mkdtemp");
		abort();
	}
	atexit(cleanup);
	/* the views print progress to a terminal only; never here */
	setenv("CALLTRACE_PROGRESS", "0", 1);
	setenv("CALLTRACE_NO_CACHE", "1", 1);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return setup();
}

static bool good_name(const char *n, size_t len)
{
	if (!len || len > 100)
		return false;
	if (len > 4 && !memcmp(n, "sym/", 4)) {
		n += 4;
		len -= 4;
	}
	if (!len || n[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = n[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

static const uint8_t *find_sep(const uint8_t *p, const uint8_t *end)
{
	while (end - p >= SEPLEN) {
		const uint8_t *z = memchr(p, 0, (size_t)(end - p));
		if (!z || end - z < SEPLEN)
			return NULL;
		if (!memcmp(z, SEP, SEPLEN))
			return z;
		p = z + 1;
	}
	return NULL;
}

static void write_file(const char *dir, const char *name, size_t nlen, const uint8_t *data,
		       size_t len)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)nlen, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return; /* a name twice, or sym/ where there is none: skip */
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w <= 0)
			break;
		data += w;
		len -= (size_t)w;
	}
	close(fd);
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	char path[512];
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) < 0 && errno == EISDIR)
			remove_dir(path);
	}
	closedir(d);
	rmdir(dir);
}

/* dir holds a recording of call counts (record --count: a *.cnt file),
 * on which the options that need times are refused as bad usage, exit 2
 * (report --by-args, graph without --no-time, export --format=folded by
 * time: tests/e2e/count.sh) */
static bool holds_counts(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		found = n > 4 && !strcmp(de->d_name + n - 4, ".cnt");
	}
	closedir(d);
	return found;
}

/* run one subcommand with argv (NULL-terminated, without -d) on dir */
static void run(int (*cmd)(int, char **), const char *dir, const char *const *args)
{
	char *argv[16];
	int argc = 0;
	argv[argc++] = (char *)"calltrace";
	argv[argc++] = (char *)"-d";
	argv[argc++] = (char *)dir;
	for (; *args && argc < 15; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		abort();
	FILE *out = stdout, *err = stderr;
	stdout = null;
	stderr = null;
	optind = 1;
	int rc = cmd(argc, argv);
	fflush(null);
	stdout = out;
	stderr = err;
	fclose(null);
	/* 0, 1 (the recording cannot be read) or 3 (coverage --fail-under);
	 * never 2: the options are right (but for a recording of counts) */
	if (rc == 2 && !holds_counts(dir)) {
		fprintf(stderr, "fuzz_reader: %s: exit status 2 (usage)\n", args[-1]);
		abort();
	}
}

/* the public reading API (lib/read/reader.c, include/calltrace/reader.h) on the
 * same recording: each thread in batches, then all merged one event at a
 * time; every event named, every error with a message */
static void run_api(const char *dir)
{
	ct_reader *r;
	struct ct_reader_error err;
	if (ct_reader_open(dir, 0, &r, &err) < 0) {
		if (!err.code || !err.message[0])
			abort();
		return;
	}
	size_t nt = ct_reader_thread_count(r);
	for (size_t t = 0; t <= nt; t++) {
		size_t which = t == nt ? CT_READER_ALL_THREADS : t;
		ct_reader_iter *it;
		if (ct_reader_iter_open(r, which, CT_READER_MARKS | CT_READER_CORRECTED, &it,
					&err) < 0)
			continue;
		struct ct_reader_rec recs[64];
		struct ct_reader_event ev;
		struct ct_reader_sym sym;
		int n;
		if (which == CT_READER_ALL_THREADS) {
			while ((n = ct_reader_next(it, &ev, &err)) > 0) {
				const struct ct_reader_thread *th = ct_reader_thread(r, ev.thread);
				if (!ev.name || !th)
					abort();
				if (ev.kind != CT_READER_MARK &&
				    ct_reader_resolve(r, th->process, ev.addr, &sym, NULL) == 0 &&
				    !sym.name)
					abort();
			}
		} else {
			while ((n = ct_reader_read(it, recs, 64, &err)) > 0)
				for (int i = 0; i < n; i++)
					if (!ct_reader_name(r, recs[i].name))
						abort();
		}
		if (n < 0 && (!err.code || !err.message[0]))
			abort();
		ct_reader_iter_close(it);
	}
	ct_reader_close(r);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[128];
	snprintf(dir, sizeof(dir), "%s/d%u", root, serial++);
	if (mkdir(dir, 0700) < 0)
		return 0;
	char sym[160];
	snprintf(sym, sizeof(sym), "%s/sym", dir);
	mkdir(sym, 0700);

	const uint8_t *end = data + size, *p = find_sep(data, end);
	for (int n = 0; p && n < MAX_FILES; n++) {
		const uint8_t *name = p + SEPLEN;
		const uint8_t *nl = memchr(name, '\n', (size_t)(end - name));
		if (!nl)
			break;
		const uint8_t *body = nl + 1;
		const uint8_t *next = find_sep(body, end);
		const uint8_t *bend = next ? next : end;
		if (good_name((const char *)name, (size_t)(nl - name)))
			write_file(dir, (const char *)name, (size_t)(nl - name), body,
				   (size_t)(bend - body));
		p = next;
	}

	run(cmd_info, dir, ARGS("--"));
	run(cmd_replay, dir, ARGS("--no-duration"));
	run(cmd_replay, dir, ARGS("--per-thread", "-t", "1us", "-D", "40"));
	run(cmd_replay, dir, ARGS("-F", "main|rec", "-N", "leaf", "--no-args"));
	run(cmd_report, dir, ARGS("--"));
	run(cmd_report, dir, ARGS("--format=csv", "--by-args"));
	run(cmd_report, dir, ARGS("--format=json", "--per-thread"));
	run(cmd_graph, dir, ARGS("--"));
	run(cmd_graph, dir, ARGS("main"));
	run(cmd_callers, dir, ARGS("--"));
	run(cmd_coverage, dir, ARGS("--"));
	run(cmd_export, dir, ARGS("--format=folded"));
	run(cmd_export, dir, ARGS("--format=chrome"));
	run(cmd_export, dir, ARGS("--format=chrome", "-r", "1us~1ms"));
	run(cmd_export, dir, ARGS("--format=folded", "--folded-frames=4", "-t", "1ns"));
	run(cmd_export, dir, ARGS("--format=callgrind"));
	run(cmd_export, dir, ARGS("--format=perfetto"));
	run(cmd_export, dir, ARGS("--format=html"));
	run_api(dir);

	remove_dir(dir);
	return 0;
}
