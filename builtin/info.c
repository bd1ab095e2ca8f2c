/* SPDX-License-Identifier: MIT */
/*
 * calltrace info: what was recorded — the command, its clock, how it ended,
 * its processes with their module maps, its threads, and the counters that
 * say whether anything was lost.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "argspec.h"
#include "builtin.h"
#include "message.h"
#include "output.h"
#include "counts.h"
#include "overhead.h"
#include "session.h"
#include "util.h"
#include "view.h"

static const char head[] =
	"usage: calltrace info [-d DIR] [--task]\n"
	"\n"
	"Show what was recorded: the command, start time, duration, exit status,\n"
	"clock, processes (with their module maps and build-ids), threads, the\n"
	"size on disk, the counters of lost and unmatched events, and the\n"
	"tracer's cost that the views take out of their times (read from the\n"
	"event streams: progress is shown on a terminal).\n"
	"\n"
	"options:\n";

struct info {
	bool task;
};

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	CT_OPT_FLAG("task", struct info, task,
		    "the tasks alone: processes and threads as a tree,\n"
		    "each with its start, flags, tid, parent and name\n"
		    "(uftrace info --task)"),
	CT_OPT_SYMS,
	CT_OPT_HELP,
	CT_OPT_END,
};

/* bytes of the regular files in dir and its subdirectories (one level) */
static uint64_t dir_bytes(const char *dir, int level)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	uint64_t sum = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) == 0) {
			if (S_ISREG(st.st_mode))
				sum += (uint64_t)st.st_size;
			else if (S_ISDIR(st.st_mode) && level < 1)
				sum += dir_bytes(p, level + 1);
		}
		free(p);
	}
	closedir(d);
	return sum;
}

static const char *human(uint64_t b, char *buf, size_t len)
{
	if (b < 1024)
		snprintf(buf, len, "%" PRIu64 " B", b);
	else if (b < 1024 * 1024)
		snprintf(buf, len, "%.1f KiB", b / 1024.0);
	else if (b < 1024ULL * 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.2f GiB", b / (1024.0 * 1024 * 1024));
	return buf;
}

/* a process of pid among s->procs[0..n): the first one, or NULL */
static const struct ct_proc *proc_of_pid(const struct ct_session *s, int pid, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s->procs[i]->pid == pid)
			return s->procs[i];
	return NULL;
}

/* --task: the time of the thread's first event (ns since the start of
 * the recording), or -1 when it has none or cannot be read */
static int64_t first_event(struct ct_session *s, struct ct_thread *t)
{
	struct ct_stream *st;
	struct ct_error e;
	struct ct_event ev;
	if (ct_stream_open(s, t, &st, &e) < 0)
		return -1;
	int n = ct_stream_read(st, &ev, 1, &e);
	ct_stream_close(st);
	return n == 1 ? (int64_t)ev.time : -1;
}

/* --task: one line, the name indented by the depth in the tree */
static void task_line(struct ct_session *s, const struct ct_proc *p, struct ct_thread *t, int tid,
		      int depth)
{
	uint64_t base = ct_session_mono_start(s);
	int64_t at = t ? first_event(s, t) : -1;
	char ts[40] = "", sz[32] = "";
	if (at >= 0 && base) {
		uint64_t ns = base + (uint64_t)at;
		snprintf(ts, sizeof(ts), "%" PRIu64 ".%09" PRIu64, ns / 1000000000u,
			 ns % 1000000000u);
	}
	bool leader = tid == p->pid;
	char flags[3] = {leader ? 'F' : ' ', leader && !p->forked ? 'S' : ' ', 0};
	if (t)
		human(t->bytes, sz, sizeof(sz));
	const char *name = t ? ct_thread_name(t) : "";
	if (!t) { /* a process whose first thread recorded nothing */
		struct ct_thread pt = {.proc = (struct ct_proc *)p, .tid = tid};
		name = ct_thread_name(&pt);
	}
	printf("  %20s  %s  %8d  %8d  %10s  %*s%s\n", ts, flags, tid, leader ? p->ppid : p->pid, sz,
	       2 * depth, "", ct_tx(name));
}

