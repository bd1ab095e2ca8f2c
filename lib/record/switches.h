/* SPDX-License-Identifier: MIT */
/*
 * record --sched: the traced threads' context switches, from the kernel
 * (perf_event_open context-switch records), copied by `record` into
 * DIR/sched (include/calltrace/format.h, doc/format.md).  record's own:
 * nothing runs in the program, whose hooks are untouched.
 */
#ifndef CT_SWITCHES_H
#define CT_SWITCHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "calltrace/format.h"

struct ct_error;
struct ct_msgs;

struct ct_sched {
	int ncpu;             /* events open, one per CPU */
	int *fd;              /* their descriptors */
	unsigned char **map;  /* their rings: a control page, then the data */
	size_t data_size;     /* bytes of each ring's data (a power of two) */
	int out;              /* DIR/sched, or -1 */
	uint64_t switches;    /* switch-outs copied */
	uint64_t lost;        /* records the kernel dropped (a ring full) */
	bool write_failed;    /* DIR/sched could not be written: said once */
	struct ct_msgs *msgs; /* where that is said (record's), or NULL */
	struct ct_sched_rec buf[256];
	size_t nbuf;
};

/* the context switches of pid (the program, before it runs: record holds
 * it back until this returns) and of the threads and processes it starts,
 * into DIR/sched (dfd the data directory).  0, or -1 with err saying why
 * the kernel refused (sc then holds nothing) */
int ct_sched_open(struct ct_sched *sc, pid_t pid, int dfd, struct ct_error *err);
/* copy what the kernel wrote since the last call (record's drain loop) */
void ct_sched_drain(struct ct_sched *sc);
/* the last of it, then close everything */
void ct_sched_close(struct ct_sched *sc);

#endif
