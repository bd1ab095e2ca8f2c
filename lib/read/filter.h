/* SPDX-License-Identifier: MIT */
/*
 * The -F/-N/-D/-t filters shared by replay, report and the other views, and
 * small option-parsing helpers.
 *
 * A filter sits between the reader and a view.  Events are pushed in one at
 * a time per thread (ct_filter_push); those that pass come out through a
 * callback, in the thread's order, each with the function it names and its
 * depth in the shown tree:
 *
 *   -F REGEX   only functions matching REGEX and what they call; the depth
 *              of the shown tree starts at 0 at the matching function
 *   -N REGEX   hide functions matching REGEX and what they call (wins over -F)
 *   --hide REGEX  hide the frames of functions matching REGEX themselves:
 *              their callees show, under the nearest shown caller
 *   -D N       only calls whose shown depth is < N; with -F, counted from
 *              the innermost -F call: a -F call deeper than N inside
 *              another shows, under the nearest shown caller (the calls
 *              in between are left out as --hide leaves them)
 *   -L REGEX   as -F, for the functions whose source file (DWARF) or
 *              module (basename) matches REGEX (uftrace's location filter)
 *   -C REGEX   only the calls that lead to functions matching REGEX: each
 *              such call (as a leaf: not what it calls) and its callers up
 *              to the root (uftrace's caller filter).  An entry is held
 *              back until a matching call comes inside its call (then it
 *              passes) or its exit (then it goes, with what it called):
 *              the buffer is bounded by the stack depth.  It applies to
 *              what -F/-N/--hide/-D/-T let through, before -r and -t.
 *   -Z SIZE    as --hide, for the functions whose code is smaller than
 *              SIZE bytes (their symbol's size; sizefilt.h)
 *   -t TIME    hide calls shorter than TIME, with what they call.  An entry
 *              is held back until its call is known to be long enough: its
 *              exit came, or TIME passed on the thread's clock.  Only entries
 *              are held, so the buffer is bounded by the stack depth.  The
 *              durations are the recorded ones, in every view (the views'
 *              overhead correction, doc/overhead.md, comes after).
 *
 * Regexes are POSIX extended, matched against the function's name as
 * resolved (demangled unless the session says otherwise); the result is
 * cached per (process image, address).
 */
#ifndef CT_FILTER_H
#define CT_FILTER_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session.h"
#include "util.h"
#include "vtrig.h"

#define CT_DEPTH_NONE UINT32_MAX

/* -r START~END: each side a time since the start of the recording, with a
 * unit (1.5ms, 2s; a whole number without one is ns, as -t takes it), or a
 * timestamp as replay -f time prints it, SEC.NSEC (CLOCK_MONOTONIC, a
 * fraction and no unit: 12345.678901234); an empty side is open */
struct ct_range {
	uint64_t lo, hi;     /* [lo, hi): hi UINT64_MAX when open */
	bool lo_abs, hi_abs; /* that side is a timestamp in ns, until resolved */
};

/* one function of one process image, as seen by the filter */
struct ct_func {
	const char *name; /* valid until the session is closed */
	size_t namelen;   /* strlen(name) */
	const char *full; /* the full demangled name when name is another
			     * (--demangle=simple|no), else NULL; regexes
			     * are matched against both */
	const char *text; /* name as text for a terminal (output.h
			     * ct_text_escape): name itself when it needs no
			     * escaping; NULL in functions made by the caller */
	size_t textlen;
	bool has_params; /* the name ends with its parameter list, as a
			     * demangled C++ name does: print no "()" after it */
	bool inc;        /* matches a -F regex */
	bool exc;        /* matches a -N regex */
	bool hide;       /* matches a --hide regex */
	bool caller;     /* matches a -C regex */
	bool libcall;    /* a library call (doc/libcall.md) */
	uint32_t trig;   /* 1 + the index of the first -T that matches, 0: none */
	int64_t user;    /* free for the consumer; -1 initially */
	uint64_t addr;   /* where it is (0 for functions made by the caller) */
};

