/* SPDX-License-Identifier: MIT */
/*
 * calltrace on-disk and shared-memory formats.
 *
 * This header is shared by the runtime (libcalltrace.so, libc only) and the
 * analysis side.  It must stay plain C11 with no dependencies.  The prose
 * description lives in doc/format.md; keep the two in step.
 */
#ifndef CALLTRACE_FORMAT_H
#define CALLTRACE_FORMAT_H

#include <stdint.h>

#define CT_FORMAT_VERSION 1

/* ---- event stream (DIR/<pid>-<gen>-<tid>.ev) ---------------------------
 *
 * A stream file starts with struct ct_ev_file_header, followed by records.
 * Records are sequences of little-endian 32-bit words.  The low two bits of
 * the first word give the kind.
 */
#define CT_EV_MAGIC "CTEVENT1"

struct ct_ev_file_header {
	char magic[8];    /* CT_EV_MAGIC */
	uint32_t version; /* CT_FORMAT_VERSION */
	uint32_t pid;
	uint32_t tid;
	uint32_t gen;       /* exec generation of the process image */
	uint64_t start_tsc; /* clock value the first delta is relative to */
};

enum ct_rec_kind {
	CT_REC_PAD = 0,   /* a zero word: skipped (never written on purpose)  */
	CT_REC_EXIT = 1,  /* 1 word: bits 2..31 = clock delta (30 bits)        */
	CT_REC_ENTER = 2, /* 2 words (one u64): bits 2..23 = delta (22 bits),
			   * bits 24..63 = function address bits 0..39; address
			   * bits 40..63 come from the last CT_EXT_HI (0 at start) */
	CT_REC_EXT = 3,   /* bits 2..7 subtype, 8..15 payload length in words,
			   * 16..31 small argument; the payload follows          */
};

#define CT_ENTER_DELTA_BITS 22
#define CT_EXIT_DELTA_BITS 30
#define CT_ADDR_LOW_BITS 40

