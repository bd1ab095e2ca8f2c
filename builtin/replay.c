/* SPDX-License-Identifier: MIT */
/*
 * calltrace replay: the recorded calls as a call tree, in the style of
 * ftrace's function_graph and uftrace replay.
 *
 *   # DURATION     TID     FUNCTION
 *               [  4242] | main() {
 *     0.150 us [  4242] |   b();
 *     1.234 us [  4242] | }  (with the name of main in a comment)
 *
 * Threads are merged in time order (the recorded clock) unless --per-thread
 * is given: each line comes where its event happened.  A call whose exit is
 * the very next event shown (of any thread) is a leaf and takes one line;
 * that needs one event of lookahead, struct replay's pend.  The filters
 * that hold entries back (-t, -r) let the other threads' lines wait for
 * them in a queue ordered by time (replay_order.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include "argspec.h"
#include "builtin/builtin.h"
#include "builtin/replay_col.h"
#include "builtin/replay_order.h"
#include "builtin/replay_out.h"
#include "color.h"
#include "filter.h"
#include "message.h"
#include "output.h"
#include "overhead.h"
#include "progress.h"
#include "session.h"
#include "srcline.h"
#include "util.h"
#include "view.h"

static const char head[] = "usage: calltrace replay [options]\n"
			   "\n"
			   "Show the recorded calls as a call tree, one line per entry and exit\n"
			   "(one line for a call that calls nothing shown), with durations.\n"
			   "\n"
			   "options:\n";

static const char tail[] =
	"\n"
	"REGEX is POSIX extended, matched anywhere in the name as shown or in\n"
	"the full demangled name (whichever --demangle);\n"
	"anchor it (-F '^main$') to match a whole name.\n"
	"Exits: '} /* f: unwound */' the frame was left by longjmp or an exception;\n"
	"'/* unfinished */' the call was still open when the thread ended.\n";

/* -f: the fields before the '|', as uftrace replay names them */
enum rfield {
	RF_DURATION,
	RF_TID,
	RF_ADDR,
	RF_TIME,
	RF_DELTA,
	RF_ELAPSED,
	RF_TASK,
	RF_MODULE,
	RF_N
};

static const struct {
	const char *name, *header;
	int width;
} rfields[RF_N] = {
	{"duration", " DURATION ", 10},  {"tid", "   TID  ", 8},
	{"addr", "   ADDRESS  ", 12},    {"time", "     TIMESTAMP    ", 18},
	{"delta", " TIMEDELTA", 10},     {"elapsed", "  ELAPSED ", 10},
	{"task", "      TASK NAME", 15}, {"module", "     MODULE NAME", 16},
};

/* replay state of one thread */
struct rthread {
	char tidcol[32]; /* " [  4242] | " */
	size_t tidlen;
	uint64_t last; /* -f delta: the time of its last line */
	bool has_last;
	char task[16]; /* -f task: its name, or its process's (comm) */
	/* by depth: the waiting for the trace writer done by the calls at
	 * that depth that ended since their caller began (so that a call's
	 * own wait is its waited less its callees') */
	uint64_t *waited;
	size_t nwaited;
};

struct replay {
	struct ct_session *s;
	struct ct_progress *progress;
	struct ct_filter *filt;
	struct ct_filter_thread *fts; /* per thread index */
	struct rthread *rts;          /* per thread index */
	/* the last event shown was this entry: it is a leaf if the next
	 * event shown is its exit */
	bool has_pend;
	struct ct_fevent pend;
	bool no_duration;
	bool no_args;
	bool srcline; /* --srcline: file:line of each call and of its call site */
	bool color;   /* durations coloured (lib/view/color.h) */
	/* -f: the fields in order; custom when they are neither the default
	 * (duration,tid) nor tid alone (--no-duration), which have their
	 * fast paths */
	unsigned char fields[RF_N];
	size_t nfields;
	bool fields_set, custom;
	uint64_t mono0;        /* -f time: CLOCK_MONOTONIC at the recording's start */
	uint64_t when;         /* the recorded time of the line being written (a
			 * leaf's: its entry's) */
	bool note;             /* the line is a note (a wait), not an event */
	struct replay_col col; /* --column-view, --task-newline (replay_col.h) */
};

/* a call's duration: on its thread's corrected clock, as report counts it
 * (the tracer's cost and its waits for the trace writer taken out), or
 * as recorded with --raw */
