/* SPDX-License-Identifier: MIT */
/*
 * calltrace plugins: callbacks on traced calls, inside the traced program
 * (doc/plugins.md).
 *
 * `calltrace record --plugin=PATH[:ARGS] [--plugin-filter=REGEX] PROG`
 * loads the shared object PATH into PROG (and into every traced process
 * it starts).  The object defines some of these well-known symbols:
 *
 *   CALLTRACE_PLUGIN_DEFINE_ABI          required: the ABI it was built for
 *   int  calltrace_plugin_init(const char *args)      optional; ARGS ("" if
 *        none); non-zero refuses: the plugin is not used in this process
 *   void calltrace_plugin_enter(const struct ct_plugin_call *c)
 *   void calltrace_plugin_exit(const struct ct_plugin_call *c)
 *        a selected function's entry (after its ENTER record was written)
 *        and its return (before its EXIT record)
 *   void calltrace_plugin_enter_fn(const void *fn)
 *        the cheapest entry callback, for work that needs only the
 *        function (a counter): its entry address, nothing else built.
 *        Called only when the plugin has no calltrace_plugin_enter.
 *   At least one of the three.
 *   void calltrace_plugin_fini(void)     optional; at the process's exit()
 *
 * A callback may run on any thread, also inside a signal handler's
 * context: what it does must be async-signal-safe (no malloc, no stdio,
 * no locks a handler could meet held; write(2), atomics, memory set up in
 * init).  Calls it makes are not traced.  It must return (no longjmp, no
 * exception out of it).  The struct is the runtime's, valid only during
 * the call.
 *
 * Build: cc -shared -fPIC -O2 -I$(PREFIX)/include -o my.so my.c
 */
#ifndef CALLTRACE_PLUGIN_H
#define CALLTRACE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the ABI of this header: the runtime refuses a plugin of another one */
#define CALLTRACE_PLUGIN_ABI 1

/* ct_plugin_call.flags */
#define CT_PLUGIN_EXIT 1u   /* an exit: exit_ns and duration_ns are set */
#define CT_PLUGIN_ARGS 2u   /* an entry: args[] and fargs[] hold the argument registers */
#define CT_PLUGIN_RETVAL 4u /* an exit: ret, ret2 and fret hold the return registers */

/*
 * One call of a selected function.  Arguments and return values are the
 * raw registers of the x86-64 SysV ABI, where the front end sees them:
 * -pg -mfentry, -pg (mcount) and -fpatchable-function-entry, and library
 * calls (record --libcall); -finstrument-functions sees no register (the
 * flags say what is set; a field they do not name holds nothing
 * meaningful).  Times are CLOCK_MONOTONIC nanoseconds, on the recording's
 * clock (exit_ns and duration_ns are 0 at entries).
 */
struct ct_plugin_call {
	uint32_t size;     /* sizeof(struct ct_plugin_call) in the runtime */
	uint32_t flags;    /* CT_PLUGIN_* */
	const void *fn;    /* the function's entry address */
	const char *name;  /* its name (demangled) from record's table, or NULL */
	int tid;           /* the thread (gettid) */
	uint32_t depth;    /* traced frames below this one on the thread (0: outermost) */
	uint64_t enter_ns; /* the entry (CLOCK_MONOTONIC ns) */
	uint64_t exit_ns;  /* CT_PLUGIN_EXIT: the return */
	uint64_t duration_ns;
	uint64_t args[6]; /* CT_PLUGIN_ARGS: rdi, rsi, rdx, rcx, r8, r9 */
	double fargs[8];  /* CT_PLUGIN_ARGS: xmm0-7 (their low 8 bytes) */
	uint64_t ret;     /* CT_PLUGIN_RETVAL: rax */
	uint64_t ret2;    /* CT_PLUGIN_RETVAL: rdx */
	double fret;      /* CT_PLUGIN_RETVAL: xmm0 */
};

/* the required symbol: put CALLTRACE_PLUGIN_DEFINE_ABI; in the plugin once */
extern const unsigned calltrace_plugin_abi;
#define CALLTRACE_PLUGIN_DEFINE_ABI                                                  \
	__attribute__((visibility("default"))) const unsigned calltrace_plugin_abi = \
		CALLTRACE_PLUGIN_ABI

int calltrace_plugin_init(const char *args);
void calltrace_plugin_enter(const struct ct_plugin_call *c);
void calltrace_plugin_exit(const struct ct_plugin_call *c);
void calltrace_plugin_enter_fn(const void *fn);
void calltrace_plugin_fini(void);

/*
 * What the runtime (libcalltrace.so) offers a plugin; weak, so that a
 * plugin links without it.  Both are async-signal-safe.
 */
/* the calling thread's traced frames, innermost first: at most max
 * function addresses into fns; returns how many */
#ifdef CALLTRACE_PLUGIN_RUNTIME /* (the runtime, which defines them) */
#define CT_PLUGIN_WEAK
#else
#define CT_PLUGIN_WEAK __attribute__((weak))
#endif
unsigned calltrace_plugin_stack(const void **fns, unsigned max) CT_PLUGIN_WEAK;
/* a function's name (demangled) from record's table, or NULL */
const char *calltrace_plugin_name(const void *fn) CT_PLUGIN_WEAK;

/* ---- async-signal-safe output, for callbacks and signal handlers -------- */

/* v in decimal at buf (room for 21 bytes); returns its length */
static inline size_t ct_plugin_utoa(char *buf, uint64_t v)
{
	char t[20];
	size_t n = 0, i;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	buf[n] = 0;
	return n;
}

/* a line builder over a caller's buffer: text and numbers appended, cut at
 * its end */
struct ct_plugin_line {
	char *buf;
	size_t len, cap;
};

static inline void ct_plugin_puts(struct ct_plugin_line *l, const char *s)
{
	while (s && *s && l->len < l->cap)
		l->buf[l->len++] = *s++;
}

static inline void ct_plugin_putu(struct ct_plugin_line *l, uint64_t v)
{
	char t[24];
	ct_plugin_utoa(t, v);
	ct_plugin_puts(l, t);
}

#ifdef __cplusplus
}
#endif

#endif
