/* SPDX-License-Identifier: MIT */
/* -Z/--size-filter: see sizefilt.h. */
#include "sizefilt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "output.h"
#include "session.h"

int ct_size_filter_parse(const char *arg, uint64_t *out, struct ct_error *err)
{
	static const struct {
		const char *unit;
		unsigned shift;
	} units[] = {{"", 0},     {"B", 0},  {"K", 10},  {"k", 10},  {"KB", 10},
		     {"KiB", 10}, {"M", 20}, {"MB", 20}, {"MiB", 20}};
	char *end = NULL;
	errno = 0;
	unsigned long long v = arg[0] >= '0' && arg[0] <= '9' ? strtoull(arg, &end, 10) : 0;
	if (end && !errno && v > 0) {
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			if (strcmp(end, units[i].unit))
				continue;
			if (v > (UINT64_MAX >> units[i].shift))
				break;
			*out = (uint64_t)v << units[i].shift;
			return 0;
		}
	}
	ct_set_err(err,
		   "-Z: want a size in bytes of at least 1, with no unit or B, K or M "
		   "(e.g. 32, 1K), not '%s'",
		   arg);
	return -1;
}

int ct_size_filter_check(struct ct_session *s, struct ct_error *err)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		struct ct_proc *p = s->procs[i];
		if (!p->nmodules || ct_session_proc_has_symbols(s, p))
			continue;
		ct_set_err(err,
			   "-Z: %s: no symbol table of %s: the file is gone and none was saved "
			   "in the recording, so function sizes are unknown",
			   ct_tx(s->dir), p->exe ? ct_tx(p->exe) : "a process's program");
		return -1;
	}
	return 0;
}