static uint64_t dur_of(const struct ct_fevent *fe)
{
	return ct_event_dur(&fe->ev);
}

static void put_duration(struct replay *r, uint64_t dur)
{
	char buf[64];
	const char *col = r->color ? ct_color_duration(dur) : NULL;
	if (col)
		puts_(col);
	size_t n = fast_duration(dur, buf);
	if (n)
		put(buf, n);
	else
		puts_(ct_format_duration(dur, buf, sizeof(buf)));
	if (col)
		puts_(CT_COLOR_RESET);
}

/* the thread's name for -f task: its own, or its process's (the
 * executable's base name, as the kernel's comm, 15 characters) */
static const char *task_of(struct rthread *rt, const struct ct_thread *t)
{
	if (!rt->task[0]) {
		const char *n = t->name;
		if (!n && t->proc && t->proc->exe) {
			const char *sl = strrchr(t->proc->exe, '/');
			n = sl ? sl + 1 : t->proc->exe;
		}
		snprintf(rt->task, sizeof(rt->task), "%s", n && *n ? ct_tx(n) : "?");
	}
	return rt->task;
}

/* -f's fields of a line (other than the default ones' fast paths), then
 * " | " when there are any */
static void put_fields(struct replay *r, struct rthread *rt, const struct ct_fevent *fe,
		       bool has_dur)
{
	char buf[64];
	bool ev = !r->note;
	bool call = ev && fe->ev.kind != CT_MARK && fe->fn;
	for (size_t i = 0; i < r->nfields; i++) {
		enum rfield f = r->fields[i];
		int w = rfields[f].width;
		int n = 0;
		if (i)
			put(" ", 1);
		switch (f) {
		case RF_DURATION:
			if (has_dur) {
				put_duration(r, dur_of(fe));
				continue;
			}
			break;
		case RF_TID:
			n = snprintf(buf, sizeof(buf), "[%6d]", fe->ev.thread->tid);
			break;
		case RF_ADDR:
			if (call)
				n = snprintf(buf, sizeof(buf), "%12" PRIx64,
					     ct_addr_untag(fe->ev.addr));
			break;
		case RF_TIME:
			if (ev) {
				uint64_t t = r->mono0 + r->when;
				n = snprintf(buf, sizeof(buf), "%8" PRIu64 ".%09" PRIu64,
					     t / 1000000000u, t % 1000000000u);
			}
			break;
		case RF_DELTA:
			if (ev && rt->has_last) {
				put_time10(r->when > rt->last ? r->when - rt->last : 0);
				continue;
			}
			break;
		case RF_ELAPSED:
			if (ev) {
				put_time10(r->when);
				continue;
			}
			break;
		case RF_TASK:
			n = snprintf(buf, sizeof(buf), "%15.15s", task_of(rt, fe->ev.thread));
			break;
		case RF_MODULE:
			if (call) {
				const struct ct_sym_info *si =
					ct_session_resolve(r->s, fe->ev.thread->proc, fe->ev.addr);
				n = snprintf(buf, sizeof(buf), "%16.16s",
					     si && si->module ? ct_tx(si->module) : "[unknown]");
			}
			break;
		case RF_N:
			break;
		}
		if (n > 0)
			put(buf, (size_t)n);
		else
			put(rob_spaces, (size_t)w);
	}
	if (ev) {
		rt->last = r->when;
		rt->has_last = true;
	}
	if (r->nfields)
		put(" | ", 3);
}

/* the start of a line: duration column (blank when !has_dur), tid, indent */
static void line_start(struct replay *r, struct rthread *rt, const struct ct_fevent *fe,
		       bool has_dur)
{
	size_t shift = r->col.view || r->col.newline ? replay_col_line(&r->col, fe->ev.thread) : 0;
	if (r->custom) {
		put_fields(r, rt, fe, has_dur);
	} else if (!r->no_duration) {
		if (has_dur) {
			put_duration(r, dur_of(fe));
		} else {
			put(rob_spaces, 10);
		}
		put(rt->tidcol, rt->tidlen);
	} else {
		/* no leading space before '[' */
		put(rt->tidcol + 1, rt->tidlen - 1);
	}
	put_indent(shift + indent_of(fe->depth));
	char mark[32];
	put(mark, depth_mark(fe->depth, mark));
}

struct text {
	const char *s;
	size_t n;
};
#define TEXT(lit) ((struct text){lit, sizeof(lit) - 1})

