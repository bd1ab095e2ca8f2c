/* SPDX-License-Identifier: MIT */
#include "progress.h"
#include "message.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void ct_progress_start(struct ct_progress *p, const char *what, uint64_t total)
{
	const char *env = getenv("CALLTRACE_PROGRESS");
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->total = total;
	p->on = env && *env ? strcmp(env, "0") != 0 : isatty(2);
	p->start_ns = ct_mono_ns();
	p->next_ns = p->start_ns + 500000000u;
	p->mask = 63;
	if (p->on && env && !strcmp(env, "now")) {
		p->next_ns = p->start_ns;
		p->mask = 0;
	}
}

void ct_progress_update(struct ct_progress *p, uint64_t done)
{
	if (!p->on || (++p->calls & p->mask))
		return;
	uint64_t t = ct_mono_ns();
	if (t < p->next_ns)
		return;
	p->next_ns = t + 200000000u;
	double pct = p->total ? 100.0 * (double)done / (double)p->total : 0;
	double secs = (double)(t - p->start_ns) / 1e9;
	char line[256];
	int n = snprintf(line, sizeof(line), "\r%s: %5.1f%% of %.1f MiB, %.1f s", p->what,
			 pct > 100 ? 100 : pct, (double)p->total / 1048576.0, secs);
	if (n >= 0 && (size_t)n < sizeof(line) && done && done < p->total)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", about %.1f s left",
			      secs * (double)(p->total - done) / (double)done);
	if (n >= 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, "   ");
	if (n < 0)
		return;
	ct_print_raw(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	p->shown = true;
}

void ct_progress_end(struct ct_progress *p)
{
	if (p->shown)
		ct_print_raw("\r\033[K", 4);
	p->shown = false;
}
