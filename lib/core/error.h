/* SPDX-License-Identifier: MIT */
/*
 * How lib/ reports what goes wrong: it never prints (only the commands in
 * builtin/, message.h, and the views' scaffold lib/view/view.c do).
 *
 * - A function that fails returns -1 (or NULL) with a struct ct_error
 *   filled: one message for the user that names the file and, for stream
 *   data, the byte offset.  Its caller prints it (message.h's ct_error).
 * - What lib/ must say without failing (a regex that matched nothing, a
 *   recording's warnings, a file it skipped) goes into a struct ct_msgs,
 *   a list of messages the caller prints in order (ct_msgs_flush), each
 *   with its kind.  The session's warnings (session.h) are one too.
 * - Running out of memory still ends the process (util.h's xmalloc).
 */
#ifndef CT_ERROR_H
#define CT_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* a message for the user, e.g. "calltrace.data/1-0-1.ev: offset 120: bad record" */
struct ct_error {
	char msg[1024];
};

/* set err's message (when err is not NULL), made safe to print
 * (output.h's ct_text_fix: it may quote a recording) */
void ct_set_err(struct ct_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ct_vset_err(struct ct_error *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* ct_set_err, then rc: "return ct_set_err_rc(err, -1, ...)" */
int ct_set_err_rc(struct ct_error *err, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* how a message of a struct ct_msgs is printed (message.h) */
enum ct_msg_kind {
	CT_MSG_ERROR,      /* "calltrace CMD: TEXT": an error the command goes on after */
	CT_MSG_WARN,       /* "calltrace CMD: warning: TEXT" */
	CT_MSG_WARN_PLAIN, /* "calltrace: warning: TEXT": about a recording or its
			    * symbols, the same whichever command meets it */
};

/* messages handed back to the caller, in the order they were met */
struct ct_msgs {
	struct ct_msg {
		enum ct_msg_kind kind;
		char *text; /* as formatted; made safe to print when printed */
	} * v;
	size_t n, cap;
	size_t dropped; /* messages not kept: out of memory */
};

/* add a message to m (nothing when m is NULL: the caller wants none) */
void ct_msg_add(struct ct_msgs *m, enum ct_msg_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ct_msg_vadd(struct ct_msgs *m, enum ct_msg_kind kind, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* the messages freed; m empty (and usable) again */
void ct_msgs_free(struct ct_msgs *m);

#endif
