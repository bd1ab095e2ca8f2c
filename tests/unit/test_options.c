/* SPDX-License-Identifier: MIT */
/* The option tables (lib/core/options.c): parsing with several tables, in
 * order or mixed with operands, optional arguments, each kind of usage
 * error and its message (handed back, printed by the caller with
 * message.h's ct_usage_error: the parser prints nothing on stderr),
 * --help and --list-options, and the help's layout. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "message.h"
#include "options.h"

enum { OPT_NAME = 300, OPT_OPT, OPT_BETA, OPT_BAD };

static const struct ct_opt table_a[] = {
	CT_OPT_GROUP("options:"),
	{"all", 'a', NULL, "every one"},
	{"name", OPT_NAME, "X", "the name,\nover two lines"},
	{"opt", OPT_OPT, "[=V]", "an optional value"},
	{"secret", 's', NULL, NULL},
	{"bad", OPT_BAD, "V", "refused by the function"},
	CT_OPT_GROUP(""),
	CT_OPT_HELP,
	CT_OPT_END,
};

static const struct ct_opt table_b[] = {
	{"beta", OPT_BETA, "B", "the other table's"},
	{"bet", 'b', NULL, "a prefix of beta"},
	CT_OPT_HELP, /* a later table's --help is the first table's */
	CT_OPT_END,
};

/* what the functions were given, in order: "table:val=arg;" */
static char seen[512];

static int take(const char *table, const struct ct_opt *o, const char *arg, struct ct_error *e)
{
	size_t n = strlen(seen);
	snprintf(seen + n, sizeof(seen) - n, "%s:%s=%s;", table, o->name, arg ? arg : "-");
	if (o->val == OPT_BAD) {
		ct_set_err(e, "--bad: not '%s'", arg);
		return -1;
	}
	return 0;
}

static int take_a(void *ctx, const struct ct_opt *o, const char *arg, struct ct_error *e)
{
	CHECK(ctx == table_a, "table a's context");
	return take("a", o, arg, e);
}

static int take_b(void *ctx, const struct ct_opt *o, const char *arg, struct ct_error *e)
{
	CHECK(ctx == table_b, "table b's context");
	return take("b", o, arg, e);
}

/* stdout and stderr of a parse, each in its buffer; err is what the
 * caller prints of a usage error (ct_usage_error) */
static char out[4096], err[4096], parse_err[4096];

