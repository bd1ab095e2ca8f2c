/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's timeline (export --format=html): each thread's calls
 * at their place on the recorded clock (one axis for every thread and
 * process, doc/overhead.md), each with its corrected duration, and its
 * calltrace_mark() marks, for the page's flame chart.
 *
 * Bounded for any recording: a call shorter than min_ns is not kept (its
 * time is in its caller's box, which the page draws), min_ns starting at
 * the recording's (or -r range's) length / TL_RESOLUTION, about a pixel of
 * a page 1000 pixels wide zoomed in 40 times; whenever more than
 * TL_MAX_CALLS calls are kept, min_ns doubles and the calls now too short
 * are let go.  At most TL_MAX_MARKS marks are kept.  The page says what
 * was left out.
 */
#ifndef CT_HTML_TIMELINE_H
#define CT_HTML_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"

struct ct_timeline;

/* span: the time the timeline covers, in ns (0: unknown) */
struct ct_timeline *ct_timeline_new(uint64_t span);
void ct_timeline_free(struct ct_timeline *tl);
/* thread t's calls follow */
void ct_timeline_thread(struct ct_timeline *tl, const struct ct_thread *t);
/* a call of function fn (an id of the report's) at depth (0: outermost
 * shown) from start to end on the recorded clock, lasting time (the
 * duration the other views show: corrected unless --raw) */
void ct_timeline_call(struct ct_timeline *tl, uint32_t fn, uint32_t depth, uint64_t start,
		      uint64_t end, uint64_t time);
void ct_timeline_mark(struct ct_timeline *tl, uint64_t t, const char *text);
/* record --sched: the last thread's off-CPU spans [from[i], to[i]) (ns,
 * as the calls'), drawn shaded behind its calls; those shorter than the
 * shortest call kept are left out, and past TL_MAX_OFF in all */
void ct_timeline_offcpu(struct ct_timeline *tl, const uint64_t *from, const uint64_t *to, size_t n);
/* want[fn] set for each function a kept call names */
void ct_timeline_want(const struct ct_timeline *tl, bool *want);
/* the "timeline" member of the report's data, fns named by fout[id] - 1 */
void ct_timeline_write(const struct ct_timeline *tl, FILE *out, const uint32_t *fout);

#endif
