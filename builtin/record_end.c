/* SPDX-License-Identifier: MIT */
/*
 * The end of calltrace record (builtin/record.c runs it): the symbols of
 * the modules the program used saved, the clock's rate measured again,
 * the final info written, the processes counted, and the summary.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "arch.h"
#include "argspec.h"
#include "builtin.h"
#include "calltrace/format.h"
#include "calltrace/procstat.h"
#include "datadir.h"
#include "descend.h"
#include "countmerge.h"
#include "drain.h"
#include "follow.h"
#include "libcallopt.h"
#include "message.h"
#include "modfind.h"
#include "leftout.h"
#include "recfilter.h"
#include "record.h"
#include "recorder.h"
#include "symtab.h"
#include "session.h"
#include "snapshot.h"
#include "util.h"

static const char *signame(int sig)
{
	const char *s = sigabbrev_np(sig);
	return s ? s : "?";
}

/* ---- the end ------------------------------------------------------------- */

/* save the symbol tables of the modules the program used into sym/;
 * failures are record's own (counted in sym_errors) */
static void save_symbols(struct recorder *r)
{
	struct ct_error e;
	struct ct_msgs warn = {0};
	int unsaved = 0;
	ct_save_symbols_root(r->emu.on ? r->emu.sysroot : NULL);
	int skipped = ct_save_symbols(r->dirabs, &unsaved, &warn, &e);
	ct_msgs_flush(&warn);
	if (skipped < 0) {
		snprintf(r->symerr, sizeof(r->symerr), "%s", e.msg);
		ct_error("saving symbol tables: %s", e.msg);
		skipped = 0;
		unsaved = 1;
		r->sym_errors++;
	} else if (unsaved) {
		r->sym_errors += (unsigned)unsaved;
	}
	r->sym_skipped = skipped - unsaved;
	r->ri.symbols_unsaved = unsaved;
}

/* the clock's rate over the whole run, for the final info; followed, the
 * views' rate is kept (measure_hz) */
static void measure_hz_again(struct recorder *r)
{
	uint64_t mono1 = ct_mono_ns();
	if (!r->o.use_tsc || r->follow)
		return;
	/* measure over at least 20 ms: the pair of readings at each end
	 * is good to about 0.1 us, so this is good to a few ppm */
	if (mono1 - r->mono0 < 20 * 1000 * 1000) {
		uint64_t rest = 20 * 1000 * 1000 - (mono1 - r->mono0);
		struct timespec ts = {0, (long)rest};
		nanosleep(&ts, NULL);
	}
	mono1 = ct_mono_ns();
	uint64_t c1 = ct_arch_cycles();
	r->ri.hz = (double)(c1 - r->clock0) * 1e9 / (double)(mono1 - r->mono0);
}

/* the final info: the totals of the drainer and the end */
static bool write_final_info(struct recorder *r)
{
	struct ct_info *ri = &r->ri;
	const struct ct_drainer *d = &r->dr;
	ri->complete = true;
	ri->processes = r->nprocs > d->npids ? r->nprocs : d->npids;
	ri->threads = d->ntids;
	ri->events = d->st.events;
	ri->bytes = d->st.bytes;
	ri->lost = d->st.lost;
	ri->unmatched = d->st.unmatched;
	ri->waits = d->st.waits;
	ri->unfinished = ct_drain_unfinished(&d->st);
	ri->write_errors = d->write_errors + r->sym_errors;
	ri->unwritten_events = d->unwritten_events;
	ri->unwritten_bytes = d->unwritten_bytes;
	ri->running = r->running;
	ri->nrunning = r->nrunning;
	ri->filtered = d->st.filtered;
	ri->inject = r->o.inj.nrules > 0;
	ri->injected = d->st.injected;
	struct ct_error e;
	if (ct_info_write(&r->info, ri, &e) == 0)
		return true;
	ct_error("%s", e.msg);
	return false;
}

/* the processes that ran with the runtime: their PID of DIR/PID-GEN.proc,
 * each once */
static size_t count_procs(const char *dir, size_t *images)
{
	*images = 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	long *pids = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (l < 6 || strcmp(e->d_name + l - 5, ".proc") || *end != '-' || pid <= 0)
			continue;
		(*images)++;
		size_t i = 0;
		while (i < n && pids[i] != pid)
			i++;
		if (i < n)
			continue;
		long *np = realloc(pids, (n + 1) * sizeof(*pids));
		if (!np)
			break;
		pids = np;
		pids[n++] = pid;
	}
	closedir(d);
	free(pids);
	return n;
}

