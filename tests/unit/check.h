/* SPDX-License-Identifier: MIT */
/* Minimal checks for the unit tests: one line per failure, then a summary
 * "N passed, N failed"; the exit status is non-zero on failure. */
#ifndef CT_TEST_CHECK_H
#define CT_TEST_CHECK_H

#include <stdio.h>

static int ct_pass, ct_fail;

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		if (cond) {                                                    \
			ct_pass++;                                             \
		} else {                                                       \
			ct_fail++;                                             \
			printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

static inline int check_done(void)
{
	printf("%d passed, %d failed\n", ct_pass, ct_fail);
	return ct_fail ? 1 : 0;
}

#endif
