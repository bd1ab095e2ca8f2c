/* SPDX-License-Identifier: MIT */
/* The floor of a tracer's hook: the cost of reading the time-stamp counter.
 * Times READS back-to-back rdtsc (and rdtscp, and clock_gettime for
 * comparison) against CLOCK_MONOTONIC.  Output, one "key value" a line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long reads = argc > 1 ? atol(argv[1]) : 10000000L;
	volatile uint64_t sink = 0;
	double best_rdtsc = 1e30, best_rdtscp = 1e30, best_cgt = 1e30;
	for (int rep = 0; rep < 3; rep++) {
#ifdef HAVE_TSC
		double t0 = now_ns();
		uint64_t acc = 0;
		for (long i = 0; i < reads; i++)
			acc += __rdtsc();
		double t1 = now_ns();
		unsigned aux;
		for (long i = 0; i < reads; i++)
			acc += __rdtscp(&aux);
		double t2 = now_ns();
		sink = acc;
		if ((t1 - t0) / reads < best_rdtsc)
			best_rdtsc = (t1 - t0) / reads;
		if ((t2 - t1) / reads < best_rdtscp)
			best_rdtscp = (t2 - t1) / reads;
#endif
		struct timespec ts;
		double t3 = now_ns();
		for (long i = 0; i < reads; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			sink += ts.tv_nsec;
		}
		double t4 = now_ns();
		if ((t4 - t3) / reads < best_cgt)
			best_cgt = (t4 - t3) / reads;
	}
	(void)sink;
#ifdef HAVE_TSC
	double c0 = now_ns();
	uint64_t k0 = __rdtsc();
	struct timespec d = {0, 100000000};
	nanosleep(&d, NULL);
	uint64_t k1 = __rdtsc();
	double c1 = now_ns();
	printf("tsc_hz %.0f\n", (k1 - k0) / (c1 - c0) * 1e9);
	printf("rdtsc_ns %.2f\n", best_rdtsc);
	printf("rdtscp_ns %.2f\n", best_rdtscp);
#else
	printf("rdtsc_ns -\nrdtscp_ns -\n");
#endif
	printf("clock_gettime_ns %.2f\n", best_cgt);
	printf("reads %ld\n", reads);
	return 0;
}