/* the front ends a program not built for tracing could be rebuilt with:
 * aarch64's (run under qemu by this x86-64 record, or natively by the
 * aarch64 build) have neither -mfentry nor 5-byte patched entries */
#define X86_FRONTENDS "-finstrument-functions, -pg, -pg -mfentry or -fpatchable-function-entry=5"
#define A64_FRONTENDS "-finstrument-functions, -pg or -fpatchable-function-entry=2"

static bool program_a64(const struct recorder *r)
{
#ifdef __aarch64__
	(void)r;
	return true;
#else
	return r->emu.on;
#endif
}

/* the end of a recording: symbols, the final info, the summary; record's
 * exit status */
int ct_record_finish(struct recorder *r)
{
	int code;
	if (!r->have_status) {
		snprintf(r->exit_status, sizeof(r->exit_status), "unknown");
		code = 1;
	} else if (WIFSIGNALED(r->status)) {
		snprintf(r->exit_status, sizeof(r->exit_status), "signal %d (SIG%s)",
			 WTERMSIG(r->status), signame(WTERMSIG(r->status)));
		code = 128 + WTERMSIG(r->status);
	} else {
		snprintf(r->exit_status, sizeof(r->exit_status), "exit %d", WEXITSTATUS(r->status));
		code = WEXITSTATUS(r->status);
	}
	r->ri.exit_status = r->exit_status;
	r->nprocs = count_procs(r->dirabs, &r->nimages);
	save_symbols(r);
	measure_hz_again(r);
	if (r->o.flight) {
		char reason[64];
		if (r->have_status && WIFSIGNALED(r->status))
			snprintf(reason, sizeof(reason), "signal SIG%s",
				 signame(WTERMSIG(r->status)));
		else
			snprintf(reason, sizeof(reason), "%s", r->have_status ? "exit" : "unknown");
		r->flight_info =
			ct_snapshot_lines(0, reason, r->ri.end_clock, r->dr.wins, r->dr.nwins);
		r->ri.extra = r->flight_info;
		struct ct_msgs msgs = {0};
		ct_snapshot_link_symbols(r->dirabs, r->dfd, r->nsnap, &msgs);
		ct_msgs_flush(&msgs);
	}
	if (r->o.count) {
		const struct ct_count_stats *cs = &r->counts;
		snprintf(r->count_info, sizeof(r->count_info),
			 "mode: count\ncounted_calls: %llu\ncounted_arcs: %llu\n"
			 "counted_threads: %zu\ncount_lost: %llu\n",
			 (unsigned long long)cs->calls, (unsigned long long)cs->arcs, cs->threads,
			 (unsigned long long)cs->lost);
		r->ri.extra = r->count_info;
	}
	bool info_failed = !write_final_info(r);
	if (r->o.rf.nexc && !info_failed) {
		/* threads started in a function -N leaves out (leftout.c,
		 * through the reader: after the final info) */
		struct ct_msgs msgs = {0};
		ct_leftout_warn(r->dirabs, &msgs);
		ct_msgs_flush(&msgs);
	}
	bool own_failure = r->dr.write_errors || r->sym_errors || r->dr.unwritten_bytes ||
			   r->dr.rings_refused || info_failed || r->counts.failures ||
			   r->counts.refused;
	if (!r->o.quiet)
		ct_record_summary(r, info_failed, own_failure);
	/* no traced call at all, and no filter to have left them out: the
	 * program was not built for tracing (doc/record.md: exit status 3) */
	if (!own_failure && !r->dr.st.events && !r->dr.ntids && !r->filters && r->have_status &&
	    !r->counts.calls && !r->counts.lost) {
		if (r->secure[0])
			ct_error("nothing was recorded: %s, and the loader ran it without the "
				 "runtime (it ignores LD_PRELOAD under AT_SECURE)",
				 r->secure);
		else
			ct_error("nothing was recorded: no traced call came from %s or what it "
				 "ran; rebuild it with %s",
				 r->o.argv[0], program_a64(r) ? A64_FRONTENDS : X86_FRONTENDS);
		if (code == 0)
			code = CT_RECORD_NOTHING;
	}
	return own_failure ? CT_RECORD_FAILED : code;
}
