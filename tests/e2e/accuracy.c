/* SPDX-License-Identifier: MIT */
/* accuracy: two traced functions that do the same work through the same
 * calls (tests/e2e/accuracy.sh).  split() makes 100 calls of the traced
 * tiny(); whole() makes 100 calls of tiny_plain(), the same code untraced.
 * Untraced, the two take the same time: the only difference is the hooks
 * of tiny's 100 calls, which land inside split's recorded time and which
 * the correction must take out.  main calls them in turn, PAIRS times each,
 * so that whatever the machine does to one it does to the other. */
#include "ct_test.h"

#define PAIRS 2000
#define CALLS 100
/* tiny's work: some 70 ns, against 20 to 40 ns of hooks (the more in the
 * hooked front ends).  The loop is assembly (the same at every -O level),
 * aligned (both copies alike: a loop across a 32-byte line ran slower)
 * and fenced (lfence) so that the hooks cannot run in its shadow: out of
 * order, a core overlaps them with the loop's last turns by an amount that
 * depends on what else shares the core, which made their cost per call
 * vary from 5 to 29 ns on a busy machine, within one run; fenced, it is
 * exposed in full every time */
#define TURNS 200

#define spin(n)                                                                                    \
	do {                                                                                       \
		unsigned long n_ = (n);                                                            \
		__asm__ volatile("lfence\n\t.p2align 5\n1:\tdec %0\n\tjnz 1b\n\tlfence" : "+r"(n_));    \
	} while (0)

NOINLINE void tiny(void)
{
	spin(TURNS);
}

/* tiny's code, not traced (no hooks, no mcount, no patched entry) */
NOTRACE NOINLINE void tiny_plain(void)
{
	spin(TURNS);
}

NOINLINE void split(void)
{
	for (int i = 0; i < CALLS; i++)
		tiny();
	sink++;
}

NOINLINE void whole(void)
{
	for (int i = 0; i < CALLS; i++)
		tiny_plain();
	sink++;
}

int main(void)
{
	for (int i = 0; i < PAIRS; i++) {
		split();
		whole();
	}
	return 0;
}
