/* SPDX-License-Identifier: MIT */
/*
 * Writing a data directory (doc/format.md): preparing it for a recording
 * (an earlier recording there is moved to DIR.old; nothing that is not a
 * recording is ever removed), and its info file, written through
 * .info.tmp and a rename.  The reading side is session.c's parse_info.
 * What fails is said in a struct ct_error (error.h).  libc, the shared
 * headers and error.h only.
 */
#ifndef CT_DATADIR_H
#define CT_DATADIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calltrace/format.h"

struct ct_error;

/* ct_datadir_prepare's status when another record is writing into the
 * directory (or into DIR.old): record exits with CT_DATADIR_BUSY_EXIT */
#define CT_DATADIR_BUSY 2
#define CT_DATADIR_BUSY_EXIT 75 /* sysexits.h's EX_TEMPFAIL: try again later */

/* Make dir ready for a new recording and open it: created (mode 0700) if
 * missing; an empty directory is used as it is; one holding a recording
 * (it has an info) is moved to DIR.old, whose older contents are removed
 * only if it is a recording of ours too; anything else is refused.  The
 * directory must be a real one (not a link), ours, writable by nobody
 * else; everything is done relative to its parent, opened once, and to
 * the directory itself.  On success *dfd is the directory, open
 * (O_CLOEXEC) and locked (flock LOCK_EX) for as long as it stays open, so
 * that another record neither writes into it nor moves it (nor removes it
 * as DIR.old) meanwhile.  0; 1 with err filled; CT_DATADIR_BUSY with err
 * filled when another record holds DIR or DIR.old. */
int ct_datadir_prepare(const char *dir, int *dfd, struct ct_error *err);

/* what the runtime could not trace, counted in the doorbell (enum
 * ct_untraced): the info key, the summary's words ("N one|many what."),
 * and whether it is a loss */
struct ct_untraced_kind {
	const char *key, *one, *many, *what;
	bool loss;
};
/* the kind i, or NULL for one this build does not know */
const struct ct_untraced_kind *ct_untraced_kind(unsigned i);
/* whether kind i is a loss (unknown kinds are) */
bool ct_untraced_loss(unsigned i);

/* a process still running when record stopped */
struct ct_running {
	int pid;
	char name[32];
};

/* what info says; the part after start_clock only when complete */
struct ct_info {
	char *const *argv;
	char start_time[64];
	const char *clock; /* "tsc" or "mono" */
	double hz;
	uint64_t start_clock, end_clock;
	bool complete;
	const char *exit_status;
	size_t processes, threads;
	uint64_t events, bytes, lost, unmatched, waits, unfinished;
	unsigned write_errors;
	uint64_t unwritten_events, unwritten_bytes;
	int symbols_unsaved; /* symbol tables record failed to write */
	uint64_t untraced[CT_UNTRACED_MAX];
	const struct ct_running *running;
	size_t nrunning;
	const char *filters; /* record-time filters as given, or NULL */
	uint64_t filtered;   /* calls they left out */
	bool inject;         /* record --inject: rules were given */
	uint64_t injected;   /* ... and the faults injected */
	uint64_t flight;     /* record --flight: bytes kept per thread, else 0 */
	const char *extra;   /* more "key: value" lines (record --flight), or NULL */
};

struct ct_info_file {
	const char *dir;
	int fd;  /* .info.tmp, with room for the final info kept */
	int dfd; /* dir, open: the files are made relative to it (-1: by path) */
};

/* (dfd -1: set it afterwards to write through the open directory) */
void ct_info_init(struct ct_info_file *f, const char *dir);
/* write DIR/info through .info.tmp and a rename; through the file kept
 * open with its room reserved (ct_info_reserve) when there is one, so that
 * the final info can still say what was lost on a full disk.  Never leaves
 * .info.tmp behind when it fails.  0, or -1 with err filled. */
int ct_info_write(struct ct_info_file *f, const struct ct_info *info, struct ct_error *err);
/* keep .info.tmp open with room for the final info of a command line
 * argv, taken now while there is space (the rest of the recording may fill
 * the disk); without it when that fails */
void ct_info_reserve(struct ct_info_file *f, char *const *argv);
/* the way out without a final info: close and remove .info.tmp */
void ct_info_discard(struct ct_info_file *f);

#endif