enum ct_ext_type {
	CT_EXT_TIME = 1,       /* payload u64 absolute clock: new delta base        */
	CT_EXT_HI = 2,         /* payload u32: address bits 40..63 for later ENTERs */
	CT_EXT_UNWIND = 3,     /* payload u32 n: the n innermost open frames ended
			    * without an exit (longjmp, exception, ...)         */
	CT_EXT_NENTER = 4,     /* payload u64 clock, u64 address: an entry made in a
			    * signal handler that interrupted the tracer itself.
			    * Absolute; does not change the delta base.        */
	CT_EXT_NEXIT = 5,      /* payload u64 clock, u64 address: matching exit;
			    * closes frames down to and including address     */
	CT_EXT_LOST = 6,       /* payload u64 n: n events were dropped here         */
	CT_EXT_ARGS = 7,       /* small arg = spec index; payload = the captured
			    * argument values (doc/args.md); follows the ENTER
			    * of the call it belongs to                        */
	CT_EXT_RETVAL = 8,     /* small arg = spec index; payload = the captured
			    * return value; precedes the EXIT of its call     */
	CT_EXT_UNWIND_TO = 9,  /* payload u32 depth, u32 n: the open frames above
			       * the outermost `depth` ended without an exit
			       * (a longjmp out of a signal handler that had
			       * interrupted the tracer's hook, whose own record
			       * may or may not have been written); n is the
			       * writer's estimate of the count, informative */
	CT_EXT_WAIT = 10,      /* payload u64 start clock, u64 end clock: the thread
			    * waited for the drainer (all its buffers full)
			    * from start to end, right before this record.
			    * Absolute; does not change the delta base.  Not
			    * the program's time: readers take it out of the
			    * durations of the calls open then */
	CT_EXT_FRAMES = 11,    /* record --flight: the calls open when this buffer
			     * began.  Payload u32 depth (calls open), then
			     * the u64 addresses of the innermost of them (at
			     * most CT_FRAMES_MAX), outermost first.  A reader
			     * starting a window here opens them as entered
			     * before it (and skips the exits of those not
			     * listed); elsewhere it is redundant: skipped */
	CT_EXT_MARK = 12,      /* calltrace_mark(): small arg = text length in
			    * bytes; payload the text, zero-padded to words */
	CT_EXT_BACKTRACE = 13, /* the backtrace trigger: payload u64 return
				* addresses, innermost first (the function
				* that triggered it, then its callers) */
	CT_EXT_CALLSITE = 14,  /* record --callsite: where the call of the ENTER
				* right before it was made from, the return
				* address in the caller.  Written with that
				* ENTER in one reservation (nothing comes
				* between them; a call with neither has none:
				* the nested path's, a tail call's).  Length
				* 0: small arg = the call site minus the
				* function's address (the ENTER's), signed 16
				* bits; length 1: small arg = call-site bits
				* 32..47, payload u32 = bits 0..31 */
	CT_EXT_INJECT = 15,    /* record --inject: a fault injected into the call
			     * whose ENTER precedes it.  Small arg = what was
			     * done (CT_INJ_A_*); payload u64 the value of
			     * return=/retval=, u32 errno, u32 signal,
			     * u32 the rule's index (doc/inject.md) */
	CT_EXT_SAMPLE = 16,    /* record --sample: the thread's CPU-time timer
			     * fired here.  Small arg = the samples it stands
			     * for (1 + the timer's overruns, at most 65535),
			     * payload u32 = the depth of the shadow stack
			     * then (the calls open, as this stream records
			     * them).  A reader charges it to the call open at
			     * that depth (or its innermost, if fewer are
			     * open); depth 0: outside any traced call.  No
			     * clock: it does not change the delta base */
	CT_EXT_READ = 17,      /* a read= trigger (record -T 'f@read=KIND'): a
			     * value read at the entry of a call of f (after
			     * its ENTER and ARGS) and at its exit (before
			     * its RETVAL and EXIT).  Small arg: the kind
			     * (CT_READ_*), | CT_READ_AT_EXIT at the exit;
			     * payload the values, u64 each: proc/statm
			     * size, rss, shared (KB); page-fault major,
			     * minor (the thread's); pmu-cycle cycles,
			     * instructions; pmu-cache references, misses;
			     * pmu-branch branches, misses (the thread's,
			     * user space).  No clock: it does not change
			     * the delta base */
	CT_EXT_CALIB = 20,     /* the thread's hooks' cost, measured again on
			     * the CPU it runs on now (doc/overhead.md).
			     * Payload u64 start clock, u64 end clock (the
			     * calibration's own time, right before this
			     * record: not the program's; equal when it
			     * was measured earlier), u32 cpu, u32 calls,
			     * then the sums over calls of the
			     * -finstrument-functions hooks' inner and
			     * outer cost and the hooked entries' (u32
			     * ticks each; 0 0: none measured).  Small arg:
			     * CT_CALIB_FIGS when the figures are there
			     * (else only the time is).  No delta base */
	CT_EXT_CPU = 21,       /* record -W cpu: the CPU the thread runs on,
			     * read at the entry of the ENTER that follows
			     * (the first entry of the stream, and each
			     * later one whose CPU is not the last one
			     * written).  Payload u32 the CPU number.  A
			     * writer may state the same CPU again (after
			     * records were taken back or dropped):
			     * readers show a change only.  No clock: it
			     * does not change the delta base */
};
/* CT_EXT_READ's kinds (record -T 'f@read=KIND'; their numbers are in
 * recordings: only ever append) */
