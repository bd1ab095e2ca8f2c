/* SPDX-License-Identifier: MIT */
/* Small helpers for the analysis side (see util.h). */
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "message.h"

/* the one message lib/ prints itself: running out of memory ends the
 * process (error.h) */
static void oom(size_t n)
{
	ct_die_plain("out of memory (allocating %zu bytes)", n);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

uint64_t ct_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void ct_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0)
		oom(SIZE_MAX); /* (only a text longer than INT_MAX bytes fails) */
	char *p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, again);
	va_end(again);
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

/* ---- files of a recording -------------------------------------------- */

static const char *file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "not a regular file (a FIFO)";
	if (S_ISCHR(m))
		return "not a regular file (a character device)";
	if (S_ISBLK(m))
		return "not a regular file (a block device)";
	if (S_ISSOCK(m))
		return "not a regular file (a socket)";
	if (S_ISDIR(m))
		return "not a regular file (a directory)";
	return "not a regular file";
}

int ct_open_regular(const char *path, bool nofollow, uint64_t *size, const char **why)
{
	int fd = open(path,
		      O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0) {
		int e = errno;
		struct stat st;
		/* O_NOFOLLOW says ELOOP for a link as its last part */
		if (nofollow && e == ELOOP && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			*why = "a symbolic link (the files of a recording never are)";
		else
			*why = strerror(e);
		errno = e;
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		*why = strerror(e);
		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*why = file_kind(st.st_mode);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	/* back to blocking reads: a regular file never waits anyway */
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	*size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	return fd;
}

char *ct_read_file(const char *path, bool nofollow, size_t max, size_t *lenp, struct ct_error *err)
{
	uint64_t size;
	const char *why;
	int fd = ct_open_regular(path, nofollow, &size, &why);
	if (fd < 0) {
		int e = errno;
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, why);
		errno = e;
		return NULL;
	}
	if (size > max) {
		snprintf(err->msg, sizeof(err->msg),
			 "%s: too large (%" PRIu64 " bytes; at most %zu are read)", path, size,
			 max);
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	char *buf = xmalloc((size_t)size + 1);
	size_t len = 0;
	while (len < size) {
		ssize_t r = read(fd, buf + len, (size_t)size - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			snprintf(err->msg, sizeof(err->msg), "%s: offset %zu: %s", path, len,
				 strerror(e));
			close(fd);
			free(buf);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break; /* it shrank: what is there */
		len += (size_t)r;
	}
	close(fd);
	buf[len] = 0;
	if (lenp)
		*lenp = len;
	return buf;
}

/* ---- u64 map ---------------------------------------------------------- */

static inline size_t hash64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (size_t)x;
}

void ct_u64map_init(struct ct_u64map *m)
{
	memset(m, 0, sizeof(*m));
}

void ct_u64map_free(struct ct_u64map *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

static void **slot_nogrow(struct ct_u64map *m, uint64_t key, int *inserted)
{
	size_t mask = m->cap - 1;
	size_t i = hash64(key) & mask;
	while (m->used[i]) {
		if (m->keys[i] == key) {
			*inserted = 0;
			return &m->vals[i];
		}
		i = (i + 1) & mask;
	}
	m->used[i] = 1;
	m->keys[i] = key;
	m->vals[i] = NULL;
	m->len++;
	*inserted = 1;
	return &m->vals[i];
}

static void grow(struct ct_u64map *m)
{
	struct ct_u64map old = *m;
	size_t cap = old.cap ? old.cap * 2 : 64;
	m->keys = xmalloc(cap * sizeof(*m->keys));
	m->vals = xmalloc(cap * sizeof(*m->vals));
	m->used = xcalloc(cap, 1);
	m->cap = cap;
	m->len = 0;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.used[i]) {
			int ins;
			*slot_nogrow(m, old.keys[i], &ins) = old.vals[i];
		}
	}
	free(old.keys);
	free(old.vals);
	free(old.used);
}

void **ct_u64map_slot(struct ct_u64map *m, uint64_t key)
{
	if ((m->len + 1) * 4 > m->cap * 3)
		grow(m);
	int ins;
	return slot_nogrow(m, key, &ins);
}

void *ct_u64map_get(const struct ct_u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	size_t mask = m->cap - 1;
	size_t i = hash64(key) & mask;
	while (m->used[i]) {
		if (m->keys[i] == key)
			return m->vals[i];
		i = (i + 1) & mask;
	}
	return NULL;
}

uint32_t ct_u64map_index(struct ct_u64map *m, uint64_t key, size_t next, bool *added)
{
	void **slot = ct_u64map_slot(m, key);
	*added = !*slot;
	if (*added)
		*slot = (void *)(uintptr_t)(next + 1);
	return (uint32_t)((uintptr_t)*slot - 1);
}

/* ---- arrays and paths ---------------------------------------------------- */

void *ct_grow(void *p, size_t *cap, size_t size)
{
	*cap = *cap ? 2 * *cap : 256;
	return xrealloc(p, *cap * size);
}

void *ct_grow_zeroed(void *p, size_t cap, size_t newcap, size_t size)
{
	p = xrealloc(p, newcap * size);
	memset((char *)p + cap * size, 0, (newcap - cap) * size);
	return p;
}

uint32_t *ct_sorted_indexes(size_t n, int (*cmp)(const void *, const void *))
{
	uint32_t *v = xmalloc((n ? n : 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	ct_qsort(v, n, sizeof(*v), cmp);
	return v;
}

char *ct_unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;
	while (*s) {
		if (*s == '\\' && s[1]) {
			if (s[1] == '\\') {
				*o++ = '\\';
				s += 2;
				continue;
			}
			if (s[1] == 'n') {
				*o++ = '\n';
				s += 2;
				continue;
			}
			if (s[1] == 'x' && s[2] && s[3]) {
				char hex[3] = {s[2], s[3], 0};
				char *end;
				unsigned long v = strtoul(hex, &end, 16);
				if (!*end) {
					*o++ = (char)v;
					s += 4;
					continue;
				}
			}
		}
		*o++ = *s++;
	}
	*o = 0;
	return out;
}

const char *ct_basename(const char *path)
{
	if (!path)
		return "?";
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* ---- durations ---------------------------------------------------------- */

int64_t ct_parse_duration(const char *s)
{
	if (!s)
		return -1;
	const char *p = s;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -1;
	/* integer and fraction parsed exactly, as decimal digits */
	uint64_t whole = 0;
	int ndig = 0;
	while (isdigit((unsigned char)*p)) {
		if (whole > (UINT64_MAX - 9) / 10)
			return -1;
		whole = whole * 10 + (uint64_t)(*p - '0');
		p++;
		ndig++;
	}
	uint64_t frac = 0, fracdiv = 1;
	if (*p == '.') {
		p++;
		while (isdigit((unsigned char)*p)) {
			if (fracdiv < 1000000000000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fracdiv *= 10;
			}
			p++;
			ndig++;
		}
	}
	if (!ndig)
		return -1;
	uint64_t mult;
	if (!*p || !strcmp(p, "ns"))
		mult = 1;
	else if (!strcmp(p, "us") || !strcmp(p, "usec"))
		mult = 1000;
	else if (!strcmp(p, "ms") || !strcmp(p, "msec"))
		mult = 1000000;
	else if (!strcmp(p, "s") || !strcmp(p, "sec"))
		mult = 1000000000ULL;
	else if (!strcmp(p, "m") || !strcmp(p, "min"))
		mult = 60000000000ULL;
	else if (!strcmp(p, "h"))
		mult = 3600000000000ULL;
	else
		return -1;
	if (whole > (uint64_t)INT64_MAX / mult)
		return -1;
	uint64_t v = whole * mult;
	/* fraction: frac/fracdiv * mult, rounded to the nearest ns */
	unsigned __int128 f = (unsigned __int128)frac * mult;
	uint64_t fns = (uint64_t)((f + fracdiv / 2) / fracdiv);
	if (v > (uint64_t)INT64_MAX - fns)
		return -1;
	return (int64_t)(v + fns);
}

char *ct_format_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		uint64_t div;
		const char *unit;
	} units[] = {
		{1, "ns"},
		{1000, "us"},
		{1000000, "ms"},
		{1000000000ULL, " s"},
	};
	size_t u = 0;
	while (u + 1 < sizeof(units) / sizeof(units[0]) && ns >= units[u + 1].div)
		u++;
	uint64_t div = units[u].div;
	uint64_t whole = ns / div;
	uint64_t frac = div == 1 ? 0 : (ns % div) / (div / 1000); /* truncated */
	snprintf(buf, len, "%3" PRIu64 ".%03" PRIu64 " %s", whole, frac, units[u].unit);
	return buf;
}

uint64_t ct_hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void ct_names_init(struct ct_names *t)
{
	memset(t, 0, sizeof(*t));
	ct_u64map_init(&t->byhash);
}

void ct_names_free(struct ct_names *t)
{
	free(t->v);
	free(t->next_same);
	ct_u64map_free(&t->byhash);
	memset(t, 0, sizeof(*t));
}

int64_t ct_names_find(const struct ct_names *t, const char *name)
{
	uintptr_t first = (uintptr_t)ct_u64map_get(&t->byhash, ct_hash_str(name));
	for (uintptr_t i = first; i; i = t->next_same[i - 1])
		if (!strcmp(t->v[i - 1], name))
			return (int64_t)(i - 1);
	return -1;
}

uint32_t ct_names_intern(struct ct_names *t, const char *name)
{
	int64_t found = ct_names_find(t, name);
	if (found >= 0)
		return (uint32_t)found;
	void **slot = ct_u64map_slot(&t->byhash, ct_hash_str(name));
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
		t->next_same = xrealloc(t->next_same, t->cap * sizeof(*t->next_same));
	}
	uint32_t id = (uint32_t)t->n++;
	t->v[id] = name;
	t->next_same[id] = (uint32_t)(uintptr_t)*slot;
	*slot = (void *)(uintptr_t)(id + 1);
	return id;
}
