/* SPDX-License-Identifier: MIT */
/* The commands' options from tables: parsing and help; see options.h. */
#include "options.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

/* the help's option lines: the option left, its text from column 24 (two
 * spaces after an option that reaches it) */
#define HELP_COL 24

static bool at_end(const struct ct_opt *o)
{
	return !o->name && !o->help;
}

/* is o an option of table i that the command takes?  Not a heading, nor
 * the --help of a table after the first (the command's help is its own:
 * live's, not record's) */
static bool taken(size_t i, const struct ct_opt *o)
{
	return o->name && !(i > 0 && !strcmp(o->name, "help"));
}

/* an optional argument: "[=ARG]" */
static bool optarg_of(const struct ct_opt *o)
{
	return o->arg && o->arg[0] == '[';
}

void ct_opt_usage(const struct ct_opt *opts, FILE *f)
{
	for (const struct ct_opt *o = opts; !at_end(o); o++) {
		int n;
		if (!o->name) {
			fputc('\n', f);
			if (*o->help)
				fprintf(f, "%s\n", o->help);
			continue;
		}
		if (!o->help)
			continue; /* hidden: for tools (the shell completion) */
		if (o->val < 256)
			n = fprintf(f, "  -%c, --%s", o->val, o->name);
		else
			n = fprintf(f, "      --%s", o->name);
		if (optarg_of(o))
			n += fprintf(f, "%s", o->arg);
		else if (o->arg)
			n += fprintf(f, " %s", o->arg);
		fprintf(f, "%*s", n < HELP_COL ? HELP_COL - n : 2, "");
		for (const char *p = o->help; *p; p++) {
			fputc(*p, f);
			if (*p == '\n')
				fprintf(f, "%*s", HELP_COL, "");
		}
		fputc('\n', f);
	}
}

void ct_opt_help(const struct ct_opt_cmd *c, FILE *f)
{
	if (c->head)
		fputs(c->head, f);
	if (c->ntabs)
		ct_opt_usage(c->tabs[0].opts, f);
	if (c->tail)
		fputs(c->tail, f);
}

/* the option of code val, and its table in *t; NULL when none */
static const struct ct_opt *find_val(const struct ct_opt_cmd *c, int val,
				     const struct ct_opt_table **t)
{
	for (size_t i = 0; i < c->ntabs; i++)
		for (const struct ct_opt *o = c->tabs[i].opts; !at_end(o); o++)
			if (taken(i, o) && o->val == val) {
				*t = &c->tabs[i];
				return o;
			}
	return NULL;
}

/* getopt_long's tables from c's; two options of the same name or code are
 * a bug of the tables: -1 with err filled */
static int getopt_tables(const struct ct_opt_cmd *c, struct option **longs, char **shorts,
			 struct ct_error *err)
{
	size_t n = 0;
	for (size_t i = 0; i < c->ntabs; i++)
		for (const struct ct_opt *o = c->tabs[i].opts; !at_end(o); o++)
			n += taken(i, o);
	struct option *lo = xcalloc(n + 1, sizeof(*lo));
	char *so = xmalloc(3 * n + 3), *p = so;
	if (c->in_order)
		*p++ = '+';
	*p++ = ':'; /* a missing argument is ':', not '?' */
	n = 0;
	for (size_t i = 0; i < c->ntabs; i++)
		for (const struct ct_opt *o = c->tabs[i].opts; !at_end(o); o++) {
			if (!taken(i, o))
				continue;
			for (size_t k = 0; k < n; k++)
				if (!strcmp(lo[k].name, o->name) || lo[k].val == o->val) {
					ct_set_err(err,
						   "internal error: options --%s and --%s share "
						   "a name or code",
						   lo[k].name, o->name);
					free(lo);
					free(so);
					return -1;
				}
			int has = !o->arg        ? no_argument
				  : optarg_of(o) ? optional_argument
						 : required_argument;
			lo[n++] = (struct option){o->name, has, NULL, o->val};
			if (o->val < 256) {
				*p++ = (char)o->val;
				if (has != no_argument)
					*p++ = ':';
				if (has == optional_argument)
					*p++ = ':';
			}
		}
	*p = 0;
	*longs = lo;
	*shorts = so;
	return 0;
}

