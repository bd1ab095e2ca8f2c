/* SPDX-License-Identifier: MIT */
/*
 * calltrace record's summary (doc/record.md): the paragraph on stderr at
 * the end of a recording, what was recorded, where, and what was lost or
 * left out, from the drainer's totals and the final info (recorder.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "recorder.h"

static void print_size(char *buf, size_t len, uint64_t n)
{
	if (n >= 10u << 20)
		snprintf(buf, len, "%.1f MiB", n / 1048576.0);
	else if (n >= 10u << 10)
		snprintf(buf, len, "%.1f KiB", n / 1024.0);
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)n);
}

/* the summary: never "Nothing lost" when processes ran on untraced */
static void print_running(const struct recorder *r, FILE *f)
{
	if (!r->nrunning)
		return;
	fprintf(f, " %zu process%s still running when record stopped (", r->nrunning,
		r->nrunning == 1 ? " was" : "es were");
	for (size_t i = 0; i < r->nrunning && i < 8; i++)
		fprintf(f, "%s%d %s", i ? ", " : "", r->running[i].pid, r->running[i].name);
	fprintf(f, "%s): %s later calls are not recorded.", r->nrunning > 8 ? ", ..." : "",
		r->nrunning == 1 ? "its" : "their");
}

/* the summary's sentences to f */
static void summary(const struct recorder *r, FILE *f, bool info_failed, bool own_failure)
{
	const struct ct_drain_stats *st = &r->dr.st;
	const uint64_t *untr = r->ri.untraced;
	char size[64];
	uint64_t unfinished = ct_drain_unfinished(st);
	bool lost_any = st->lost || own_failure;
	print_size(size, sizeof(size), st->bytes);
	/* the processes by pid, as info counts them, and their images when
	 * some exec'd (info lists each as "process PID (gen N)") */
	char procs[96];
	int pl = snprintf(procs, sizeof(procs), "%zu process%s", r->ri.processes,
			  r->ri.processes == 1 ? "" : "es");
	if (r->nimages > r->ri.processes && pl > 0)
		snprintf(procs + pl, sizeof(procs) - (size_t)pl, " (%zu program images)",
			 r->nimages);
	/* where it is: live's and top's own directory is gone by the time
	 * the summary is read (record_wrap.c removes it) */
	char where[PATH_MAX + 64];
	if (r->o.dir_temporary)
		snprintf(where, sizeof(where), "in a temporary directory, removed at the end");
	else
		snprintf(where, sizeof(where), "in %s/", r->o.dir);
	if (r->o.count) {
		const struct ct_count_stats *cs = &r->counts;
		char sampled[96] = "no times";
		if (r->o.sample_ns)
			snprintf(sampled, sizeof(sampled), "times from %llu samples",
				 (unsigned long long)cs->samples);
		fprintf(f,
			"%s: %s, %zu thread%s, %llu calls counted along "
			"%llu arcs (counting mode: %s), %s.",
			r->exit_status, procs, cs->threads, cs->threads == 1 ? "" : "s",
			(unsigned long long)cs->calls, (unsigned long long)cs->arcs, sampled,
			where);
		if (cs->lost) {
			fprintf(f, " LOST: %llu calls not counted (a table was full).",
				(unsigned long long)cs->lost);
			lost_any = true;
		}
		if (cs->refused || cs->failures) {
			fprintf(f, " LOST: %u counting table%s could not be read or written.",
				cs->refused + cs->failures,
				cs->refused + cs->failures == 1 ? "" : "s");
			lost_any = true;
		}
	} else {
		fprintf(f,
			"%s: %s, %zu thread%s, %llu events (%llu calls) in "
			"%s, %.1f bytes per event, %s.",
			r->exit_status, procs, r->dr.ntids, r->dr.ntids == 1 ? "" : "s",
			(unsigned long long)st->events, (unsigned long long)st->enters, size,
			st->events ? (double)st->bytes / (double)st->events : 0.0, where);
	}
	if (st->lost)
		fprintf(f, " LOST: %llu events.", (unsigned long long)st->lost);
	if (r->filters && r->o.rf.nhide)
		/* a function --hide alone names loses its hook calls: its calls
		 * after the first (-finstrument-functions) or all of them (the
		 * others) never reach the runtime, which counts */
		fprintf(f,
			" Record-time filters (%s) left out %llu calls that reached the hooks "
			"(not counted: the calls of functions that --hide alone names, whose "
			"hooks were taken out).",
			r->filters, (unsigned long long)st->filtered);
	else if (r->filters)
		fprintf(f, " Record-time filters (%s) left out %llu calls.", r->filters,
			(unsigned long long)st->filtered);
	if (r->o.inj.nrules)
		fprintf(f, " Faults injected: %llu.", (unsigned long long)st->injected);
	if (r->gate_closed)
		fprintf(f, " Recording of new calls stopped %.3f s after the start (%s).",
			(double)r->gate_closed / 1e9,
			r->size_reached ? "--max-size reached" : "end of --time-range");
	if (r->dr.unwritten_bytes) {
		print_size(size, sizeof(size), r->dr.unwritten_bytes);
		fprintf(f,
			" LOST: %llu events (%s) could not be written: the trace is "
			"incomplete (%s).",
			(unsigned long long)r->dr.unwritten_events, size, r->dr.first_error);
	}
	if (r->symerr[0])
		fprintf(f, " No symbol tables saved: %s.", r->symerr);
	else if (r->ri.symbols_unsaved)
		fprintf(f,
			" The symbol tables of %d module%s could not be written "
			"(see the warnings above).",
			r->ri.symbols_unsaved, r->ri.symbols_unsaved == 1 ? "" : "s");
	if (r->dr.rings_refused)
		fprintf(f, " LOST: %u trace buffer%s could not be taken.", r->dr.rings_refused,
			r->dr.rings_refused == 1 ? "" : "s");
	if (info_failed)
		fprintf(f,
			" The info file could not be written: %s/info is the one "
			"from the start (incomplete).",
			r->o.dir);
	for (unsigned i = 0; i < CT_UNTRACED_MAX; i++) {
		if (!untr[i])
			continue;
		const struct ct_untraced_kind *k = ct_untraced_kind(i);
		lost_any |= ct_untraced_loss(i);
		if (k)
			fprintf(f, " %llu %s %s.", (unsigned long long)untr[i],
				untr[i] == 1 ? k->one : k->many, k->what);
		else
			fprintf(f, " %llu not traced (kind %u).", (unsigned long long)untr[i], i);
	}
	if (r->o.flight) {
		uint64_t span = 0;
		for (size_t i = 0; i < r->dr.nwins; i++)
			if (r->dr.wins[i].to - r->dr.wins[i].from > span)
				span = r->dr.wins[i].to - r->dr.wins[i].from;
		print_size(size, sizeof(size), r->o.flight);
		fprintf(f,
			" Flight recording: the last %s of each thread (windows of up to "
			"%.3f ms)",
			size, r->ri.hz > 0 ? (double)span * 1e3 / r->ri.hz : 0.0);
		if (r->nsnap)
			fprintf(f, ", and %u snapshot%s taken while it ran (%s/snapshot.N/)",
				r->nsnap, r->nsnap == 1 ? "" : "s", r->o.dir);
		fputc('.', f);
	} else if (r->secure[0]) {
		fprintf(f, " %s: it ran untraced (the loader ignores LD_PRELOAD under AT_SECURE).",
			r->secure);
	} else if (!lost_any && !r->nrunning) {
		fprintf(f, " Nothing lost.");
	}
	print_running(r, f);
	if (st->unmatched)
		fprintf(f, " %llu exits without an entry.", (unsigned long long)st->unmatched);
	if (unfinished)
		fprintf(f, " %llu calls were still open when their thread ended.",
			(unsigned long long)unfinished);
	if (st->waits)
		fprintf(f, " The program waited %llu times for the trace writer.",
			(unsigned long long)st->waits);
	if (r->sched_on) {
		fprintf(f, " %llu context switch%s recorded (--sched)",
			(unsigned long long)r->sched.switches, r->sched.switches == 1 ? "" : "es");
		if (r->sched.lost)
			fprintf(f,
				"; the kernel dropped %llu of its records (off-CPU times "
				"around them are short)",
				(unsigned long long)r->sched.lost);
		fputc('.', f);
	}
	if (r->sym_skipped > 0)
		fprintf(f,
			" No symbols saved for %d module%s (changed on disk "
			"during the run, or unreadable: see the warnings above).",
			r->sym_skipped, r->sym_skipped == 1 ? "" : "s");
	if (own_failure)
		fprintf(f, " calltrace record failed: exit %d (the program's: %s).",
			CT_RECORD_FAILED, r->exit_status);
}

/* the paragraph on stderr (doc/record.md): its sentences as one message
 * with the plain prefix (ct_note_plain) */
void ct_record_summary(const struct recorder *r, bool info_failed, bool own_failure)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		ct_note_plain("%s (no summary: %s)", r->exit_status, strerror(errno));
		return;
	}
	summary(r, f, info_failed, own_failure);
	if (fclose(f) == 0)
		ct_note_plain("%s", text);
	free(text);
}
