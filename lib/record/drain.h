/* SPDX-License-Identifier: MIT */
/*
 * The drainer: the consumer side of the traced threads' rings
 * (include/calltrace/format.h, ring.h).  It makes the private ring
 * directory and its doorbell, takes each ring a thread publishes there,
 * copies every full buffer into the thread's DIR/PID-GEN-TID.ev, and once a
 * ring's process is gone, what is left in it; it counts what it copied and
 * what it could not.  `calltrace record` drives it.  libc and the shared
 * headers only: nothing of the views.
 */
#ifndef CT_DRAIN_H
#define CT_DRAIN_H

#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calltrace/format.h"
#include "error.h"

/* what was copied, counted from the records; lost, unmatched and waits are
 * the rings' own counts, added when a ring is let go */
struct ct_drain_stats {
	uint64_t events, enters, exits, unwound, bytes, lost, unmatched, waits, rings;
	uint64_t filtered; /* calls record-time filters left out (runtime's count) */
	uint64_t before;   /* --flight: calls entered before their window */
	uint64_t injected; /* record --inject: CT_EXT_INJECT records */
};

/* add the events of the records in buf (len bytes, whole records: they
 * never straddle buffers) to st, *depth the calls open before and after */
void ct_drain_count(struct ct_drain_stats *st, uint64_t *depth, const void *buf, size_t len);

/* the calls still open at the end: entries (and --flight's calls entered
 * before their window) less exits and unwound frames; 0, not a wrapped
 * count, when a broken stream held more exits than entries */
static inline uint64_t ct_drain_unfinished(const struct ct_drain_stats *st)
{
	uint64_t opened = st->enters + st->before, closed = st->exits + st->unwound;
	return opened > closed ? opened - closed : 0;
}

/* --flight: the window a snapshot holds of one thread (clock values) */
struct ct_flight_win {
	int pid, gen, tid;
	uint64_t from, to;
};

struct ct_drain_ring;

/* the buffer a thread is writing, as ct_drainer_peek hands it to an
 * observer (the live view and top: lib/record/follow.c): its len bytes from its
 * start, which will be at offset file_off of the thread's .ev file once
 * drained.  Its records with a non-zero header word are written and final
 * (follow.c: written_len), unless the recording takes records back (-t, triggers, --drop), when the
 * observer must not peek. */
struct ct_drain_chunk {
	int pid, gen, tid;
	uint64_t start_tsc; /* the ring's first clock base (the .ev header's) */
	uint64_t file_off;
	const char *buf;
	uint64_t len;
};

struct ct_drain_observer {
	void (*data)(void *ctx, const struct ct_drain_chunk *c);
	void *ctx;
};

struct ct_drainer {
	const char *dir; /* the data directory (absolute): the .ev go there */
	int dir_fd;      /* it, open: the .ev are made relative to it (-1: by path) */
	/* what it met and went on after (a ring it could not take, a file it
	 * could not write): the caller's to print (message.h's
	 * ct_msgs_flush) and free, also after ct_drainer_free */
	struct ct_msgs msgs;
	char shm[PATH_MAX]; /* the private ring directory ("" before it is made) */
	int shm_fd;         /* it, open (-1 before it is made) */
	DIR *shm_dir;       /* the same, for reading it */
	struct ct_doorbell *db;
	struct ct_drain_ring **rings;
	size_t nrings, cap;
	/* the totals, read by the caller */
	struct ct_drain_stats st;
	int *pids; /* processes seen */
	size_t npids, pidcap;
	int *tids; /* (pid, gen, tid) triples seen, for the thread count */
	size_t ntids, tidcap;
	/* what the drainer could not write (the recorder's own failure) */
	uint64_t unwritten_events, unwritten_bytes;
	unsigned write_errors;  /* files it failed to write */
	unsigned rings_refused; /* rings it could not take (memory, bad file) */
	char first_error[256];  /* the first of those, for the summary */
	/* record --flight: nothing is drained while the program runs; what
	 * a ring holds is written when its process is gone (or by
	 * ct_drainer_snapshot), and each thread's window noted here */
	bool flight;
	struct ct_flight_win *wins;
	size_t nwins;
	/* what ct_drainer_peek hands the buffers to (NULL: none) */
	const struct ct_drain_observer *obs;
};

/* an empty drainer writing into dir */
void ct_drainer_init(struct ct_drainer *d, const char *dir);
/* make the private ring directory (mkdtemp under /dev/shm, or $TMPDIR or
 * /tmp with a message in d->msgs unless quiet: a new, unpredictable name,
 * mode 0700) and its doorbell, created exclusively, never through a link,
 * with this process's identity and a first heartbeat.  0, or 1 with err
 * filled. */
int ct_drainer_make_dir(struct ct_drainer *d, bool quiet, struct ct_error *err);
/* stamp the doorbell's heartbeat: done at every round of the drain loop */
void ct_drainer_heartbeat(struct ct_drainer *d);
/* take every ring published in the ring directory since the last scan */
void ct_drainer_scan(struct ct_drainer *d);
/* copy every full buffer of every ring (and all that is left in those of
 * processes that are gone); let finished rings go.  Whether anything was
 * copied. */
bool ct_drainer_drain(struct ct_drainer *d);
/* process pid is gone (reaped): its rings are drained to the end */
void ct_drainer_process_gone(struct ct_drainer *d, int pid);
/* sleep until a writer rings the doorbell (a ring half full, a thread
 * ended, a snapshot asked for), a signal comes or ms milliseconds pass */
void ct_drainer_sleep(struct ct_drainer *d, unsigned ms);
/* stop draining: take the rings published last, copy all that is left in
 * every ring, tell the writers still running that nobody drains any more
 * (the doorbell's `closed`, waking those that wait) and let the rings go */
void ct_drainer_stop(struct ct_drainer *d);
/* the doorbell's counts of what the runtime could not trace (enum
 * ct_untraced); zeros once the ring directory is gone */
void ct_drainer_untraced(const struct ct_drainer *d, uint64_t untraced[CT_UNTRACED_MAX]);
/* tell the runtime nobody drains any more, and remove the ring directory
 * and all in it; for every way out once it exists, and again harmless */
void ct_drainer_remove_dir(struct ct_drainer *d);
/* --flight: write what every ring holds now into the data directory dir
 * (which exists; dir_fd open, or -1), as a recording of its own; its totals into *st and its
 * windows into *wins (malloc'd, *nwins of them).  The rings stay. */
void ct_drainer_snapshot(struct ct_drainer *d, const char *dir, int dir_fd,
			 struct ct_drain_stats *st, struct ct_flight_win **wins, size_t *nwins);
/* hand the observer, for every thread still writing, the buffer it is
 * writing now (struct ct_drain_chunk) */
void ct_drainer_peek(struct ct_drainer *d);
/* remove the ring directory, let every ring go, free all but d->msgs */
void ct_drainer_free(struct ct_drainer *d);

#endif
