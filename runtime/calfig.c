/* SPDX-License-Identifier: MIT */
/*
 * The calibration's figures from its timed batches (runtime/calibrate.c,
 * doc/overhead.md): pure arithmetic, unit-tested (tests/unit/test_calfig.c).
 */
#include "calfig.h"

/* the median of v[0..n) (n > 0; sorts v) */
uint64_t ct_cal_median(uint64_t *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t x = v[j];
			v[j] = v[j - 1];
			v[j - 1] = x;
		}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

bool ct_cal_figures(const uint64_t *plain, const uint64_t *traced, const uint64_t *inner, int n,
		    uint64_t *inner_out, uint64_t *outer_out)
{
	uint64_t in[CT_CAL_MAX_ROUNDS], diff[CT_CAL_MAX_ROUNDS];
	int k = 0;
	if (n > CT_CAL_MAX_ROUNDS)
		n = CT_CAL_MAX_ROUNDS;
	for (int i = 0; i < n; i++) {
		if (inner[i] == UINT64_MAX)
			continue;
		in[k] = inner[i];
		diff[k] = traced[i] > plain[i] ? traced[i] - plain[i] : 0;
		k++;
	}
	if (k == 0 || 2 * k < n)
		return false; /* most batches interrupted: no figures rather than wrong ones */
	uint64_t mi = ct_cal_median(in, k), outer = ct_cal_median(diff, k);
	/* the inner part is inside the outer one; only noise can invert them */
	if (outer < mi)
		outer = mi;
	*inner_out = mi;
	*outer_out = outer;
	return true;
}
