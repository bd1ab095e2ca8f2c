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
#include "util.h"

static const char live_usage[] =
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
	"options:\n"
	"      --delay=TIME      the longest an event waits before it is shown\n"
	"                        (default 100ms; the threads' events are put in\n"
	"                        time order within it)\n"
	"      --output=FILE     the tree goes to FILE instead of stdout\n"
	"      --demangle=full|simple|no  C++ names (default full)\n"
	"      --no-demangle     the same as --demangle=no\n"
	"      --color=auto|always|never  durations in colour (as replay's; auto: on\n"
	"                        a terminal)\n"
	"      --no-pager        accepted, as replay's: live never pages\n"
	"  -h, --help            this help\n";

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

/* live's own option at argv[i] (before the command): taken into l and *o,
 * and how many words it took; 0 when it is not one; -1 after a message */
struct live_opts {
	struct ct_follow_opts *fo;
	const char **out;
	int *color;
};

static int own_option(void *ctx, char **argv, int i, int argc)
{
	struct live_opts *lo = ctx;
	struct ct_follow_opts *o = lo->fo;
	const char **out = lo->out;
	int *color = lo->color;
	const char *a = argv[i], *v = NULL;
	static const char *const with_arg[] = {"--delay", "--output", "--demangle", "--color"};
	size_t k;
	if (!strcmp(a, "--no-demangle")) {
		o->demangle = CT_DEMANGLE_NO;
		return 1;
	}
	if (!strcmp(a, "--no-pager"))
		return 1;
	int used = ct_opt_value(argv, i, argc, with_arg, sizeof(with_arg) / sizeof(with_arg[0]), &k,
				&v);
	if (used <= 0)
		return used;
	if (k == 0) {
		int64_t d = ct_parse_duration(v);
		if (d <= 0 || d > 3600LL * 1000000000LL) {
			ct_error("bad --delay '%s' (a time from 1ns to 1h, e.g. 100ms)", v);
			return -1;
		}
		o->delay = (uint64_t)d;
	} else if (k == 1) {
		if (!*v) {
			ct_error("--output needs a file name");
			return -1;
		}
		*out = v;
	} else if (k == 2) {
		int m = ct_demangle_mode_of(v);
		if (m < 0) {
			ct_error("bad --demangle '%s' (full, simple or no)", v);
			return -1;
		}
		o->demangle = (enum ct_demangle_mode)m;
	} else {
		*color = ct_color_when_of(v);
		if (*color < 0) {
			ct_error("bad --color '%s' (auto, always or never)", v);
			return -1;
		}
	}
	return used;
}

int cmd_live(int argc, char **argv)
{
	int help = ct_record_wrap_help(argc, argv, live_usage);
	if (help >= 0)
		return help;
	struct ct_follow_opts fo = {.ordered = true,
				    .delay = 100000000u,
				    .lag_warn = 2000000000u,
				    .demangle = CT_DEMANGLE_FULL};
	const char *outpath = NULL;
	int color = CT_COLOR_AUTO;
	/* record [-d DIR] OPTIONS... COMMAND..., live's own options taken out */
	struct live_opts lo = {.fo = &fo, .out = &outpath, .color = &color};
	static struct ct_record_wrap w;
	int rc = ct_record_wrap_args(&w, argc, argv, "live", own_option, &lo);
	if (rc)
		return rc;
	struct live l = {.out = ct_record_wrap_output(outpath), .delay = fo.delay};
	if (!l.out) {
		ct_record_wrap_done(&w);
		return 1;
	}
	l.color = ct_color_on((enum ct_color_when)color, isatty(fileno(l.out)));
	fo.events = live_events;
	fo.tick = live_tick;
	fo.ctx = &l;
	fo.peek_every = fo.delay / 4 > 25000000u ? 25000000u : fo.delay / 4;
	struct ct_follow *f = ct_follow_new(&fo);
	fputs("# DURATION     TID     FUNCTION\n", l.out);
	fflush(l.out);
	int code = ct_record_run(w.argc, w.argv, ct_follow_hooks(f));
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