/* the function's name as text for a terminal (control characters escaped) */
static inline struct text fn_text(const struct ct_func *fn)
{
	if (fn->text)
		return (struct text){fn->text, fn->textlen};
	return (struct text){fn->name, fn->namelen};
}

/*
 * One line: line_start, then before, the function's name and after.  The
 * line is written straight into the output buffer when it fits there (all
 * but absurd names or depths); the fixed-size copies below may write up to
 * 32 bytes past the line's end, which the room asked for covers.
 */
static void put_line_name(struct replay *r, struct rthread *rt, const struct ct_fevent *fe,
			  bool has_dur, struct text before, struct text name, struct text after)
{
	size_t indent = indent_of(fe->depth);
	size_t room = 160 + indent + before.n + name.n + after.n;
	bool slow = r->custom || r->col.view || r->col.newline;
	if (slow || rob.cap - rob.len < room) {
		rob_flush();
		if (slow || rob.cap < room) {
			line_start(r, rt, fe, has_dur);
			put(before.s, before.n);
			put(name.s, name.n);
			put(after.s, after.n);
			return;
		}
	}
	char *o = rob.buf + rob.len;
	if (!r->no_duration) {
		if (has_dur) {
			uint64_t dur = dur_of(fe);
			const char *col = r->color ? ct_color_duration(dur) : NULL;
			if (col) {
				size_t l = strlen(col);
				memcpy(o, col, l);
				o += l;
			}
			size_t n = fast_duration(dur, o);
			if (!n) {
				char buf[64];
				ct_format_duration(dur, buf, sizeof(buf));
				n = strlen(buf);
				memcpy(o, buf, n);
			}
			o += n;
			if (col) {
				memcpy(o, CT_COLOR_RESET, sizeof(CT_COLOR_RESET) - 1);
				o += sizeof(CT_COLOR_RESET) - 1;
			}
		} else {
			memcpy(o, rob_spaces, 10);
			o += 10;
		}
		memcpy(o, rt->tidcol, sizeof(rt->tidcol));
		o += rt->tidlen;
	} else {
		/* no leading space before '[' */
		memcpy(o, rt->tidcol + 1, sizeof(rt->tidcol) - 1);
		o += rt->tidlen - 1;
	}
	for (size_t i = 0; i < indent; i += 32)
		memcpy(o + i, rob_spaces, 32);
	o += indent;
	o += depth_mark(fe->depth, o);
	memcpy(o, before.s, before.n);
	o += before.n;
	memcpy(o, name.s, name.n);
	o += name.n;
	memcpy(o, after.s, after.n);
	o += after.n;
	rob.len = (size_t)(o - rob.buf);
}

/* the line of a call's entry (or of a leaf): with --srcline, its end
 * "\n" becomes " /\* f.c:3, from main.c:12 *\/\n" (lib/read/srcline.h), or
 * that goes into the comment the line ends with */
static void put_call_line(struct replay *r, struct rthread *rt, const struct ct_fevent *fe,
			  bool has_dur, struct text before, struct text name, struct text after)
{
	char buf[8192];
	if (r->srcline && after.n && after.s[after.n - 1] == '\n' && after.n < sizeof(buf) - 512) {
		/* into the line's comment if it has one: "(); /\* unfinished,
		 * f.c:3 *\/" */
		bool in = after.n >= 4 && !memcmp(after.s + after.n - 4, " */\n", 4);
		size_t n = after.n - (in ? 4 : 1);
		memcpy(buf, after.s, n);
		memcpy(buf + n, in ? ", " : " /* ", in ? 2 : 4);
		size_t m = n + (in ? 2 : 4);
		size_t k = ct_srcline_note(r->s, fe->ev.thread->proc, ct_addr_untag(fe->ev.addr),
					   fe->ev.site, buf + m, 400);
		if (k) {
			memcpy(buf + m + k, " */\n", 4);
			after = (struct text){buf, m + k + 4};
		}
	}
	put_line_name(r, rt, fe, has_dur, before, name, after);
}

static void put_line(struct replay *r, struct rthread *rt, const struct ct_fevent *fe, bool has_dur,
		     struct text before, struct text after)
{
	put_line_name(r, rt, fe, has_dur, before, fn_text(fe->fn), after);
}

/* ---- captured arguments and return values ---- */

/* the name without the parameter list of a demangled C++ name: the values
 * take its place */
