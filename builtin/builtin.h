/* SPDX-License-Identifier: MIT */
/* The subcommands: one file each under builtin/, one table in calltrace.c. */
#ifndef CT_BUILTIN_H
#define CT_BUILTIN_H

#include <stdbool.h>

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

/* record, with follow (lib/follow.h) seeing the data as it is drained (live,
 * top); NULL: cmd_record */
struct ct_record_follow;
int ct_record_run(int argc, char **argv, const struct ct_record_follow *follow);
/* record's options for live and top: whether the word a is one that takes
 * the next word as its argument; the -d/--data given before the command */
bool ct_record_takes_arg(const char *a);
const char *ct_record_data_option(int argc, char **argv);

#endif
