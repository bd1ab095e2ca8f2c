/* SPDX-License-Identifier: MIT */
/*
 * replay --column-view, --column-offset=DEPTH and --task-newline
 * (uftrace replay's spelling; builtin/replay_col.c):
 *
 *   --column-view      each thread's tree in a column of its own: the
 *                      threads are numbered 0, 1, ... in the order of
 *                      their first line shown, and thread K's lines are
 *                      indented K * DEPTH levels more (after the '|')
 *   --column-offset=DEPTH  the levels between two columns (default 8);
 *                      a line is shifted MAX_INDENT levels at most, so
 *                      that the output stays linear in the events however
 *                      many threads there are
 *   --task-newline     an empty line before a line of another thread than
 *                      the line before it
 */
#ifndef CT_BUILTIN_REPLAY_COL_H
#define CT_BUILTIN_REPLAY_COL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_error;
struct ct_thread;

struct replay_col {
	bool view;                    /* --column-view */
	bool newline;                 /* --task-newline */
	uint32_t offset;              /* --column-offset (levels), default 8 */
	const struct ct_thread *last; /* the thread of the last line */
	uint32_t ncols;               /* columns given so far */
	uint32_t *col;                /* by thread index: 1 + its column, 0: none */
	size_t ncol;
};

#define REPLAY_COL_OFFSET_DEFAULT 8

/* parse --column-offset's DEPTH: 0, or -1 with err filled */
int replay_col_offset(struct replay_col *c, const char *arg, struct ct_error *err);

/* the start of a line of thread t: the empty line of --task-newline
 * written; the spaces the line is shifted right by (--column-view) */
size_t replay_col_line(struct replay_col *c, const struct ct_thread *t);

void replay_col_free(struct replay_col *c);

#endif
