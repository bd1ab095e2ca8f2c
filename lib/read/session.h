/* SPDX-License-Identifier: MIT */
/*
 * Reading a calltrace.data directory: the recording's info, its processes
 * (module maps) and threads (event streams), and the streaming reader that
 * turns each thread's raw records into clean enter/exit events.
 *
 * Every consumer (replay, report, info, ...) reads the trace through this
 * API and never parses raw records itself.  Errors carry a message that
 * names the file and, for stream data, the byte offset.
 */
#ifndef CT_SESSION_H
#define CT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "demangle.h"
#include "error.h"

struct ct_symtab;
struct ct_argtab;
struct ct_callargs;

struct ct_module {
	uint64_t base;         /* load bias: runtime address = base + symbol value */
	uint64_t lo, hi;       /* mapped address range [lo, hi)                    */
	uint64_t load_clock;   /* clock when it appeared                            */
	uint64_t unload_clock; /* clock when dlclose'd, UINT64_MAX while mapped   */
	char *path;
	char *buildid;            /* lowercase hex, or NULL when the module has none  */
	struct ct_symtab *symtab; /* loaded lazily by ct_session_resolve          */
};

struct ct_proc {
	int pid, ppid, gen;
	bool forked; /* a child of a traced process's fork ("fork" line): its
		     * forking thread's stream begins inside the calls it
		     * inherited (CT_EVF_BEFORE) */
	char *exe;
	char **argv; /* NULL-terminated */
	int argc;
	uint64_t start_clock;
	/* CLOCK_MONOTONIC and CLOCK_REALTIME (ns) read at start_clock, from the
	 * "clock" line; clock_ref is false when the .proc has none */
	uint64_t start_mono, start_real;
	bool clock_ref;
	struct ct_module *modules;
	size_t nmodules;
	/* the tracer's own cost measured at start-up ("overhead" line, see
	 * doc/overhead.md): clock ticks summed over ovh_calls calls; all 0
	 * when the trace has none */
	uint64_t ovh_calls, ovh_inner, ovh_outer;
	/* the same for the hooked front ends ("overhead-hook"), and the front
	 * ends the process recorded through ("frontend" lines): CT_PROC_FE_* */
	uint64_t ovh_hook_calls, ovh_hook_inner, ovh_hook_outer;
	unsigned frontends;
	/* record --sample: the sampling period, ns of a thread's CPU time
	 * ("sample" line), and the signal; 0: not sampled */
	uint64_t sample_ns;
	int sample_sig;
	bool sample_perf; /* from a perf event (else a POSIX timer) */
	/* record -N left out these start routines of threads it created
	 * ("thread-left-out" lines: those threads recorded nothing) */
	uint64_t *left_out;
	size_t nleft_out;
	bool libcalls; /* it made library calls through the hooked
			* trampolines ("libcall" lines: doc/libcall.md) */
	/* its figures against its own calls (figcheck.c): not yet checked,
	 * checking, believable, not (then the inner figure and the median
	 * leaf call, in ns) */
	unsigned char figcheck;
	double figcheck_inner, figcheck_median;
};

#define CT_PROC_FE_CYG 1u  /* -finstrument-functions hooks */
#define CT_PROC_FE_HOOK 2u /* -pg, -pg -mfentry, patched entries */

struct ct_thread {
	struct ct_proc *proc;
	int tid;
	const char *name; /* its name (pthread_setname_np, PR_SET_NAME), the
			      * last one recorded; NULL: the default, the
			      * process's own */
	char *path;       /* the .ev file */
	uint64_t bytes;   /* size of the .ev file */
	int index;        /* position in session->threads */
};

struct ct_session {
	char *dir;
	/* from DIR/info */
	char *command;    /* command line as recorded */
	char *start_time; /* ISO 8601, UTC */
	char *clock_name; /* "tsc" or "mono" */
	double clock_hz;  /* clock ticks per second */
	uint64_t start_clock, end_clock;
	bool complete;                   /* record finished normally (info has "complete: 1") */
	bool flight;                     /* a flight recording (info has "flight:") */
	char *exit_status;               /* e.g. "exit 0", "signal 11 (SIGSEGV)" */
	uint64_t lost, unmatched, waits; /* counters from the runtime, summed */
	/* what record could not write (a full disk, a write error) */
	uint64_t write_errors, unwritten_events, unwritten_bytes;

