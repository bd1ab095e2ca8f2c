/* SPDX-License-Identifier: MIT */
/*
 * Async-signal-safe formatting and logging: no stdio, no malloc, no locks.
 * Supports %s %c %d %i %u %x %p %% with the l, ll and z modifiers.
 */
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static size_t put_num(char *buf, size_t pos, size_t len, unsigned long long v, unsigned base,
		      int neg)
{
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg && pos < len)
		buf[pos++] = '-';
	while (n > 0 && pos < len)
		buf[pos++] = tmp[--n];
	return pos;
}

CT_HIDDEN size_t ct_vfmt(char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t pos = 0;
	if (len == 0)
		return 0;
	len--; /* room for the NUL */
	for (const char *f = fmt; *f && pos < len; f++) {
		if (*f != '%') {
			buf[pos++] = *f;
			continue;
		}
		int lng = 0;
		f++;
		while (*f == 'l' || *f == 'z') {
			lng += (*f == 'z') ? 2 : 1;
			f++;
		}
		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			while (*s && pos < len)
				buf[pos++] = *s++;
			break;
		}
		case 'c':
			buf[pos++] = (char)va_arg(ap, int);
			break;
		case 'd':
		case 'i': {
			long long v = lng >= 2 ? va_arg(ap, long long)
				      : lng    ? va_arg(ap, long)
					       : va_arg(ap, int);
			pos = put_num(buf, pos, len,
				      v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v,
				      10, v < 0);
			break;
		}
		case 'u':
		case 'x': {
			unsigned long long v = lng >= 2 ? va_arg(ap, unsigned long long)
					       : lng    ? va_arg(ap, unsigned long)
							: va_arg(ap, unsigned);
			pos = put_num(buf, pos, len, v, *f == 'x' ? 16 : 10, 0);
			break;
		}
		case 'p':
			pos = put_num(buf, pos, len, (uintptr_t)va_arg(ap, void *), 16, 0);
			break;
		case '%':
			buf[pos++] = '%';
			break;
		default:
			if (!*f)
				f--;
			break;
		}
	}
	buf[pos] = 0;
	return pos;
}

CT_HIDDEN size_t ct_fmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = ct_vfmt(buf, len, fmt, ap);
	va_end(ap);
	return n;
}

void ct_log(const char *fmt, ...)
{
	char buf[512];
	size_t n = ct_fmt(buf, sizeof(buf), "calltrace: ");
	va_list ap;
	va_start(ap, fmt);
	n += ct_vfmt(buf + n, sizeof(buf) - n - 1, fmt, ap);
	va_end(ap);
	buf[n++] = '\n';
	ssize_t r = write(2, buf, n);
	(void)r;
}