/* --task: the process p (its image gen), then its threads, then the
 * processes it forked, depth-first */
static void task_tree(struct ct_session *s, const struct ct_proc *p, int depth, bool *done)
{
	size_t pi = 0;
	while (s->procs[pi] != p)
		pi++;
	if (done[pi])
		return;
	done[pi] = true;
	struct ct_thread *lead = NULL;
	for (size_t j = 0; j < s->nthreads; j++)
		if (s->threads[j]->proc == p && s->threads[j]->tid == p->pid)
			lead = s->threads[j];
	task_line(s, p, lead, p->pid, depth);
	for (size_t j = 0; j < s->nthreads; j++)
		if (s->threads[j]->proc == p && s->threads[j] != lead)
			task_line(s, p, s->threads[j], s->threads[j]->tid, depth + 1);
	/* what the process became (exec: the same pid, the next image) and
	 * the processes it forked */
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct ct_proc *c = s->procs[i];
		if (!done[i] && ((c->pid == p->pid && c->gen == p->gen + 1) ||
				 (c->pid != p->pid && c->ppid == p->pid)))
			task_tree(s, c, c->pid == p->pid ? depth : depth + 1, done);
	}
}

/* info --task: every process and thread, as a tree */
static void print_tasks(struct ct_session *s)
{
	printf("# %20s  %s  %8s  %8s  %10s  %s\n", "TIMESTAMP", "FL", "TID", "PARENT", "DATA SIZE",
	       "TASK");
	bool *done = xcalloc(s->nprocs ? s->nprocs : 1, sizeof(*done));
	/* roots: a process whose parent was not traced, in the order of the
	 * recording (an exec'd image comes after the one it replaced) */
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct ct_proc *p = s->procs[i];
		bool child = false;
		for (size_t k = 0; k < s->nprocs; k++)
			child |= k != i &&
				 ((s->procs[k]->pid == p->pid && s->procs[k]->gen < p->gen) ||
				  (s->procs[k]->pid == p->ppid));
		if (!child)
			task_tree(s, p, 0, done);
	}
	for (size_t i = 0; i < s->nprocs; i++) /* (a cycle of pids: none left out) */
		task_tree(s, s->procs[i], 0, done);
	free(done);
}

/* keys of DIR/info that this command does not know: printed as they are */
static void print_other_keys(const char *dir)
{
	static const char *const known[] = {
		"calltrace-data", "command",          "start_time",      "clock",
		"clock_hz",       "start_clock",      "end_clock",       "exit_status",
		"processes",      "threads",          "events",          "bytes",
		"lost",           "unmatched",        "waits",           "complete",
		"write_errors",   "unwritten_events", "unwritten_bytes",
	};
	char *path = xasprintf("%s/info", dir);
	size_t flen;
	struct ct_error e;
	/* read as the session read it: a regular file, bounded (util.h) */
	char *text = ct_read_file(path, true, 16u << 20, &flen, &e);
	free(path);
	FILE *f = text && flen ? fmemopen(text, flen, "r") : NULL;
	if (!f) {
		free(text);
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = 0;
		char *colon = strchr(line, ':');
		if (!colon || colon == line)
			continue;
		*colon = 0;
		bool is_known = false;
		for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (!strcmp(line, known[i]))
				is_known = true;
		if (is_known)
			continue;
		const char *val = colon + 1;
		val += strspn(val, " \t");
		printf("%s:%*s %s\n", ct_tx(line), strlen(line) < 14 ? (int)(14 - strlen(line)) : 0,
		       "", ct_tx(val));
	}
	free(line);
	fclose(f);
	free(text);
}

/* the front ends the process used and the figures measured for each
 * (doc/overhead.md); nothing for a trace that says neither */
