/* SPDX-License-Identifier: MIT */
/*
 * The commands' options, from tables: an entry per option (its long name,
 * its short letter or a code, its argument, its help), with headings
 * between groups.  The same tables make getopt_long's tables, hand each
 * option given to the function of its table, and print the help's option
 * lines, so that a command accepts what its help lists and nothing else.
 * A command may take the options of several tables (live and top: their
 * own, then record's).  In the manner of perf's
 * tools/lib/subcmd/parse-options.h.
 */
#ifndef CT_OPTIONS_H
#define CT_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* one option; an entry without a name is a heading (its help) or, without
 * help either, the end of the table */
struct ct_opt {
	const char *name; /* the long name */
	int val;          /* the short letter (also its short form) when below
			   * 256, else a code of the table's (256 and up) */
	const char *arg;  /* the argument's name in the help, NULL: none; its
			   * values when they are few, "a|b|c" (the bash
			   * completion offers them); in brackets, "[=SIZE]",
			   * an optional argument (--flight=1M, never the
			   * next word) */
	const char *help; /* the help text, a '\n' starting an indented line;
			   * NULL: a hidden option, left out of the help; a
			   * heading's lines, after a blank line ("": none) */
};

/* clang-format off */
#define CT_OPT_GROUP(heading) {NULL, 0, NULL, heading}
/* the option named help prints the command's help (ct_opt_parse) */
#define CT_OPT_HELP {"help", 'h', NULL, "this help"}
#define CT_OPT_END {NULL, 0, NULL, NULL}
/* clang-format on */

struct ct_error;

/* the options of one table and the function that takes them: fn(ctx, o,
 * arg, err) for each option o given, arg its argument (NULL: none).  It
 * returns 0 to go on, or -1 with err filled (a bad value: a usage error). */
struct ct_opt_table {
	const struct ct_opt *opts; /* ends with CT_OPT_END */
	int (*fn)(void *ctx, const struct ct_opt *o, const char *arg, struct ct_error *err);
	void *ctx;
};

/* a command's command line */
struct ct_opt_cmd {
	const char *head; /* the help before the option lines */
	const char *tail; /* the help after them, or NULL */
	/* the tables: their names and letters unique across them; the help
	 * lists the first one's options (the command's own) */
	const struct ct_opt_table *tabs;
	size_t ntabs;
	/* stop at the first word that is not an option (record [options]
	 * COMMAND ARG...: what follows is the command's); else options and
	 * operands may mix, the operands moved after the options */
	bool in_order;
	int next; /* set by ct_opt_parse: the index of the first operand */
};

/* parse argv[1..argc) with c's tables, each option given to its table's
 * function: -1 to go on (c->next set); else the exit status: 0 after the
 * help (--help) or the option list ("--list-options"
 * as the first word: every option the tables take, hidden ones too, one a
 * line: "--name", "--name=ARG" or "--name[=ARG]", then " -x" for its
 * short form), on stdout; 2 with err filled on a usage error (an unknown
 * or ambiguous option, a missing argument, one given to an option that
 * takes none, a function's -1: the caller prints it with where the help
 * is, message.h's ct_usage_error); 1 with err filled when the tables are
 * wrong (two options of one name or code). */
int ct_opt_parse(struct ct_opt_cmd *c, int argc, char **argv, struct ct_error *err);

/* the help's option lines of opts to f: the option from column 2 ("-d,
 * --data DIR", "    --flight[=SIZE]"), its text from column 24 (two
 * spaces after an option that reaches it); hidden options left out; a
 * heading after a blank line */
void ct_opt_usage(const struct ct_opt *opts, FILE *f);

/* c's help to f: head, the option lines of its first table, tail */
void ct_opt_help(const struct ct_opt_cmd *c, FILE *f);

#endif