static struct text bare_name(const struct ct_func *fn)
{
	struct text t = fn_text(fn);
	if (fn->has_params)
		t.n = ct_args_bare_len(t.s, t.n);
	return t;
}

/* "(48, 18)" into buf (NULL when the call has no arguments captured),
 * followed by the qualifiers of a C++ member function's name: "(0x7ffc10)
 * const" for "K::get() const" */
static const char *args_of(struct replay *r, const struct ct_fevent *fe, char *buf, size_t len)
{
	const struct ct_callargs *a = fe->ev.args;
	if (r->no_args || !a || !a->has_args)
		return NULL;
	struct text q = TEXT("");
	if (fe->fn->has_params) {
		struct text t = fn_text(fe->fn);
		size_t off = ct_args_quals_off(t.s, t.n);
		q = (struct text){t.s + off, t.n - off};
		if (q.n > 64)
			q.n = 0; /* never more than " const volatile &&" */
	}
	buf[0] = '(';
	size_t n =
		1 + ct_event_args_text(r->s, fe->ev.thread->proc, a, false, buf + 1, len - 2 - q.n);
	buf[n++] = ')';
	memcpy(buf + n, q.s, q.n);
	n += q.n;
	buf[n] = 0;
	return buf;
}

/* " = 6" into buf, or NULL */
static const char *ret_of(struct replay *r, const struct ct_fevent *fe, char *buf, size_t len)
{
	const struct ct_callargs *a = fe->ev.args;
	if (r->no_args || !a || !a->has_ret ||
	    (fe->ev.flags & (CT_EVF_SYNTHETIC | CT_EVF_UNFINISHED)))
		return NULL;
	memcpy(buf, " = ", 3);
	ct_event_args_text(r->s, fe->ev.thread->proc, a, true, buf + 3, len - 3);
	return buf;
}

#define ARGBUF 4096

static void print_enter(struct replay *r, struct rthread *rt, const struct ct_fevent *fe)
{
	r->when = fe->ev.time;
	char ab[ARGBUF];
	const char *args = args_of(r, fe, ab, sizeof(ab));
	if (args) {
		char line[ARGBUF + 8];
		int n = snprintf(line, sizeof(line), "%s {\n", args);
		put_call_line(r, rt, fe, false, TEXT(""), bare_name(fe->fn),
			      (struct text){line, (size_t)n < sizeof(line) ? (size_t)n
									   : sizeof(line) - 1});
		return;
	}
	if ((fe->ev.flags & CT_EVF_BEFORE) && r->s->flight) /* record --flight */
		put_call_line(r, rt, fe, false, TEXT(""), fn_text(fe->fn),
			      fe->fn->has_params
				      ? TEXT(" { /* entered before the snapshot */\n")
				      : TEXT("() { /* entered before the snapshot */\n"));
	else if (fe->ev.flags & CT_EVF_BEFORE) /* a forked child's inherited frames */
		put_call_line(r, rt, fe, false, TEXT(""), fn_text(fe->fn),
			      fe->fn->has_params ? TEXT(" { /* entered before the fork */\n")
						 : TEXT("() { /* entered before the fork */\n"));
	else
		put_call_line(r, rt, fe, false, TEXT(""), fn_text(fe->fn),
			      fe->fn->has_params ? TEXT(" {\n") : TEXT("() {\n"));
}

/* a leaf or exit line with arguments or a return value */
static bool print_with_values(struct replay *r, struct rthread *rt, const struct ct_fevent *ex,
			      const struct ct_fevent *en, bool leaf)
{
	char ab[ARGBUF], rb[ARGBUF];
	const char *args = leaf ? args_of(r, en, ab, sizeof(ab)) : NULL;
	const char *ret = ret_of(r, ex, rb, sizeof(rb));
	if (!args && !ret)
		return false;
	bool unfinished = ex->ev.flags & CT_EVF_UNFINISHED;
	bool unwound = ex->ev.flags & CT_EVF_SYNTHETIC;
	char line[2 * ARGBUF + 64];
	int n;
	if (leaf) {
		const char *params = args ? args : ex->fn->has_params ? "" : "()";
		n = snprintf(line, sizeof(line), "%s%s;%s\n", params, ret ? ret : "",
			     unfinished ? " /* unfinished */"
			     : unwound  ? " /* unwound */"
					: "");
		put_call_line(r, rt, ex, !unfinished, TEXT(""),
			      args ? bare_name(ex->fn) : fn_text(ex->fn),
			      (struct text){line, (size_t)n < sizeof(line) ? (size_t)n
									   : sizeof(line) - 1});
		return true;
	}
	n = snprintf(line, sizeof(line), "}%s /* ", ret);
	put_line_name(r, rt, ex, true,
		      (struct text){line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1},
		      fn_text(ex->fn), TEXT(" */\n"));
	return true;
}

