/* SPDX-License-Identifier: MIT */
/*
 * The analysis side's messages to stderr, with their prefix written in one
 * place: "calltrace CMD: " once a subcommand is set (ct_set_command, from
 * calltrace.c's dispatch), "calltrace: " before.  As git's error(),
 * warning() and die().
 */
#ifndef CT_MESSAGE_H
#define CT_MESSAGE_H

#include <stdarg.h>

/* the subcommand named in the prefix; NULL for none */
void ct_set_command(const char *cmd);
const char *ct_command(void);

/* "calltrace CMD: MESSAGE\n"; returns 1 (the exit status of bad data) */
int ct_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ct_verror(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* "calltrace CMD: warning: MESSAGE\n" */
void ct_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ct_error, then exit(1) */
void ct_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* the same without the subcommand, "calltrace: warning: MESSAGE\n" and
 * "calltrace: MESSAGE\n" then exit(1): the warnings about a recording and
 * its symbols, and running out of memory, which read the same whichever
 * command meets them */
void ct_warn_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ct_die_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
