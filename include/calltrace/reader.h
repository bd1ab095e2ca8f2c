/* SPDX-License-Identifier: MIT */
/*
 * libcalltrace-reader: the public API to read a calltrace recording
 * (doc/reader.md).  It is a thin layer over the reader every calltrace
 * view uses (lib/read/session.c, stream.c, merge.c, modules.c, argfmt.c,
 * tclock.c): the same events, names, arguments and errors as the commands.
 *
 *	pkg-config --cflags --libs calltrace-reader
 *
 * Handles are opaque.  Every function that can fail returns -1 (or NULL)
 * and fills a struct ct_reader_error when one is given: a code and the
 * message a command would print ("DIR/1-0-1.ev: offset 120: bad record").
 * Strings and structures returned by the library belong to it and stay
 * valid until the recording is closed, unless said otherwise.
 *
 * Not thread-safe: one thread at a time per ct_reader (and its iterators).
 * Running out of memory ends the process, as it does for the commands.
 */
#ifndef CALLTRACE_READER_H
#define CALLTRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the API's version: raised when a function or a field is added (never
 * removed or changed within one soname, libcalltrace-reader.so.0) */
#define CT_READER_API_VERSION 2 /* 2: call sites */

#if defined(__GNUC__)
#define CT_READER_API __attribute__((visibility("default")))
#else
#define CT_READER_API
#endif

typedef struct ct_reader ct_reader;           /* an open recording */
typedef struct ct_reader_iter ct_reader_iter; /* a walk over its events */

/* ---- errors ------------------------------------------------------------ */

enum ct_reader_code {
	CT_READER_OK = 0,
	CT_READER_E_OPEN = 1,   /* the recording cannot be opened: no such
				 * directory, no info file, a bad .proc ... */
	CT_READER_E_DATA = 2,   /* bad event data met while reading (a
				 * truncated or corrupted .ev file) */
	CT_READER_E_COUNTS = 3, /* a recording of call counts only (record
				 * --count): it has no events to read */
	CT_READER_E_ARG = 4,    /* a bad argument (an unknown thread or
				 * process index, an unknown flag) */
};

struct ct_reader_error {
	int code;          /* enum ct_reader_code */
	char message[512]; /* one line, safe to print; "" when code is 0 */
};

/* the version of the library loaded (CT_READER_API_VERSION it was built with) */
CT_READER_API int ct_reader_api_version(void);

/* ---- opening ------------------------------------------------------------ */

/* how C++ names are given (as calltrace's --demangle): full by default */
#define CT_READER_DEMANGLE_SIMPLE 0x1u /* no return type, template arguments, parameters */
#define CT_READER_DEMANGLE_NO 0x2u     /* as in the binary */

/* open the recording in dir (a calltrace.data directory): 0 and *out, or
 * -1 with err filled (*out NULL) */
CT_READER_API int ct_reader_open(const char *dir, unsigned flags, ct_reader **out,
				 struct ct_reader_error *err);
CT_READER_API void ct_reader_close(ct_reader *r);

/* warnings met so far (an incomplete recording, a build-id mismatch,
 * missing symbols): the commands print them, the library keeps them */
CT_READER_API size_t ct_reader_warning_count(const ct_reader *r);
CT_READER_API const char *ct_reader_warning(const ct_reader *r, size_t i);

struct ct_reader_info {
	const char *dir;         /* as opened */
	const char *command;     /* the command line recorded, or NULL */
	const char *start_time;  /* ISO 8601 UTC, or NULL */
	const char *clock;       /* "tsc" or "mono", or NULL */
	double clock_hz;         /* clock ticks per second */
	uint64_t duration_ns;    /* from the start to the end of the recording */
	int complete;            /* record finished normally */
	const char *exit_status; /* "exit 0", "signal 11 (SIGSEGV)", or NULL */
	uint64_t lost;           /* events lost while recording */
	uint64_t events;         /* events recorded (0 when unknown) */
	uint64_t ev_bytes;       /* size of the event files */
};
CT_READER_API const struct ct_reader_info *ct_reader_info(const ct_reader *r);