static void print_leaf(struct replay *r, struct rthread *rt, const struct ct_fevent *ex,
		       const struct ct_fevent *en)
{
	r->when = ex->ev.start; /* a leaf's line is where it began */
	if (!r->no_args && ex->ev.args && print_with_values(r, rt, ex, en, true))
		return;
	bool unfinished = ex->ev.flags & CT_EVF_UNFINISHED;
	bool p = ex->fn->has_params;
	struct text after =
		unfinished ? (p ? TEXT("; /* unfinished */\n") : TEXT("(); /* unfinished */\n"))
		: ex->ev.flags & CT_EVF_SYNTHETIC
			? (p ? TEXT("; /* unwound */\n") : TEXT("(); /* unwound */\n"))
			: (p ? TEXT(";\n") : TEXT("();\n"));
	if ((ex->ev.flags & CT_EVF_BEFORE) && r->s->flight) /* record --flight */
		after = unfinished
				? (p ? TEXT("; /* entered before the snapshot, unfinished */\n")
				     : TEXT("(); /* entered before the snapshot, unfinished */\n"))
				: (p ? TEXT("; /* entered before the snapshot */\n")
				     : TEXT("(); /* entered before the snapshot */\n"));
	else if (ex->ev.flags & CT_EVF_BEFORE) /* a forked child's inherited frames */
		after = unfinished ? (p ? TEXT("; /* entered before the fork, unfinished */\n")
					: TEXT("(); /* entered before the fork, unfinished */\n"))
				   : (p ? TEXT("; /* entered before the fork */\n")
					: TEXT("(); /* entered before the fork */\n"));
	put_call_line(r, rt, ex, !unfinished, TEXT(""), fn_text(ex->fn), after);
}

static void print_exit(struct replay *r, struct rthread *rt, const struct ct_fevent *ex)
{
	r->when = ex->ev.time;
	if (!r->no_args && ex->ev.args && print_with_values(r, rt, ex, NULL, false))
		return;
	bool unfinished = ex->ev.flags & CT_EVF_UNFINISHED;
	struct text after = unfinished                        ? TEXT(": unfinished */\n")
			    : ex->ev.flags & CT_EVF_SYNTHETIC ? TEXT(": unwound */\n")
							      : TEXT(" */\n");
	put_line(r, rt, ex, !unfinished, TEXT("} /* "), after);
}

static struct rthread *rthread_of(struct replay *r, const struct ct_event *ev)
{
	struct rthread *rt = &r->rts[ev->thread->index];
	if (!rt->tidlen) {
		int n = snprintf(rt->tidcol, sizeof(rt->tidcol), " [%6d] | ", ev->thread->tid);
		rt->tidlen = n > 0 ? (size_t)n : 0;
	}
	return rt;
}

/* room for the waits of depth d + 1 */
static bool waited_room(struct rthread *rt, size_t d)
{
	if (d + 2 <= rt->nwaited)
		return true;
	if (d > (1u << 24))
		return false; /* deeper than a stream can be: no notes */
	size_t n = rt->nwaited ? rt->nwaited : 64;
	while (n < d + 2)
		n *= 2;
	rt->waited = xrealloc(rt->waited, n * sizeof(*rt->waited));
	memset(rt->waited + rt->nwaited, 0, (n - rt->nwaited) * sizeof(*rt->waited));
	rt->nwaited = n;
	return true;
}

/* a note "/\* WHAT DURATION REST *\/" on a line of its own inside the call
 * whose exit is ex */
static void print_note(struct replay *r, struct rthread *rt, const struct ct_fevent *ex,
		       const char *what, uint64_t ns, const char *rest)
{
	struct ct_fevent in = *ex;
	in.depth++;
	r->note = true;
	line_start(r, rt, &in, false);
	r->note = false;
	char d[64], line[160];
	const char *dur = ct_format_duration(ns, d, sizeof(d));
	while (*dur == ' ')
		dur++;
	int n = snprintf(line, sizeof(line), "/* %s %s%s */\n", what, dur, rest);
	put(line, n > 0 ? (size_t)n : 0);
}

