/* SPDX-License-Identifier: MIT */
/* calltrace record's command line (builtin/record_opts.c), for record.c */
#ifndef CT_RECORD_H
#define CT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "argrecord.h"
#include "injectopt.h"
#include "libcallopt.h"
#include "plugopt.h"
#include "recfilter.h"

/* the options */
struct record_opts {
	const char *dir; /* -d, as given */
	const char *lib, *bufsize, *nbuf;
	bool quiet, drop;
	bool count;          /* --count: call counts only (runtime/count.c) */
	bool callsite;       /* --callsite: each call's call site (runtime/callsite.c) */
	uint64_t flight;     /* --flight: bytes per thread, else 0 */
	char flight_buf[32]; /* the buffer size it makes, for the runtime */
	struct ct_args_opts ao;
	struct ct_recfilter rf; /* -F/-N/--hide/-D/-t */
	struct ct_libcall_opts lc;
	struct ct_plugopt pl; /* --plugin, --plugin-filter */
	struct ct_injopt inj; /* --inject, --inject-file, --seed */
	char **argv;          /* the command */
	bool use_tsc;         /* the clock: the TSC (else CLOCK_MONOTONIC) */
};

/* parse argv into o; false when record ends here, with *code (0 for
 * --help, 2 for bad usage, 1 out of memory) */
bool ct_record_parse(struct record_opts *o, int argc, char **argv, int *code);

#endif
