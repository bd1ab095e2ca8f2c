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
int cmd_tui(int argc, char **argv);

/* record's command line and its run, for live and top too: record.h */

#endif
