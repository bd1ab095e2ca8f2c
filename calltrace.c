/* SPDX-License-Identifier: MIT */
/* calltrace: the command and its table of subcommands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/builtin.h"
#include "message.h"

#ifndef CT_VERSION
#define CT_VERSION "0.1"
#endif

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd_struct commands[] = {
	{"record", cmd_record, "run a program and record its calls"},
	{"replay", cmd_replay, "show the recorded calls as a call tree"},
	{"report", cmd_report, "flat profile: calls, total and self time per function"},
	{"callers", cmd_callers, "call graph profile: callers and callees of each function"},
	{"graph", cmd_graph, "call tree aggregated by call path; backtraces of a function"},
	{"coverage", cmd_coverage, "which functions of each instrumented module were called"},
	{"info", cmd_info, "what was recorded: command, processes, threads, modules"},
	{"live", cmd_live, "run a program and show its call tree while it runs"},
	{"top", cmd_top, "run a program and show its flat profile while it runs"},
	{"tui", cmd_tui, "browse a recording in the terminal: graph, report, callers"},
	{"export", cmd_export,
	 "write the calls for other tools: chrome, perfetto, folded, callgrind, html"},
};

static void usage(FILE *f)
{
	fprintf(f, "usage: calltrace [--version] [--help] <command> [<args>]\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'calltrace <command> --help' tells more about a command.\n"
		   "'calltrace help <command>' shows the same; 'man calltrace-<command>'\n"
		   "the whole page, once installed (make install).\n"
		   "A program is traced after a rebuild with one of -finstrument-functions,\n"
		   "-pg, -pg -mfentry or -fpatchable-function-entry=5:\n"
		   "   gcc -g -finstrument-functions -o prog prog.c\n"
		   "   calltrace record ./prog && calltrace replay\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		/* on stderr, as one message (message.h) */
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (f) {
			usage(f);
			if (fclose(f) == 0)
				ct_print_raw(text, len);
			free(text);
		}
		return 2;
	}
	if (!strcmp(argv[1], "help") && argc > 2) {
		/* calltrace help CMD: CMD --help */
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				char *args[] = {argv[2], "--help", NULL};
				ct_set_command(commands[i].name);
				return commands[i].fn(2, args);
			}
		ct_error("'%s' is not a calltrace command. See 'calltrace --help'.", argv[2]);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("calltrace %s (data format 1)\n", CT_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			ct_set_command(commands[i].name);
			return commands[i].fn(argc - 1, argv + 1);
		}
	if (strchr(argv[1], '/') || access(argv[1], X_OK) == 0)
		ct_error("'%s' is not a calltrace command; to record it and show its calls: "
			 "calltrace live %s (or calltrace record %s, then calltrace replay)",
			 argv[1], argv[1], argv[1]);
	else
		ct_error("'%s' is not a calltrace command. See 'calltrace --help'.", argv[1]);
	return 2;
}
