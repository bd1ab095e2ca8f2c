/* SPDX-License-Identifier: MIT */
/*
 * calltrace export --format=html: one self-contained HTML report (flame
 * graph, flat profile, callers and callees, the recording's info).
 *
 * export.c reads the trace (threads, filters, range, progress) and feeds
 * each call that passes to this aggregator: an entry, then its exit with
 * its inclusive time already clipped to the range.  At the end the
 * aggregates, bounded in size, are written with the JavaScript and CSS
 * that the build embedded (web/, see doc/export.md).
 */
#ifndef CT_EXPORT_HTML_H
#define CT_EXPORT_HTML_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "filter.h"
#include "session.h"

struct ct_html;

/* true when the build embedded the report's libraries; false in a build
 * made without web/node_modules */
bool ct_html_available(void);
/* what to do then, for an error message */
extern const char ct_html_missing_hint[];

/* argc/argv: the export command line, shown in the report; raw: the
 * times are as recorded (--raw), else corrected; [lo, hi): -r's range */
struct ct_html *ct_html_new(struct ct_session *s, int argc, char **argv, bool raw, uint64_t lo,
			    uint64_t hi);
/* thread t's events follow */
void ct_html_thread(struct ct_html *h, struct ct_thread *t);
/* site: with export --callsite, the call's call site as text (its edge is
 * that of the site), else NULL */
void ct_html_enter(struct ct_html *h, struct ct_func *fn, const char *site);
/* the exit of the innermost open call: incl is its (corrected) time inside
 * the range, as report counts it; in false when the call does not overlap
 * the range, counted false when it is not a new call (entered before the
 * stream: ct_call_counted); [start, end) its place on the timeline (the
 * recorded clock), clipped to the range: end - start is its recorded time
 * there, against which incl says whether the time is mostly the tracer's
 * (ct_mostly_cost); sampled: record --sample's samples in the call (its
 * callees' too) x the period, in ns */
void ct_html_exit(struct ct_html *h, uint64_t incl, bool in, bool counted, uint64_t start,
		  uint64_t end, uint64_t sampled);
/* a calltrace_mark() at ev->time (text at ev->addr), shown when in */
void ct_html_mark(struct ct_html *h, const struct ct_event *ev, bool in);
/* the end of a thread's events: calls left open are dropped */
void ct_html_thread_end(struct ct_html *h);
/* write the report; 0, or -1 with errno set by a failed write */
int ct_html_write(struct ct_html *h, FILE *out);
void ct_html_free(struct ct_html *h);

#endif
