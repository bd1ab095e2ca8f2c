/* SPDX-License-Identifier: MIT */
/*
 * calltrace live: run a program under `record` and print its call tree while
 * it runs (doc/live.md).  The follower (lib/record/follow.c) reads what record's
 * drainer writes, decodes each thread's events and gives them here, in its
 * own thread, in time order within the delay; this file prints them as
 * replay's tree lines.  The recording goes to a temporary data directory, removed at
 * the end, unless -d names one (kept).
 */
#define _XOPEN_SOURCE 700
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "color.h"
#include "filter.h"
#include "follow.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "record.h"
#include "util.h"
#include "view.h"

static const char live_head[] =
	"usage: calltrace live [options] [record options] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND as `calltrace record` does and print its call tree while it\n"
	"runs: each call's entry when it happens, its exit with its duration when\n"
	"it returns, the threads interleaved in time order with their ids, each\n"
	"event within the delay.  The program's stdin, stdout and stderr are its\n"
	"own (its output and the tree share the terminal: --output=FILE puts the\n"
	"tree in FILE).  The recording goes to a temporary directory, removed at\n"
	"the end, unless -d DIR names one (kept).  Every option of `calltrace\n"
	"record` applies (-F, -N, --hide, -D, -t, -T, -A, -a, ...; `calltrace\n"
	"record --help`).  live exits with record's status: the program's\n"
	"(128+N if signal N ended it; doc/record.md).\n"
	"\n"
	"options:\n";

/* ---- the tree, as the events come ----------------------------------------- */

struct live {
	FILE *out;
	bool color;
	/* the last event given was this entry: a leaf if the next one (of
	 * any thread) is its exit */
	bool has_pend;
	struct ct_event pend;
	struct ct_session *ps; /* the pending entry's */
	uint64_t delay;
	bool printed; /* since the last flush */
};

/* a call's duration, on its thread's corrected clock (as replay's) */
static uint64_t dur_of(const struct ct_event *ev)
{
	return ct_event_dur(ev);
}

/* one line: the duration column (blank without one), the thread, the
 * indentation, the function's name, then after */
static void put_line(struct live *l, struct ct_session *s, const struct ct_event *ev, bool dur,
		     const char *before, const char *after)
{
	char d[64] = "";
	const char *col = NULL;
	if (dur) {
		ct_format_duration(dur_of(ev), d, sizeof(d));
		col = l->color ? ct_color_duration(dur_of(ev)) : NULL;
	}
	const struct ct_sym_info *si = ct_session_resolve(s, ev->thread->proc, ev->addr);
	const char *name = ct_tx(si->name);
	bool params = ct_name_has_params(name, strlen(name));
	fprintf(l->out, "%s%10s%s [%6d] | %*s%s%s%s%s\n", col ? col : "", d,
		col ? CT_COLOR_RESET : "", ev->thread->tid, 2 * (int)ev->depth, "", before, name,
		params || *before ? "" : "()", after);
	l->printed = true;
}

static void flush_pend(struct live *l)
{
	if (!l->has_pend)
		return;
	l->has_pend = false;
	put_line(l, l->ps, &l->pend, false, "", " {");
}

/* the events in time order across threads (the follower's ordered mode):
 * each line when its event happened */
static void live_events(void *ctx, struct ct_session *s, const struct ct_event *evs, size_t n)
{
	struct live *l = ctx;
	for (size_t i = 0; i < n; i++) {
		const struct ct_event *ev = &evs[i];
		if (ev->kind == CT_MARK)
			continue;
		bool unfinished = ev->flags & CT_EVF_UNFINISHED;
		bool unwound = ev->flags & CT_EVF_SYNTHETIC;
		if (l->has_pend && ev->kind == CT_EXIT && l->pend.thread == ev->thread &&
		    l->pend.depth == ev->depth) {
			/* a call that called nothing: one line */
			l->has_pend = false;
			put_line(l, s, ev, !unfinished, "",
				 unfinished ? "; /* unfinished */"
				 : unwound  ? "; /* unwound */"
					    : ";");
			continue;
		}
		flush_pend(l);
		if (ev->kind == CT_ENTER) {
			l->pend = *ev;
			l->ps = s;
			l->has_pend = true;
			continue;
		}
		put_line(l, s, ev, !unfinished, "} /* ",
			 unfinished ? ": unfinished */"
			 : unwound  ? ": unwound */"
				    : " */");
	}
}