static void print_frontends(const struct ct_session *s, const struct ct_proc *p)
{
	static const char *const names[] = {"not recorded", "-finstrument-functions",
					    "hooked (-pg, -pg -mfentry, patched)",
					    "-finstrument-functions and hooked"};
	struct ct_overhead c, h;
	bool hc = ct_overhead_measured(s, p, CT_PROC_FE_CYG, &c);
	bool hh = ct_overhead_measured(s, p, CT_PROC_FE_HOOK, &h);
	if (!p->frontends && !hh)
		return;
	printf("  %-10s %s\n", "front end:", names[p->frontends & 3]);
	printf("  %-10s ", "measured:");
	if (hc)
		printf("-finstrument-functions %.1f ns inner, %.1f ns outer; ",
		       (double)c.inner_ps / 1000, (double)c.outer_ps / 1000);
	else
		printf("-finstrument-functions not measured; ");
	if (hh)
		printf("hooked %.1f ns inner, %.1f ns outer\n", (double)h.inner_ps / 1000,
		       (double)h.outer_ps / 1000);
	else
		printf("hooked not measured\n");
}

/* ---- the tracer's cost (doc/overhead.md) ---------------------------- */

static void no_events(void *ctx, struct ct_thread *t, const struct ct_event *ev, int n)
{
	(void)ctx;
	(void)t;
	(void)ev;
	(void)n;
}

/* read every thread's stream to its end, as the views do (batches, no
 * filter), for the cost its corrected clock took out: costs[t->index].
 * A stream that cannot be read to its end counts up to the error; the
 * first error is in *err (true returned). */
static bool read_costs(struct ct_view *v, struct ct_cost *costs, struct ct_error *err)
{
	bool failed = false;
	v->unfiltered = no_events;
	for (size_t i = 0; i < v->s->nthreads; i++) {
		struct ct_thread *t = v->s->threads[i];
		struct ct_cost before = v->cost;
		int rc = ct_view_read_thread(v, t, NULL, NULL, NULL);
		ct_progress_end(&v->progress);
		costs[t->index] =
			(struct ct_cost){v->cost.taken - before.taken,
					 v->cost.clipped - before.clipped,
					 v->cost.span - before.span, v->cost.recal - before.recal,
					 v->cost.recal_ns - before.recal_ns};
		if (rc < 0 && !failed) {
			*err = v->err;
			failed = true;
		}
	}
	return failed;
}

/* "N ns taken out (P % of S ns recorded), C ns clipped" */
static void print_cost(const struct ct_cost *c)
{
	printf("%" PRIu64 " ns taken out (", c->taken);
	if (c->span)
		printf("%.1f %% of %" PRIu64 " ns recorded",
		       100.0 * (double)c->taken / (double)c->span, c->span);
	else
		printf("no time recorded");
	printf("), %" PRIu64 " ns clipped", c->clipped);
}

static void print_argv(const struct ct_proc *p)
{
	for (int i = 0; i < p->argc; i++) {
		const char *a = p->argv[i];
		bool quote = !*a || strpbrk(a, " \t\n'\"\\$") != NULL;
		if (i)
			putchar(' ');
		if (!quote) {
			ct_text_put(stdout, a);
			continue;
		}
		/* quoted as a shell would take it, then escaped as text */
		char *q = xmalloc(4 * strlen(a) + 3), *o = q;
		*o++ = '\'';
		for (; *a; a++) {
			if (*a == '\'') {
				memcpy(o, "'\\''", 4);
				o += 4;
			} else if (*a == '\n') {
				memcpy(o, "\\n", 2);
				o += 2;
			} else {
				*o++ = *a;
			}
		}
		*o++ = '\'';
		*o = 0;
		ct_text_put(stdout, q);
		free(q);
	}
}

