/* SPDX-License-Identifier: MIT */
/*
 * The API a traced program calls (include/calltrace/calltrace.h): marks in
 * its stream, and snapshots of the flight recorder.  The header's inline
 * wrappers call these through weak references.
 */
#include <stdio.h> /* vsnprintf */
#include <string.h>
#include <time.h>

#include "internal.h"

CT_EXPORT void __calltrace_snapshot(const char *reason);
CT_EXPORT void __calltrace_on(void);
CT_EXPORT void __calltrace_off(void);
CT_EXPORT void __calltrace_vmark(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* a MARK record with text[0..n), after a TIME record that dates it */
void ct_put_mark(struct ct_tstate *t, const char *text, size_t n)
{
	uint32_t w[1 + (CT_MARK_MAX + 3) / 4];
	if (n > CT_MARK_MAX)
		n = CT_MARK_MAX;
	unsigned len = (unsigned)(n + 3) / 4;
	w[0] = ct_ext_word(CT_EXT_MARK, len, (unsigned)n);
	if (len)
		w[len] = 0;
	memcpy(w + 1, text, n);
	t->busy++;
	if (t->ring && t->cap) {
		if (t->fl_plo != CT_PEND_NONE)
			ct_filt_flush(t); /* inside the calls it is in */
		t->fl_epoch++;            /* -t never takes a mark back */
		ct_put_time(t, ct_clock());
		ct_put_words(t, w, 1 + len);
	}
	t->busy--;
}

/* a thread that may write now: set up, not inside one of its own hooks
 * (a signal handler that interrupted one), not stopped */
static struct ct_tstate *writer(void)
{
	struct ct_tstate *t = &ct_self;
	if (t->busy || !ct_thread_ready(t) || t->busy)
		return NULL;
	return t;
}

void __calltrace_vmark(const char *fmt, va_list ap)
{
	struct ct_tstate *t = writer();
	if (!t || !fmt)
		return;
	char text[CT_MARK_MAX + 1];
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	if (n < 0)
		return;
	ct_put_mark(t, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {0, ms * 1000 * 1000};
	nanosleep(&ts, NULL);
}

/* ask record (the doorbell) for a snapshot and wait until it is written:
 * at most about 5 s, never for a record that is gone */
static void ask_snapshot(const char *reason)
{
	struct ct_doorbell *db = ct_cfg.doorbell;
	for (int i = 0;; i++) {
		uint32_t free_ = 0;
		if (__atomic_compare_exchange_n(&db->snap_lock, &free_, 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		if (i >= 5000 || ct_recorder_gone(i >= 500))
			return;
		sleep_ms(1);
	}
	size_t n = 0;
	for (; reason[n] && n + 1 < sizeof(db->snap_reason); n++)
		db->snap_reason[n] = reason[n];
	db->snap_reason[n] = 0;
	uint32_t req = __atomic_add_fetch(&db->snap_req, 1, __ATOMIC_SEQ_CST);
	ct_ring_doorbell();
	for (int i = 0; i < 250; i++) {
		uint32_t done = __atomic_load_n(&db->snap_done, __ATOMIC_ACQUIRE);
		if (done == req || ct_recorder_gone(i >= 25))
			return;
		ct_futex_wait(&db->snap_done, done, 20 * 1000 * 1000);
	}
}

void __calltrace_snapshot(const char *reason)
{
	if (!reason)
		reason = "";
	struct ct_tstate *t = writer();
	if (t) {
		char text[CT_MARK_MAX + 1];
		size_t n = ct_fmt(text, sizeof(text), "snapshot: %s", reason);
		ct_put_mark(t, text, n);
	}
	if (ct_cfg.flight && ct_cfg.doorbell && ct_cfg.state == CT_RT_ACTIVE)
		ask_snapshot(reason);
}

/* the snapshot trigger (-T 'REGEX@snapshot'), in the entry hook of thread t
 * (busy held): a mark, and with --flight a snapshot */
void ct_api_snapshot_trigger(struct ct_tstate *t)
{
	static const char text[] = "snapshot: trigger";
	ct_put_mark(t, text, sizeof(text) - 1);
	if (ct_cfg.flight && ct_cfg.doorbell && ct_cfg.state == CT_RT_ACTIVE)
		ask_snapshot("trigger");
}

/* tracing on or off from here, in every thread of this process (a trigger
 * or a --signal may change it too); after a finish it stays off */
void __calltrace_on(void)
{
	if (!__atomic_load_n(&ct_filt_on, __ATOMIC_ACQUIRE) &&
	    __atomic_load_n(&ct_filt_gon, __ATOMIC_RELAXED))
		return; /* on already, and nothing filters */
	/* when: a mark in the stream of the thread that did it */
	struct ct_tstate *t = writer();
	if (!__atomic_exchange_n(&ct_filt_gon, 1, __ATOMIC_RELAXED) && t) {
		static const char text[] = "tracing on (calltrace_on)";
		ct_put_mark(t, text, sizeof(text) - 1);
	}
}

void __calltrace_off(void)
{
	struct ct_tstate *t = writer();
	if (__atomic_exchange_n(&ct_filt_gon, 0, __ATOMIC_RELAXED) && t) {
		static const char text[] = "tracing off (calltrace_off)";
		ct_put_mark(t, text, sizeof(text) - 1);
	}
	ct_filt_enable();
}