enum ct_read_kind {
	CT_READ_STATM = 1,      /* proc/statm: 3 values */
	CT_READ_PGFAULT = 2,    /* page-fault: 2 */
	CT_READ_PMU_CYCLE = 3,  /* pmu-cycle: 2 */
	CT_READ_PMU_CACHE = 4,  /* pmu-cache: 2 */
	CT_READ_PMU_BRANCH = 5, /* pmu-branch: 2 */
	CT_READ_KINDS
};
#define CT_READ_AT_EXIT 0x100u /* CT_EXT_READ's small arg: read at the exit */
#define CT_CALIB_FIGS 1u       /* CT_EXT_CALIB's small arg: figures follow */
#define CT_CALIB_WORDS 10u     /* CT_EXT_CALIB's payload */
/* CT_EXT_INJECT's small argument: the actions of the rule that fired */
#define CT_INJ_A_RETURN 1u /* return=V: the body was skipped */
#define CT_INJ_A_RETVAL 2u /* retval=V: the return value replaced */
#define CT_INJ_A_ERRNO 4u  /* errno=E */
#define CT_INJ_A_SIGNAL 8u /* signal=SIG, raised at the entry */
#define CT_INJ_A_THROW \
	16u                 /* throw=: the body skipped, an exception thrown
			    * from the call (value 1 std::bad_alloc, 2
			    * std::runtime_error) */
#define CT_INJ_PAYLOAD 5u   /* words */
#define CT_BACKTRACE_MAX 64 /* addresses one CT_EXT_BACKTRACE holds at most */
#define CT_FRAMES_MAX 127   /* frames one CT_EXT_FRAMES lists at most */
#define CT_MARK_MAX 255     /* bytes of a mark's text at most */
#define CT_CALLSITE_MAXW 2  /* words of a CT_EXT_CALLSITE at most */

static inline uint32_t ct_ext_word(unsigned type, unsigned len, unsigned arg)
{
	return (uint32_t)CT_REC_EXT | (uint32_t)type << 2 | (uint32_t)len << 8 |
	       (uint32_t)arg << 16;
}
#define CT_EXT_TYPE(w) (((w) >> 2) & 0x3f)
#define CT_EXT_LEN(w) (((w) >> 8) & 0xff)
#define CT_EXT_ARG(w) ((w) >> 16)

/* the CT_EXT_CALLSITE record of a call of fn made from site into w[0..):
 * its number of words (1 or 2) */
static inline unsigned ct_callsite_encode(uint64_t fn, uint64_t site, uint32_t *w)
{
	uint64_t d = site - fn + 0x8000u;
	if (d < 0x10000u) {
		w[0] = ct_ext_word(CT_EXT_CALLSITE, 0, (unsigned)(d - 0x8000u) & 0xffffu);
		return 1;
	}
	w[0] = ct_ext_word(CT_EXT_CALLSITE, 1, (unsigned)(site >> 32) & 0xffffu);
	w[1] = (uint32_t)site;
	return 2;
}
/* ... and back: w the record's first word, lo its payload word (if any) */
static inline uint64_t ct_callsite_decode(uint64_t fn, uint32_t w, uint32_t lo)
{
	if (CT_EXT_LEN(w) == 0)
		return fn + (uint64_t)(int64_t)(int16_t)(uint16_t)CT_EXT_ARG(w);
	return (uint64_t)CT_EXT_ARG(w) << 32 | lo;
}

/* ---- shared-memory ring (one per traced thread, in $CALLTRACE_SHM) ------
 *
 * The traced thread writes records into buf[slot]; when a buffer is full it
 * publishes fill and sets state FULL, and moves to the next slot, waiting
 * while that slot is still FULL (or dropping, with --drop).  The record
 * process copies FULL buffers to the stream file, zeroes them and sets them
 * EMPTY.  Buffers are zeroed when empty, so after a crash the part of the
 * buffer in use ends with the record holding its last non-zero word
 * (ring.h, ct_ring_used).
 */
#define CT_RING_MAGIC 0x32525443u /* "CTR2": the layout below (2: filtered) */
#define CT_RING_MAX_SLOTS 64

enum ct_slot_state { CT_SLOT_EMPTY = 0, CT_SLOT_WRITING = 1, CT_SLOT_FULL = 2 };