/* the message for getopt's '?' on word (the word of the option) */
static void bad_option(const struct ct_opt_cmd *c, const char *word, int opt, struct ct_error *err)
{
	const struct ct_opt_table *t;
	const struct ct_opt *o;
	if (opt && (o = find_val(c, opt, &t))) {
		/* a known code: a long option given an argument it takes none of */
		ct_set_err(err, "option '--%s' takes no argument", o->name);
		return;
	}
	if (opt || strncmp(word, "--", 2)) {
		ct_set_err(err, "unknown option '-%c'", opt ? opt : '?');
		return;
	}
	/* a long option unknown, or the start of several */
	const char *name = word + 2;
	size_t len = strcspn(name, "=");
	char also[512] = "";
	size_t used = 0, matches = 0;
	for (size_t i = 0; i < c->ntabs; i++)
		for (o = c->tabs[i].opts; !at_end(o); o++)
			if (taken(i, o) && !strncmp(o->name, name, len) && used < sizeof(also)) {
				int k = snprintf(also + used, sizeof(also) - used, "%s--%s",
						 matches ? ", " : "", o->name);
				used += k > 0 ? (size_t)k : 0;
				matches++;
			}
	if (matches > 1)
		ct_set_err(err, "option '--%.*s' is ambiguous: %s", (int)len, name, also);
	else
		ct_set_err(err, "unknown option '--%.*s'", (int)len, name);
}

/* every option the tables take, one a line (--list-options) */
static void list_options(const struct ct_opt_cmd *c, FILE *f)
{
	for (size_t i = 0; i < c->ntabs; i++)
		for (const struct ct_opt *o = c->tabs[i].opts; !at_end(o); o++) {
			if (!taken(i, o))
				continue;
			fprintf(f, "--%s", o->name);
			if (o->arg)
				fprintf(f, "%s%s", optarg_of(o) ? "" : "=", o->arg);
			if (o->val < 256)
				fprintf(f, " -%c", o->val);
			fputc('\n', f);
		}
}

int ct_opt_parse(struct ct_opt_cmd *c, int argc, char **argv, struct ct_error *err)
{
	struct option *longs;
	char *shorts;
	int ch, rc = -1;

	c->next = argc;
	err->msg[0] = 0;
	if (argc > 1 && !strcmp(argv[1], "--list-options")) {
		list_options(c, stdout);
		return 0;
	}
	if (getopt_tables(c, &longs, &shorts, err) < 0)
		return 1;
	optind = 0; /* glibc and musl: start again, the flags of shorts read anew */
	opterr = 0; /* our messages, with the command's prefix */
	while (rc < 0 && (ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const char *word = argv[optind - 1];
		const struct ct_opt_table *t;
		const struct ct_opt *o;
		if (ch == ':') {
			if (!strncmp(word, "--", 2))
				ct_set_err(err, "option '%s' needs an argument", word);
			else
				ct_set_err(err, "option '-%c' needs an argument", optopt);
			rc = 2;
		} else if (ch == '?') {
			bad_option(c, word, optopt, err);
			rc = 2;
		} else if (!(o = find_val(c, ch, &t))) {
			/* not reached: getopt gives the tables' options only */
			ct_set_err(err, "unknown option '%s'", word);
			rc = 2;
		} else if (!strcmp(o->name, "help")) {
			ct_opt_help(c, stdout);
			rc = 0;
		} else if (t->fn(t->ctx, o, optarg, err) < 0) {
			if (!err->msg[0]) /* (a function's "not reached") */
				ct_set_err(err, "option '%s' not taken", word);
			rc = 2;
		}
	}
	c->next = optind;
	free(longs);
	free(shorts);
	return rc;
}
