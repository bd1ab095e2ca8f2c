/* SPDX-License-Identifier: MIT */
/*
 * Shared by the end-to-end test programs.  Every traced function is
 * NOINLINE and has a side effect on a volatile sink, so that gcc and clang
 * keep each call at -O2 as well as -O0, and the call trees (and hence the
 * golden files) are the same for every compiler and level.  noclone keeps
 * gcc from making .constprop/.isra copies whose names would differ.
 */
#ifndef CT_TEST_H
#define CT_TEST_H

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

/* not traced: helpers of the test itself (also without -pg's mcount and
 * -fpatchable-function-entry's nops) */
#define NOTRACE __attribute__((no_instrument_function, patchable_function_entry(0, 0)))

static volatile int sink;

#endif