struct ct_ring_slot {
	uint32_t state; /* enum ct_slot_state; futex word */
	uint32_t pad;
	uint64_t fill; /* bytes used, valid when FULL */
	uint64_t seq;  /* sequence number of the buffer in the stream */
};

struct ct_ring_header {
	uint32_t magic;
	uint32_t version;
	uint32_t pid, tid, gen;
	uint32_t nslots;
	uint64_t buf_size;    /* nominal size of each buffer */
	uint64_t buf_stride;  /* buf_size + slack for records written past it */
	uint64_t data_offset; /* offset of buffer 0 from the start of the map */
	uint64_t start_tsc;
	uint32_t done;      /* writer has finished with the ring */
	uint32_t waiting;   /* writer is waiting for a free slot (futex word) */
	uint64_t lost;      /* events dropped (drop mode, nested overflow) */
	uint64_t unmatched; /* exits without a matching entry */
	uint64_t waits;     /* times the writer waited for the drainer */
	uint64_t nested;    /* records written by the nested (signal) path */
	uint32_t cur_slot;  /* slot being written */
	uint32_t pad2;
	uint64_t filtered; /* calls left out by record-time filters (the
			      * writer's count, published at each buffer switch) */
	struct ct_ring_slot slot[CT_RING_MAX_SLOTS];
};

/* $CALLTRACE_SHM/.doorbell: one page, created by `record` (O_EXCL, mode
 * 0600, in a private directory it made) and mapped by every traced process.
 * A writer that finds its ring half full (or must wait) bumps `seq` and
 * wakes `record` if it sleeps, so the drainer never lags a poll interval
 * behind.  It is also how each side knows the other is there:
 *  - the runtime maps it only if it is a regular file of its own user, of
 *    exactly CT_DOORBELL_SIZE bytes, with this magic and version;
 *  - `record` stamps `heartbeat` (CLOCK_MONOTONIC ns) at least every few
 *    milliseconds and sets `closed` when it stops draining; a writer waiting
 *    for a buffer checks both (and whether process record_pid, started at
 *    record_start, still lives) and never waits for a drainer that is gone;
 *  - the runtime counts here what it could not trace (enum ct_untraced),
 *    and record reports it in its summary and in `info`. */
#define CT_DOORBELL_MAGIC 0x31424443u /* "CDB1" */
#define CT_DOORBELL_SIZE 4096

enum ct_untraced {
	CT_UNTRACED_RING = 0, /* a thread got no ring (cannot create or map it:
				 * after setuid, under a seccomp filter, no space) */
	CT_UNTRACED_SECCOMP,  /* a thread entered seccomp: its tracing stopped */
	CT_UNTRACED_TSC,      /* the TSC was disabled (PR_SET_TSC): tracing of
				 * the thread stopped */
	CT_UNTRACED_CLONE,    /* a task sharing its parent's thread state
				 * (clone with CLONE_VM, without CLONE_SETTLS) */
	CT_UNTRACED_EXEC_ENV, /* an exec whose environment dropped calltrace's
				 * variables: they were put back (traced, counted) */
	CT_UNTRACED_ORPHANED, /* processes that found record gone and stopped
				 * tracing */
	CT_UNTRACED_MAX = 16
};

