/* SPDX-License-Identifier: MIT */
/*
 * The mapping of /proc/self/maps that holds an address (mapfind.h), parsed
 * as the lines come in a small buffer: a line is "LO-HI PERMS OFFSET DEV
 * INODE [NAME]", LO and HI in lower-case hex; only the two addresses and
 * the name's last bytes are kept.
 */
#include <unistd.h>

#include "mapfind.h"

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* a line: its two addresses, and its last bytes (a ring of tn so far) */
struct line {
	uintptr_t lo, hi;
	char tail[8];
	size_t tn;
};

/* does the line end with s (n bytes)? */
static bool ends_with(const struct line *l, const char *s, size_t n)
{
	if (l->tn < n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (l->tail[(l->tn - n + k) % sizeof(l->tail)] != s[k])
			return false;
	return true;
}

static enum ct_map_kind kind_of(const struct line *l)
{
	if (ends_with(l, " [stack]", 8))
		return CT_MAP_STACK;
	if (ends_with(l, " [heap]", 7))
		return CT_MAP_HEAP;
	return CT_MAP_OTHER;
}

/* each line of the text read from fd to fn(line, arg), until fn says
 * true (then true) or the text ends (a last line without its newline
 * too; then false) */
static bool each_line(int fd, bool (*fn)(const struct line *, void *), void *arg)
{
	char buf[512];
	struct line l = {0, 0, {0}, 0};
	int field = 0; /* 0: the start, 1: the end, 2: the rest of the line */
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++) {
			char ch = buf[i];
			if (ch == '\n') {
				if (field == 2 && fn(&l, arg))
					return true;
				field = 0;
				l.lo = l.hi = 0;
				l.tn = 0;
				continue;
			}
			l.tail[l.tn++ % sizeof(l.tail)] = ch;
			if (l.tn >= 2 * sizeof(l.tail))
				l.tn -= sizeof(l.tail); /* (the same place in the ring) */
			if (field >= 2)
				continue;
			int d = hexval(ch);
			uintptr_t *v = field ? &l.hi : &l.lo;
			if (d >= 0)
				*v = *v << 4 | (uintptr_t)d;
			else if (field == 0 && ch == '-')
				field = 1;
			else
				field = field == 1 ? 2 : 3; /* (3: no addresses: ignored) */
		}
	}
	return field == 2 && fn(&l, arg);
}

struct find {
	uintptr_t p, *lo, *hi;
	enum ct_map_kind *kind;
};

static bool find_line(const struct line *l, void *arg)
{
	struct find *f = arg;
	if (f->p < l->lo || f->p >= l->hi)
		return false;
	*f->lo = l->lo;
	*f->hi = l->hi;
	*f->kind = kind_of(l);
	return true;
}

bool ct_map_find(int fd, uintptr_t p, uintptr_t *lo, uintptr_t *hi, enum ct_map_kind *kind)
{
	struct find f = {p, lo, hi, kind};
	return each_line(fd, find_line, &f);
}

struct covers {
	uintptr_t at, hi; /* mapped from the range's start up to at so far */
};

static bool covers_line(const struct line *l, void *arg)
{
	struct covers *c = arg;
	/* (the lines go up in address) */
	if (l->lo <= c->at && c->at < l->hi)
		c->at = l->hi;
	return c->at >= c->hi;
}

bool ct_map_covers(int fd, uintptr_t lo, uintptr_t hi)
{
	struct covers c = {lo, hi};
	return hi > lo && each_line(fd, covers_line, &c);
}
