/* SPDX-License-Identifier: MIT */
/*
 * The reading library's error: a message for the user that names the file
 * and, for stream data, the byte offset.
 */
#ifndef CT_ERROR_H
#define CT_ERROR_H

/* a message for the user, e.g. "calltrace.data/1-0-1.ev: offset 120: bad record" */
struct ct_error {
	char msg[512];
};

/* set err's message (when err is not NULL), made safe to print
 * (output.h's ct_text_fix: it may quote a recording) */
void ct_set_err(struct ct_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
