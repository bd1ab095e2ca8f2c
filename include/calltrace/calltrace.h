/* SPDX-License-Identifier: MIT */
/*
 * calltrace's API for traced programs (doc/record.md, "The program's own
 * calls").  Include it and call the functions below: a program built with
 * it links and runs without calltrace, and then each call costs a test of a
 * null pointer.  Under `calltrace record` (the runtime libcalltrace.so
 * preloaded or linked), they reach the runtime.
 *
 *   calltrace_snapshot("why")   record --flight: write a snapshot of every
 *                               thread's last events now (DIR/snapshot.N/),
 *                               returning once it is written (at most a few
 *                               seconds); otherwise only a mark
 *   calltrace_mark("i=%d", i)   a mark with this text in the thread's
 *                               stream: `replay` shows it as a comment
 *                               line, the Chrome and Perfetto exports as an
 *                               instant event
 *   calltrace_off()             no new calls recorded from here, in every
 *   calltrace_on()              thread of the process, until calltrace_on()
 *                               (as the trace_off / trace_on triggers; with
 *                               `record --trace=off`, calltrace_on() starts)
 *
 * The runtime's functions are weak references here, resolved when the
 * runtime is loaded.  In a non-PIE executable the linker resolves an
 * undefined weak reference to 0 for good: link such a program with
 * -Wl,-z,dynamic-undefined-weak (or build it as PIE, the default of most
 * distributions).  The wrappers are never traced themselves.
 */
#ifndef CALLTRACE_CALLTRACE_H
#define CALLTRACE_CALLTRACE_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* the runtime's entry points: use the wrappers below */
extern void __calltrace_snapshot(const char *reason) __attribute__((weak));
extern void __calltrace_vmark(const char *fmt, va_list ap) __attribute__((weak));
extern void __calltrace_on(void) __attribute__((weak));
extern void __calltrace_off(void) __attribute__((weak));

#if defined(__has_attribute)
#if __has_attribute(patchable_function_entry)
#define CALLTRACE_API_NOTRACE_ \
	__attribute__((no_instrument_function, patchable_function_entry(0, 0)))
#endif
#endif
#ifndef CALLTRACE_API_NOTRACE_
#define CALLTRACE_API_NOTRACE_ __attribute__((no_instrument_function))
#endif

/* record --flight: a snapshot now, with this reason (at most 63 bytes are
 * kept; "program: REASON" in its info).  Async-signal-safe. */
static inline CALLTRACE_API_NOTRACE_ void calltrace_snapshot(const char *reason)
{
	if (__calltrace_snapshot)
		__calltrace_snapshot(reason);
}

/* a mark in this thread's stream, its text formatted as by printf (at most
 * 255 bytes are kept).  Formats with vsnprintf: not async-signal-safe. */
static inline CALLTRACE_API_NOTRACE_ __attribute__((format(printf, 1, 2))) void
calltrace_mark(const char *fmt, ...)
{
	if (__calltrace_vmark) {
		va_list ap;
		va_start(ap, fmt);
		__calltrace_vmark(fmt, ap);
		va_end(ap);
	}
}

/* tracing on / off from here, in every thread of the process */
static inline CALLTRACE_API_NOTRACE_ void calltrace_on(void)
{
	if (__calltrace_on)
		__calltrace_on();
}

static inline CALLTRACE_API_NOTRACE_ void calltrace_off(void)
{
	if (__calltrace_off)
		__calltrace_off();
}

#ifdef __cplusplus
}
#endif

#endif
