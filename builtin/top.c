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
#include "record.h"
#include "util.h"
#include "view.h"

static const char top_head[] =
	"usage: calltrace top [options] [record options] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND as `calltrace record` does and show a flat profile of it while\n"
	"it runs, refreshed every interval: each function's self time (corrected for\n"
	"the tracer's cost, as `calltrace report` does), its share, calls and\n"
	"average time per call, sorted by self time; the final profile when it ends.\n"
	"On a terminal the screen is redrawn; otherwise a table is printed each\n"
	"interval, after a line giving the time since the start.  The recording\n"
	"goes to a temporary directory, removed at the end, unless -d DIR names one\n"
	"(kept).  Every option of `calltrace record` applies (-F, -N, --hide, -D,\n"
	"-t, -T, -A, -a, ...; `calltrace record --help`).  top exits with record's\n"
	"status: the program's (doc/record.md).\n"
	"\n"
	"options:\n";

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


enum { OPT_INTERVAL = 0x4000, OPT_LIMIT, OPT_OUTPUT };

/* top's own options and the views' it takes (record's follow them) */
static const struct ct_opt options[] = {
	{"interval", OPT_INTERVAL, "TIME", "time between refreshes (default 1s)"},
	{"limit", OPT_LIMIT, "N",
	 "rows shown at most (default 20; the final profile\n"
	 "shows all unless --limit is given)"},
	{"output", OPT_OUTPUT, "FILE", "the tables go to FILE instead of stdout"},
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_HELP,
	CT_OPT_END,
};

struct top_opts {
	struct top *t;
	const char *out;
	struct ct_record_wrap *w; /* (its v takes the views' options) */
};

static int option(void *ctx, const struct ct_opt *o, const char *arg, struct ct_error *err)
{
	struct top_opts *to = ctx;
	struct top *t = to->t;
	if (o->val == OPT_INTERVAL) {
		int64_t d = ct_parse_duration(arg);
		if (d < 10000000 || d > 3600LL * 1000000000LL) {
			ct_set_err(err, "bad --interval '%s' (a time from 10ms to 1h, e.g. 2s)",
				   arg);
			return -1;
		}
		t->interval = (uint64_t)d;
	} else if (o->val == OPT_LIMIT) {
		char *end;
		errno = 0;
		unsigned long long l = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || *arg == '-' || l == 0 || l > 1000000) {
			ct_set_err(err, "bad --limit '%s' (a number of rows from 1 to 1000000)",
				   arg);
			return -1;
		}
		t->limit = (size_t)l;
		t->limit_given = true;
	} else if (o->val == OPT_OUTPUT) {
		return ct_record_wrap_output_opt(arg, &to->out, err);
	} else {
		return ct_view_option(&to->w->v, o, arg, err);
	}
	return 0;
}

int cmd_top(int argc, char **argv)
{
	struct top t = {.out = stdout, .interval = 1000000000u, .limit = 20};
	static struct ct_record_wrap w;
	struct top_opts to = {.t = &t, .w = &w};
	int code = ct_record_wrap_args(&w, argc, argv, top_head, options, option, &to);
	if (code >= 0)
		return code;
	const char *outpath = to.out;
	if (!(t.out = ct_record_wrap_output(outpath))) {
		ct_record_wrap_done(&w);
		return 1;
	}
	t.tty = isatty(fileno(t.out));
	ct_names_init(&t.names);
	t.start_mono = t.last_mono = ct_mono_ns();
	struct ct_follow_opts fo = {.events = top_events,
				    .tick = top_tick,
				    .say = ct_record_wrap_say,
				    .ctx = &t,
				    .peek_every = t.interval / 4 > 100000000u ? 100000000u
									      : t.interval / 4,
				    .lag_warn = 2000000000u,
				    .demangle = w.v.demangle,
				    .with_syms = w.v.with_syms,
				    .verbose = w.v.verbose};
	struct ct_follow *f = ct_follow_new(&fo);
	code = ct_record_run(&w.o, ct_follow_hooks(f));
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
