/* SPDX-License-Identifier: MIT */
/*
 * calltrace live: record a program and show its call tree, in one step
 * (what `uftrace ./prog` does): `record` into a temporary data directory
 * (or the one -d names, which is kept), then `replay` of it.  record's
 * options (its record-time filters among them) apply; the recording is
 * removed afterwards unless -d was given.  See doc/live.md.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "message.h"

static const char live_usage[] =
	"usage: calltrace live [record options] [--] COMMAND [ARG...]\n"
	"\n"
	"Record COMMAND as `calltrace record` does, then show its call tree as\n"
	"`calltrace replay` does.  The recording goes to a temporary directory,\n"
	"removed afterwards, unless -d DIR names one (kept).  Every option of\n"
	"`calltrace record` applies (-F, -N, --hide, -D, -t, -T, -A, -a, ...);\n"
	"`calltrace record --help` lists them; replay's --demangle=MODE,\n"
	"--no-demangle, --color=WHEN and --no-pager apply to the tree.  live exits\n"
	"with record's status (the program's, doc/record.md), or 1 when the\n"
	"replay fails.\n";

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

/* record's options that take the next word as their argument */
static bool takes_arg(const char *a)
{
	static const char *const opts[] = {"-d",
					   "-b",
					   "-A",
					   "-R",
					   "-F",
					   "-N",
					   "-D",
					   "-t",
					   "-T",
					   "--data",
					   "--buffer-size",
					   "--buffers",
					   "--clock",
					   "--lib",
					   "--args",
					   "--retval",
					   "--str-max",
					   "--args-lib",
					   "--filter",
					   "--notrace",
					   "--hide",
					   "--depth",
					   "--time-filter",
					   "--trigger",
					   "--trace",
					   "--signal",
					   "--time-range",
					   "--max-size"};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return true;
	return false;
}

/* replay's options that live passes on (before the command): how many
 * words the one at argv[i] takes, 0 when it is not one of them */
static int replay_option(char **argv, int i, int argc)
{
	static const char *const flags[] = {"--no-demangle", "--no-pager"};
	static const char *const with_arg[] = {"--demangle", "--color"};
	const char *a = argv[i];
	for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
		if (!strcmp(a, flags[k]))
			return 1;
	for (size_t k = 0; k < sizeof(with_arg) / sizeof(with_arg[0]); k++) {
		size_t n = strlen(with_arg[k]);
		if (!strncmp(a, with_arg[k], n) && a[n] == '=')
			return 1;
		if (!strcmp(a, with_arg[k]))
			return i + 1 < argc ? 2 : 1;
	}
	return 0;
}

/* the -d/--data a user gave among record's options (before the command) */
static const char *data_option(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--") || a[0] != '-')
			return NULL; /* the command */
		if ((!strcmp(a, "-d") || !strcmp(a, "--data")) && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(a, "--data=", 7))
			return a + 7;
		if (!strncmp(a, "-d", 2) && a[2])
			return a + 2;
		if (takes_arg(a))
			i++;
	}
	return NULL;
}

int cmd_live(int argc, char **argv)
{
	if (argc < 2) {
		fputs(live_usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(live_usage, stdout);
		return 0;
	}
	const char *keep = data_option(argc, argv);
	static char tmp[4096];
	const char *dir = keep;
	if (!dir) {
		const char *base = getenv("TMPDIR");
		snprintf(tmp, sizeof(tmp), "%s/calltrace-live-XXXXXX",
			 base && *base ? base : "/tmp");
		if (!mkdtemp(tmp))
			return ct_error("cannot make a temporary directory %s: %s", tmp,
					strerror(errno));
		dir = tmp;
	}
	/* record [-d DIR] OPTIONS... COMMAND..., and replay -d DIR with
	 * replay's options among OPTIONS */
	char **rargv = calloc((size_t)argc + 3, sizeof(char *));
	char **pargv = calloc((size_t)argc + 4, sizeof(char *));
	if (!rargv || !pargv) {
		free(rargv);
		return ct_error("out of memory");
	}
	int n = 0, np = 0;
	rargv[n++] = "record";
	pargv[np++] = "replay";
	pargv[np++] = "-d";
	pargv[np++] = (char *)dir;
	if (!keep) {
		rargv[n++] = "-d";
		rargv[n++] = (char *)dir;
	}
	bool options = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options && (!strcmp(a, "--") || a[0] != '-'))
			options = false;
		int k = options ? replay_option(argv, i, argc) : 0;
		if (k > 0) {
			for (int j = 0; j < k; j++)
				pargv[np++] = argv[i + j];
			i += k - 1;
			continue;
		}
		rargv[n++] = argv[i];
		if (options && takes_arg(a) && i + 1 < argc)
			rargv[n++] = argv[++i];
	}
	ct_set_command("record");
	int code = cmd_record(n, rargv);
	free(rargv);
	char info[4200];
	snprintf(info, sizeof(info), "%s/info", dir);
	if (access(info, R_OK) == 0) {
		/* the program's output first, then its tree */
		fflush(stdout);
		ct_set_command("replay");
		if (cmd_replay(np, pargv) != 0 && code == 0)
			code = 1;
	}
	free(pargv);
	ct_set_command("live");
	if (!keep && nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		ct_warn("cannot remove the temporary recording %s", dir);
	return code;
}