int cmd_info(int argc, char **argv)
{
	struct info in = {0};
	struct ct_view v = {.head = head, .opts = options, .counts_ok = true, .ctx = &in};
	int status = ct_view_start(&v, argc, argv);
	if (status >= 0) {
		ct_view_close(&v);
		return status;
	}
	struct ct_session *s = v.s;
	if (in.task) {
		if (v.counts) {
			ct_error("--task: %s holds call counts only (record --count): no threads' "
				 "streams to read",
				 v.dir);
			ct_view_close(&v);
			return 1;
		}
		print_tasks(s);
		fflush(stdout);
		status = ferror(stdout) ? ct_error("writing the output: %s", strerror(errno)) : 0;
		ct_view_close(&v);
		return status;
	}

	/* the tracer's cost per thread, from a pass over the streams (none
	 * in a recording of call counts) */
	struct ct_cost *costs = NULL, all = {0};
	struct ct_error cost_err;
	bool cost_failed = false;
	if (!v.counts) {
		costs = xcalloc(s->nthreads ? s->nthreads : 1, sizeof(*costs));
		cost_failed = read_costs(&v, costs, &cost_err);
		all = v.cost;
	}

	/* a recording of call counts has no streams: its threads are those
	 * of its count files */
	struct ct_counts cnt = {0};
	bool have_cnt = false;
	if (v.counts) {
		if (ct_view_counts_load(&v, &cnt)) {
			ct_view_close(&v);
			return 1;
		}
		have_cnt = true;
	}

	char buf[64], buf2[64];
	/* text from the recording goes through ct_tx (output.h): no
	 * control character reaches the terminal */
	printf("# recording: %s\n", ct_tx(s->dir));
	printf("%-15s %s\n", "command:", s->command ? ct_tx(s->command) : "(unknown)");
	printf("%-15s %s\n", "start time:", s->start_time ? ct_tx(s->start_time) : "(unknown)");
	if (s->end_clock > s->start_clock) {
		uint64_t ns = ct_session_ns(s, s->end_clock);
		printf("%-15s %s\n",
		       "duration:", ct_format_duration(ns, buf, sizeof(buf)) + strspn(buf, " "));
	} else {
		printf("%-15s %s\n", "duration:", "(unknown)");
	}
	printf("%-15s %s\n", "exit status:", s->exit_status ? ct_tx(s->exit_status) : "(unknown)");
	if (s->clock_hz >= 1e6)
		printf("%-15s %s, %.3f MHz\n", "clock:", s->clock_name ? ct_tx(s->clock_name) : "?",
		       s->clock_hz / 1e6);
	else
		printf("%-15s %s, %.3f Hz\n", "clock:", s->clock_name ? ct_tx(s->clock_name) : "?",
		       s->clock_hz);
	if (!s->complete)
		printf("%-15s %s\n",
		       "complete:", "no (calltrace record did not finish; the data may end early)");
	else if (s->unwritten_events || s->unwritten_bytes || s->write_errors)
		/* record finished, but what it could not write is missing */
		printf("%-15s no (calltrace record finished, but could not write everything: "
		       "see unwritten)\n",
		       "complete:");
	else
		printf("%-15s %s\n", "complete:", "yes");

	uint64_t evbytes = 0;
	for (size_t i = 0; i < s->nthreads; i++)
		evbytes += s->threads[i]->bytes;
	/* as record's summary counts them: by pid; each exec'd image is a
	 * "process ... (gen N)" of its own below */
	size_t npids = 0;
	for (size_t i = 0; i < s->nprocs; i++)
		npids += !proc_of_pid(s, s->procs[i]->pid, i);
	if (npids == s->nprocs)
		printf("%-15s %zu\n", "processes:", npids);
	else
		printf("%-15s %zu (%zu program images: each exec starts one)\n",
		       "processes:", npids, s->nprocs);
	printf("%-15s %zu\n", "threads:", have_cnt ? cnt.nthreads : s->nthreads);
	if (s->events)
		printf("%-15s %" PRIu64 "\n", "events:", s->events);
	else
		printf("%-15s %s\n", "events:", "(not recorded)");
	uint64_t total = dir_bytes(s->dir, 0);
	printf("%-15s %" PRIu64 " (%s); event streams %" PRIu64 " (%s)\n", "bytes on disk:", total,
	       human(total, buf, sizeof(buf)), evbytes, human(evbytes, buf2, sizeof(buf2)));
	if (s->events && evbytes)
		printf("%-15s %.2f\n", "bytes/event:", (double)evbytes / (double)s->events);
	if (s->complete) {
		printf("%-15s %" PRIu64 "\n", "lost:", s->lost);
		printf("%-15s %" PRIu64 "\n", "unmatched:", s->unmatched);
		printf("%-15s %" PRIu64 "\n", "waits:", s->waits);
	} else {
		/* the counts are the final info's: none was written, and what
		 * record had not drained when it stopped is nowhere */
		printf("%-15s %s\n", "lost:",
		       "unknown (record did not finish: the events it had not drained when "
		       "it stopped are not counted)");
		printf("%-15s %s\n", "unmatched:", "unknown");
		printf("%-15s %s\n", "waits:", "unknown");
	}
	if (costs) {
		char b[64];
		printf("%-15s %" PRIu64 " ns (%s): the tracer's estimated cost, taken out of the "
		       "times\n",
		       "cost taken out:", all.taken,
		       ct_format_duration(all.taken, b, sizeof(b)) + strspn(b, " "));
		printf("%-15s %" PRIu64 " ns: estimated cost beyond the time that passed, not "
		       "taken out\n",
		       "cost clipped:", all.clipped);
		if (all.span)
			printf("%-15s %.1f %% of the %" PRIu64 " ns the threads recorded (first to "
			       "last event, summed)\n",
			       "cost share:", 100.0 * (double)all.taken / (double)all.span,
			       all.span);
		else
			printf("%-15s %s\n", "cost share:", "(the threads recorded no time)");
		if (cost_failed)
			printf("%-15s %s\n", "",
			       "(up to a stream that could not be read to its end: see the error)");
	}
	if (s->write_errors || s->unwritten_bytes)
		printf("%-15s %" PRIu64 " events, %" PRIu64 " bytes: record could not write them "
		       "(%" PRIu64 " write errors)\n",
		       "unwritten:", s->unwritten_events, s->unwritten_bytes, s->write_errors);
	if (s->argtab) {
		/* record -A/-R/-a: the functions whose values were captured */
		size_t nf = 0;
		for (size_t i = 0; i < s->argtab->nmods; i++)
			nf += s->argtab->mods[i].nf;
		printf("%-15s %zu functions in %zu modules, %zu specs (args.spec)\n",
		       "arguments:", nf, s->argtab->nmods, s->argtab->nspecs);
	}
	print_other_keys(s->dir);

	for (size_t i = 0; i < s->nprocs; i++) {
		const struct ct_proc *p = s->procs[i];
		size_t nthr = 0;
		for (size_t j = 0; j < s->nthreads; j++)
			nthr += s->threads[j]->proc == p;
		for (size_t j = 0; have_cnt && j < cnt.nthreads; j++)
			nthr += cnt.threads[j].pid == p->pid && cnt.threads[j].gen == p->gen;
		printf("\nprocess %d (gen %d)", p->pid, p->gen);
		/* the ppid the process read at its start: its parent only when
		 * that is a traced process (record adopts the orphans of its
		 * subreaper, daemon()'s child among them) */
		if (p->ppid >= 0 && proc_of_pid(s, p->ppid, s->nprocs))
			printf(", parent %d", p->ppid);
		else if (p->ppid >= 0 && p->forked)
			printf(", parent unknown (a traced process that exited before this one "
			       "started; getppid() said %d)",
			       p->ppid);
		else if (p->ppid >= 0)
			printf(", parent not traced (%d)", p->ppid);
		printf("\n");
		printf("  %-10s %s\n", "exe:", p->exe ? ct_tx(p->exe) : "(unknown)");
		printf("  %-10s ", "argv:");
		print_argv(p);
		printf("\n");
		if (p->start_clock)
			printf("  %-10s %s\n", "started:",
			       ct_format_duration(ct_session_ns(s, p->start_clock), buf,
						  sizeof(buf)) +
				       strspn(buf, " "));
		struct ct_overhead o;
		if (have_cnt)
			; /* no times: no overhead to take out of them */
		else if (ct_overhead_of(s, p, &o) &&
			 (o.lib_inner_ps != o.inner_ps || o.lib_outer_ps != o.outer_ps))
			printf("  %-10s %.1f ns inner, %.1f ns outer per call; library calls %.1f "
			       "ns "
			       "inner, %.1f ns outer (taken out of the times of report, graph, "
			       "callers, export)\n",
			       "overhead:", (double)o.inner_ps / 1000, (double)o.outer_ps / 1000,
			       (double)o.lib_inner_ps / 1000, (double)o.lib_outer_ps / 1000);
		else if (ct_overhead_of(s, p, &o))
			printf("  %-10s %.1f ns inner, %.1f ns outer per call (taken out of the "
			       "times of report, graph, callers, export)\n",
			       "overhead:", (double)o.inner_ps / 1000, (double)o.outer_ps / 1000);
		else
			printf("  %-10s not measured (recorded by an older calltrace): times are "
			       "shown as recorded\n",
			       "overhead:");
		if (!have_cnt)
			print_frontends(s, p);
		if (p->sample_ns) /* record --sample (doc/record.md) */
			printf("  %-10s every %s of each thread's CPU time (%s, signal %d)\n",
			       "sampled:",
			       ct_format_duration(p->sample_ns, buf, sizeof(buf)) +
				       strspn(buf, " "),
			       p->sample_perf ? "a perf event's task-clock, user time"
					      : "a POSIX CPU-time timer, at the kernel's tick",
			       p->sample_sig);
		if (costs) {
			struct ct_cost pc = {0};
			for (size_t j = 0; j < s->nthreads; j++)
				if (s->threads[j]->proc == p)
					ct_cost_add(&pc, &costs[s->threads[j]->index]);
			printf("  %-10s ", "cost:");
			print_cost(&pc);
			printf("\n");
			if (pc.recal) /* doc/overhead.md, "The CPU a thread runs on" */
				printf("  %-10s %" PRIu64 " figures measured again on CPUs its "
				       "threads moved to (%" PRIu64 " ns of measuring taken out)\n",
				       "recalib:", pc.recal, pc.recal_ns);
		}
		printf("  %-10s %zu\n", "threads:", nthr);
		for (size_t j = 0; j < s->nthreads; j++) {
			const struct ct_thread *t = s->threads[j];
			if (t->proc != p)
				continue;
			printf("    tid %-8d %12" PRIu64 " bytes  %s\n", t->tid, t->bytes,
			       strrchr(t->path, '/') ? strrchr(t->path, '/') + 1 : t->path);
		}
		for (size_t j = 0; have_cnt && j < cnt.nthreads; j++) {
			const struct ct_count_thread *t = &cnt.threads[j];
			if (t->pid != p->pid || t->gen != p->gen)
				continue;
			uint64_t calls = 0;
			for (size_t k = 0; k < t->narcs; k++)
				calls += t->arcs[k].calls;
			printf("    tid %-8d %12" PRIu64 " calls counted along %zu arcs\n", t->tid,
			       calls, t->narcs);
		}
		printf("  %-10s %zu\n", "modules:", p->nmodules);
		for (size_t j = 0; j < p->nmodules; j++) {
			const struct ct_module *m = &p->modules[j];
			printf("    %012" PRIx64 "-%012" PRIx64 " %-40s %s%s\n", m->lo, m->hi,
			       m->buildid ? ct_tx(m->buildid) : "-", ct_tx(m->path),
			       m->unload_clock != UINT64_MAX ? "  (unloaded)" : "");
			const char *ws = ct_withsyms_file(s, m);
			if (ws)
				printf("      symbols: %s (--with-syms)\n", ct_tx(ws));
		}
	}
	if (!s->complete)
		printf("\nwarning: the recording is incomplete: calltrace record did not finish\n");
	fflush(stdout);
	/* the stream that could not be read: after everything else */
	if (cost_failed)
		status = ct_error("%s", cost_err.msg);
	else
		status = 0;
	free(costs);
	if (have_cnt)
		ct_counts_free(&cnt);
	ct_view_close(&v);
	return status;
}
