/* SPDX-License-Identifier: MIT */
/* Writing strings into the formats the views produce: text, JSON and CSV. */
#ifndef CT_OUTPUT_H
#define CT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Text for a terminal.  Names and strings from a recording may hold bytes
 * that a terminal acts on (ESC starts an escape sequence, BEL rings): every
 * byte a view prints as text from a recording goes through these.  Kept as
 * they are: printable ASCII (0x20-0x7e) and valid UTF-8 sequences of code
 * points from U+00A0 on.  Written as \xHH (two lowercase hex digits), byte
 * by byte: the C0 controls (0x00-0x1f, tab and newline too), DEL (0x7f), the
 * C1 controls U+0080-U+009F encoded in UTF-8, and every byte that is not
 * part of a valid UTF-8 sequence (a lone 0x80-0x9f among them, which some
 * terminals take as an 8-bit C1 control).  A backslash stays as it is.
 */
/* true when s[0..n) needs no escaping */
bool ct_text_clean(const char *s, size_t n);
/* s[0..n) escaped into out, which has room for 4 * n bytes (not
 * NUL-terminated); the length written */
size_t ct_text_escape(char *out, const char *s, size_t n);
/* buf (a NUL-terminated string in size bytes) escaped in place, cut short
 * to fit: for messages that quote a recording */
void ct_text_fix(char *buf, size_t size);
/* s escaped, malloc'd */
char *ct_text_dup(const char *s);
/* s escaped to out */
void ct_text_put(FILE *out, const char *s);
/* s itself when it needs no escaping, else its escaped text in one of a few
 * buffers reused in turn (valid until 8 more calls): for printf's "%s" */
const char *ct_tx(const char *s);

/*
 * A file a view writes (export -o FILE): outputs carry names, arguments and
 * return values captured from the program, so they are as private as the
 * recording unless the user asks otherwise.  path is opened for writing:
 *  - created with exactly the permission bits `mode` (0600 by default in
 *    the views), whatever the umask; an existing regular file is truncated
 *    and given them, but only if it is ours (one another user put there
 *    could be read by them);
 *  - a symbolic link at path is followed only if it is ours or root's
 *    (/dev/stdout, a link we made), never one another user planted;
 *  - a device or FIFO (/dev/null, a named pipe) is written as it is.
 * NULL with errno set and *why a reason to print after the path (ours or
 * strerror's) when it cannot be.
 */
FILE *ct_output_create(const char *path, unsigned mode, const char **why);

/* s as a JSON string, quotes included (RFC 8259 escapes) */
void ct_json_string(FILE *out, const char *s);
/* the same, fit for an HTML <script> element: <, > and & as \u escapes */
void ct_json_string_script(FILE *out, const char *s);
/* s as a CSV field: quoted (RFC 4180) when it holds a comma, quote or newline */
void ct_csv_string(FILE *out, const char *s);

#endif
