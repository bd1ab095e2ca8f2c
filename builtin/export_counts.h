/* SPDX-License-Identifier: MIT */
/* calltrace export of a recording of call counts (record --count):
 * --format=folded (each arc a two-frame stack weighted by its calls) and
 * --format=callgrind (a Calls event).  See builtin/export_counts.c and
 * doc/export.md. */
#ifndef CT_EXPORT_COUNTS_H
#define CT_EXPORT_COUNTS_H

#include <stdbool.h>
#include <stdio.h>

struct ct_view;

/* write the counts of the threads v selects to out, as folded stacks
 * (callgrind false) or a callgrind profile: 0, or 1 after a message */
int ct_export_counts(struct ct_view *v, FILE *out, bool callgrind, bool samples);

#endif