/* after each round: an entry held longer than the delay is shown, and what
 * was written goes out */
static void live_tick(void *ctx, uint64_t now, bool final)
{
	struct live *l = ctx;
	if (l->has_pend && (final || l->pend.time + l->delay <= now))
		flush_pend(l);
	if (l->printed || final) {
		fflush(l->out);
		l->printed = false;
	}
}

/* ---- the options ---------------------------------------------------------- */

enum { OPT_DELAY = 0x4000, OPT_OUTPUT };

/* live's own options and the views' it takes (record's follow them) */
static const struct ct_opt options[] = {
	{"delay", OPT_DELAY, "TIME",
	 "the longest an event waits before it is shown\n"
	 "(default 100ms; the threads' events are put in\n"
	 "time order within it)"},
	{"output", OPT_OUTPUT, "FILE", "the tree goes to FILE instead of stdout"},
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_COLOR_WHEN,
	{"no-pager", CT_OPT_NO_PAGER, NULL, "accepted, as replay's: live never pages"},
	CT_OPT_HELP,
	CT_OPT_END,
};

struct live_opts {
	uint64_t delay;
	const char *out;
	struct ct_record_wrap *w; /* (its v takes the views' options) */
};

static int option(void *ctx, const struct ct_opt *o, const char *arg, struct ct_error *err)
{
	struct live_opts *lo = ctx;
	if (o->val == OPT_DELAY) {
		int64_t d = ct_parse_duration(arg);
		if (d <= 0 || d > 3600LL * 1000000000LL) {
			ct_set_err(err, "bad --delay '%s' (a time from 1ns to 1h, e.g. 100ms)",
				   arg);
			return -1;
		}
		lo->delay = (uint64_t)d;
		return 0;
	}
	if (o->val == OPT_OUTPUT)
		return ct_record_wrap_output_opt(arg, &lo->out, err);
	return ct_view_option(&lo->w->v, o, arg, err);
}

int cmd_live(int argc, char **argv)
{
	static struct ct_record_wrap w;
	struct live_opts lo = {.delay = 100000000u, .w = &w};
	int code = ct_record_wrap_args(&w, argc, argv, live_head, options, option, &lo);
	if (code >= 0)
		return code;
	struct ct_follow_opts fo = {.ordered = true,
				    .delay = lo.delay,
				    .lag_warn = 2000000000u,
				    .demangle = w.v.demangle,
				    .with_syms = w.v.with_syms,
				    .verbose = w.v.verbose};
	const char *outpath = lo.out;
	struct live l = {.out = ct_record_wrap_output(outpath), .delay = fo.delay};
	if (!l.out) {
		ct_record_wrap_done(&w);
		return 1;
	}
	l.color = ct_color_on((enum ct_color_when)w.v.color_when, isatty(fileno(l.out)));
	fo.events = live_events;
	fo.tick = live_tick;
	fo.say = ct_record_wrap_say;
	fo.ctx = &l;
	fo.peek_every = fo.delay / 4 > 25000000u ? 25000000u : fo.delay / 4;
	struct ct_follow *f = ct_follow_new(&fo);
	fputs("# DURATION     TID     FUNCTION\n", l.out);
	fflush(l.out);
	code = ct_record_run(&w.o, ct_follow_hooks(f));
	ct_set_command("live");
	if (ct_follow_skipped(f))
		ct_warn("%llu events were not shown: the view could not keep up (the "
			"recording has them all)",
			(unsigned long long)ct_follow_skipped(f));
	code = ct_record_wrap_close(l.out, outpath, code);
	ct_follow_free(f);
	ct_record_wrap_done(&w);
	return code;
}
