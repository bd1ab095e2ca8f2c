/* plugin_echo: a test plugin (tests/e2e/plugin_api.sh) that prints each
 * callback with what it carries, built with the variant's flags: its own
 * functions are instrumented, and calls made in its callbacks must not be
 * traced */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "calltrace/plugin.h"

CALLTRACE_PLUGIN_DEFINE_ABI;

static FILE *out;
static int main_pid;

/* instrumented: called from the callbacks */
__attribute__((noinline)) void echo_line(const char *what, const struct ct_plugin_call *c)
{
	fprintf(out, "%s %s depth=%u %s", what, c->name ? c->name : "?", c->depth,
		c->tid == main_pid ? "main" : "other");
	if (c->flags & CT_PLUGIN_ARGS) {
		if (!strcmp(c->name, "add3"))
			fprintf(out, " args=%lu,%lu,%lu", (unsigned long)c->args[0],
				(unsigned long)c->args[1], (unsigned long)c->args[2]);
		else if (!strcmp(c->name, "half"))
			fprintf(out, " farg=%.1f", c->fargs[0]);
		else
			fprintf(out, " arg1=%lu", (unsigned long)c->args[0]);
	}
	if (c->flags & CT_PLUGIN_RETVAL) {
		if (!strcmp(c->name, "half"))
			fprintf(out, " fret=%.2f", c->fret);
		else if (strcmp(c->name, "slow")) /* (void) */
			fprintf(out, " ret=%lu", (unsigned long)c->ret);
	}
	if (c->flags & CT_PLUGIN_EXIT) {
		int ok = c->exit_ns >= c->enter_ns && c->duration_ns == c->exit_ns - c->enter_ns;
		int ok2 = c->duration_ns <= c->exit_ns - c->enter_ns + 1 &&
			  c->duration_ns + 1 >= c->exit_ns - c->enter_ns;
		fprintf(out, " times=%s", ok || ok2 ? "ok" : "bad");
		if (!strcmp(c->name, "slow"))
			fprintf(out, " (%s)", c->duration_ns >= 30000000 ? ">= 30 ms" : "< 30 ms!");
	}
	fprintf(out, " size=%s\n", c->size == sizeof(*c) ? "ok" : "bad");
}

int calltrace_plugin_init(const char *args)
{
	out = fopen(args, "w");
	if (!out)
		return 1;
	setvbuf(out, NULL, _IOLBF, 0);
	main_pid = getpid();
	fprintf(out, "init\n");
	return 0;
}

void calltrace_plugin_enter(const struct ct_plugin_call *c)
{
	echo_line("enter", c);
}

void calltrace_plugin_exit(const struct ct_plugin_call *c)
{
	echo_line("exit", c);
}

void calltrace_plugin_fini(void)
{
	fprintf(out, "fini\n");
	fclose(out);
}