	struct ct_proc **procs;
	size_t nprocs;
	struct ct_thread **threads; /* sorted by (pid, gen, tid) */
	size_t nthreads;

	enum ct_demangle_mode demangle; /* how C++ names are shown (demangle.h);
					 * default CT_DEMANGLE_FULL */
	uint64_t events;                /* "events" from info, 0 when absent */
	uint64_t ev_bytes;              /* total size of the .ev files */
	uint64_t bytes_read;            /* bytes of .ev files read so far (for progress) */
	struct ct_argtab *argtab;       /* DIR/args.spec (argument capture), or NULL */
	bool marks;                     /* give CT_MARK events (set by a view that shows them) */
	/* the events' corrected times (ct_event's ctime and cstart) are
	 * their recorded ones (--raw: set before any stream is opened) */
	bool raw;
	/* record --sched: the recording has its threads' context switches
	 * (DIR/sched): exits carry their ct_event.offcpu */
	bool sched;
	/* --with-syms DIR (lib/read/withsyms.c): symbols from the ELF files
	 * of DIR first, then the saved ones; NULL: none.  verbose (-v): say
	 * which file each module's came from, and the files passed over */
	const char *with_syms;
	bool verbose;
};

int ct_session_open(struct ct_session **out, const char *dir, struct ct_error *err);
void ct_session_close(struct ct_session *s);

/* clock ticks -> nanoseconds since the start of the recording */
uint64_t ct_session_ns(const struct ct_session *s, uint64_t clock);
/* CLOCK_MONOTONIC (ns) at the start of the recording, from the "clock"
 * line of its first process that has one (0 when none has): an event's
 * timestamp, as replay -f time shows it, is this plus its time */
uint64_t ct_session_mono_start(const struct ct_session *s);
/* a thread's name as a task list shows it: its own (pthread_setname_np),
 * else its process's program, the basename of argv[0] or of the exe;
 * "" when none is known */
const char *ct_thread_name(const struct ct_thread *t);

/* ---- events -------------------------------------------------------- */

/* CT_MARK (calltrace_mark(), include/calltrace/calltrace.h) is given only
 * when session->marks is set: its addr is the text (a const char *, valid
 * like a call's args), its depth the calls open then */
enum ct_event_kind { CT_ENTER, CT_EXIT, CT_MARK };

enum ct_event_flags {
	CT_EVF_SIGNAL = 1 << 0,     /* recorded from a signal handler that
				     * interrupted the tracer (nested path) */
	CT_EVF_SYNTHETIC = 1 << 1,  /* an exit the program never made: its frame
				     * was skipped by longjmp/unwinding         */
	CT_EVF_UNFINISHED = 1 << 2, /* an exit made up at the end of the stream:
				     * the call was still open when the thread or
				     * process ended (crash, kill, exit())       */
	CT_EVF_BEFORE = 1 << 3,     /* a call entered before the stream began
				     * (on its entry and its exit): a flight
				     * window's, or a forked child's inherited
				     * frames (ct_proc.forked); its entry time is
				     * the stream's start; its time counts, the
				     * call does not (ct_call_counted)           */
	CT_EVF_INJECT = 1 << 5,     /* a CT_MARK that says what record --inject
				     * did at the call open (doc/inject.md)    */
	CT_EVF_READ = 1 << 6,       /* a CT_MARK with a read= trigger's values
				     * (record -T 'f@read=KIND')               */
	CT_EVF_WATCH = 1 << 7,      /* a CT_MARK of a watch point (record -W
				     * cpu): "watch:cpu (cpu=N)", right after
				     * the entry of the first call on CPU N */
	CT_EVF_LIBCALL = 1 << 4,    /* a library call (doc/libcall.md), on its
				     * entry and its exit: the overhead
				     * correction takes the hooked front ends'
				     * figures for it                             */
};