/* "/\* waited 12.3 ms for the trace writer *\/", inside the call that waited
 * (its callees' waits are noted in them) */
static void print_wait(struct replay *r, struct rthread *rt, const struct ct_fevent *ex)
{
	uint64_t own = ex->ev.waited;
	if (waited_room(rt, ex->depth)) {
		uint64_t below = rt->waited[ex->depth + 1];
		rt->waited[ex->depth + 1] = 0;
		own -= below < own ? below : own;
		rt->waited[ex->depth] += ex->ev.waited;
	}
	if (own)
		print_note(r, rt, ex, "waited", own, " for the trace writer");
}

/* record --sched: "/\* off-CPU 51.8 ms *\/" inside a call whose thread was
 * switched out during it (its callees' included), after its line */
static void print_offcpu(struct replay *r, struct rthread *rt, const struct ct_fevent *ex)
{
	print_note(r, rt, ex, "off-CPU", ex->ev.offcpu, "");
}

static void emit(void *ctx, const struct ct_fevent *fe)
{
	struct replay *r = ctx;
	struct rthread *rt = rthread_of(r, &fe->ev);

	if (r->has_pend) {
		/* the entry before: a leaf if this is its exit, on its thread */
		r->has_pend = false;
		const struct ct_fevent *en = &r->pend;
		struct rthread *ert = &r->rts[en->ev.thread->index];
		if (fe->ev.kind == CT_EXIT && en->ev.thread == fe->ev.thread &&
		    en->depth == fe->depth && en->ev.addr == fe->ev.addr) {
			print_leaf(r, rt, fe, en);
			if (fe->ev.waited)
				print_wait(r, rt, fe);
			if (fe->ev.offcpu)
				print_offcpu(r, rt, fe);
			return;
		}
		print_enter(r, ert, en);
	}
	if (fe->ev.kind == CT_MARK) { /* calltrace_mark(): a comment line */
		r->when = fe->ev.time;
		line_start(r, rt, fe, false);
		puts_(fe->ev.flags & (CT_EVF_INJECT | CT_EVF_READ | CT_EVF_WATCH) ? "/* "
										  : "/* mark: ");
		puts_(ct_tx((const char *)(uintptr_t)fe->ev.addr));
		puts_(" */\n");
		return;
	}
	if (fe->ev.kind == CT_ENTER) {
		r->pend = *fe;
		r->has_pend = true;
		if (rt->nwaited > fe->depth + 1)
			rt->waited[fe->depth + 1] = 0; /* its callees' waits, from now */
		return;
	}
	print_exit(r, rt, fe);
	if (fe->ev.waited) /* its callees' waits are part of it */
		print_wait(r, rt, fe);
	if (fe->ev.offcpu)
		print_offcpu(r, rt, fe);
}

/* the end of a thread's events (--per-thread), or of all (merged): an
 * entry still waiting to see whether it is a leaf */
static void print_pend(void *ctx, struct ct_thread *t)
{
	struct replay *r = ctx;
	(void)t;
	if (r->has_pend) {
		r->has_pend = false;
		print_enter(r, &r->rts[r->pend.ev.thread->index], &r->pend);
	}
}

static int replay_merged(struct replay *r, const bool *want, struct ct_error *err)
{
	struct ct_merge *m;
	if (ct_merge_open(r->s, want, &m, err) < 0)
		return -1;
	/* only -t, -r and -C hold events back: the others let them pass at
	 * once, in the merge's order */
	bool held = r->filt->min_time || r->filt->r_ranged || r->filt->ncal;
	if (held)
		ct_replay_order_init(r->filt, r->fts, r->s->nthreads, emit, r);
	const struct ct_event *evs;
	int rc = 0;
	while (!rob_failed && (rc = ct_merge_read(m, &evs, err)) > 0) {
		if (held)
			for (int i = 0; i < rc; i++)
				ct_replay_order_push(&evs[i]);
		else
			for (int i = 0; i < rc; i++)
				ct_filter_push(r->filt, &r->fts[evs[i].thread->index], &evs[i],
					       emit, r);
		ct_progress_update(r->progress, r->s->bytes_read);
	}
	/* before the merge is closed: held events point to its data */
	if (held) {
		ct_replay_order_end(want);
	} else {
		for (size_t i = 0; i < r->s->nthreads; i++)
			if (!want || want[i])
				ct_filter_thread_end(r->filt, &r->fts[i], emit, r);
	}
	print_pend(r, NULL);
	if (held)
		ct_replay_order_free();
	ct_merge_close(m);
	return rc < 0 ? -1 : 0;
}

