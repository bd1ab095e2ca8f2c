/* SPDX-License-Identifier: MIT */
#include "output.h"

#include <stdbool.h>
#include <string.h>

/* in_script: also escape the characters that could end or open markup
 * (the JSON sits in an HTML <script> element) */
static void json_string(FILE *out, const char *s, bool in_script)
{
	putc_unlocked('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (in_script && (*p == '<' || *p == '>' || *p == '&')) {
			fprintf(out, "\\u%04x", *p);
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				putc_unlocked(*p, out);
		}
	}
	putc_unlocked('"', out);
}

void ct_json_string(FILE *out, const char *s)
{
	json_string(out, s, false);
}

void ct_json_string_script(FILE *out, const char *s)
{
	json_string(out, s, true);
}

void ct_csv_string(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	putc_unlocked('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc_unlocked('"', out);
		putc_unlocked(*s, out);
	}
	putc_unlocked('"', out);
}