struct ct_event {
	enum ct_event_kind kind;
	unsigned flags;
	uint64_t addr;  /* function address (runtime address) */
	uint64_t time;  /* ns since the recording started, on the recorded
			 * clock: the order and place of events across
			 * threads and processes */
	uint64_t start; /* for CT_EXIT: time of the matching entry */
	/* the same on the thread's corrected clock (doc/overhead.md): the
	 * recorded time less the tracer's cost spent on the thread before it,
	 * never going back.  Every duration is ctime - cstart of an exit;
	 * with session->raw they are time and start. */
	uint64_t ctime, cstart;
	uint32_t depth; /* 0 for outermost frames; an exit has its entry's depth */
	struct ct_thread *thread;
	uint64_t waited; /* for CT_EXIT: ns of this call (all depths) that the
			     * thread spent waiting for the trace writer, its
			     * buffers all full: not the program's time; for
			     * CT_ENTER and CT_MARK: the ns the thread waited so
			     * far */
	/* the call's captured arguments (on its CT_ENTER) and also its return
	 * value (on its CT_EXIT), or NULL; print with ct_event_args_text.
	 * Valid while the call is open and for a while after its exit
	 * (CT_ARGS_KEEP_* in lib/read/argpool.h), never after its stream or merge
	 * is closed: copy what must live longer. */
	const struct ct_callargs *args;
	/* record --callsite: the call's call site, the return address in its
	 * caller (on its CT_ENTER and CT_EXIT), or 0: lib/read/srcline.h */
	uint64_t site;
	/* record --sample: on a CT_EXIT, the samples taken in the call (its
	 * callees' included), each worth its process's sample_ns of the
	 * thread's CPU time; 0 elsewhere */
	uint64_t samples;
	/* record --sched: on a CT_EXIT, the ns of the call (its callees'
	 * included) during which its thread was switched out (blocked,
	 * sleeping or preempted), on the recorded clock; 0 elsewhere.  Not
	 * taken out of the durations: shown beside them */
	uint64_t offcpu;
};

struct ct_stream; /* one thread */

int ct_stream_open(struct ct_session *s, struct ct_thread *t, struct ct_stream **out,
		   struct ct_error *err);
/* 1: *ev filled; 0: end of stream; -1: error (err filled) */
int ct_stream_next(struct ct_stream *st, struct ct_event *ev, struct ct_error *err);
/* the same for up to max events at once (much cheaper per event): the
 * number of events put in ev[0..), 0 at the end of the stream, -1 on error.
 * An error met after some events is returned by the next call. */
int ct_stream_read(struct ct_stream *st, struct ct_event *ev, size_t max, struct ct_error *err);
/* the tracer's cost on a thread's corrected clock (doc/overhead.md), in ns:
 * taken out so far, what could not be (the clock stood still), and the
 * recorded time from the stream's first event to its last */
struct ct_cost {
	uint64_t taken, clipped, span;
	/* figures measured again on another CPU (CT_EXT_CALIB) taken up,
	 * and the ns of measuring taken out with them */
	uint64_t recal, recal_ns;
};
void ct_stream_cost(const struct ct_stream *st, struct ct_cost *c);
/* c += d */
static inline void ct_cost_add(struct ct_cost *c, const struct ct_cost *d)
{
	c->taken += d->taken;
	c->clipped += d->clipped;
	c->span += d->span;
	c->recal += d->recal;
	c->recal_ns += d->recal_ns;
}
/* counters seen so far in this stream */
uint64_t ct_stream_lost(const struct ct_stream *st);
/* record --sample: the samples read so far, those taken outside any
 * recorded call, and the periods beyond the first of those that stood for
 * more than one (the POSIX timer's overruns: all less over were taken) */
void ct_stream_samples(const struct ct_stream *st, uint64_t *all, uint64_t *outside,
		       uint64_t *over);
uint64_t ct_stream_unmatched(const struct ct_stream *st); /* exits without entry */
uint64_t ct_stream_unknown(const struct ct_stream *st);   /* unknown/bad EXT skipped */
uint64_t ct_stream_offset(const struct ct_stream *st);
void ct_stream_close(struct ct_stream *st);

/* all threads (or those for which want[thread->index] is true; want may be
 * NULL) merged in time order */
struct ct_merge;
int ct_merge_open(struct ct_session *s, const bool *want, struct ct_merge **out,
		  struct ct_error *err);
int ct_merge_next(struct ct_merge *m, struct ct_event *ev, struct ct_error *err);
/* the next events in time order, several at once: *evs points to them
 * (valid until the next call); their number, 0 at the end, -1 on error */
