/* SPDX-License-Identifier: MIT */
#include "output.h"

#include <string.h>

void ct_json_string(FILE *out, const char *s)
{
	putc_unlocked('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
