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
 * process and kept. */
bool ct_figures_fit(struct ct_session *s, struct ct_proc *p, const struct ct_overhead *o,
		    double *inner_ns, double *median_ns);

/* two steps of the coarsest clock seen (an AMD TSC moves by 10 ns) */
#define CT_FIGCHECK_SLACK_NS 20

#endif