int ct_merge_read(struct ct_merge *m, const struct ct_event **evs, struct ct_error *err);
void ct_merge_close(struct ct_merge *m);

/* ---- symbols ------------------------------------------------------- */

struct ct_sym_info {
	const char *name;   /* as s->demangle says (demangle.h); never NULL:
			      * falls back to "module+0xoff" or "0xaddr" */
	const char *full;   /* the full demangled name when name is another
			      * (--demangle=simple|no), else NULL: what
			      * patterns are matched against too */
	const char *module; /* basename of the module path, or NULL */
	const char *file;   /* source file from DWARF, or NULL */
	int line;           /* 0 when unknown */
	bool libcall;       /* a library function called from traced code
			     * (its name is NAME@module) */
	uint64_t size;      /* the symbol's size in bytes (st_size) when addr
			     * is the start of a symbol that has one, else 0 */
};

/* resolve a function address seen in proc at the given clock; cached, so
 * that each address is looked up once.  Pointers stay valid until close. */
/*
 * An event's address names a function of the modules mapped at that
 * moment.  Where one address range held two modules at different times (a
 * library dlclose'd and another dlopen'd at its place), the reader tags the
 * addresses in that range with the module they were in at their event: bits
 * CT_ADDR_TAG_SHIFT and up hold the module's index + 1 (user-space
 * addresses never reach them).  ct_session_resolve takes such tagged
 * addresses too; ct_addr_untag gives the address itself.
 */
#define CT_ADDR_TAG_SHIFT 48
static inline uint64_t ct_addr_untag(uint64_t addr)
{
	return addr & ((1ull << CT_ADDR_TAG_SHIFT) - 1);
}
/* the module a tagged address was in (its index in p->modules), or -1 */
static inline long ct_addr_module(uint64_t addr)
{
	return (long)(addr >> CT_ADDR_TAG_SHIFT) - 1;
}

/* a thread's label for the views: "NAME (TID)" when it was named,
 * "main (TID)" for a process's main thread, else "thread TID"; the name
 * escaped for a terminal (output.h) */
void ct_thread_label(const struct ct_thread *t, char *buf, size_t len);

const struct ct_sym_info *ct_session_resolve(struct ct_session *s, struct ct_proc *p,
					     uint64_t addr);

/* among the modules of a process that hold an address, does m (line i of
 * the .proc) win over best (line bi)?  One still mapped over one unloaded,
 * then the latest loaded, then the later line: the choice of
 * ct_session_resolve, for a view that finds modules itself */
bool ct_module_wins(const struct ct_module *m, size_t i, const struct ct_module *best, size_t bi);

/* the module of p holding addr (tagged or not), as ct_session_resolve
 * finds it; NULL when none does */
const struct ct_module *ct_session_module(struct ct_session *s, struct ct_proc *p, uint64_t addr);

/* does p's program (the module at its exe's path, else its first
 * module) have a symbol table, from the file or saved in the recording?
 * (-Z needs the symbols' sizes) */
/* --with-syms: the file of s->with_syms whose symbols module m takes
 * (matched by build-id, then by name), or NULL; looked for once */
const char *ct_withsyms_file(struct ct_session *s, const struct ct_module *m);
/* DIR is a directory: 0, or -1 with err: "--with-syms DIR: CAUSE" */
int ct_withsyms_check(const char *dir, struct ct_error *err);

bool ct_session_proc_has_symbols(struct ct_session *s, struct ct_proc *p);

/* the name of the function that starts exactly at addr, or NULL */
const char *ct_session_func_at(struct ct_session *s, struct ct_proc *p, uint64_t addr);

/* the captured arguments (ret false) or the return value (ret true) of a
 * call in process p as text (ct_args_format, with the session's symbols
 * for function pointers): the length written, always NUL-terminated */
size_t ct_event_args_text(struct ct_session *s, struct ct_proc *p, const struct ct_callargs *a,
			  bool ret, char *buf, size_t len);

/* warnings collected while opening/resolving (build-id mismatch, missing
 * symbols, ...), each once: the caller's to print (CT_MSG_WARN_PLAIN; the
 * views' scaffold prints them when it closes the session) */
void ct_session_warn(struct ct_session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct ct_msgs *ct_session_warnings(struct ct_session *s);

#endif
