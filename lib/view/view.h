/* SPDX-License-Identifier: MIT */
/*
 * The views' scaffold: the options they share, from one table that also
 * prints their help lines; the session opened with the options set; each
 * thread read through the filters with the close order kept in one place;
 * the end (the reader's error, lost events).  A view is
 *
 *	ct_view_parse → ct_view_open → ct_view_read_thread per thread
 *	→ ct_view_finish → ct_view_close
 *
 * which ct_view_run does as a whole, calling the view's begin, read and
 * end hooks.
 */
#ifndef CT_VIEW_H
#define CT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "filter.h"
#include "options.h"
#include "overhead.h"
#include "progress.h"
#include "session.h"

/* the views' options are tables of struct ct_opt (lib/core/options.h):
 * an option's val is its letter (also its short form) when below 256, else
 * a code of the view's (256 and up) or of the shared options (CT_OPT_*) */

/* an option without argument that sets the bool field of the view's ctx
 * (of type type): its code is CT_OPT_SETS plus the field's offset */
/* clang-format off */
#define CT_OPT_FLAG(name, type, field, help)                                           \
	{name, CT_OPT_SETS + (int)offsetof(type, field), NULL, help}
/* clang-format on */

/* the shared options' codes (the letters d, F, N, C, D, t, r, h are shared too) */
enum {
	CT_OPT_TID = 0x1000,
	CT_OPT_PER_THREAD,
	CT_OPT_NO_DEMANGLE,
	CT_OPT_DEMANGLE_MODE,
	CT_OPT_NO_PAGER,
	CT_OPT_COLOR,
	CT_OPT_RAW,
	CT_OPT_HIDE,
	CT_OPT_NO_LIBCALL,
	CT_OPT_WITH_SYMS,
	CT_OPT_SETS, /* and up: CT_OPT_FLAG's */
};

/* the shared options with their usual help (clang-format 14 would lay
 * the braces out as a block) */
/* clang-format off */
#define CT_OPT_DATA {"data", 'd', "DIR", "the recording (default calltrace.data)"}
#define CT_OPT_TIDS {"tid", CT_OPT_TID, "TID[,TID..]", "only these threads"}
#define CT_OPT_FILTER                                                                  \
	{"filter", 'F', "REGEX", "only functions matching REGEX and what they call"}
#define CT_OPT_NOTRACE                                                                 \
	{"notrace", 'N', "REGEX", "leave out functions matching REGEX and what they call"}
#define CT_OPT_HIDEFR                                                                  \
	{"hide", CT_OPT_HIDE, "REGEX",                                                 \
	 "leave out the calls of functions matching REGEX\n"                            \
	 "themselves: their callees show under the nearest\n"                          \
	 "shown caller (repeatable)"}
#define CT_OPT_NOLIBCALL                                                               \
	{"no-libcall", CT_OPT_NO_LIBCALL, NULL,                                        \
	 "leave out the library calls (doc/libcall.md): what\n"                       \
	 "they call back shows under their caller"}
#define CT_OPT_LOC                                                                     \
	{"loc-filter", 'L', "REGEX",                                                   \
	 "as -F, for the functions whose source file or\n"                            \
	 "module matches REGEX (repeatable)"}
#define CT_OPT_CALLER                                                                  \
	{"caller-filter", 'C', "REGEX",                                                \
	 "only the calls that lead to functions matching\n"                           \
	 "REGEX: those calls, not what they call, and their\n"                        \
	 "callers up to the root (repeatable)"}
#define CT_OPT_SIZE                                                                    \
	{"size-filter", 'Z', "SIZE",                                                   \
	 "leave out functions smaller than SIZE bytes (their\n"                        \
	 "symbol's size), as --hide does"}
#define CT_OPT_DEPTH(help) {"depth", 'D', "N", help}
#define CT_OPT_TIME                                                                    \
	{"time-filter", 't', "TIME", "leave out calls shorter than TIME (e.g. 10us)"}
/* -r: the calls that overlap a time range (lib/read/filter.h struct
 * ct_range), resolved when the recording is opened */
#define CT_OPT_RANGE                                                                   \
	{"range", 'r', "START~END",                                                    \
	 " only calls overlapping this time range: times since\n"                     \
	 "the start (10ms~20ms) or timestamps as replay -f\n"                         \
	 "time prints them; either side may be empty"}
#define CT_OPT_TRIGGER                                                                 \
	{"trigger", 'T', "REGEX@ACTION[,..]",                                          \
	 "at the calls of functions matching REGEX: trace_on,\n"                       \
	 "trace_off, trace_on=call, trace_off=call, depth=N,\n"                        \
	 "filter, notrace, hide (per thread; doc/replay.md)"}
/* the call filters, together as report, callers and export take them */
#define CT_OPT_CALL_FILTERS(depth_help)                                                \
	CT_OPT_FILTER, CT_OPT_NOTRACE, CT_OPT_LOC, CT_OPT_CALLER, CT_OPT_HIDEFR,       \
	CT_OPT_NOLIBCALL, CT_OPT_SIZE,                                                 \
	CT_OPT_DEPTH(depth_help), CT_OPT_TIME, CT_OPT_TRIGGER