static void slurp(FILE *f, char *buf, size_t len)
{
	fflush(f);
	rewind(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

/* parse words (NULL-terminated; "cmd" first) with both tables: the
 * status, c->next in *next */
static int parse(bool in_order, int *next, char **words)
{
	struct ct_opt_table tabs[] = {{table_a, take_a, (void *)table_a},
				      {table_b, take_b, (void *)table_b}};
	struct ct_opt_cmd c = {.head = "usage: cmd [options]\n",
			       .tail = "the end\n",
			       .tabs = tabs,
			       .ntabs = 2,
			       .in_order = in_order};
	int argc = 0;
	while (words[argc])
		argc++;
	FILE *fo = tmpfile(), *fe = tmpfile();
	int so = dup(1), se = dup(2);
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(fo), 1);
	dup2(fileno(fe), 2);
	seen[0] = 0;
	struct ct_error e;
	int rc = ct_opt_parse(&c, argc, words, &e);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(so);
	close(se);
	slurp(fo, out, sizeof(out));
	slurp(fe, parse_err, sizeof(parse_err));
	CHECK(!parse_err[0], "the parser printed nothing on stderr: %s", parse_err);
	/* the caller's message */
	fe = tmpfile();
	se = dup(2);
	dup2(fileno(fe), 2);
	if (rc == 2)
		ct_usage_error("%s", e.msg);
	dup2(se, 2);
	close(se);
	slurp(fe, err, sizeof(err));
	*next = c.next;
	return rc;
}

#define WORDS(...) ((char *[]){"cmd", __VA_ARGS__, NULL})

static void test_parse(void)
{
	int next, rc;
	char **m = WORDS("-a", "op1", "--name", "n1", "--beta=x", "op2", "-b");
	rc = parse(false, &next, m);
	CHECK(rc == -1, "mixed: rc %d", rc);
	CHECK(!strcmp(seen, "a:all=-;a:name=n1;b:beta=x;b:bet=-;"), "mixed: %s", seen);
	CHECK(next == 6 && !strcmp(m[6], "op1") && !strcmp(m[7], "op2"),
	      "mixed: the operands moved to the end: next %d", next);

	char **w = WORDS("-a", "--name=n1", "prog", "-b", "--name", "x");
	rc = parse(true, &next, w);
	CHECK(rc == -1 && !strcmp(seen, "a:all=-;a:name=n1;"), "in order: rc %d, %s", rc, seen);
	CHECK(next == 3 && !strcmp(w[next], "prog"), "in order: next %d", next);
	rc = parse(true, &next, WORDS("-a", "--", "-b"));
	CHECK(rc == -1 && next == 3 && !strcmp(seen, "a:all=-;"), "--: rc %d next %d", rc, next);
	/* and again mixed after a parse in order (getopt started anew) */
	rc = parse(false, &next, WORDS("op", "-a"));
	CHECK(rc == -1 && !strcmp(seen, "a:all=-;") && next == 2, "mixed again: %s", seen);

	/* an optional argument: only with '=' */
	rc = parse(true, &next, WORDS("--opt", "--opt=v", "--opt", "w"));
	CHECK(rc == -1 && !strcmp(seen, "a:opt=-;a:opt=v;a:opt=-;") && next == 4,
	      "optional: %s next %d", seen, next);
	/* a unique prefix is the option, an exact name wins over longer ones */
	rc = parse(true, &next, WORDS("--al", "--bet", "--nam", "x"));
	CHECK(rc == -1 && !strcmp(seen, "a:all=-;b:bet=-;a:name=x;"), "prefixes: %s", seen);
	/* a hidden option is taken */
	rc = parse(true, &next, WORDS("-s"));
	CHECK(rc == -1 && !strcmp(seen, "a:secret=-;"), "hidden: %s", seen);
	rc = parse(true, &next, WORDS("cmd"));
	CHECK(rc == -1 && next == 1 && !seen[0], "no option: rc %d next %d", rc, next);
}

static void test_errors(void)
{
	int next, rc;
	ct_set_command("cmd");
	rc = parse(true, &next, WORDS("--nope=3", "prog"));
	CHECK(rc == 2, "unknown: rc %d", rc);
	CHECK(!strcmp(err, "calltrace cmd: unknown option '--nope'\n"
			   "Try 'calltrace cmd --help' for more.\n"),
	      "unknown: %s", err);
	rc = parse(true, &next, WORDS("-az"));
	CHECK(rc == 2 && !strcmp(seen, "a:all=-;") &&
		      !strncmp(err, "calltrace cmd: unknown option '-z'\n", 35),
	      "unknown short in a cluster: %s", err);
	rc = parse(true, &next, WORDS("-za"));
	CHECK(rc == 2 && !seen[0] && !strncmp(err, "calltrace cmd: unknown option '-z'\n", 35),
	      "unknown short first: %s", err);
	rc = parse(true, &next, WORDS("--name"));
	CHECK(rc == 2 && !strncmp(err, "calltrace cmd: option '--name' needs an argument\n", 49),
	      "missing: %s", err);
	rc = parse(true, &next, WORDS("--all=1"));
	CHECK(rc == 2 && !seen[0] &&
		      !strncmp(err, "calltrace cmd: option '--all' takes no argument\n", 48),
	      "no argument: %s", err);
	rc = parse(true, &next, WORDS("--be", "x"));
	CHECK(rc == 2 && !strncmp(err, "calltrace cmd: option '--be' is ambiguous: --beta, --bet\n",
				  57),
	      "ambiguous: %s", err);
	rc = parse(true, &next, WORDS("-a", "--bad=v", "-a"));
	CHECK(rc == 2 && !strcmp(seen, "a:all=-;a:bad=v;"), "refused: rc %d, %s", rc, seen);
	CHECK(!strcmp(err, "calltrace cmd: --bad: not 'v'\n"
			   "Try 'calltrace cmd --help' for more.\n"),
	      "refused: %s", err);
	CHECK(!out[0], "nothing on stdout: %s", out);
}

static const char help_text[] = "usage: cmd [options]\n"
				"\n"
				"options:\n"
				"  -a, --all             every one\n"
				"      --name X          the name,\n"
				"                        over two lines\n"
				"      --opt[=V]         an optional value\n"
				"      --bad V           refused by the function\n"
				"\n"
				"  -h, --help            this help\n"
				"the end\n";

static void test_help(void)
{
	int next, rc;
	rc = parse(true, &next, WORDS("-a", "--help", "--nope"));
	CHECK(rc == 0 && !strcmp(out, help_text) && !err[0], "--help: rc %d:\n%s", rc, out);
	rc = parse(true, &next, WORDS("-h"));
	CHECK(rc == 0 && !strcmp(out, help_text), "-h: rc %d", rc);
	rc = parse(true, &next, WORDS("--list-options"));
	CHECK(rc == 0 && !strcmp(out, "--all -a\n--name=X\n--opt[=V]\n--secret -s\n--bad=V\n"
				      "--help -h\n--beta=B\n--bet -b\n"),
	      "--list-options: rc %d:\n%s", rc, out);
	/* only as the first word: else an option unknown */
	rc = parse(true, &next, WORDS("-a", "--list-options"));
	CHECK(rc == 2, "--list-options later: rc %d", rc);
}

int main(void)
{
	test_parse();
	test_errors();
	test_help();
	return check_done();
}
