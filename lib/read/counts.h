/* SPDX-License-Identifier: MIT */
/*
 * Reading a recording of call counts (record --count): the threads'
 * DIR/PID-GEN-TID.cnt files (lib/record/countmerge.c writes them; doc/format.md,
 * "Call counts"), their arcs resolved to function names with the session's
 * symbols.  The views that can show counts (report, callers, graph
 * --no-time, coverage, export folded/callgrind) read them here; the scaffold
 * (lib/view/view.c) refuses the others.
 */
#ifndef CT_COUNTS_H
#define CT_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct ct_session;
struct ct_error;
struct ct_msgs;


#define CT_COUNT_ROOT UINT32_MAX /* an arc's caller: none traced */

struct ct_count_arc {
	uint32_t caller; /* a name id, or CT_COUNT_ROOT */
	uint32_t callee; /* a name id */
	uint64_t calls;
	/* record --count --sample: the samples whose innermost call was along
	 * this arc, and those taken with it open (once per sample) */
	uint64_t sself, stotal;
};

/* record --count --sample: the samples taken with a function open (once
 * per sample, however deep it recursed) */
struct ct_count_fsmp {
	uint32_t fn; /* a name id */
	uint64_t stotal;
};

struct ct_count_thread {
	int pid, gen, tid;
	uint64_t lost;             /* calls the runtime could not count */
	struct ct_count_arc *arcs; /* one per (caller, callee) name pair */
	size_t narcs;
	/* the callees' addresses as recorded (a function's, or one inside it:
	 * coverage finds its symbol) and the calls of each arc into them */
	struct ct_count_addr {
		uint64_t addr, calls;
	} * addrs;
	size_t naddrs;
	/* record --count --sample: the period (ns of the thread's CPU time;
	 * 0: not sampled), all its samples, those outside any call and in the
 * tracer's hooks, and its
	 * functions' totals */
	uint64_t sample_ns, samples, samples_out;
	uint64_t samples_hooks; /* those in the runtime's code: the tracer's */
	/* the periods beyond the first of the samples that stood for more
	 * than one (the POSIX timer's overruns): samples less these is how
	 * many were taken, on which a count's error stands */
	uint64_t samples_over;
	struct ct_count_fsmp *fsmp;
	size_t nfsmp;
};

struct ct_counts {
	struct ct_names names; /* function names, demangled as the view asks */
	struct ct_count_thread *threads;
	size_t nthreads;
	uint64_t lost; /* all threads' */
	bool sampled;  /* some thread has samples' lines (record --sample) */
	char **owned;  /* names made here */
	size_t nowned, owncap;
};

/* does the recording dir hold call counts and no event stream? */
bool ct_counts_only(const char *dir);

/* the counts of the threads of session s with the ids tids[0..ntids)
 * (all when ntids is 0).  0; -1 with err naming the file and line; 1
 * when a tid names no thread (each said in msgs, an error: nothing is
 * read, the views exit 1). */
int ct_counts_load(struct ct_session *s, const int *tids, size_t ntids, struct ct_counts *c,
		   struct ct_msgs *msgs, struct ct_error *err);

void ct_counts_free(struct ct_counts *c);

/* the warning every counting view gives when calls were not counted (a
 * runtime's table was full), into warn: nothing when none was lost */
void ct_counts_warn_lost(const struct ct_counts *c, struct ct_msgs *warn);

#endif
