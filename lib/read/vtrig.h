/* SPDX-License-Identifier: MIT */
/*
 * -T REGEX@ACTION[,ACTION...] in the views (doc/replay.md, "Triggers"):
 * record's triggers (doc/record.md) applied to a recording as it is read.
 * The filter (filter.c) asks at each call whether the triggers open leave
 * it out; a call left out is hidden as --hide hides one, so that a call
 * shown again later shows under its nearest shown caller.
 */
#ifndef CT_VTRIG_H
#define CT_VTRIG_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct ct_vtrig {
	regex_t re;
	const char *text; /* as given, for the warning when it matches nothing */
	bool used;
	bool on, off;           /* trace_on, trace_off: from this call on */
	bool on_call, off_call; /* trace_on=call, trace_off=call: inside it */
	uint32_t depth;         /* depth=N: the call and N-1 levels under it */
};

/* a thread's triggers in force */
struct ct_vtrig_thread {
	bool off;       /* trace_off met (and no trace_on since) */
	uint32_t off_d; /* the trace_off=call call open, or CT_DEPTH_NONE */
	uint32_t on_d;  /* the trace_on=call call open, or CT_DEPTH_NONE */
	struct {
		uint32_t d;   /* the depth=N call's depth */
		uint32_t lim; /* shown depths below lim are shown */
	} * lim;
	size_t nlim, limcap;
};

/* parse "REGEX@ACTION[,...]" into *t (filter, notrace and hide are -F, -N
 * and --hide: *also says which, 'F', 'N', 'H' or 0, with *re the regex,
 * malloc'd).  0, or -1 with err filled (a usage error) */
int ct_vtrig_parse(const char *arg, struct ct_vtrig *t, char *also, char **re,
		   struct ct_error *err);
void ct_vtrig_thread_init(struct ct_vtrig_thread *s);
void ct_vtrig_thread_free(struct ct_vtrig_thread *s);
/* a call at depth d, shown depth sd (if shown), with trigger tr (or NULL)
 * is entered: true when the triggers leave it out */
bool ct_vtrig_enter(struct ct_vtrig_thread *s, const struct ct_vtrig *tr, uint32_t d, uint32_t sd);
/* the call at depth d returns */
void ct_vtrig_exit(struct ct_vtrig_thread *s, uint32_t d);

#endif
