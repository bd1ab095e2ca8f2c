/* SPDX-License-Identifier: MIT */
/*
 * The spec files that `record` writes for the runtime and names in its
 * environment: CALLTRACE_FILTER (filter.c), CALLTRACE_PLUGIN (plugin.c),
 * CALLTRACE_INJECT (inject.c), CALLTRACE_LIBCALL (libcall.c) and
 * CALLTRACE_ARGS (args.c).  One loader for all (doc/runtime.md, "Spec
 * files"): opened as the recording's own files are, never through a
 * symbolic link and never waiting (O_NONBLOCK: a FIFO named there made the
 * program wait in open(2) for ever), then only a regular file, of bounded
 * size, read whole; what is refused is said in one line naming the file
 * and the cause.  Then its lines, one call each, and their words.
 *
 * Start-up only: nothing here is on a hook's path.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "addrtab.h"
#include "internal.h"

static const char *kind_of(mode_t m)
{
	if (S_ISFIFO(m))
		return "not a regular file but a FIFO";
	if (S_ISDIR(m))
		return "not a regular file but a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "not a regular file but a device";
	if (S_ISSOCK(m))
		return "not a regular file but a socket";
	return "not a regular file";
}

char *ct_spec_load(const char *path, const char *what, const char *then, size_t max, size_t *len)
{
	char why[96];
	const char *cause = NULL;
	char *buf = NULL;
	size_t n = 0, got = 0;
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		cause = errno == ELOOP ? "it is a symbolic link" : strerror(errno);
	else if (fstat(fd, &st) < 0)
		cause = strerror(errno);
	else if (!S_ISREG(st.st_mode))
		cause = kind_of(st.st_mode);
	else if (st.st_size == 0)
		cause = "it is empty";
	else if ((uint64_t)st.st_size > max)
		cause = (ct_fmt(why, sizeof(why), "larger than %zu bytes", max), why);
	else if (!(buf = ct_map_anon((n = (size_t)st.st_size) + 1)))
		cause = "no memory to read it";
	while (!cause && got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			cause = r < 0 ? strerror(errno) : "it shrank while being read";
		else
			got += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	if (cause) {
		if (buf)
			munmap(buf, n + 1);
		ct_log("cannot read %s %s: %s; %s", what, path, cause, then);
		return NULL;
	}
	buf[n] = 0; /* (a text, for those who want one) */
	*len = n;
	return buf;
}

void ct_spec_free(char *buf, size_t len)
{
	if (buf)
		munmap(buf, len + 1);
}

/* ---- lines -------------------------------------------------------------- */

static bool starts_line(const char *buf, const char *q)
{
	return q == buf || q[-1] == '\n';
}

void ct_spec_count(const char *buf, size_t len, uint32_t *nf, uint32_t *nm)
{
	const char *end = buf + len;
	*nf = *nm = 0;
	for (const char *q = buf; q < end; q++) {
		if (starts_line(buf, q) && q + 2 < end && q[0] == 'f' && q[1] == ' ')
			(*nf)++;
		if (starts_line(buf, q) && q + 7 < end && !memcmp(q, "module ", 7))
			(*nm)++;
	}
}

bool ct_spec_lines(const char *buf, size_t len, ct_spec_line_fn fn, void *ctx, uint32_t *bad)
{
	const char *p = buf, *end = buf + len;
	uint32_t line = 0;
	*bad = 1;
	if (!len)
		return false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		*bad = ++line;
		const char *w;
		size_t n;
		if (!fn(ctx, line, &p, le) || ct_spec_word(&p, le, &w, &n))
			return false; /* (or more on the line than it should hold) */
		p = nl ? nl + 1 : end;
	}
	return true;
}

/* ---- words -------------------------------------------------------------- */

bool ct_spec_word(const char **p, const char *end, const char **w, size_t *n)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	const char *e = s;
	while (e < end && *e != ' ')
		e++;
	*w = s;
	*n = (size_t)(e - s);
	*p = e;
	return e > s;
}

bool ct_spec_number(const char **p, const char *end, unsigned base, uint64_t *v)
{
	const char *w;
	size_t n;
	if (!ct_spec_word(p, end, &w, &n) || n > 20)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d;
		char c = w[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			return false;
		if (x > (UINT64_MAX - d) / base)
			return false;
		x = x * base + d;
	}
	*v = x;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

bool ct_spec_text(const char **p, const char *end, char *out, size_t len)
{
	const char *w;
	size_t n, o = 0;
	if (!ct_spec_word(p, end, &w, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = w[i];
		if (c == '%') {
			if (i + 2 >= n)
				return false;
			int h = hexval(w[i + 1]), l = hexval(w[i + 2]);
			if (h < 0 || l < 0)
				return false;
			c = (char)(h << 4 | l);
			i += 2;
		}
		if (o + 1 >= len)
			return false;
		out[o++] = c;
	}
	out[o] = 0;
	return true;
}

bool ct_spec_keyword(const char **p, const char *end, const char *kw)
{
	const char *w;
	size_t n;
	const char *s = *p;
	if (!ct_spec_word(&s, end, &w, &n) || n != strlen(kw) || memcmp(w, kw, n))
		return false;
	*p = s;
	return true;
}