static int replay_per_thread(struct replay *r, struct ct_view *v)
{
	for (size_t i = 0; i < r->s->nthreads; i++) {
		struct ct_thread *t = r->s->threads[i];
		if (!ct_view_wants(v, t))
			continue;
		char hdr[400];
		int n = snprintf(hdr, sizeof(hdr), "# thread %d%s%s (process %d)\n", t->tid,
				 t->name ? " " : "", t->name ? ct_tx(t->name) : "",
				 t->proc ? t->proc->pid : 0);
		put(hdr, n > 0 ? (size_t)n : 0);
		r->col.last = NULL; /* --task-newline: the header parts them */
		if (ct_view_read_thread(v, t, &r->fts[t->index], emit, r) < 0)
			return -1;
	}
	return 0;
}

static char outbuf[1 << 20];

/* -f FIELD[,FIELD...]: "+FIELDS" adds to the default ones, "none" is none */
static int parse_fields(struct replay *r, const char *arg, struct ct_error *err)
{
	const char *p = arg;
	r->nfields = 0;
	r->fields_set = true;
	if (*p == '+') {
		r->fields[r->nfields++] = RF_DURATION;
		r->fields[r->nfields++] = RF_TID;
		p++;
	} else if (!strcmp(p, "none")) {
		return 0;
	}
	for (;;) {
		size_t n = strcspn(p, ",");
		int f = -1;
		for (int i = 0; i < RF_N; i++)
			if (strlen(rfields[i].name) == n && !memcmp(p, rfields[i].name, n))
				f = i;
		if (f < 0) {
			ct_set_err(err,
				   "-f: unknown field '%.*s' in '%s'; the fields are duration, "
				   "tid, "
				   "time, delta, elapsed, addr, task and module (comma-separated; "
				   "+FIELDS adds to duration,tid; none alone: no fields)",
				   (int)n, p, arg);
			return -1;
		}
		bool dup = false;
		for (size_t i = 0; i < r->nfields; i++)
			dup |= r->fields[i] == f;
		if (!dup)
			r->fields[r->nfields++] = (unsigned char)f;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

enum { OPT_COLUMN_OFFSET = 256 };

static int option(struct ct_view *v, int c, const char *arg, struct ct_error *err)
{
	struct replay *r = v->ctx;
	if (c == 'f')
		return parse_fields(r, arg, err);
	if (c == OPT_COLUMN_OFFSET)
		return replay_col_offset(&r->col, arg, err);
	return -1;
}

static const struct ct_opt options[] = {
	CT_OPT_DATA,
	CT_OPT_TIDS,
	{"per-thread", CT_OPT_PER_THREAD, NULL,
	 "one thread after the other, each under a line\n"
	 "'# thread TID (process PID)'; default: all\n"
	 "threads merged in time order"},
	{"filter", 'F', "REGEX",
	 "only functions matching REGEX and what they call;\n"
	 "the tree starts at depth 0 there (repeatable)"},
	{"notrace", 'N', "REGEX",
	 "hide functions matching REGEX and what they call\n"
	 "(repeatable; wins over -F)"},
	CT_OPT_LOC,
	CT_OPT_CALLER,
	CT_OPT_HIDEFR,
	CT_OPT_NOLIBCALL,
	CT_OPT_SIZE,
	CT_OPT_DEPTH("only calls at depth < N of the shown tree"),
	{"time-filter", 't', "TIME", "hide calls shorter than TIME (e.g. 10us, 1.5ms)"},
	CT_OPT_TRIGGER,
	CT_OPT_RANGE,
	{"output-fields", 'f', "FIELDS",
	 "the fields before the '|', in order: duration, tid,\n"
	 "time, delta, elapsed, addr, task, module; +FIELDS\n"
	 "adds to the default duration,tid; none: no fields"},
	CT_OPT_DEMANGLE,
	CT_OPT_SYMS,
	CT_OPT_RAWTIMES,
	CT_OPT_PAGER,
	CT_OPT_COLOR_WHEN,
	CT_OPT_FLAG("no-duration", struct replay, no_duration, "leave out the duration column"),
	CT_OPT_FLAG("srcline", struct replay, srcline,
		    "each call's file:line, and where it was called\n"
		    "from (record --callsite): 'f(); /* f.c:3, from\n"
		    "main.c:12 */'"),
	CT_OPT_FLAG("no-args", struct replay, no_args,
		    "leave out captured arguments and return values\n"
		    "(record -A/-R/-a): 'gcd(48, 18) {' ... '} = 6'"),
	CT_OPT_FLAG("column-view", struct replay, col.view,
		    "each thread's tree in a column of its own, the\n"
		    "threads' in the order of their first line"),
	{"column-offset", OPT_COLUMN_OFFSET, "DEPTH",
	 "with --column-view, the levels between two columns\n"
	 "(default 8)"},
	CT_OPT_FLAG("task-newline", struct replay, col.newline,
		    "an empty line where the thread changes"),
	CT_OPT_HELP,
	CT_OPT_END,
};

/* stdout's buffer, the clock's fast path, the fields */
static int check(struct ct_view *v)
{
	struct replay *r = v->ctx;
	if (!r->fields_set) {
		r->fields[0] = RF_DURATION;
		r->fields[1] = RF_TID;
		r->nfields = 2;
	}
	if (r->no_duration) { /* --no-duration: the duration field left out */
		size_t k = 0;
		for (size_t i = 0; i < r->nfields; i++)
			if (r->fields[i] != RF_DURATION)
				r->fields[k++] = r->fields[i];
		r->nfields = k;
	}
	/* the two usual sets have their fast paths */
	if (r->nfields == 2 && r->fields[0] == RF_DURATION && r->fields[1] == RF_TID)
		r->no_duration = false;
	else if (r->nfields == 1 && r->fields[0] == RF_TID)
		r->no_duration = true;
	else
		r->custom = true;
	setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	check_fast_duration();
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	struct replay r = {.col.offset = REPLAY_COL_OFFSET_DEFAULT};
	struct ct_view v = {.head = head,
			    .tail = tail,
			    .opts = options,
			    .option = option,
			    .ctx = &r,
			    .thread_end = print_pend,
			    .stop = &rob_failed,
			    .lost_note = "the tree has gaps there",
			    .check = check};
	int status, rc;

	status = ct_view_start(&v, argc, argv);
	if (status >= 0)
		goto out;
	status = 0;
	r.s = v.s;
	r.s->marks = true;
	r.color = v.color;
	r.filt = &v.filt;
	size_t nt = v.s->nthreads ? v.s->nthreads : 1;
	r.fts = xcalloc(nt, sizeof(*r.fts));
	r.rts = xcalloc(nt, sizeof(*r.rts));
	for (size_t i = 0; i < v.s->nthreads; i++)
		ct_filter_thread_init(&r.fts[i]);

	rob.f = stdout;
	rob.cap = sizeof(outbuf);
	rob.buf = outbuf;
	rob.len = 0;
	r.mono0 = ct_session_mono_start(v.s);
	/* the header: each field's title over it, as uftrace replay's */
	puts_("#");
	for (size_t i = 0; i < r.nfields; i++) {
		if (i)
			puts_(" ");
		puts_(rfields[r.fields[i]].header);
	}
	puts_(r.nfields ? "   FUNCTION\n" : " FUNCTION\n");
	/* progress only when the tree goes elsewhere than the terminal */
	r.progress = &v.progress;
	if (isatty(1) && !getenv("CALLTRACE_PROGRESS"))
		v.progress.on = false;
	rc = v.per_thread ? replay_per_thread(&r, &v) : replay_merged(&r, v.want, &v.err);
	ct_progress_end(&v.progress);
	rob_flush();
	/* a pager quit early (q) is no error */
	if ((fflush(stdout) != 0 || ferror(stdout) || rob_failed) && !v.paged)
		status = ct_error("writing the output: %s", strerror(errno));
	if (ct_view_finish(&v, rc, NULL, NULL))
		status = 1;

	for (size_t i = 0; i < v.s->nthreads; i++)
		ct_filter_thread_free(&r.fts[i]);
	free(r.fts);
	for (size_t i = 0; i < nt; i++)
		free(r.rts[i].waited);
	free(r.rts);
out:
	replay_col_free(&r.col);
	ct_view_close(&v);
	return status;
}