#define CT_OPT_DEMANGLE                                                                \
	{"demangle", CT_OPT_DEMANGLE_MODE, "full|simple|no",                           \
	 "C++ names: full (default); simple: no return\n"                             \
	 "type, template arguments or parameters; no: as\n"                           \
	 "in the binary.  Patterns match the full name too"},                          \
	{"no-demangle", CT_OPT_NO_DEMANGLE, NULL, "--demangle=no"}
/* --with-syms DIR (lib/read/withsyms.c) and -v, which says what it
 * took from DIR and what it passed over */
#define CT_OPT_SYMS                                                                    \
	{"with-syms", CT_OPT_WITH_SYMS, "DIR",                                         \
	 "symbols from the ELF files in DIR (binaries, *.debug,\n"                     \
	 ".build-id/), matched by build-id, then by name,\n"                          \
	 "before those saved in the recording"},                                       \
	{"verbose", 'v', NULL, "say which files of --with-syms were used or not"}
/* a view that offers --no-pager pages its stdout (lib/view/pager.h) */
#define CT_OPT_PAGER                                                                   \
	{"no-pager", CT_OPT_NO_PAGER, NULL,                                            \
	 "do not page the output (on a terminal it goes\n"                            \
	 "through $CALLTRACE_PAGER, $PAGER or less -FRX)"}
/* v->color set as --color says (lib/view/color.h) */
#define CT_OPT_COLOR_WHEN                                                              \
	{"color", CT_OPT_COLOR, "auto|always|never",                                   \
	 "colour slow calls' durations; auto (default):\n"                             \
	 "on a terminal, unless NO_COLOR is set or TERM=dumb"}
#define CT_OPT_RAWTIMES                                                                \
	{"raw", CT_OPT_RAW, NULL, "times as recorded, the tracer's own cost included"}
/* clang-format on */

struct ct_view {
	/* set by the view */
	const char *head;          /* the help before the option lines */
	const char *tail;          /* the help after them, or NULL */
	const struct ct_opt *opts; /* in the order of the help; ends with CT_OPT_END */
	/* the view's own options but flags: 0, or -1 with err filled (bad
	 * usage); NULL when it has none */
	int (*option)(struct ct_view *v, int val, const char *arg, struct ct_error *err);
	void *ctx;      /* for the view's option function */
	bool takes_arg; /* one optional argument (a function) */
	/* when set and no filter is active, ct_view_read_thread hands it the
	 * events in batches instead of passing each through the filters */
	void (*unfiltered)(void *ctx, struct ct_thread *t, const struct ct_event *ev, int n);
	/* when set and a filter is active, handed each batch of events before
	 * they go through the filters (coverage: which modules were traced) */
	void (*prefilter)(void *ctx, struct ct_thread *t, const struct ct_event *ev, int n);
	/* when set, called at the end of each thread's events, after the
	 * filters' held events and before the stream is closed */
	void (*thread_end)(void *ctx, struct ct_thread *t);
	const bool *stop; /* when set and true, reading stops */
	/* when set, called by ct_view_start after parsing: 0 to go on, or an
	 * exit status after a message */
	int (*check)(struct ct_view *v);
	char *outbuf; /* when set, stdout's buffer (ct_view_start) */
	size_t outbuf_len;
	const char *lost_note; /* after "N events were lost while
				      * recording; ", default "times around
				      * them are wrong" */
	/* ct_view_run's hooks, called with ctx: begin after the session is
	 * opened (0 to go on, else an exit status after a message); read for
	 * each thread (ct_view_read); end after reading, rc being
	 * ct_view_read's (the view's output; 0, or an exit status after a
	 * message).  begin and end may be NULL. */
	int (*begin)(void *ctx, struct ct_view *v);
	int (*read)(void *ctx, struct ct_view *v, struct ct_thread *t);
	int (*end)(void *ctx, struct ct_view *v, int rc);
	/* the view reads a recording of call counts only (record --count,
	 * lib/read/counts.h): else ct_view_open refuses one */
	bool counts_ok;
	/* -r is the view's own option (export clips its times to the range):
	 * its option function takes it, not the filters */
	bool own_range;
	FILE *out;            /* ct_view_run's output: NULL for stdout */
	const char *out_path; /* when set, out is closed at the end */

	/* set by ct_view_parse */
	const char *dir;
	const char *arg; /* the argument, or NULL */
	int *tids;
	size_t ntids;
	bool per_thread, raw;
	enum ct_demangle_mode demangle; /* --demangle, default full */
	const char *with_syms;          /* --with-syms DIR, or NULL */
	bool verbose;                   /* -v */
	bool no_pager;
	int color_when; /* enum ct_color_when */
	struct ct_filter filt;

	/* set by ct_view_start */
	bool paged; /* stdout goes to the pager (its write errors are the
		     * pager quitting: no error) */
	bool color; /* colour the output (--color, with the terminal) */

