/* SPDX-License-Identifier: MIT */
/* Small helpers for the analysis side: allocation that never returns NULL
 * (out of memory ends the process, with a message: the one lib/ prints),
 * and a hash map keyed by 64-bit integers. */
#ifndef CT_UTIL_H
#define CT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
/* qsort that accepts an empty array given as NULL (qsort itself may not
 * be passed NULL, even with n = 0) */
void ct_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* CLOCK_MONOTONIC in ns */
uint64_t ct_mono_ns(void);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* arrays that grow: room for one more element in arr, n of its cap used
 * (cap doubled, from 256, when full) */
#define CT_GROW(arr, n, cap) \
	((n) == (cap) ? (void)((arr) = ct_grow((arr), &(cap), sizeof(*(arr)))) : (void)0)
/* the same, then a pointer to that element, n counting it */
#define CT_PUSH(arr, n, cap) (CT_GROW(arr, n, cap), &(arr)[(n)++])
void *ct_grow(void *p, size_t *cap, size_t size);
/* p (cap elements of size) grown to newcap elements, the new ones zeroed:
 * for arrays kept per id of a struct ct_names */
void *ct_grow_zeroed(void *p, size_t cap, size_t newcap, size_t size);
/* the indexes 0..n-1 sorted by cmp (which compares two uint32_t indexes) */
uint32_t *ct_sorted_indexes(size_t n, int (*cmp)(const void *, const void *));
/* the last component of path ("?" for NULL) */
const char *ct_basename(const char *path);
/* a text with the escaping of doc/format.md undone (\\ \n \xHH): info's
 * command, .proc's arg, exe, module and thread-name lines; malloc'ed */
char *ct_unescape(const char *s);

/* open-addressing map from uint64_t keys to void * values */
struct ct_u64map {
	uint64_t *keys;
	void **vals;
	unsigned char *used;
	size_t cap, len;
};
void ct_u64map_init(struct ct_u64map *m);
void ct_u64map_free(struct ct_u64map *m);
/* pointer to the value slot for key, inserting NULL if absent */
void **ct_u64map_slot(struct ct_u64map *m, uint64_t key);
/* the value for key, or NULL */
void *ct_u64map_get(const struct ct_u64map *m, uint64_t key);
/* the index stored for key: the one stored before, or next (stored now,
 * *added set): for a map from keys to the elements of an array, next being
 * the index the element is appended at */
uint32_t ct_u64map_index(struct ct_u64map *m, uint64_t key, size_t next, bool *added);
/* iterate: for (size_t i = 0; i < m->cap; i++) if (m->used[i]) ... */

/* FNV-1a hash of a string */
uint64_t ct_hash_str(const char *s);

/* a table of names with small integer ids, for the views' aggregates; the
 * strings are not copied (they live as long as the session) */
struct ct_names {
	const char **v;      /* id -> name */
	uint32_t *next_same; /* id -> next id + 1 with the same hash, 0 at the end */
	size_t n, cap;
	struct ct_u64map byhash; /* hash -> first id + 1 */
};
void ct_names_init(struct ct_names *t);
void ct_names_free(struct ct_names *t);
/* the id of name, or -1 */
int64_t ct_names_find(const struct ct_names *t, const char *name);
/* the id of name, added if absent (t->cap may grow: callers keeping arrays
 * per id grow them to t->cap) */
uint32_t ct_names_intern(struct ct_names *t, const char *name);

/* ---- files of a recording (doc/format.md, "What the reader accepts") ----
 *
 * ct_open_regular: open path for reading, as a file of a recording or a
 * module it names: never blocks (O_NONBLOCK, so that a FIFO cannot hang
 * the open), and only a regular file (fstat); with nofollow, never through
 * a symbolic link (O_NOFOLLOW: the files inside a data directory are never
 * links, though the directory itself may be).  The descriptor, its size in
 * *size; -1 otherwise, with errno set and *why the cause as text
 * ("not a regular file (a FIFO)", "a symbolic link", strerror(errno)). */
int ct_open_regular(const char *path, bool nofollow, uint64_t *size, const char **why);

/* the whole file (ct_open_regular), NUL-terminated, read up to the size it
 * had when opened and never more than max bytes; NULL with errno set and
 * "PATH: cause" in err when it is not a regular file, is
 * larger than max or cannot be read */
struct ct_error;
char *ct_read_file(const char *path, bool nofollow, size_t max, size_t *len, struct ct_error *err);

/* parse "10", "10ns", "1.5us", "2ms", "1s" into nanoseconds; -1 on error */
int64_t ct_parse_duration(const char *s);
/* format ns as uftrace does: "  1.234 us", "  5.000 ms", " 12.000  s"
 * (a 10-character field); returns buf */
char *ct_format_duration(uint64_t ns, char *buf, size_t len);

#endif