struct ct_filter {
	struct ct_session *s;
	regex_t *inc; /* -F */
	size_t ninc;
	regex_t *exc; /* -N */
	size_t nexc;
	regex_t *hid; /* --hide */
	size_t nhid;
	/* each regex as given, and whether it matched a function (for a
	 * warning when one matched none): -F, then -N, then --hide */
	const char **re_text;
	bool *re_used;
	size_t nre;
	/* -r: calls overlapping [r.lo, r.hi) (ns from the start, once
	 * ct_range_resolve made its timestamps such); r_ranged false: all */
	struct ct_range r;
	bool r_ranged;
	const char *r_text; /* -r as given, for the messages */
	uint64_t r_kept;    /* events the range let through (none: a message) */
	bool no_libcall;    /* --no-libcall: library calls' frames hidden as
			     * --hide does (their callbacks show) */
	regex_t *loc;       /* -L, with each as given and whether it matched */
	size_t nloc;
	const char **loc_text;
	bool *loc_used;
	regex_t *cal; /* -C, with each as given and whether it matched */
	size_t ncal;
	const char **cal_text;
	bool *cal_used;
	uint64_t c_kept;       /* calls -C let through (none: a message) */
	uint32_t max_depth;    /* -D: show depth < max_depth; 0: no limit */
	struct ct_vtrig *trig; /* -T, in order (vtrig.h) */
	size_t ntrig;
	uint64_t min_time; /* -t: in ns; 0: no limit */
	uint64_t min_size; /* -Z: in bytes; 0: no limit (sizefilt.h) */

	/* cache: (uintptr_t)proc -> struct ct_u64map * (addr -> struct ct_func *) */
	struct ct_u64map procs;
	const struct ct_proc *last_proc;
	struct ct_u64map *last_map;
	struct ct_func *last_fn; /* the last one looked up, in last_proc */
};

/* an event that passed the filter */
struct ct_fevent {
	struct ct_event ev;
	struct ct_func *fn;
	uint32_t depth; /* depth in the shown tree */
};

/* the filter's state for one thread */
struct ct_filter_thread {
	uint32_t f_depth;       /* depth of the active -F match, or CT_DEPTH_NONE */
	uint32_t n_depth;       /* depth of the active -N match, or CT_DEPTH_NONE */
	struct ct_fevent *pend; /* -t: entries held back, outermost first */
	size_t npend, cap;
	struct ct_func **fns; /* by depth: the function of each open call, so
				 * that an exit needs no lookup */
	size_t nfns;
	struct ct_fevent *rpend; /* -r: entries before the range, held until
				  * the call proves to reach into it */
	size_t nrpend, rcap;
	bool *rshown; /* -r: by shown depth, the open call passed */
	size_t rshcap;
	bool *hid; /* --hide: by depth, the open call is hidden */
	size_t hidcap;
	uint32_t nhid; /* hidden calls open inside the -F call */
	/* -F with -D: the -F calls open inside the outermost one, innermost
	 * last, each with its depth and shown depth: -D counts from the
	 * innermost (the depth restarts at each -F match, as in uftrace) */
	struct {
		uint32_t d, sd;
	} * fst;
	size_t nfst, fstcap;
	struct ct_vtrig_thread vt; /* -T */
	/* -C: the entries held back until a matching call comes inside them,
	 * outermost first; by shown depth, whether the open call passed; the
	 * shown depth of the open matching call (its callees go), or
	 * CT_DEPTH_NONE */
	struct ct_fevent *cpend;
	size_t ncpend, ccap;
	bool *cshown;
	size_t cshcap;
	uint32_t c_depth;
};

typedef void (*ct_filter_emit_fn)(void *ctx, const struct ct_fevent *fe);

/* s may be NULL when functions are supplied by the caller (ct_filter_push_fn) */
void ct_filter_init(struct ct_filter *f, struct ct_session *s);
void ct_filter_free(struct ct_filter *f);
/* add a -F (exclude false) or -N (exclude true) regex; -1 with a message in
 * err on a bad regex */
int ct_filter_add_regex(struct ct_filter *f, bool exclude, const char *re, struct ct_error *err);
/* compile re (POSIX extended, no submatches) into *r; -1 with err
 * filled, "OPT: bad regex 'RE': WHY" */
int ct_regex_option(regex_t *r, const char *opt, const char *re, struct ct_error *err);
/* handle one of the options 'F', 'N', 'H' (--hide), 'L', 'C', 'D', 't', 'r', 'T', 'Z' with its
 * argument; -1 with err filled (a usage error) */
