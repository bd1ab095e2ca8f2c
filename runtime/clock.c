/* SPDX-License-Identifier: MIT */
/*
 * The clock: the TSC where it can be read (ct_clock, internal.h), else
 * CLOCK_MONOTONIC (ct_clock_mono, in stream.c where the buffer switch
 * inlines it); whether this process may read the TSC (PR_SET_TSC), the
 * TSC's rate noted for a child that cannot, and the process's start point
 * against CLOCK_MONOTONIC and CLOCK_REALTIME.
 */
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static uint64_t start_mono; /* CLOCK_MONOTONIC at ct_cfg.start_clock */

/* the process's start point (its .proc file's "clock" line): the clock and
 * CLOCK_MONOTONIC now, the latter returned */
uint64_t ct_clock_start(void)
{
	ct_cfg.start_clock = ct_clock();
	start_mono = ct_clock_mono();
	return start_mono;
}

/* CLOCK_REALTIME in ns */
uint64_t ct_clock_realtime(void)
{
	struct timespec ts;
	if (ct_cfg.clock_vdso)
		clock_gettime(CLOCK_REALTIME, &ts);
	else /* the TSC is disabled: the vDSO would fault */
		syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* PR_SET_TSC (inherited across fork and exec) makes rdtsc fault in this
 * process, and the vDSO's clock_gettime with it.  Until this check, the
 * clock is CLOCK_MONOTONIC by system call (a hook may run before start-up);
 * after it, the vDSO's, unless the TSC is disabled */
static bool tsc_disabled;

void ct_clock_check_tsc(void)
{
	int v = 0;
	tsc_disabled = prctl(PR_GET_TSC, &v, 0, 0, 0) == 0 && v == PR_TSC_SIGSEGV;
	__atomic_store_n(&ct_cfg.clock_vdso, !tsc_disabled, __ATOMIC_RELAXED);
}

/* the TSC's rate and a point of it against CLOCK_MONOTONIC, taken while a
 * thread still has the TSC (ct_thread_stop), over at least a millisecond
 * since the process started */
static bool rate_noted;

void ct_clock_note_rate(void)
{
	if (rate_noted || !ct_cfg.use_tsc)
		return;
	uint64_t tsc, mono;
	do {
		tsc = ct_clock();
		mono = ct_clock_mono();
	} while (mono - start_mono < 1000 * 1000);
	if (tsc <= ct_cfg.start_clock)
		return;
	ct_cfg.synth_mult = (uint64_t)(((unsigned __int128)(tsc - ct_cfg.start_clock) << 32) /
				       (mono - start_mono));
	ct_cfg.synth_tsc0 = tsc;
	ct_cfg.synth_mono0 = mono;
	rate_noted = true;
}

/* then the TSC cannot be the clock, and the trampolines stay off their fast
 * paths (they read it).  In a child forked by a thread that noted the
 * TSC's rate, CLOCK_MONOTONIC is turned into TSC ticks; else its times are
 * nanoseconds */
void ct_clock_no_tsc(void)
{
	if (!tsc_disabled)
		return;
	if (ct_cfg.use_tsc && rate_noted) {
		ct_cfg.tsc_synth = true;
		ct_log("the TSC is disabled in this process (PR_SET_TSC): its times are "
		       "CLOCK_MONOTONIC, scaled to the TSC's rate measured in its parent");
	} else if (ct_cfg.use_tsc) {
		ct_log("the TSC is disabled in this process (PR_SET_TSC): its times are "
		       "CLOCK_MONOTONIC nanoseconds (record --clock=mono to compare them "
		       "with other processes')");
	}
	ct_cfg.use_tsc = false;
}
