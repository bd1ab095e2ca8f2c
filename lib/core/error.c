/* SPDX-License-Identifier: MIT */
/* The analysis side's errors and messages handed back (error.h). */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"

void ct_vset_err(struct ct_error *err, const char *fmt, va_list ap)
{
	if (!err)
		return;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	ct_text_fix(err->msg, sizeof(err->msg));
}

void ct_set_err(struct ct_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_vset_err(err, fmt, ap);
	va_end(ap);
}

int ct_set_err_rc(struct ct_error *err, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_vset_err(err, fmt, ap);
	va_end(ap);
	return rc;
}

/* (without xmalloc: the drainer reports running out of memory and goes
 * on; a message that cannot be kept is counted instead) */
void ct_msg_vadd(struct ct_msgs *m, enum ct_msg_kind kind, const char *fmt, va_list ap)
{
	if (!m)
		return;
	char *text = NULL;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 8;
		struct ct_msg *v = realloc(m->v, cap * sizeof(*v));
		if (!v) {
			m->dropped++;
			return;
		}
		m->v = v;
		m->cap = cap;
	}
	if (vasprintf(&text, fmt, ap) < 0) {
		m->dropped++;
		return;
	}
	m->v[m->n++] = (struct ct_msg){kind, text};
}

void ct_msg_add(struct ct_msgs *m, enum ct_msg_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ct_msg_vadd(m, kind, fmt, ap);
	va_end(ap);
}

void ct_msgs_free(struct ct_msgs *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].text);
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
	m->dropped = 0;
}