struct ct_doorbell {
	uint32_t seq;                       /* futex word */
	uint32_t sleeping;                  /* the drainer is (about to be) asleep on seq */
	uint32_t magic;                     /* CT_DOORBELL_MAGIC */
	uint32_t version;                   /* CT_FORMAT_VERSION */
	int32_t record_pid;                 /* the drainer */
	uint32_t closed;                    /* record no longer drains: never wait for it */
	uint64_t record_start;              /* its start time, field 22 of /proc/PID/stat */
	uint64_t heartbeat;                 /* CLOCK_MONOTONIC ns of record's last round */
	uint64_t untraced[CT_UNTRACED_MAX]; /* counts, by enum ct_untraced */
	/* record-time windows (--time-range, --max-size), set by record:
	 * CT_GATE_*; read by the runtime when the filter file says "gate 1" */
	uint32_t gate;
	uint32_t pad;
	/* record --flight: calltrace_snapshot() asks for a snapshot.  The
	 * caller takes snap_lock (0 -> 1), writes snap_reason, bumps snap_req,
	 * rings the doorbell; record copies the rings, sets snap_done to the
	 * request it served, clears snap_lock and wakes snap_done's waiters */
	uint32_t snap_req;  /* requests made */
	uint32_t snap_done; /* requests served (futex word) */
	uint32_t snap_lock;
	uint32_t flight; /* record is in flight mode */
	char snap_reason[64];
	/* record-time filters with names (-F, -N, --hide, -T) in an image
	 * exec'd from a program that DIR/filter.spec does not cover
	 * (runtime/filter.c): it takes fx_lock (0 -> 1), writes its pid to
	 * fx_pid, bumps fx_req and rings the doorbell; record matches the
	 * regexes against the functions of /proc/PID/exe and of the modules it
	 * needs, writes DIR/filter.x<fx_req>.spec (CT_FILTER_EXEC_FMT; none
	 * when it cannot), sets fx_done to the request it served, clears
	 * fx_lock and wakes fx_done's waiters */
	uint32_t fx_req;  /* requests made */
	uint32_t fx_done; /* requests served (futex word) */
	uint32_t fx_lock;
	int32_t fx_pid;
};
#define CT_GATE_OPEN 0   /* record new calls */
#define CT_GATE_BEFORE 1 /* not yet (before the start of --time-range) */
#define CT_GATE_OVER 2   /* no more (after its end, or --max-size reached) */
_Static_assert(sizeof(struct ct_doorbell) <= CT_DOORBELL_SIZE, "doorbell fits its page");
#define CT_DOORBELL_NAME ".doorbell"

/* environment passed from `calltrace record` to the runtime */
#define CT_ENV_DIR "CALLTRACE_DIR"         /* absolute data directory     */
#define CT_ENV_SHM "CALLTRACE_SHM"         /* ring directory (tmpfs)      */
#define CT_ENV_BUFSIZE "CALLTRACE_BUFSIZE" /* bytes per buffer            */
#define CT_ENV_NBUF "CALLTRACE_NBUF"       /* buffers per thread          */
#define CT_ENV_DROP "CALLTRACE_DROP"       /* "1": drop instead of wait   */
#define CT_ENV_CLOCK "CALLTRACE_CLOCK"     /* "tsc" or "mono"             */
#define CT_ENV_ENABLE "CALLTRACE"          /* linked-in mode: "1" records */
#define CT_ENV_ARGS "CALLTRACE_ARGS"       /* argument spec file to load  */
#define CT_ENV_FILTER "CALLTRACE_FILTER"   /* record-time filter file     */
#define CT_ENV_FLIGHT "CALLTRACE_FLIGHT"   /* "1": flight recorder mode   */
#define CT_ENV_LIBCALL "CALLTRACE_LIBCALL" /* library calls: "0" off, or a file */
#define CT_LIBCALL_FILE "libcall.spec"     /* record --libcall=/--no-libcall= */
/* "1": record --nest-libcall, the libraries' own slots hooked too */
#define CT_ENV_NEST_LIBCALL "CALLTRACE_NEST_LIBCALL"
#define CT_ENV_COUNT "CALLTRACE_COUNT"   /* "1": counting mode (--count) */
#define CT_ENV_PLUGIN "CALLTRACE_PLUGIN" /* record --plugin: its table file */
#define CT_PLUGIN_FILE "plugin.spec"     /* (runtime/plugin.c has the format) */
#define CT_ENV_INJECT "CALLTRACE_INJECT" /* record --inject: its rule file */
#define CT_INJECT_FILE "inject.spec"     /* (runtime/inject.c has the format) */

/* record --callsite: "1" (runtime/callsite.c) */
#define CT_ENV_CALLSITE "CALLTRACE_CALLSITE"
/* record --sample: the sampling period in ns of each thread's CPU time
 * (runtime/sample.c) */
