/* SPDX-License-Identifier: MIT */
/* bench/args.sh, part 2: the cost of runtime/args.c alone, in process: the
 * look-up of a function and the ARGS and RETVAL records of two integer
 * arguments and a return value, written into a buffer of the size the
 * runtime uses, without the front end's own work.  Linked with the
 * runtime's objects; prints ns per call (entry + return). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "internal.h"

static uint64_t ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: args_micro SPECFILE N\n");
		return 2;
	}
	long n = atol(argv[2]);
	setenv(CT_ENV_ARGS, argv[1], 1);
	ct_args_init();
	if (!ct_args_enabled) {
		fprintf(stderr, "args_micro: %s not loaded\n", argv[1]);
		return 1;
	}
	/* the spec file names module "micro" with a function at offset 0x1000 */
	uintptr_t base = 0x400000;
	ct_args_module(base, "micro", "-", true);
	size_t bufsize = 256 * 1024;
	char *buf = malloc(bufsize + 65536);
	struct ct_tstate *t = &ct_self;
	struct ct_arch_regs r;
	struct ct_arch_retregs rr;
	memset(&r, 0, sizeof(r));
	memset(&rr, 0, sizeof(rr));
	uintptr_t fn = base + 0x1000;
	uint64_t best = UINT64_MAX;
	for (int round = 0; round < 5; round++) {
		uint64_t t0 = ns();
		for (long i = 0; i < n; i++) {
			/* the buffer is reused, as the runtime's ring is */
			if (t->cur == 0 || t->cur + 64 > (uintptr_t)buf + bufsize)
				t->cur = (uintptr_t)buf;
			t->limit = (uintptr_t)buf + bufsize;
			r.gp[0] = (uint64_t)i;
			r.gp[1] = 18;
			if (ct_args_entry(t, fn, &r) & CT_ARGS_WANT_RET) {
				rr.ret = (uint64_t)i;
				ct_args_exit(t, fn, &rr);
			}
		}
		uint64_t d = ns() - t0;
		if (d < best)
			best = d;
	}
	printf("%.1f\n", (double)best / (double)n);
	return 0;
}
