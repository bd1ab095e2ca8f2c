/* SPDX-License-Identifier: MIT */
/*
 * Are a process's calibration figures believable against its own calls
 * (doc/overhead.md, "Bad figures")?  Read by the corrected clock
 * (stream.c) before it takes the figures.
 */
#ifndef CT_FIGCHECK_H
#define CT_FIGCHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "overhead.h"
#include "session.h"

/* false when the inner figure that corrects p's calls (or its library
 * calls) is more than twice the median recorded duration of its leaf calls
 * plus CT_FIGCHECK_SLACK_NS, among the first leaf calls of its first
 * thread; *inner_ns and *median_ns then say which.  True when they fit,
 * and when too few leaf calls were seen to tell.  Decided once per
 * process and kept; without decide (a stream fed as it is recorded, whose
 * file cannot be read ahead) only a verdict already reached applies. */
bool ct_figures_fit(struct ct_session *s, struct ct_proc *p, const struct ct_overhead *o,
		    bool decide, double *inner_ns, double *median_ns);

/* two steps of the coarsest clock seen (an AMD TSC moves by 10 ns) */
#define CT_FIGCHECK_SLACK_NS 20
#define CT_FIGCHECK_EVENTS (256u * 1024) /* events read */
#define CT_FIGCHECK_LEAVES 4096u         /* leaf durations kept, of each kind */
#define CT_FIGCHECK_MIN 16u              /* fewer leaves than this tell nothing */

#endif