/* ---- processes, threads, modules ------------------------------------------ */

struct ct_reader_process {
	size_t index; /* in 0 .. ct_reader_process_count() */
	int pid, ppid;
	int gen; /* 0, and 1, 2 ... for each exec of the same pid */
	const char *exe;
	int argc;
	const char *const *argv; /* argc strings, then NULL */
	uint64_t start_ns;       /* ns since the start of the recording */
	size_t nmodules;
};

struct ct_reader_thread {
	size_t index; /* in 0 .. ct_reader_thread_count(); events name it */
	int tid, pid;
	size_t process;   /* its process's index */
	const char *name; /* its name (pthread_setname_np), or NULL: the default */
	uint64_t bytes;   /* size of its event file */
};

struct ct_reader_module {
	const char *path;
	const char *buildid; /* lowercase hex, or NULL */
	uint64_t base;       /* load bias: address = base + ELF address */
	uint64_t lo, hi;     /* mapped range [lo, hi) */
	uint64_t load_ns;    /* when it appeared (ns since the start) */
	uint64_t unload_ns;  /* when dlclose'd; UINT64_MAX while mapped */
};

/* processes sorted by (pid, gen), threads by (pid, gen, tid); NULL for an
 * index out of range */
CT_READER_API size_t ct_reader_process_count(const ct_reader *r);
CT_READER_API const struct ct_reader_process *ct_reader_process(const ct_reader *r, size_t i);
CT_READER_API size_t ct_reader_thread_count(const ct_reader *r);
CT_READER_API const struct ct_reader_thread *ct_reader_thread(const ct_reader *r, size_t i);
CT_READER_API const struct ct_reader_module *ct_reader_module(const ct_reader *r, size_t process,
							      size_t i);

/* ---- symbols -------------------------------------------------------------- */

struct ct_reader_sym {
	const char *name;   /* never NULL: falls back to "module+0xOFF" or "0xADDR" */
	const char *module; /* the module's path, or NULL when none holds addr */
	uint64_t offset;    /* addr in the module's file (ELF address): addr - base */
	const char *file;   /* source file (DWARF), or NULL */
	int line;           /* 0 when unknown */
};

/* resolve an address of process `process` (each address once: cached):
 * 0, or -1 for a bad process index */
CT_READER_API int ct_reader_resolve(ct_reader *r, size_t process, uint64_t addr,
				    struct ct_reader_sym *sym, struct ct_reader_error *err);

/* the function names met so far, by id (events give ids): the table only
 * grows, an id keeps its name.  A name is the function as the views show
 * it; a mark's text is given an id the same way. */
CT_READER_API uint32_t ct_reader_name_count(const ct_reader *r);
CT_READER_API const char *ct_reader_name(const ct_reader *r, uint32_t id);

/* ---- events ----------------------------------------------------------------- */

enum ct_reader_kind {
	CT_READER_ENTRY = 0,
	CT_READER_EXIT = 1,
	CT_READER_MARK = 2, /* calltrace_mark(): name is its text (CT_READER_MARKS) */
};

/* an event's flags */
#define CT_READER_EV_SIGNAL 0x1u /* recorded in a signal handler that interrupted the tracer */
#define CT_READER_EV_SYNTHETIC \
	0x2u /* an exit never made: the frame was left by longjmp/unwinding */
#define CT_READER_EV_UNFINISHED 0x4u /* an exit made up at the end: the call was still open */
#define CT_READER_EV_BEFORE 0x8u     /* record --flight: entered before the window */
#define CT_READER_EV_LIBCALL 0x10u   /* a library call (doc/libcall.md): its name is NAME@LIB */

/* ct_reader_iter_open's flags */
#define CT_READER_MARKS 0x1u /* give CT_READER_MARK events too */
#define CT_READER_CORRECTED \
	0x2u                   /* fill ctime_ns: the time with the tracer's own
				  * cost before it taken out (doc/overhead.md) */
#define CT_READER_NO_ARGS 0x4u /* do not format arguments and return values */
#define CT_READER_CALLSITES \
	0x8u /* keep each batch's call sites (ct_reader_batch_callsites; API 2) */