	/* set by ct_view_open */
	struct ct_session *s;
	bool counts;                 /* the recording holds call counts only (lib/read/counts.h) */
	bool *want;                  /* threads to read (ct_select_threads) */
	struct ct_error err;         /* the reader's error */
	struct ct_progress progress; /* "calltrace CMD", started by ct_view_open */
	/* the tracer's cost on the corrected clocks of the threads read so
	 * far (zero with --raw) */
	struct ct_cost cost;
	/* record --sample: the samples of the threads read so far (all, and
	 * those outside any recorded call), and their time (ns) */
	uint64_t samples, samples_out, samples_ns, samples_out_ns;
	uint64_t samples_over; /* of them, beyond the first a taking stood for */
	char what[64];
};

/* print the help (head, option lines, tail) to f */
void ct_view_usage(const struct ct_view *v, FILE *f);

/* parse argv: -1 to go on, else the exit status (0 after --help, 2 after a
 * message on bad usage and where the help is).  Call ct_view_close in
 * either case. */
int ct_view_parse(struct ct_view *v, int argc, char **argv);

/* for a command that takes some of the shared options beside its own
 * (live, top: lib/core/options.h's tables): v's options set to their
 * defaults, and the function that takes one of them (the fn of a struct
 * ct_opt_table whose ctx is v; 0, or -1 with err filled) */
void ct_view_options_init(struct ct_view *v);
int ct_view_option(void *v, const struct ct_opt *o, const char *arg, struct ct_error *err);

/* ct_view_parse, the view's check, stdout's buffer, ct_view_open, then
 * colour decided and the pager started (when the view offers --no-pager
 * and writes to stdout): -1 to go on, else the exit status.  Call
 * ct_view_close in either case. */
int ct_view_start(struct ct_view *v, int argc, char **argv);

/* an option's value among names[0..n): its index, or -1 with err filled,
 * "OPT: want WANT, not 'ARG'"; NULL names are skipped */
int ct_view_choice(const char *opt, const char *arg, const char *const *names, size_t n,
		   const char *want, struct ct_error *err);

/* open the session with the options set (demangling, filters, threads,
 * -r's timestamps resolved) and start the progress: 0, or an exit status
 * after a message (1; 2 for a -r whose END comes before its START) */
int ct_view_open(struct ct_view *v);

/* a recording of call counts: the counts of the threads --tid names
 * (lib/read/counts.h); 0, or 1 after the messages (a bad file, a tid
 * that names no thread) */
struct ct_counts;
int ct_view_counts_load(struct ct_view *v, struct ct_counts *c);
/* the warning when calls were not counted (a counting table was full) */
void ct_view_counts_lost(const struct ct_counts *c);
/* record --sample with the POSIX timer's clock (--sample-clock=tick, or
 * where the perf event was refused): a signal at the kernel's tick stands
 * for the periods since the last, so the samples (periods, all) are more
 * than the takings (all less over) on which a count's error stands: a
 * line saying so, with the factor, on out (nothing when none stood for
 * more than one; blank: after an empty line) */
void ct_view_print_taken(uint64_t all, uint64_t over, bool blank, FILE *out);
/* the takings of all samples, over of them beyond each taking's first
 * (all of them where over cannot be: a damaged recording) */
static inline uint64_t ct_view_taken(uint64_t all, uint64_t over)
{
	return over < all ? all - over : all;
}

/* the message when -r RANGE let no call through: "-r RANGE: no call in
 * the range (the recording lasts 312.5 ms)" (ct_view_finish says it for
 * the filters' range, and exits 1) */
void ct_view_range_empty(const struct ct_view *v, const char *range);

/* is thread t one to read? */
bool ct_view_wants(const struct ct_view *v, const struct ct_thread *t);

/* read thread t (its overhead figures first, when v->overhead): each
 * event through the filters (ft, or a state of its own when NULL) to emit,
 * progress updated; at the end the events the filters still hold are
 * flushed, then the stream is closed (held events point into its data).
 * emit may be NULL when every event goes to v->unfiltered.  0, or -1 with
 * v->err set. */
int ct_view_read_thread(struct ct_view *v, struct ct_thread *t, struct ct_filter_thread *ft,
			ct_filter_emit_fn emit, void *ctx);

/* fn for each thread to read, in order, until one fails (-1); the
 * progress line erased after each.  0, or -1 with v->err set. */
int ct_view_read(struct ct_view *v, int (*fn)(void *ctx, struct ct_view *v, struct ct_thread *t),
		 void *ctx);

/* the end of a view: out (when not NULL) flushed, and closed when path is
 * not NULL, each failure a message; then the reader's error if rc < 0, else
 * the warning when events were lost while recording.  1 after an error
 * message, else 0. */
int ct_view_finish(struct ct_view *v, int rc, FILE *out, const char *path);

/* free what parse and open took; the session's warnings printed, then
 * it is closed */
void ct_view_close(struct ct_view *v);

/* the whole of a view: ct_view_start, begin, ct_view_read with read, end,
 * ct_view_finish on out, ct_view_close.  The exit status. */
int ct_view_run(struct ct_view *v, int argc, char **argv);

#endif
