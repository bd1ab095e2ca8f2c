/* SPDX-License-Identifier: MIT */
/*
 * calltrace top: a flat profile of a program while it runs, refreshed every
 * interval, sorted by self time (doc/top.md).  The follower (lib/record/follow.c)
 * reads what record's drainer writes and gives each thread's events here as
 * they are decoded, in its own thread; the times are corrected for the
 * tracer's cost as report's are (lib/read/overhead.h).
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "follow.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "util.h"

static const char top_usage[] =
	"usage: calltrace top [options] [record options] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND as `calltrace record` does and show a flat profile of it while\n"
	"it runs, refreshed every interval: each function's self time (corrected for\n"
	"the tracer's cost, as `calltrace report` does), its share, calls and\n"
	"average time per call, sorted by self time; the final profile when it ends.\n"
	"On a terminal the screen is redrawn; otherwise a table is printed each\n"
	"interval, after a line giving the time since the start.  The recording\n"
	"goes to a temporary directory, removed at the end, unless -d DIR names one\n"
	"(kept).  Every option of `calltrace record` applies.  top exits with\n"
	"record's status: the program's (doc/record.md).\n"
	"\n"
	"options:\n"
	"      --interval=TIME   time between refreshes (default 1s)\n"
	"      --limit=N         rows shown at most (default 20; the final profile\n"
	"                        shows all unless --limit is given)\n"
	"      --output=FILE     the tables go to FILE instead of stdout\n"
	"  -h, --help            this help\n";

struct fstat {
	uint64_t calls, self, sum; /* sums of the calls' corrected times */
};

struct tframe {
	uint32_t id;
	uint64_t child; /* time of the direct callees */
};

struct tthread {
	bool set;
	struct ct_u64map ids; /* address -> id + 1 */
	struct tframe *stack;
	size_t depth, cap;
};

struct top {
	FILE *out;
	bool tty;
	uint64_t interval; /* ns */
	size_t limit;
	bool limit_given;
	struct ct_names names;
	struct fstat *stats;
	size_t capstats;
	struct tthread *th;
	size_t nth;
	uint64_t calls;
	uint64_t last_mono, start_mono;
};

static uint32_t id_of(struct top *t, struct tthread *tt, struct ct_session *s,
		      const struct ct_event *ev)
{
	void **slot = ct_u64map_slot(&tt->ids, ev->addr);
	if (*slot)
		return (uint32_t)((uintptr_t)*slot - 1);
	const struct ct_sym_info *si = ct_session_resolve(s, ev->thread->proc, ev->addr);
	uint32_t id = ct_names_intern(&t->names, si->name);
	if (t->names.n > t->capstats) {
		t->stats = ct_grow_zeroed(t->stats, t->capstats, t->names.cap, sizeof(*t->stats));
		t->capstats = t->names.cap;
	}
	*slot = (void *)(uintptr_t)(id + 1);
	return id;
}

static void top_events(void *ctx, struct ct_session *s, const struct ct_event *evs, size_t n)
{
	struct top *t = ctx;
	if (!n)
		return;
	size_t ti = (size_t)evs[0].thread->index;
	if (ti >= t->nth) {
		t->th = ct_grow_zeroed(t->th, t->nth, ti + 16, sizeof(*t->th));
		t->nth = ti + 16;
	}
	struct tthread *tt = &t->th[ti];
	if (!tt->set) {
		tt->set = true;
		ct_u64map_init(&tt->ids);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ct_event *ev = &evs[i];
		if (ev->kind == CT_ENTER) {
			uint32_t id = id_of(t, tt, s, ev);
			*CT_PUSH(tt->stack, tt->depth, tt->cap) = (struct tframe){id, 0};
			continue;
		}
		if (ev->kind != CT_EXIT || !tt->depth)
			continue;
		struct tframe f = tt->stack[--tt->depth];
		uint64_t incl = ct_event_dur(ev);
		struct fstat *st = &t->stats[f.id];
		bool counted = ct_call_counted(ev);
		st->calls += counted;
		t->calls += counted;
		st->sum += counted ? incl : 0;
		st->self += ct_call_self(incl, f.child);
		if (tt->depth)
			tt->stack[tt->depth - 1].child += incl;
	}
}

static const struct top *sort_t;

static uint64_t self_of(const struct fstat *st)
{
	return st->self;
}

static int cmp_self(const void *a, const void *b)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	uint64_t va = self_of(&sort_t->stats[ia]), vb = self_of(&sort_t->stats[ib]);
	if (va != vb)
		return va > vb ? -1 : 1;
	return strcmp(sort_t->names.v[ia], sort_t->names.v[ib]);
}

