/* SPDX-License-Identifier: MIT */
/*
 * record --flight's snapshots (doc/record.md, "Flight recorder"): a
 * snapshot while the program runs is DIR/snapshot.N/, a recording of its
 * own (the rings' windows through the drainer, the .proc files and
 * args.spec as they are now, an info; sym/ linked at the end); the
 * program asks for one through the doorbell (calltrace_snapshot()).
 */
#ifndef CT_SNAPSHOT_H
#define CT_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calltrace/format.h"
#include "datadir.h"
#include "drain.h"

struct ct_snapshot_dir {
	const char *dirabs; /* the data directory */
	int dfd;            /* it, open: the snapshot is made relative to it */
};

/* what a snapshot holds (for record's line on it) */
struct ct_snapshot_taken {
	uint64_t events;
	size_t threads;
};

struct ct_error;
struct ct_msgs;

/* the info lines of a flight recording or snapshot n (0: the final one):
 * why, when, and each thread's window; malloc'd, NULL when out of memory */
char *ct_snapshot_lines(unsigned n, const char *reason, uint64_t clock,
			const struct ct_flight_win *w, size_t nw);
/* snapshot n into DIR/snapshot.N/, its info from base (end_clock and hz
 * set by the caller): 0, what it holds in *got (a file that could not be
 * copied or written said in msgs); or -1 with err filled (no snapshot) */
int ct_snapshot_take(const struct ct_snapshot_dir *sd, struct ct_drainer *dr,
		     const struct ct_info *base, unsigned n, const char *reason,
		     struct ct_snapshot_taken *got, struct ct_msgs *msgs, struct ct_error *err);
/* has the program asked for a snapshot?  its reason ("program: ...") */
bool ct_snapshot_requested(const struct ct_doorbell *db, char *reason, size_t len);
/* the request was served: its caller woken */
void ct_snapshot_served(struct ct_doorbell *db);
/* the snapshots get the symbol tables saved at the end (hard links);
 * dirabs for the messages (in msgs), dfd the directory open */
void ct_snapshot_link_symbols(const char *dirabs, int dfd, unsigned nsnap, struct ct_msgs *msgs);

#endif
