/* SPDX-License-Identifier: MIT */
/* The calibration's arithmetic (runtime/calfig.c): the figures from
 * synthetic rounds of timed batches, with an interrupted batch, a
 * preempted one, noise that inverts inner and outer, and too many
 * interrupted rounds.  Linked with the runtime's own calfig.o. */
#include <inttypes.h>
#include <stdint.h>

#include "calfig.h"
#include "check.h"

#define X UINT64_MAX

int main(void)
{
	/* medians: odd and even counts, unsorted input */
	uint64_t a[] = {5, 1, 9, 3, 7};
	CHECK(ct_cal_median(a, 5) == 5, "odd: %" PRIu64, ct_cal_median(a, 5));
	uint64_t b[] = {8, 2, 6, 4};
	CHECK(ct_cal_median(b, 4) == 5, "even: %" PRIu64, ct_cal_median(b, 4));
	uint64_t c[] = {42};
	CHECK(ct_cal_median(c, 1) == 42, "one");

	/* 7 rounds: the traced batch costs 4000 ticks more than the plain one,
	 * inner sums near 1500; round 2 was preempted (its traced batch took
	 * 90000 more), round 4 interrupted (no inner sum): neither moves the
	 * figures, as a mean would */
	uint64_t plain[] = {10000, 10100, 9900, 10000, 10050, 9950, 10000};
	uint64_t traced[] = {14000, 14150, 100000, 13900, 14000, 13950, 14100};
	uint64_t inner[] = {1500, 1490, 1510, 1505, X, 1495, 1500};
	uint64_t in = 0, out = 0;
	CHECK(ct_cal_figures(plain, traced, inner, 7, &in, &out), "figures");
	/* differences of the 6 uninterrupted rounds: 4000 4050 90100 3900
	 * 4000 4100 -> median 4025; inner 1500 1490 1510 1505 1495 1500 ->
	 * 1500 */
	CHECK(in == 1500 && out == 4025, "inner %" PRIu64 " outer %" PRIu64, in, out);

	/* noise: a traced batch faster than the plain one counts as 0, and
	 * outer is never below inner */
	uint64_t p2[] = {5000, 5000, 5000};
	uint64_t t2[] = {4900, 5100, 5200};
	uint64_t i2[] = {300, 300, 300};
	CHECK(ct_cal_figures(p2, t2, i2, 3, &in, &out) && in == 300 && out == 300,
	      "raised to inner: %" PRIu64 " %" PRIu64, in, out);

	/* half the rounds interrupted or more: no figures, nothing written */
	uint64_t i3[] = {X, 1500, X, X};
	in = out = 7;
	CHECK(!ct_cal_figures(plain, traced, i3, 4, &in, &out) && in == 7 && out == 7,
	      "too many interrupted");
	uint64_t i4[] = {X, X};
	CHECK(!ct_cal_figures(plain, traced, i4, 2, &in, &out), "all interrupted");
	/* exactly half kept is enough */
	uint64_t i5[] = {1500, 1600, X, X};
	CHECK(ct_cal_figures(plain, traced, i5, 4, &in, &out) && in == 1550 && out == 4025,
	      "half: %" PRIu64 " %" PRIu64, in, out);
	return check_done();
}