static void print_table(struct top *t, uint64_t now, bool final)
{
	size_t n = 0, rows = t->names.n;
	uint32_t *idx = xmalloc((rows ? rows : 1) * sizeof(*idx));
	uint64_t all = 0;
	for (size_t i = 0; i < rows; i++)
		if (t->stats[i].calls) {
			idx[n++] = (uint32_t)i;
			all += self_of(&t->stats[i]);
		}
	sort_t = t;
	ct_qsort(idx, n, sizeof(*idx), cmp_self);
	size_t show = final && !t->limit_given ? n : (n < t->limit ? n : t->limit);
	if (t->tty && !final)
		fputs("\033[H\033[2J", t->out);
	fprintf(t->out, "# calltrace top: %.1f s%s, %llu calls, %zu functions\n", (double)now / 1e9,
		final ? " (final profile)" : "", (unsigned long long)t->calls, n);
	fprintf(t->out, "%12s %6s %10s %12s  %s\n", "SELF", "SELF%", "CALLS", "AVG", "FUNCTION");
	for (size_t i = 0; i < show; i++) {
		const struct fstat *st = &t->stats[idx[i]];
		uint64_t self = self_of(st);
		char sb[32], ab[32];
		ct_format_duration(self, sb, sizeof(sb));
		ct_format_duration(st->calls ? st->sum / st->calls : 0, ab, sizeof(ab));
		fprintf(t->out, "%12s %5.1f%% %10llu %12s  %s\n", sb,
			all ? 100.0 * (double)self / (double)all : 0.0,
			(unsigned long long)st->calls, ab, ct_tx(t->names.v[idx[i]]));
	}
	if (show < n)
		fprintf(t->out, "(%zu more)\n", n - show);
	if (!t->tty || final)
		fputc('\n', t->out);
	fflush(t->out);
	free(idx);
}

static void top_tick(void *ctx, uint64_t now, bool final)
{
	struct top *t = ctx;
	uint64_t mono = ct_mono_ns();
	if (!final && mono - t->last_mono < t->interval)
		return;
	t->last_mono = mono;
	(void)now;
	print_table(t, mono - t->start_mono, final);
}


/* top's own option at argv[i]: how many words it took, 0 when it is not
 * one, -1 after a message */
struct top_opts {
	struct top *t;
	const char **out;
};

static int own_option(void *ctx, char **argv, int i, int argc)
{
	static const char *const with_arg[] = {"--interval", "--limit", "--output"};
	struct top_opts *to = ctx;
	struct top *t = to->t;
	const char **out = to->out;
	const char *v = NULL;
	size_t k;
	int used = ct_opt_value(argv, i, argc, with_arg, sizeof(with_arg) / sizeof(with_arg[0]), &k,
				&v);
	if (used <= 0)
		return used;
	if (k == 0) {
		int64_t d = ct_parse_duration(v);
		if (d < 10000000 || d > 3600LL * 1000000000LL) {
			ct_error("bad --interval '%s' (a time from 10ms to 1h, e.g. 2s)", v);
			return -1;
		}
		t->interval = (uint64_t)d;
	} else if (k == 1) {
		char *end;
		errno = 0;
		unsigned long long l = strtoull(v, &end, 10);
		if (errno || end == v || *end || *v == '-' || l == 0 || l > 1000000) {
			ct_error("bad --limit '%s' (a number of rows from 1 to 1000000)", v);
			return -1;
		}
		t->limit = (size_t)l;
		t->limit_given = true;
	} else {
		if (!*v) {
			ct_error("--output needs a file name");
			return -1;
		}
		*out = v;
	}
	return used;
}

int cmd_top(int argc, char **argv)
{
	int help = ct_record_wrap_help(argc, argv, top_usage);
	if (help >= 0)
		return help;
	struct top t = {.out = stdout, .interval = 1000000000u, .limit = 20};
	const char *outpath = NULL;
	/* record [-d DIR] OPTIONS... COMMAND..., top's own options taken out */
	struct top_opts to = {.t = &t, .out = &outpath};
	static struct ct_record_wrap w;
	int rc = ct_record_wrap_args(&w, argc, argv, "top", own_option, &to);
	if (rc)
		return rc;
	if (!(t.out = ct_record_wrap_output(outpath))) {
		ct_record_wrap_done(&w);
		return 1;
	}
	t.tty = isatty(fileno(t.out));
	ct_names_init(&t.names);
	t.start_mono = t.last_mono = ct_mono_ns();
	struct ct_follow_opts fo = {.events = top_events,
				    .tick = top_tick,
				    .ctx = &t,
				    .peek_every = t.interval / 4 > 100000000u ? 100000000u
									      : t.interval / 4,
				    .lag_warn = 2000000000u,
				    .demangle = CT_DEMANGLE_FULL};
	struct ct_follow *f = ct_follow_new(&fo);
	int code = ct_record_run(w.argc, w.argv, ct_follow_hooks(f));
	ct_set_command("top");
	code = ct_record_wrap_close(t.out, outpath, code);
	ct_follow_free(f);
	for (size_t i = 0; i < t.nth; i++) {
		if (t.th[i].set)
			ct_u64map_free(&t.th[i].ids);
		free(t.th[i].stack);
	}
	free(t.th);
	free(t.stats);
	ct_names_free(&t.names);
	ct_record_wrap_done(&w);
	return code;
}
