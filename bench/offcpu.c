/* SPDX-License-Identifier: MIT */
/*
 * bench/offcpu.sh's program: work() sleeps 50 ms (nanosleep) and then
 * spins until its thread has had 50 ms of CPU time, inside one call; the
 * truth is 50/50.  It prints its own view of the call too: its thread's
 * CPU time across work() (on a CPU) and the wall time less that (off a
 * CPU: the sleep, and any preemption a loaded machine adds), by the
 * clocks CLOCK_THREAD_CPUTIME_ID and CLOCK_MONOTONIC, read outside the
 * traced call.
 */
#include <stdio.h>
#include <time.h>

static volatile unsigned long sink;

__attribute__((no_instrument_function)) static double ms_of(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

__attribute__((noinline)) void work(void)
{
	struct timespec ts = {0, 50000000L};
	while (nanosleep(&ts, &ts))
		;
	double c0 = ms_of(CLOCK_THREAD_CPUTIME_ID);
	while (ms_of(CLOCK_THREAD_CPUTIME_ID) - c0 < 50)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

int main(void)
{
	double w0 = ms_of(CLOCK_MONOTONIC), c0 = ms_of(CLOCK_THREAD_CPUTIME_ID);
	work();
	double c = ms_of(CLOCK_THREAD_CPUTIME_ID) - c0, w = ms_of(CLOCK_MONOTONIC) - w0;
	fprintf(stderr, "offcpu: own clocks: %.3f ms, on CPU %.3f ms, off CPU %.3f ms\n", w, c,
		w - c);
	return 0;
}
