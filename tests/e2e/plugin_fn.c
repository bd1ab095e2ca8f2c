/* plugin_fn: a test plugin (tests/e2e/plugin_api.sh) with only the
 * cheapest callback, calltrace_plugin_enter_fn, built with the variant's
 * flags: its own function, called from the callback, is instrumented and
 * must not be traced.  At exit it writes how often each function was
 * entered, "NAME,COUNT" sorted like csv_calls, for report's counts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltrace/plugin.h"

CALLTRACE_PLUGIN_DEFINE_ABI;

#define SLOTS 256

static FILE *out;
static struct {
	const void *fn;
	unsigned long n;
} slot[SLOTS];
static unsigned long lost;

/* instrumented: called from the callback (two threads: atomics) */
__attribute__((noinline)) void fn_count(const void *fn)
{
	size_t i = ((uintptr_t)fn >> 4) % SLOTS;
	for (size_t k = 0; k < SLOTS; k++, i = (i + 1) % SLOTS) {
		const void *expect = NULL;
		if (__atomic_load_n(&slot[i].fn, __ATOMIC_ACQUIRE) == fn ||
		    __atomic_compare_exchange_n(&slot[i].fn, &expect, fn, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE) ||
		    expect == fn) {
			__atomic_fetch_add(&slot[i].n, 1, __ATOMIC_RELAXED);
			return;
		}
	}
	__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
}

int calltrace_plugin_init(const char *args)
{
	out = fopen(args, "w");
	return out ? 0 : 1;
}

void calltrace_plugin_enter_fn(const void *fn)
{
	fn_count(fn);
}

void calltrace_plugin_fini(void)
{
	for (size_t i = 0; i < SLOTS; i++) {
		if (!slot[i].fn)
			continue;
		const char *name = calltrace_plugin_name(slot[i].fn);
		if (name)
			fprintf(out, "%s,%lu\n", name, slot[i].n);
		else
			fprintf(out, "%p,%lu\n", slot[i].fn, slot[i].n);
	}
	if (lost)
		fprintf(out, "lost,%lu\n", lost);
	fclose(out);
}