#define CT_ENV_SAMPLE "CALLTRACE_SAMPLE"
/* the first sampling clock to try: "trap", "rt" or "timer" (tests, bench) */
#define CT_ENV_SAMPLE_CLOCK "CALLTRACE_SAMPLE_CLOCK"
/* "0": the start-up calibration's figures only, no CT_EXT_CALIB */
#define CT_ENV_RECAL "CALLTRACE_RECAL"
/* record -W cpu: "cpu" (runtime/filter.c ct_watch_cpu) */
#define CT_ENV_WATCH "CALLTRACE_WATCH"
/* the signal the sampling timers raise where the kernel has no perf event
 * with sigtrap: SIGRTMAX - this (62 with glibc); else SIGTRAP */
#define CT_SAMPLE_SIG_BELOW_MAX 2

/* ---- record --sched: the threads' context switches (DIR/sched) ----------
 *
 * Written by `record` (lib/record/sched.c), not by the runtime: the kernel's
 * context-switch records of the traced process tree (perf_event_open on the
 * program, one software dummy event per CPU, inherited by its threads and
 * children), timestamped on CLOCK_MONOTONIC, copied as they come.  The file
 * is a struct ct_sched_header, then struct ct_sched_rec records in the order
 * record read them (per CPU: not sorted by time across CPUs).  A reader
 * pairs each thread's switch-out with its next switch-in, converts the times
 * to the recording's clock with the process's "clock" line, and gives each
 * call the time its thread was switched out inside it (doc/format.md). */
#define CT_SCHED_FILE "sched"
#define CT_SCHED_MAGIC "CTSCHED1"

struct ct_sched_header {
	char magic[8];    /* CT_SCHED_MAGIC */
	uint32_t version; /* CT_FORMAT_VERSION */
	uint32_t recsize; /* sizeof(struct ct_sched_rec) */
};

enum ct_sched_kind {
	CT_SCHED_OUT = 1,  /* the thread was switched out at ns */
	CT_SCHED_IN = 2,   /* ... switched in again */
	CT_SCHED_LOST = 3, /* the kernel dropped `n` records here (ring full) */
};
#define CT_SCHED_PREEMPT 0x100u /* with OUT: preempted (still runnable) */

struct ct_sched_rec {
	uint32_t pid, tid;
	uint32_t kind; /* enum ct_sched_kind, | CT_SCHED_PREEMPT */
	uint32_t n;    /* CT_SCHED_LOST: records dropped (at most 2^32 - 1); else 0 */
	uint64_t ns;   /* CLOCK_MONOTONIC */
};

/* ---- record --count: per-thread call counts (runtime/count.c) ------------
 *
 * Each thread counts its calls in an open-addressing table of arcs in a
 * file of $CALLTRACE_SHM named CT_COUNT_PREFIX "PID-GEN-TID-SEQ" (created
 * as ".cnt-..." and renamed when complete), shared with `record`, which
 * reads every table when the recording ends (lib/record/countmerge.c), so that a
 * crash or SIGKILL of the program loses nothing counted.  A thread whose
 * table fills up starts a bigger one (the next SEQ); counts of one arc in
 * several tables add up.  A slot is free while `to` is 0.  Keys:
 *  - -finstrument-functions: from = the caller's function address (0: no
 *    traced caller), to = the callee's function address;
 *  - -pg, -pg -mfentry, patched entries: from = the return address in the
 *    caller (the callee's return-address slot), to = the hook's return
 *    address inside the callee, | CT_COUNT_SITE;
 *  - record --count --sample: the samples, n of them, in a table of
 *    their own per thread (the same header and slots, in a file named
 *    CT_COUNT_SAMPLE_PREFIX "PID-GEN-TID-SEQ", written by the thread's
 *    signal handler alone, its next SEQ when it is half full), so that
 *    the arcs' probe chains are as long as without samples; its lost
 *    counts samples not counted (a full table).  Keys: from = an address
 *    in the caller (a -finstrument-functions caller's function address, a
 *    hooked caller's site, or a hooked call's return address less one,
 *    whose function may be untraced: then no caller, as for a site's
 *    arc), to = an address in the callee |
 *    CT_COUNT_SSELF: samples whose innermost open call was that arc's
 *    (from 0, to CT_COUNT_SSELF: outside any call; from 1: inside the
 *    runtime's own code, the tracer's time; from 2: no samples but the
 *    periods beyond the first of those that stood for more than one, the
 *    POSIX timer's overruns: the samples taken are the others less
 *    these); to = callee |
 *    CT_COUNT_STOTAL: samples with that arc open (once per sample), and
 *    from = CT_COUNT_SFUNC: with that function open (once per sample, how
 *    deep it recurses); their pad is the thread's last sample that
 *    counted them. */
