/* SPDX-License-Identifier: MIT */
/*
 * Is `record` still there?  A thread whose buffers are all full waits for
 * record to drain one; if record was killed, or stopped draining while this
 * process still runs (^C to record while a process that left its session
 * runs on), nobody ever will.  The doorbell page record shares with every
 * traced process says which:
 *  - `closed`: record stopped draining and said so;
 *  - `heartbeat`: record stamps it at every round of its loop.  When it has
 *    not moved for STALE_NS, record may be dead (SIGKILL, a crash) or only
 *    stopped (^Z, SIGSTOP, a debugger): /proc tells.  The process
 *    record_pid gone, a zombie, or another process under that pid (a start
 *    time other than record_start) is a drainer that never comes back; a
 *    stopped one does, and the writer waits on, losing nothing.
 * Once record is gone the whole process stops tracing for good (stream.c:
 * ct_buffer_full reuses the buffer being written, new threads and forked
 * children get no ring); see doc/runtime.md, "When record is gone".
 *
 * Nothing here runs in linked mode (no doorbell) nor on a hook's fast path:
 * only where a process starts or forks, a thread makes a ring, or switches
 * buffers.
 */
#include <errno.h>
#include <signal.h>

#include "calltrace/procstat.h"
#include "internal.h"

#define STALE_NS (500ull * 1000 * 1000)     /* a heartbeat older than this: ask /proc */
#define PROC_EVERY_NS (10ull * 1000 * 1000) /* and then at most this often */

static int gone;              /* record is gone: this process traces no more */
static uint64_t proc_checked; /* CLOCK_MONOTONIC ns of the last look in /proc */

/* does the process that drains us still live (perhaps stopped)?  When it
 * cannot tell (no /proc, no permission), it says yes: waiting is lossless,
 * and a dead process is found by kill() alone */
static bool record_lives(const struct ct_doorbell *db)
{
	int pid = __atomic_load_n(&db->record_pid, __ATOMIC_ACQUIRE);
	uint64_t start = __atomic_load_n(&db->record_start, __ATOMIC_RELAXED);
	if (pid <= 0)
		return true; /* a record that does not say who it is */
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	struct ct_procstat ps;
	char buf[1024];
	if (ct_procstat_read(pid, &ps, buf, sizeof(buf)) < 0)
		return true;
	if (ps.state == 'Z' || ps.state == 'X')
		return false; /* killed, not yet reaped by its parent */
	if (start && ps.start != start)
		return false; /* the pid was used again */
	return true;
}

static void went(struct ct_doorbell *db)
{
	if (__atomic_exchange_n(&gone, 1, __ATOMIC_ACQ_REL))
		return;
	if (!db) {
		ct_log("the recorder is gone (no doorbell in %s); tracing stopped, the program "
		       "runs on",
		       ct_cfg.shm);
		return;
	}
	/* the doorbell stays mapped: should record still read it (it set
	 * `closed` and is finishing), this process is counted */
	__atomic_fetch_add(&db->untraced[CT_UNTRACED_ORPHANED], 1, __ATOMIC_RELAXED);
	ct_log("the recorder (pid %d) is gone; tracing stopped, the program runs on",
	       (int)__atomic_load_n(&db->record_pid, __ATOMIC_RELAXED));
}

/* Is record gone?  Looks at the flag and `closed` only, or with `stuck`
 * (a thread cannot go on without record: its next buffer is still full, or
 * it makes a ring) also at the heartbeat and, if that is old, at /proc.
 * Once true, true for the rest of this process (and of its forked
 * children). */
bool ct_recorder_gone(bool stuck)
{
	struct ct_doorbell *db = ct_cfg.doorbell;
	if (ct_cfg.linked)
		return false; /* our own writer thread drains */
	if (__atomic_load_n(&gone, __ATOMIC_ACQUIRE))
		return true;
	if (!db) {
		/* record makes the doorbell before it starts the program and
		 * removes it when it stops draining: an image exec'd since
		 * (a daemon left running after ^C) finds none */
		went(NULL);
		return true;
	}
	if (__atomic_load_n(&db->closed, __ATOMIC_ACQUIRE)) {
		went(db);
		return true;
	}
	if (!stuck)
		return false;
	uint64_t now = ct_clock_mono();
	uint64_t beat = __atomic_load_n(&db->heartbeat, __ATOMIC_ACQUIRE);
	if (beat && (int64_t)(now - beat) < (int64_t)STALE_NS)
		return false;
	/* every waiting thread of the process gets here at each timeout:
	 * one look in /proc per PROC_EVERY_NS is enough for all */
	uint64_t last = __atomic_load_n(&proc_checked, __ATOMIC_RELAXED);
	if (now - last < PROC_EVERY_NS ||
	    !__atomic_compare_exchange_n(&proc_checked, &last, now, false, __ATOMIC_RELAXED,
					 __ATOMIC_RELAXED))
		return false;
	if (record_lives(db))
		return false;
	went(db);
	return true;
}
