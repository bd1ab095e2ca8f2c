/* SPDX-License-Identifier: MIT */
/* Writing strings into the formats the views produce: JSON and CSV. */
#ifndef CT_OUTPUT_H
#define CT_OUTPUT_H

#include <stdio.h>

/* s as a JSON string, quotes included (RFC 8259 escapes) */
void ct_json_string(FILE *out, const char *s);
/* the same, fit for an HTML <script> element: <, > and & as \u escapes */
void ct_json_string_script(FILE *out, const char *s);
/* s as a CSV field: quoted (RFC 4180) when it holds a comma, quote or newline */
void ct_csv_string(FILE *out, const char *s);

#endif
