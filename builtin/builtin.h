/* SPDX-License-Identifier: MIT */
/* The subcommands: one file each under builtin/, one table in calltrace.c. */
#ifndef CT_BUILTIN_H
#define CT_BUILTIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* argv[0] is the subcommand's name.  Return the process exit status:
 * 0 success, 1 bad data / runtime failure, 2 bad usage. */
int cmd_record(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_callers(int argc, char **argv);
int cmd_live(int argc, char **argv);
int cmd_top(int argc, char **argv);

/* record, with follow (lib/record/follow.h) seeing the data as it is drained (live,
 * top); NULL: cmd_record */
struct ct_record_follow;
int ct_record_run(int argc, char **argv, const struct ct_record_follow *follow);
/* record's options for live and top: whether the word a is one that takes
 * the next word as its argument; the -d/--data given before the command */
bool ct_record_takes_arg(const char *a);
const char *ct_record_data_option(int argc, char **argv);

/* builtin/record_wrap.c, for live and top: record's argv from theirs
 * (own(ctx, argv, i, argc) takes their options out: the words it took, 0
 * when argv[i] is none, -1 after a message), with -d TMP, a temporary
 * directory, when they gave no -d.  0, or their exit status after a
 * message (2 usage, 1 no directory).  ct_record_wrap_done frees it and
 * removes the temporary recording. */
struct ct_record_wrap {
	char **argv;
	int argc;
	char tmp[4096]; /* the temporary recording, or "" */
};
int ct_record_wrap_args(struct ct_record_wrap *w, int argc, char **argv, const char *name,
			int (*own)(void *ctx, char **argv, int i, int argc), void *ctx);
void ct_record_wrap_done(struct ct_record_wrap *w);
/* no arguments (usage on stderr, 2) or --help/-h first (usage on stdout,
 * 0): that exit status; else -1, go on */
int ct_record_wrap_help(int argc, char **argv, const char *usage);
/* --output PATH opened for writing (NULL: stdout), or NULL after a
 * message */
FILE *ct_record_wrap_output(const char *path);
/* out flushed and, when it is PATH's, closed: code, or 1 after a message
 * when writing failed and code was 0 */
int ct_record_wrap_close(FILE *out, const char *path, int code);
/* argv[i] as one of the options names[0..n) that take a value ("--name=V"
 * or "--name V"): *k its index, *v the value; the words it takes (1 or 2),
 * 0 when it is none of them, -1 after a message (no value) */
int ct_opt_value(char **argv, int i, int argc, const char *const *names, size_t n, size_t *k,
		 const char **v);

#endif
