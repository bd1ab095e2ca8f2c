/* SPDX-License-Identifier: MIT */
/*
 * record run for live and top: their command line (their own options,
 * then record's, from the same tables as record's own: record.h), and the
 * temporary recording they use when no -d was given, made before and
 * removed after.
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "options.h"
#include "record.h"
#include "util.h"

int ct_record_wrap_args(struct ct_record_wrap *w, int argc, char **argv, const char *head,
			const struct ct_opt *own,
			int (*fn)(void *ctx, const struct ct_opt *o, const char *arg,
				  struct ct_error *err),
			void *ctx)
{
	struct ct_opt_table tabs[] = {{own, fn, ctx}, {ct_record_options, ct_record_option, &w->o}};
	struct ct_opt_cmd c = {.head = head, .tabs = tabs, .ntabs = 2, .in_order = true};
	struct ct_error err;

	memset(w, 0, sizeof(*w));
	ct_record_opts_init(&w->o);
	ct_view_options_init(&w->v);
	int status = ct_opt_parse(&c, argc, argv, &err);
	if (status < 0)
		status = ct_record_opts_check(&w->o, argc - c.next, argv + c.next, &err) ? 2 : -1;
	if (status < 0 && (w->o.flight || w->o.count)) {
		ct_set_err(&err,
			   "%s cannot be used here: this command shows the events as they come",
			   w->o.flight ? "--flight" : "--count");
		status = 2;
	}
	if (status < 0 && w->v.with_syms && ct_withsyms_check(w->v.with_syms, &err) < 0) {
		ct_error("%s", err.msg);
		status = 2;
	} else if (status == 2)
		ct_usage_error("%s", err.msg);
	else if (status == 1)
		ct_error("%s", err.msg);
	if (status < 0 && !w->o.dir) {
		const char *base = getenv("TMPDIR");
		snprintf(w->tmp, sizeof(w->tmp), "%s/calltrace-%s-XXXXXX",
			 base && *base ? base : "/tmp", ct_command() ? ct_command() : "run");
		if (mkdtemp(w->tmp)) {
			w->o.dir = w->tmp;
			w->o.dir_temporary = true;
		} else {
			ct_error("cannot make a temporary directory %s: %s", w->tmp,
				 strerror(errno));
			w->tmp[0] = 0;
			status = 1;
		}
	}
	if (status >= 0)
		ct_record_wrap_done(w);
	return status;
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
	ct_record_opts_free(&w->o);
	ct_view_close(&w->v);
	if (w->tmp[0] && nftw(w->tmp, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		ct_warn("cannot remove the temporary recording %s", w->tmp);
	w->tmp[0] = 0;
}

void ct_record_wrap_say(void *ctx, struct ct_msgs *m)
{
	(void)ctx;
	ct_msgs_flush(m);
}

int ct_record_wrap_output_opt(const char *arg, const char **path, struct ct_error *err)
{
	if (!*arg) {
		ct_set_err(err, "--output needs a file name");
		return -1;
	}
	/* "-" is the standard output, as everywhere -o is taken */
	*path = strcmp(arg, "-") ? arg : NULL;
	return 0;
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
