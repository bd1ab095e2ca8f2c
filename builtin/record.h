/* SPDX-License-Identifier: MIT */
/*
 * calltrace record's command line (builtin/record_opts.c), for record.c,
 * and for live and top, which take record's options beside their own
 * (builtin/record_wrap.c).
 */
#ifndef CT_RECORD_H
#define CT_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "argrecord.h"
#include "injectopt.h"
#include "libcallopt.h"
#include "options.h"
#include "plugopt.h"
#include "recfilter.h"
#include "view.h"

/* the options */
struct record_opts {
	const char *dir;    /* -d, as given (NULL: none given) */
	bool dir_temporary; /* dir is live's or top's own, removed at the end */
	const char *lib, *bufsize, *nbuf;
	const char *clock; /* --clock, checked (NULL: none given) */
	bool quiet, drop;
	bool count;          /* --count: call counts only (runtime/count.c) */
	bool callsite;       /* --callsite: each call's call site (runtime/callsite.c) */
	uint64_t sample_ns;  /* --sample: the sampling period (runtime/sample.c), else 0 */
	char sample_buf[32]; /* ... as the runtime's variable says it */
	const char *
		sample_clock; /* --sample-clock: the runtime's first clock (trap, timer), or NULL */
	bool sched;           /* --sched: context switches (lib/record/sched.c) */
	bool watch_cpu;       /* -W cpu: the CPU a thread runs on (runtime/watch.c) */
	uint64_t flight;      /* --flight: bytes per thread, else 0 */
	const char *flight_arg; /* --flight=SIZE as given, or NULL */
	char flight_buf[32];    /* the buffer size it makes, for the runtime */
	struct ct_args_opts ao;
	struct ct_recfilter rf; /* -F/-N/--hide/-D/-t */
	struct ct_libcall_opts lc;
	struct ct_plugopt pl; /* --plugin, --plugin-filter */
	struct ct_injopt inj; /* --inject, --inject-file, --seed */
	char **argv;          /* the command */
	bool use_tsc;         /* the clock: the TSC (else CLOCK_MONOTONIC) */
};

/* record's options, in the order of its help (lib/core/options.h), and
 * the function that takes them (a struct ct_opt_table's fn, its ctx a
 * struct record_opts made by ct_record_opts_init) */
extern const struct ct_opt ct_record_options[];
void ct_record_opts_init(struct record_opts *o);
int ct_record_option(void *o, const struct ct_opt *opt, const char *arg, struct ct_error *err);
/* after the options: the command (argv[0..argc)) and the checks of the
 * options given together.  0, or 2 with err filled (a usage error). */
int ct_record_opts_check(struct record_opts *o, int argc, char **argv, struct ct_error *err);
void ct_record_opts_free(struct record_opts *o);

/* parse argv into o: true to record, else false with *code the exit
 * status (0 after --help, 2 after a message on bad usage); free o with
 * ct_record_opts_free in either case */
bool ct_record_parse(struct record_opts *o, int argc, char **argv, int *code);

/* record with the options o, which it takes (they are freed here, *o
 * left empty), with follow (lib/record/follow.h) seeing the data as it is
 * drained (live, top); NULL: cmd_record.  The exit status. */
struct ct_record_follow;
int ct_record_run(struct record_opts *o, const struct ct_record_follow *follow);

/* builtin/record_wrap.c, for live and top: their command line, their own
 * options (the table own, each to fn with ctx; the help lists them after
 * head; the views' among them go to ct_view_option with v) then record's,
 * into o; the command; -d TMP, a temporary directory, when they gave no
 * -d.  ct_record_wrap_done frees it and removes the temporary
 * recording. */
struct ct_record_wrap {
	struct record_opts o;
	struct ct_view v; /* the views' options they take (--demangle, ...) */
	char tmp[4096];   /* the temporary recording, or "" */
};
/* -1 to go on, else the exit status: 0 after --help, 2 after a message on
 * bad usage, 1 without a temporary directory */
int ct_record_wrap_args(struct ct_record_wrap *w, int argc, char **argv, const char *head,
			const struct ct_opt *own,
			int (*fn)(void *ctx, const struct ct_opt *o, const char *arg,
				  struct ct_error *err),
			void *ctx);
void ct_record_wrap_done(struct ct_record_wrap *w);
/* their --output FILE (an option function's case): FILE in *path; 0, or
 * -1 with err filled */
int ct_record_wrap_output_opt(const char *arg, const char **path, struct ct_error *err);
/* a follower's warnings (lib/record/follow.h's say), printed */
void ct_record_wrap_say(void *ctx, struct ct_msgs *m);
/* --output PATH opened for writing (NULL: stdout), or NULL after a
 * message */
FILE *ct_record_wrap_output(const char *path);
/* out flushed and, when it is PATH's, closed: code, or 1 after a message
 * when writing failed and code was 0 */
int ct_record_wrap_close(FILE *out, const char *path, int code);

#endif
