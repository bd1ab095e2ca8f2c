/* SPDX-License-Identifier: MIT */
/* replay's column view and task newlines; see replay_col.h. */
#include "builtin/replay_col.h"

#include <stdlib.h>
#include <string.h>

#include "builtin/replay_out.h"
#include "error.h"
#include "filter.h"
#include "session.h"
#include "util.h"

int replay_col_offset(struct replay_col *c, const char *arg, struct ct_error *err)
{
	unsigned long v;
	if (ct_parse_uint(arg, MAX_INDENT, &v) < 0) {
		ct_set_err(err, "--column-offset: want a depth from 0 to %d, not '%s'", MAX_INDENT,
			   arg);
		return -1;
	}
	c->offset = (uint32_t)v;
	return 0;
}

size_t replay_col_line(struct replay_col *c, const struct ct_thread *t)
{
	if (c->newline && c->last && c->last != t)
		put("\n", 1);
	c->last = t;
	if (!c->view)
		return 0;
	size_t i = (size_t)t->index;
	if (i >= c->ncol) {
		size_t n = c->ncol ? c->ncol : 16;
		while (n <= i)
			n *= 2;
		c->col = xrealloc(c->col, n * sizeof(*c->col));
		memset(c->col + c->ncol, 0, (n - c->ncol) * sizeof(*c->col));
		c->ncol = n;
	}
	if (!c->col[i])
		c->col[i] = ++c->ncols;
	uint64_t levels = (uint64_t)(c->col[i] - 1) * c->offset;
	return 2 * (size_t)(levels < MAX_INDENT ? levels : MAX_INDENT);
}

void replay_col_free(struct replay_col *c)
{
	free(c->col);
	memset(c, 0, sizeof(*c));
}
