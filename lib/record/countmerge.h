/* SPDX-License-Identifier: MIT */
/*
 * record --count: the counting tables every traced thread filled in the
 * ring directory (runtime/count.c, include/calltrace/format.h), summed per
 * thread into DIR/PID-GEN-TID.cnt (doc/format.md, "Call counts").
 * `calltrace record` calls it once the program is gone (exit, crash or
 * SIGKILL: the tables are shared memory), before the ring directory goes.
 * libc and the shared headers only.
 */
#ifndef CT_COUNTMERGE_H
#define CT_COUNTMERGE_H

#include <stddef.h>
#include <stdint.h>

struct ct_count_stats {
	uint64_t calls;    /* calls counted, all threads */
	uint64_t arcs;     /* distinct (thread, caller, callee) */
	uint64_t samples;  /* record --sample: the samples, all threads */
	uint64_t lost;     /* calls the runtime could not count (tables full) */
	size_t threads;    /* .cnt files written */
	size_t processes;  /* distinct pids among them */
	unsigned refused;  /* table files that were not ours or not sound */
	unsigned failures; /* .cnt files that could not be written */
};

/* read every table in the ring directory (open as shm_fd, named shm for
 * messages) and write the .cnt files into dir.  0, or -1 with err filled
 * (the directory cannot be read, out of memory); a bad table or a file not
 * written is counted and said in msgs, and the others are still written. */
struct ct_error;
struct ct_msgs;
int ct_counts_collect(int shm_fd, const char *shm, const char *dir, struct ct_count_stats *st,
		      struct ct_msgs *msgs, struct ct_error *err);

#endif
