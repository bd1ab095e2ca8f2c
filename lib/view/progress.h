/* SPDX-License-Identifier: MIT */
/* Progress on stderr for long work, shown only when stderr is a terminal. */
#ifndef CT_PROGRESS_H
#define CT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

struct ct_progress {
	bool on;
	bool shown;
	const char *what;
	uint64_t total; /* bytes to read */
	uint64_t start_ns;
	uint64_t next_ns; /* do not redraw before */
	unsigned calls;
	unsigned mask; /* the clock is looked at when (calls & mask) == 0 */
};

/* on when stderr is a terminal, unless CALLTRACE_PROGRESS=0; forced on with
 * CALLTRACE_PROGRESS=1.  Shown only after half a second; with
 * CALLTRACE_PROGRESS=now (for tests) at the first update already. */
void ct_progress_start(struct ct_progress *p, const char *what, uint64_t total);
/* cheap: looks at the clock one call in 64 */
void ct_progress_update(struct ct_progress *p, uint64_t done);
/* erases the line */
void ct_progress_end(struct ct_progress *p);

#endif
