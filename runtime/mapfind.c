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

/* does the line whose last tn bytes went round the ring tail (of tsize)
 * end with s (n bytes)? */
static bool ends_with(const char *tail, size_t tsize, size_t tn, const char *s, size_t n)
{
	if (tn < n)
		return false;
	for (size_t k = 0; k < n; k++)
		if (tail[(tn - n + k) % tsize] != s[k])
			return false;
	return true;
}

static enum ct_map_kind kind_of(const char *tail, size_t tsize, size_t tn)
{
	if (ends_with(tail, tsize, tn, " [stack]", 8))
		return CT_MAP_STACK;
	if (ends_with(tail, tsize, tn, " [heap]", 7))
		return CT_MAP_HEAP;
	return CT_MAP_OTHER;
}

bool ct_map_covers(int fd, uintptr_t lo, uintptr_t hi)
{
	char buf[512];
	uintptr_t v[2] = {0, 0}, at = lo; /* mapped from lo up to at so far */
	int field = 0;
	ssize_t r;
	if (hi <= lo)
		return false;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++) {
			char ch = buf[i];
			if (ch == '\n') {
				field = 0;
				v[0] = v[1] = 0;
				continue;
			}
			if (field == 2)
				continue;
			int d = hexval(ch);
			if (d >= 0) {
				v[field] = v[field] << 4 | (uintptr_t)d;
			} else if (field == 0 && ch == '-') {
				field = 1;
			} else {
				/* a mapping [v0, v1): the lines go up in address */
				if (field == 1 && v[0] <= at && at < v[1]) {
					at = v[1];
					if (at >= hi)
						return true;
				}
				field = 2;
			}
		}
	}
	return false;
}

bool ct_map_find(int fd, uintptr_t p, uintptr_t *lo, uintptr_t *hi, enum ct_map_kind *kind)
{
	char buf[512], tail[8];
	uintptr_t v[2] = {0, 0};
	int field = 0; /* 0: the start, 1: the end, 2: the rest of the line */
	size_t tn = 0; /* bytes of the line so far, the last ones in tail[] */
	bool found = false;
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < r; i++) {
			char ch = buf[i];
			if (ch == '\n') {
				if (found) {
					*kind = kind_of(tail, sizeof(tail), tn);
					return true;
				}
				field = 0;
				v[0] = v[1] = 0;
				tn = 0;
				continue;
			}
			tail[tn++ % sizeof(tail)] = ch;
			if (tn >= 2 * sizeof(tail))
				tn -= sizeof(tail); /* (the same place in the ring) */
			if (field == 2)
				continue;
			int d = hexval(ch);
			if (d >= 0) {
				v[field] = v[field] << 4 | (uintptr_t)d;
			} else if (field == 0 && ch == '-') {
				field = 1;
			} else {
				if (field == 1 && p >= v[0] && p < v[1]) {
					*lo = v[0];
					*hi = v[1];
					found = true;
				}
				field = 2;
			}
		}
	}
	if (found)
		*kind = kind_of(tail, sizeof(tail), tn); /* (the last line, no newline) */
	return found;
}
