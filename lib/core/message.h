/* SPDX-License-Identifier: MIT */
/*
 * The analysis side's messages to stderr, the only place that writes
 * them: the commands (builtin/) and the views' scaffold (lib/view/view.c)
 * print through it, the rest of lib/ hands its errors and messages back
 * (error.h).  The prefix is made in one place: "calltrace CMD: " once a
 * subcommand is set (ct_set_command, from calltrace.c's dispatch),
 * "calltrace: " before.  Each message (prefix, text, newline) goes out in
 * one write(2), so that it is not cut into by the traced program's own
 * output on a shared stderr.  As git's error(), warning() and die().
 */
#ifndef CT_MESSAGE_H
#define CT_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>

#include "error.h"

/* the subcommand named in the prefix; NULL for none */
void ct_set_command(const char *cmd);
const char *ct_command(void);

/* "calltrace CMD: MESSAGE\n"; returns 1 (the exit status of bad data) */
int ct_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "calltrace CMD: warning: MESSAGE\n" */
void ct_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* ct_error, then exit(1) */
void ct_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* a usage error: "calltrace CMD: MESSAGE\n" and where the help is, "Try
 * 'calltrace CMD --help' for more.\n", in one write; returns 2, bad
 * usage's exit status */
int ct_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* the same without the subcommand, "calltrace: warning: MESSAGE\n" and
 * "calltrace: MESSAGE\n" then exit(1): the warnings about a recording and
 * its symbols, and running out of memory, which read the same whichever
 * command meets them */
void ct_warn_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ct_die_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "calltrace: MESSAGE\n": record's notes (its summary, a snapshot taken) */
void ct_note_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* the messages lib/ handed back (error.h), each as its kind says, made
 * safe to print (output.h's ct_text_fix), in order; m emptied */
void ct_msgs_flush(struct ct_msgs *m);

/* text as it is, no prefix, in one write (a progress line, a help on
 * stderr) */
void ct_print_raw(const char *text, size_t len);

#endif
