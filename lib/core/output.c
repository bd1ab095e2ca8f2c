/* SPDX-License-Identifier: MIT */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* ---- text ------------------------------------------------------------ */

/* the length of the printable character at p (n > 0 bytes left): 1 for
 * printable ASCII, 2-4 for valid UTF-8 of a code point >= U+00A0; 0 when
 * its first byte must be escaped */
static inline size_t text_char(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0; /* C0, DEL, a stray continuation byte, overlong, too big */
	size_t len = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (len == 2)
		return c == 0xc2 && p[1] < 0xa0 ? 0 : 2; /* U+0080-U+009F: C1 */
	if (len == 3) {
		if (c == 0xe0 && p[1] < 0xa0)
			return 0; /* overlong */
		if (c == 0xed && p[1] >= 0xa0)
			return 0; /* a surrogate */
		return 3;
	}
	if (c == 0xf0 && p[1] < 0x90)
		return 0; /* overlong */
	if (c == 0xf4 && p[1] >= 0x90)
		return 0; /* beyond U+10FFFF */
	return 4;
}

bool ct_text_clean(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		if (p[i] >= 0x20 && p[i] < 0x7f) {
			i++;
			continue;
		}
		size_t k = text_char(p + i, n - i);
		if (!k)
			return false;
		i += k;
	}
	return true;
}

size_t ct_text_escape(char *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	char *o = out;
	size_t i = 0;
	while (i < n) {
		size_t k = text_char(p + i, n - i);
		if (k) {
			memcpy(o, p + i, k);
			o += k;
			i += k;
			continue;
		}
		*o++ = '\\';
		*o++ = 'x';
		*o++ = hex[p[i] >> 4];
		*o++ = hex[p[i] & 15];
		i++;
	}
	return (size_t)(o - out);
}

void ct_text_fix(char *buf, size_t size)
{
	size_t n = strlen(buf);
	if (!size || ct_text_clean(buf, n))
		return;
	char *in = xmalloc(n + 1);
	memcpy(in, buf, n + 1);
	const unsigned char *p = (const unsigned char *)in;
	size_t i = 0, o = 0;
	/* whole characters and whole escapes only, as many as fit */
	while (i < n) {
		size_t k = text_char(p + i, n - i);
		size_t w = k ? k : 4;
		if (o + w + 1 > size)
			break;
		o += ct_text_escape(buf + o, in + i, k ? k : 1);
		i += k ? k : 1;
	}
	buf[o] = 0;
	free(in);
}

char *ct_text_dup(const char *s)
{
	size_t n = strlen(s);
	char *out = xmalloc(4 * n + 1);
	out[ct_text_escape(out, s, n)] = 0;
	return out;
}

void ct_text_put(FILE *out, const char *s)
{
	size_t n = strlen(s);
	if (ct_text_clean(s, n)) {
		fwrite_unlocked(s, 1, n, out);
		return;
	}
	char *e = ct_text_dup(s);
	fputs_unlocked(e, out);
	free(e);
}

const char *ct_tx(const char *s)
{
	static char *ring[8];
	static unsigned next;
	if (!s || ct_text_clean(s, strlen(s)))
		return s;
	unsigned k = next++ % 8;
	free(ring[k]);
	ring[k] = ct_text_dup(s);
	return ring[k];
}

/* ---- output files ------------------------------------------------------ */

FILE *ct_output_create(const char *path, unsigned mode, const char **why)
{
	const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY;
	/* created private; given `mode` below, once it is known to be ours */
	int fd = open(path, flags | O_NOFOLLOW, 0600);
	struct stat st;
	if (fd < 0 && errno == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (st.st_uid != geteuid() && st.st_uid != 0) {
			*why = "a symbolic link of another user: not followed";
			errno = ELOOP;
			return NULL;
		}
		fd = open(path, flags, 0600);
	}
	if (fd < 0) {
		*why = strerror(errno);
		return NULL;
	}
	int e = 0;
	if (fstat(fd, &st) < 0) {
		e = errno;
		*why = strerror(e);
	} else if (S_ISREG(st.st_mode) && st.st_uid != geteuid()) {
		e = EPERM;
		*why = "it belongs to another user: not written";
	} else if (S_ISREG(st.st_mode) && (ftruncate(fd, 0) < 0 || fchmod(fd, mode & 07777) < 0)) {
		e = errno;
		*why = strerror(e);
	}
	FILE *f = e ? NULL : fdopen(fd, "w");
	if (!f) {
		if (!e) {
			e = errno;
			*why = strerror(e);
		}
		close(fd);
		errno = e;
	}
	return f;
}

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
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(out, "\\u%04x", *p);
			} else if (*p < 0x80) {
				putc_unlocked(*p, out);
			} else {
				/* valid UTF-8 as it is, but the C1 controls as
				 * \u0080-\u009f; a byte that is not UTF-8 (JSON
				 * must be) as the text views show it: \\xHH */
				size_t k = text_char(p, strnlen((const char *)p, 4));
				if (k) {
					fwrite_unlocked(p, 1, k, out);
					p += k - 1;
				} else if (p[0] == 0xc2 && (p[1] & 0xc0) == 0x80) {
					fprintf(out, "\\u%04x", p[1]);
					p++;
				} else {
					fprintf(out, "\\\\x%02x", *p);
				}
			}
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
	/* CSV has no escapes of its own for control characters: a field
	 * is text (ct_text_escape), which leaves no CR or LF to quote */
	char *e = NULL;
	if (!ct_text_clean(s, strlen(s)))
		s = e = ct_text_dup(s);
	if (!strpbrk(s, ",\"")) {
		fputs(s, out);
		free(e);
		return;
	}
	putc_unlocked('"', out);
	for (; *s; s++) {
		if (*s == '"')
			putc_unlocked('"', out);
		putc_unlocked(*s, out);
	}
	putc_unlocked('"', out);
	free(e);
}
