/* SPDX-License-Identifier: MIT */
/*
 * A forked child (pthread_atfork, or a raw clone without CLONE_VM found at
 * a buffer switch): its own .proc file and rings, its one thread's stream
 * begun with the frames it inherited.
 */
#include <pthread.h>

#include "count.h"
#include "internal.h"

static void after_fork_child(void)
{
	if (ct_cfg.state != CT_RT_ACTIVE)
		return;
	struct ct_tstate *t = &ct_self;
	if (t->off == CT_UNTRACED_SECCOMP + 1 || ct_cfg.stop_all) {
		/* the filter came along: no system call of ours may be allowed */
		ct_untraced(CT_UNTRACED_SECCOMP);
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	if (t->off) {
		/* the forking thread had stopped tracing (its TSC disabled, its
		 * state shared with a clone child): this new process's one
		 * thread has state of its own and may trace again, with the
		 * monotonic clock if the TSC still is disabled */
		if (t->off == CT_UNTRACED_TSC + 1) {
			ct_clock_check_tsc();
			ct_clock_no_tsc();
			ct_hook_modes();
		}
		t->off = 0;
		t->busy = 0;
		t->state = CT_TS_ACTIVE; /* a new ring, below */
	}
	int ppid = ct_cfg.pid;
	ct_proc_file_close();
	ct_rings_forget_all();
	t->cal_cpu = 0; /* its new stream starts with the .proc file's figures */
	/* record gone: this child is not traced (no .proc file, no ring) */
	if (ct_recorder_gone(true)) {
		ct_cfg.state = CT_RT_OFF;
		ct_thread_after_fork(&ct_self); /* frames open at the fork are let go */
		if (ct_count_on)
			ct_count_after_fork();
		return;
	}
	if (!ct_proc_file_start()) {
		/* after setuid, say: the child cannot make its files.  Its one
		 * thread's ring was the parent's, unmapped just now */
		ct_cfg.state = CT_RT_OFF;
		ct_thread_orphaned(t);
		return;
	}
	ct_proc_printf("fork %lu %d", (unsigned long)ct_clock(), ppid);
	ct_filt_after_fork();
	if (ct_count_on)
		ct_count_after_fork();
	ct_thread_after_fork(&ct_self);
}

void ct_process_after_fork(void)
{
	after_fork_child();
}

/* at start-up, once */
void ct_fork_init(void)
{
	pthread_atfork(NULL, NULL, after_fork_child);
}

/* a forked child's stream begins with the frames it inherited: listed in
 * one FRAMES record, so that readers show them as entered before the
 * stream and do not count them as calls again (doc/format.md); a stack
 * deeper than one FRAMES lists is entered again as before */
static void enter_inherited(struct ct_tstate *t)
{
	if (ct_filt_recorded(t, 0, t->depth) > CT_FRAMES_MAX) {
		ct_reenter_frames(t, 0);
		return;
	}
	ct_put_time(t, ct_clock());
	ct_put_frames(t);
	t->hi = UINT64_MAX; /* an HI before the next ENTER */
}

/* in a forked child: the ring belongs to the parent.  Start a new one and
 * open the frames that are open at the fork again, so the child's stream is
 * a whole tree of its own. */
void ct_thread_after_fork(struct ct_tstate *t)
{
	t->ring = NULL;
	t->bufs = NULL;
	t->cur = t->limit = 0;
	t->ndepth = 0;
	t->nested_lost = 0;
	ct_sample_after_fork(t); /* its timer was the parent's */
	if (t->state != CT_TS_ACTIVE)
		return;
	t->state = CT_TS_NONE;
	t->busy++;
	if (ct_cfg.state == CT_RT_ACTIVE)
		ct_thread_start(t);
	if (t->ring)
		enter_inherited(t);
	else
		ct_thread_untrace(t); /* its stack still says where frames return */
	t->busy--;
}