#define CT_COUNT_MAGIC 0x31544e43u /* "CNT1" */
#define CT_COUNT_PREFIX "cnt-"
#define CT_COUNT_SAMPLE_PREFIX "cns-" /* record --count --sample's tables */
#define CT_COUNT_SITE (1ull << 63)
#define CT_COUNT_SSELF (1ull << 62)
#define CT_COUNT_STOTAL (1ull << 61)
#define CT_COUNT_SFUNC (~0ull)

struct ct_count_header {
	uint32_t magic;   /* CT_COUNT_MAGIC */
	uint32_t version; /* CT_FORMAT_VERSION */
	uint32_t pid, tid, gen;
	uint32_t pad;
	uint64_t nslots;       /* a power of two */
	uint64_t slots_offset; /* of slot 0 from the start of the file */
	uint64_t used;         /* slots taken (the writer's count) */
	uint64_t lost;         /* calls not counted: no table, or a full one */
};

struct ct_count_slot {
	uint64_t from, to, n, pad;
};

/* argument capture (doc/args.md): the spec table `record` writes into the
 * data directory; the runtime loads the file $CALLTRACE_ARGS names */
#define CT_ARGS_FILE "args.spec"
#define CT_FILTER_FILE "filter.spec" /* record-time filters (runtime/filter.c) */
/* the same for an image exec'd later (struct ct_doorbell's fx_*), by request */
#define CT_FILTER_EXEC_FMT "filter.x%u.spec"
/* per-function decisions in the filter file */
#define CT_FL_INC 1u    /* -F: only these and what they call */
#define CT_FL_EXC 2u    /* -N: not these nor what they call */
#define CT_FL_HIDE 4u   /* --hide: not this frame (its callees show) */
#define CT_FL_NOHOOK 8u /* never needs its hook: left unpatched where it can be */
/* bits 4..9 and 10..15: 1 + the index of the condition (-F/-N
 * 'REGEX@if:argN OP VALUE', the filter file's "cond" lines) that its -F,
 * resp. its -N, holds only under; 0: none */
#define CT_FL_ICOND_SHIFT 4
#define CT_FL_XCOND_SHIFT 10
#define CT_FL_COND_MAX 63u
#define CT_FL_COND_MASK 0xfff0u
#define CT_FL_TRIG_SHIFT \
	16 /* bits 16..31: 1 + the index of its trigger, 0: none;
			     * with CT_FL_NOHOOK (never with a trigger): the
			     * function's size in bytes, 0 if over 65535 */
#define CT_ARGS_MAGIC "calltrace-args"
#define CT_ARGS_VERSION 1
#define CT_ARGS_MAX_WORDS 255 /* payload words of one ARGS/RETVAL record */
/* a captured string: u64 pointer, then one word (length in bits 0..15 and
 * these flags), then the bytes, padded to a multiple of 4 */
#define CT_ARGS_STR_TRUNC (1u << 16) /* longer than the bound: cut there */
#define CT_ARGS_STR_BAD (1u << 17)   /* the pointer could not be read */

#endif
