/* SPDX-License-Identifier: MIT */
/*
 * How a module's code uses its GOT slots (runtime/libcall.c, -fno-plt):
 * the table arch/<arch>/lcstub.h's ct_lc_scan_code fills, sorted by slot.
 */
#ifndef CT_GOTUSE_H
#define CT_GOTUSE_H

#include <stdint.h>
#include <stdlib.h>

/* bit 0 of use: a call or jump through the slot; bit 1: anything else */
struct gotuse {
	uintptr_t slot;
	unsigned use;
};

static inline int cmp_gotuse(const void *a, const void *b)
{
	uintptr_t x = ((const struct gotuse *)a)->slot, y = ((const struct gotuse *)b)->slot;
	return x < y ? -1 : x > y;
}

static inline struct gotuse *got_find(struct gotuse *g, size_t n, uintptr_t at)
{
	struct gotuse key = {at, 0};
	return bsearch(&key, g, n, sizeof(*g), cmp_gotuse);
}

#endif