int ct_filter_option(struct ct_filter *f, int opt, const char *arg, struct ct_error *err);
/* parse -r's "START~END" (struct ct_range) into *r; -1 when malformed
 * (END before START when both are of one kind) */
int ct_range_parse(const char *arg, struct ct_range *r);
/* the same with the usage message in err, "--range: want ..." */
int ct_range_option(const char *arg, struct ct_range *r, struct ct_error *err);
/* r's timestamps made times since the start of s's recording (one before
 * it: 0): 0, or -1 with err filled when END then comes before START */
int ct_range_resolve(struct ct_range *r, const struct ct_session *s, const char *text,
		     struct ct_error *err);
/* a warning into warn for each -F/-N/--hide/-C regex that matched no
 * function the views were given (a mistyped name, say) */
void ct_filter_warn_unused(const struct ct_filter *f, struct ct_msgs *warn);
/* -C was given and let no call through (the views then exit 1): an error
 * into msgs naming the regexes, and true */
bool ct_filter_caller_empty(const struct ct_filter *f, struct ct_msgs *msgs);
/* true when some filter is set (views may then take a slower path) */
bool ct_filter_active(const struct ct_filter *f);

/* the function at addr in process p: resolved, matched, cached */
struct ct_func *ct_filter_func(struct ct_filter *f, struct ct_proc *p, uint64_t addr);
/* set fn->inc / fn->exc from fn->name */
void ct_filter_match(const struct ct_filter *f, struct ct_func *fn);

void ct_filter_thread_init(struct ct_filter_thread *t);
void ct_filter_thread_free(struct ct_filter_thread *t);
/* the function of the thread's event ev: looked up on an entry, and
 * remembered by depth so that the exit finds it without a lookup */
struct ct_func *ct_filter_event_func(struct ct_filter *f, struct ct_filter_thread *t,
				     const struct ct_event *ev);
/* push one event of the thread; emit is called for each event that passes */
void ct_filter_push(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_event *ev,
		    ct_filter_emit_fn emit, void *ctx);
/* the same with the event's function already known */
void ct_filter_push_fn(struct ct_filter *f, struct ct_filter_thread *t, const struct ct_event *ev,
		       struct ct_func *fn, ct_filter_emit_fn emit, void *ctx);
/* the thread has had no event before now (ns, recorded clock: where a
 * merge of threads in time order has come to; its next event is at now or
 * later): emit the entries that are known to pass by then (-t: open for
 * min_time; -r: open after the range's start), as its next event would.
 * A view that merges threads calls it so that the others' lines need not
 * wait for this thread's next event. */
void ct_filter_thread_advance(struct ct_filter *f, struct ct_filter_thread *t, uint64_t now,
			      ct_filter_emit_fn emit, void *ctx);
/* the recorded time of the earliest entry the thread holds back (-t, -r),
 * or UINT64_MAX when it holds none */
uint64_t ct_filter_thread_held(const struct ct_filter_thread *t);
/* end of the thread's stream: emit the entries still held back by -t (only
 * when the stream stopped early, e.g. on an error) and reset the state */
void ct_filter_thread_end(struct ct_filter *f, struct ct_filter_thread *t, ct_filter_emit_fn emit,
			  void *ctx);

/* ---- option helpers -------------------------------------------------- */

/* parse "TID[,TID...]" and append to *tids (xrealloc'd); -1 on a bad list */
int ct_parse_tid_list(const char *arg, int **tids, size_t *ntids);
/* parse a non-negative decimal integer that fits an int; -1 on error */
int ct_parse_uint(const char *arg, unsigned long max, unsigned long *out);
/* the threads of s to show: NULL when ntids is 0 (all of them), else a
 * calloc'd array indexed by thread->index.  A tid that names no thread is
 * said in msgs, "no thread TID in DIR" (an error), and counted in
 * *missing (the views then exit 1). */
bool *ct_select_threads(const struct ct_session *s, const int *tids, size_t ntids, size_t *missing,
			struct ct_msgs *msgs);

/* does a function's name end with its parameter list ("f(int)", also with
 * qualifiers after it: "A::f() const", gcc's clone suffixes: "f(int)
 * [clone .isra.0]", or a library call's library: "f(int)@libx.so.1")?
 * Then views print no "()" after it */
bool ct_name_has_params(const char *name, size_t n);

#endif
