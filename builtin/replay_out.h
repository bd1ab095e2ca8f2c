/* SPDX-License-Identifier: MIT */
/*
 * replay's line writer: lines are put together in one large buffer,
 * written when full (replay's output is most of its cost), with the
 * indentation and the durations' text written without snprintf where
 * that gives the same text (builtin/replay_out.c).
 */
#ifndef CT_BUILTIN_REPLAY_OUT_H
#define CT_BUILTIN_REPLAY_OUT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* the output buffer: replay's line writer fills it in place too */
struct replay_ob {
	char *buf;
	size_t len, cap;
	FILE *f;
};
extern struct replay_ob rob;
extern bool rob_failed; /* stop reading when nobody reads the output */
extern const char rob_spaces[129];

void rob_flush(void);
void rob_put_slow(const char *s, size_t n);

static inline void put(const char *s, size_t n)
{
	if (n <= rob.cap - rob.len) {
		memcpy(rob.buf + rob.len, s, n);
		rob.len += n;
	} else {
		rob_put_slow(s, n);
	}
}

static inline void puts_(const char *s)
{
	put(s, strlen(s));
}

/* a line deeper than this is indented as at this depth and its depth
 * written as a number, "[+300] " (doc/replay.md): replay's output stays
 * linear in the number of events, however deep the calls */
#define MAX_INDENT 256

/* the "[+DEPTH] " of a line deeper than MAX_INDENT into buf (32 bytes); its
 * length, 0 for other lines */
size_t depth_mark(uint32_t depth, char *buf);

static inline size_t indent_of(uint32_t depth)
{
	return 2 * (size_t)(depth <= MAX_INDENT ? depth : MAX_INDENT);
}

void put_indent(size_t n);

/* a duration's text as ct_format_duration() writes it, into b (10
 * bytes), for fewer than 1000 of the unit; 0 otherwise or when the check
 * at start found the two differ (then ct_format_duration() alone) */
size_t fast_duration(uint64_t ns, char *b);
void check_fast_duration(void);

/* a time in a field of 10 columns, as durations are written */
void put_time10(uint64_t ns);

#endif