/* all threads, merged in time order */
#define CT_READER_ALL_THREADS ((size_t)-1)

/* walk the events of thread `thread` (an index), or of all threads merged
 * in time order (CT_READER_ALL_THREADS): 0 and *out, or -1 with err */
CT_READER_API int ct_reader_iter_open(ct_reader *r, size_t thread, unsigned flags,
				      ct_reader_iter **out, struct ct_reader_error *err);
CT_READER_API void ct_reader_iter_close(ct_reader_iter *it);

/* one event at a time */
struct ct_reader_event {
	int kind;           /* enum ct_reader_kind */
	unsigned flags;     /* CT_READER_EV_* */
	uint32_t depth;     /* 0 for outermost calls; an exit has its entry's */
	uint32_t thread;    /* the thread's index */
	uint64_t time_ns;   /* ns since the start of the recording, as recorded */
	uint64_t start_ns;  /* an exit: its entry's time_ns; else time_ns */
	uint64_t ctime_ns;  /* with CT_READER_CORRECTED the corrected time, else time_ns */
	uint64_t addr;      /* the function's address in its process (0 for a mark) */
	uint32_t name_id;   /* ct_reader_name(r, name_id) == name */
	const char *name;   /* the function's name, or a mark's text */
	const char *args;   /* an entry: its captured arguments as replay shows
			    * them, "48, 18"; else NULL */
	const char *retval; /* an exit: its captured return value, "6"; else NULL */
};

/* the next event: 1, 0 at the end, -1 on error (err).  The strings stay
 * valid until the next call. */
CT_READER_API int ct_reader_next(ct_reader_iter *it, struct ct_reader_event *ev,
				 struct ct_reader_error *err);

/* many events at a time, in fixed-size records (56 bytes, no padding
 * between fields: Python reads them with struct "<QQQQIIIBBHII") */
struct ct_reader_rec {
	uint64_t time_ns;
	uint64_t start_ns;
	uint64_t ctime_ns;
	uint64_t addr;
	uint32_t name; /* name id */
	uint32_t depth;
	uint32_t thread; /* thread index */
	uint8_t kind;    /* enum ct_reader_kind */
	uint8_t flags;   /* CT_READER_EV_* */
	uint16_t reserved;
	uint32_t args; /* offset of the arguments' text in ct_reader_batch_text,
			* or CT_READER_NONE */
	uint32_t ret;  /* offset of the return value's text, or CT_READER_NONE */
};
#define CT_READER_NONE UINT32_MAX

/* up to max events into recs: their number, 0 at the end, -1 on error
 * (an error met after some events is returned by the next call) */
CT_READER_API int ct_reader_read(ct_reader_iter *it, struct ct_reader_rec *recs, size_t max,
				 struct ct_reader_error *err);
/* the texts of the last ct_reader_read (NUL-terminated strings at the
 * records' offsets), *len its size; valid until the next read */
CT_READER_API const char *ct_reader_batch_text(const ct_reader_iter *it, size_t *len);

/* ---- call sites (record --callsite; API version 2) ------------------------- */

/* the call site of the event ct_reader_next gave last: the return address
 * in its caller, on the call's entry and exit; 0 when it has none (a
 * recording made without record --callsite, a mark) */
CT_READER_API uint64_t ct_reader_callsite(const ct_reader_iter *it);
/* with CT_READER_CALLSITES: the call sites of the records of the last
 * ct_reader_read, one per record in order (0: none), *n their number;
 * valid until the next read.  NULL without the flag. */
CT_READER_API const uint64_t *ct_reader_batch_callsites(const ct_reader_iter *it, size_t *n);
/* a call site of process `process` as "file.c:12" (the call's line, from
 * the module's line table; the file's basename), or NULL when there is no
 * line for it (or a bad index).  Each address is resolved once. */
CT_READER_API const char *ct_reader_callsite_line(ct_reader *r, size_t process, uint64_t site);

#ifdef __cplusplus
}
#endif

#endif
