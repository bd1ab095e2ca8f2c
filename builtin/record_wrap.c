/* SPDX-License-Identifier: MIT */
/*
 * record run for live and top: their command line made record's (their own
 * options taken out, record's kept with their arguments, the command as
 * given), and the temporary recording they use when no -d was given, made
 * before and removed after.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "message.h"
#include "util.h"

int ct_opt_value(char **argv, int i, int argc, const char *const *names, size_t n, size_t *k,
		 const char **v)
{
	const char *a = argv[i];
	for (*k = 0; *k < n; (*k)++) {
		size_t l = strlen(names[*k]);
		if (!strncmp(a, names[*k], l) && a[l] == '=') {
			*v = a + l + 1;
			return 1;
		}
		if (!strcmp(a, names[*k])) {
			if (i + 1 >= argc) {
				ct_error("option '%s' needs an argument", a);
				return -1;
			}
			*v = argv[i + 1];
			return 2;
		}
	}
	return 0;
}

int ct_record_wrap_args(struct ct_record_wrap *w, int argc, char **argv, const char *name,
			int (*own)(void *ctx, char **argv, int i, int argc), void *ctx)
{
	memset(w, 0, sizeof(*w));
	/* record [-d TMP] OPTIONS... COMMAND...: room for the two */
	w->argv = xcalloc((size_t)argc + 3, sizeof(char *));
	w->argv[w->argc++] = "record";
	bool options = true;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (options && (!strcmp(a, "--") || a[0] != '-'))
			options = false;
		int k = options ? own(ctx, argv, i, argc) : 0;
		if (k < 0) {
			ct_record_wrap_done(w);
			return 2;
		}
		if (k > 0) {
			i += k - 1;
			continue;
		}
		w->argv[w->argc++] = argv[i];
		if (options && ct_record_takes_arg(a) && i + 1 < argc)
			w->argv[w->argc++] = argv[++i];
	}
	if (ct_record_data_option(argc, argv))
		return 0;
	const char *base = getenv("TMPDIR");
	snprintf(w->tmp, sizeof(w->tmp), "%s/calltrace-%s-XXXXXX", base && *base ? base : "/tmp",
		 name);
	if (!mkdtemp(w->tmp)) {
		ct_error("cannot make a temporary directory %s: %s", w->tmp, strerror(errno));
		w->tmp[0] = 0;
		ct_record_wrap_done(w);
		return 1;
	}
	memmove(w->argv + 3, w->argv + 1, (size_t)(w->argc - 1) * sizeof(char *));
	w->argv[1] = "-d";
	w->argv[2] = w->tmp;
	w->argc += 2;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

void ct_record_wrap_done(struct ct_record_wrap *w)
{
	free(w->argv);
	w->argv = NULL;
	if (w->tmp[0] && nftw(w->tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		ct_warn("cannot remove the temporary recording %s", w->tmp);
	w->tmp[0] = 0;
}

int ct_record_wrap_help(int argc, char **argv, const char *usage)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	return -1;
}

FILE *ct_record_wrap_output(const char *path)
{
	if (!path)
		return stdout;
	FILE *f = fopen(path, "w");
	if (!f)
		ct_error("cannot write --output %s: %s", path, strerror(errno));
	return f;
}

int ct_record_wrap_close(FILE *out, const char *path, int code)
{
	if (fflush(out) != 0 || ferror(out)) {
		ct_error("writing %s failed", path ? path : "the standard output");
		if (!code)
			code = 1;
	}
	if (path)
		fclose(out);
	return code;
}
