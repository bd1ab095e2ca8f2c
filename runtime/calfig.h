/* SPDX-License-Identifier: MIT */
/*
 * The calibration's figures from its timed batches (runtime/calfig.c).
 * Each round times a batch of calls of an empty function untraced (plain)
 * and traced, back to back on the same call sites, and sums the traced
 * calls' inner times from their records (UINT64_MAX: the batch was
 * interrupted, a record other than a plain ENTER or EXIT was written).
 */
#ifndef CT_CALFIG_H
#define CT_CALFIG_H

#include <stdbool.h>
#include <stdint.h>

#define CT_CAL_MAX_ROUNDS 64

/* the median of v[0..n) (n > 0; sorts v) */
uint64_t ct_cal_median(uint64_t *v, int n) __attribute__((visibility("hidden")));

/* over the rounds that were not interrupted: *inner_out, the median of the
 * inner sums, and *outer_out, the median of the differences traced - plain
 * (at least 0, and at least *inner_out: the inner part is in the outer
 * one).  False, and nothing set, when half the n rounds or more were
 * interrupted (n at most CT_CAL_MAX_ROUNDS) */
bool ct_cal_figures(const uint64_t *plain, const uint64_t *traced, const uint64_t *inner, int n,
		    uint64_t *inner_out, uint64_t *outer_out) __attribute__((visibility("hidden")));

#endif
