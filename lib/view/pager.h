/* SPDX-License-Identifier: MIT */
/*
 * The pager of the views with long output, as git's: when stdout is a
 * terminal, the output goes through $CALLTRACE_PAGER, else $PAGER, else
 * "less -FRX" (LESS=FRX set when LESS is not); an empty pager or "cat"
 * means none.  A pager that quits early (q) ends the view quietly: SIGPIPE
 * is ignored while it runs, and the view's write errors are then no error.
 * A deadly signal (^C) waits for the pager to end before it kills the view.
 */
#ifndef CT_PAGER_H
#define CT_PAGER_H

#include <stdbool.h>

struct ct_msgs;

/* start the pager when stdout is a terminal and one is set: true when it
 * runs (stdout is then its input); false without one, a warning into warn
 * when it could not be started */
bool ct_pager_start(struct ct_msgs *warn);

/* does a pager read stdout? */
bool ct_pager_active(void);

/* stdout flushed and closed, the pager waited for (also at exit) */
void ct_pager_end(void);

#endif
