/* SPDX-License-Identifier: MIT */
/*
 * The mapping of /proc/self/maps that holds an address (runtime/mapfind.c):
 * a parse that is async-signal-safe (read(2) and its own arithmetic, no
 * allocation, no libc parsing), for the signal handler of record --count
 * --sample (stackwalk.c).
 */
#ifndef CT_RT_MAPFIND_H
#define CT_RT_MAPFIND_H

#include <stdbool.h>
#include <stdint.h>

enum ct_map_kind {
	CT_MAP_OTHER, /* any other mapping, named or not */
	CT_MAP_STACK, /* the main thread's stack, "[stack]" */
	CT_MAP_HEAP,  /* the brk heap, "[heap]" */
};

/* the mapping that holds p in the text of /proc/PID/maps read from fd:
 * [*lo, *hi) and its kind; false if no line holds p (or fd cannot be
 * read).  Lines of any length; the file is read up to that line */
bool ct_map_find(int fd, uintptr_t p, uintptr_t *lo, uintptr_t *hi, enum ct_map_kind *kind)
	__attribute__((visibility("hidden")));

/* is [lo, hi) mapped whole, by one mapping or by several that follow each
 * other without a gap (a static array across a program's file-backed
 * data page and its bss), in the text read from fd? */
bool ct_map_covers(int fd, uintptr_t lo, uintptr_t hi) __attribute__((visibility("hidden")));

#endif
