/* SPDX-License-Identifier: MIT */
/*
 * report's state, shared by the flat profile (builtin/report.c: options,
 * reading, the tables) and --diff, two recordings compared
 * (builtin/report_diff.c).
 */
#ifndef CT_BUILTIN_REPORT_H
#define CT_BUILTIN_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "counts.h"
#include "flat.h"
#include "overhead.h"
#include "session.h"
#include "util.h"
#include "view.h"

/* --format, and -s's keys */
enum fmt { FMT_TEXT, FMT_CSV, FMT_JSON };
enum skey {
	K_TOTAL,
	K_SELF,
	K_CALLS,
	K_AVG,
	K_MIN,
	K_MAX,
	K_NAME,
	K_STOTAL,
	K_SSELF,
	K_SAVG,
	K_SMIN,
	K_SMAX,
	K_OFFCPU
};

/* -f's fields, uftrace report's names (report.c) */
enum rfield { RF_TOTAL, RF_TAVG, RF_TMIN, RF_TMAX, RF_SELF, RF_SAVG, RF_SMIN, RF_SMAX, RF_CALL };
#define RF_NUM 9

/* a recording's rows as they are gathered, and how they are printed */
struct report {
	struct ct_session *s;
	struct ct_filter *filt;
	struct ct_names names; /* function names and their ids */

	struct ct_fstat *stats; /* per id */
	uint32_t *active;       /* per id: open activations on the current thread */
	size_t capstats;

	struct ct_fframe *stack; /* the open calls (lib/view/flat.h) */
	size_t depth, capstack;

	enum fmt fmt;
	enum skey keys[8];
	size_t nkeys;
	size_t limit; /* 0: all */
	bool per_thread;
	bool first_table;
	FILE *out;
	bool by_args;
	bool list_functions;        /* the names alone (the shell completion) */
	enum rfield fields[RF_NUM]; /* -f: the text table's columns, in order */
	size_t nfields;
	bool fields_set;       /* -f was given (else the usual columns) */
	bool task;             /* --task: one row per thread */
	bool srcline;          /* --srcline: each function's file:line (text) */
	struct ct_proc **srcp; /* --srcline: by id, where the function was first seen */
	uint64_t *srca;
	size_t nsrc;
	struct task_row *tasks; /* --task: the rows, one per thread read */
	size_t ntasks;
	bool keys_given;      /* -s */
	bool counts;          /* a recording of call counts only: calls, no times */
	bool sampled;         /* a recording with samples (record --sample) */
	bool sched;           /* one with context switches (record --sched) */
	struct ct_counts cnt; /* its counts */
	/* and with record --sample, the samples (all, outside any call) */
	uint64_t csamples, csamples_ns, csamples_out, csamples_out_ns;
	uint64_t csamples_hooks, csamples_hooks_ns; /* in the tracer's hooks */
	uint64_t csamples_over;                     /* the periods beyond the first of each taken */
	char **keys_made;                           /* --by-args: the "name(values)" strings */
	size_t nkeys_made;
	struct diff *diff; /* --diff (below): the other recording when its dir is set */
};

/* --diff-policy: how the differences are shown */
enum dpct { DP_BOTH, DP_PERCENT, DP_VALUE };

struct diff {
	const char *dir; /* the other recording */
	bool noabs;      /* sort by the signed difference, not its size */
	bool compact;    /* the differences alone, not the two figures */
	enum dpct pct;
	int column; /* --sort-column: 0 base, 1 new, 2 the difference */
	bool policy_given;
	bool counts; /* a recording of call counts only on either side */
	int argc;    /* the command line, parsed again for the other view */
	char **argv;
	int *tids; /* --tid: threads of either recording */
	size_t ntids;
	struct report o;   /* the other recording's figures */
	struct ct_view ov; /* and its view */
	bool opened;
	struct ct_fstat *ostats; /* the other's figures per id of the base's names */
	char lost_note[2][320];  /* which recording lost events (ct_view's lost_note) */
};

/* a function's id among r's names, its row made if new (report.c) */
uint32_t ct_report_intern(struct report *r, const char *name);

/* --task: a thread's row */
struct task_row {
	int pid, tid;
	const char *name; /* ct_thread_name's */
	uint64_t calls, total, self;
};

/* the average of a row's calls */
static inline uint64_t ct_avg(const struct ct_fstat *st)
{
	return ct_fstat_avg(st);
}

/* the function's time is mostly the tracer's (lib/read/overhead.h): marked
 * so that nobody optimises the tracer's cost */
static inline bool mostly_cost(const struct ct_fstat *st)
{
	return ct_mostly_cost(st->total, st->rtotal);
}

/* the marker after such a function's name, and the line under a table
 * that has one */
#define COST_MARK " *"
#define COST_LEGEND                                                                  \
	"* mostly the tracer's own cost: recorded more than 5x the corrected time, " \
	"which is then mostly estimate (doc/overhead.md)\n"

/* a duration as ct_format_duration writes it, without its leading blanks */
static inline const char *dur(uint64_t ns, char *buf, size_t len)
{
	ct_format_duration(ns, buf, len);
	return buf + strspn(buf, " ");
}

/* --diff (report_diff.c): it was asked for */
static inline bool diffing(const struct report *r)
{
	return r->diff && r->diff->dir;
}
/* --diff-policy's words into d; -1 for a bad one */
int ct_report_parse_policy(struct diff *d, const char *arg);
/* the view's check: the options --diff forbids or needs, the other
 * recording there; 0, or 2 (bad usage) */
int ct_report_diff_check(struct ct_view *v);
/* begin and end with --diff: the other recording opened, then read and
 * the two compared; 0, or an exit status */
int ct_report_diff_begin(struct report *r, struct ct_view *v);
int ct_report_diff_end(struct report *r, struct ct_view *v);

/* report_fields.c: -f FIELD[,FIELD..] into r (-1: an unknown name), the
 * text table with those columns; --task: the thread's row from what was
 * gathered for it (the figures then cleared), and the table of them */
int ct_report_parse_fields(struct report *r, const char *arg);
void ct_report_print_fields(struct report *r, const struct ct_thread *t, const uint32_t *rows,
			    size_t n, int pid);
void ct_report_task_row(struct report *r, const struct ct_thread *t);
void ct_report_print_tasks(struct report *r);
/* report.c: --srcline's " [file:line]" of function id, or "" */
const char *ct_report_src_note(const struct report *r, uint32_t id);

#endif
