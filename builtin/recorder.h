/* SPDX-License-Identifier: MIT */
/*
 * A recording as calltrace record runs it (builtin/record.c: the program
 * started, the drainer driven, the end) and as its summary tells it
 * (builtin/record_summary.c).  record's own: live and top see record.h.
 */
#ifndef CT_RECORDER_H
#define CT_RECORDER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "countmerge.h"
#include "datadir.h"
#include "drain.h"
#include "emulate.h"
#include "error.h"
#include "follow.h"
#include "record.h"
#include "switches.h"

struct recorder {
	struct record_opts o;
	char libabs[PATH_MAX];          /* the runtime */
	struct ct_emu emu;              /* an aarch64 program under qemu-aarch64 */
	char dirabs[PATH_MAX];          /* the data directory */
	int dfd;                        /* it, open and locked (ct_datadir_prepare) */
	char secure[PATH_MAX + 128];    /* why the loader will not preload the runtime
					 * into the program (setuid...), or "" */
	char argspec[PATH_MAX + 32];    /* the argument spec file, or "" */
	char filterspec[PATH_MAX + 32]; /* the filter file, or "" */
	char libcall[PATH_MAX + 32];    /* $CALLTRACE_LIBCALL, or "": as it is */
	char plugspec[PATH_MAX + 32];   /* the plugin's table file, or "" */
	char injspec[PATH_MAX + 32];    /* record --inject's rule file, or "" */
	char *injtext;                  /* ... its text (resolve_inject), or NULL */
	size_t injlen;
	char *filters;         /* the filters as given, for info and the summary */
	struct ct_drainer dr;  /* the rings, and what was copied */
	struct ct_sched sched; /* --sched: the context switches (out -1: none) */
	bool sched_on;
	struct ct_info_file info;
	struct ct_info ri;      /* what info says */
	uint64_t clock0, mono0; /* the clock and CLOCK_MONOTONIC at the start */
	int status;             /* the program's, from waitpid */
	bool have_status;
	char exit_status[64]; /* it, as text */
	unsigned sym_errors;  /* symbol tables record failed to write */
	int sym_skipped;      /* modules whose symbols were not saved */
	/* why no symbol table was saved, or "" */
	char symerr[sizeof(((struct ct_error *)0)->msg)];
	struct ct_running *running; /* processes still running when record stopped */
	size_t nrunning;
	size_t nprocs;                /* processes that ran with the runtime (their .proc
				  * files), traced calls or not */
	size_t nimages;               /* their program images (.proc files: one more per exec) */
	uint64_t gate_closed;         /* --time-range/--max-size: when recording ended (ns
				  * after the start), 0 if it did not */
	bool size_reached;            /* --max-size did it */
	unsigned nsnap;               /* --flight: snapshots taken while it ran */
	char *flight_info;            /* --flight: the final info's extra lines */
	struct ct_count_stats counts; /* --count: what countmerge.c wrote */
	const struct ct_record_follow *follow; /* live, top: see the data as it comes */
	char count_info[256];                  /* --count: the final info's extra lines */
	/* record-time filters matched for exec'd programs (exec_filters):
	 * each program's path and the request whose file holds its decisions */
	struct {
		char *path;
		uint32_t req;
	} * fx;
	size_t nfx;
};

/* record's exit status when it lost data by its own failure (a write
 * error, a full disk): the program's own status is in the summary and in
 * info (like timeout(1) and env(1), 125 is not a status a shell gives) */
#define CT_RECORD_FAILED 125
/* record's exit status when the program exited 0 but no traced call was
 * recorded at all (it was not built for tracing) */
#define CT_RECORD_NOTHING 3

/* the summary's paragraph on stderr (doc/record.md): info_failed, the
 * final info could not be written; own_failure, record lost data by its
 * own failure (its exit status is then CT_RECORD_FAILED) */
void ct_record_summary(const struct recorder *r, bool info_failed, bool own_failure);

/* answer an exec'd image's request for record-time filter decisions, if
 * one is waiting (record_exec.c); and free what the answers kept */
void ct_record_exec_filters(struct recorder *r);
void ct_record_exec_free(struct recorder *r);

/* the end of a recording: symbols, the final info, the summary
 * (builtin/record_end.c); record's exit status */
int ct_record_finish(struct recorder *r);

#endif
