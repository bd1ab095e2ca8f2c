/* SPDX-License-Identifier: MIT */
/*
 * Where each patched function's code ends, for record --count --sample on
 * aarch64 (count.c ct_count_sample).  A function that makes no frame of
 * its own runs at its caller's stack pointer, which is its CFA; so does
 * its caller once it has returned: a sample tells the two apart by the
 * interrupted pc, inside the function's code or not.  (On x86-64 the
 * return address a call pushes keeps a running function's stack pointer
 * below its CFA: no such question.)
 *
 * Per module, the sorted starts of its functions: its patched entries and
 * its symbol table's functions (those without an entry of their own, so
 * that an untraced function between two traced ones ends the first); a
 * function ends where the next starts.  patch.c adds a module as it
 * patches it, before any of its functions can be counted; the signal
 * handler reads the tables without a lock (a table is whole before its
 * pointer is published, and never freed: a module unloaded keeps its few
 * words, as the patch's jump stubs do).
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "internal.h"

#define MAX_MODULES 256

struct starts {
	uintptr_t lo, hi;   /* the module's code */
	const uintptr_t *v; /* published last (release) */
	size_t n;
};

static struct starts mods[MAX_MODULES];
static uint32_t nmods; /* reserved entries */

static int cmp_addr(const void *a, const void *b)
{
	uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
	return x < y ? -1 : x > y;
}

void ct_fnextent_add(uintptr_t lo, uintptr_t hi, const uintptr_t *entries, size_t nentries,
		     const uintptr_t *syms, size_t nsyms)
{
	if (lo >= hi || nentries + nsyms == 0)
		return;
	size_t len = (nentries + nsyms) * sizeof(uintptr_t);
	uintptr_t *v = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (v == MAP_FAILED)
		return; /* its frameless functions' samples go to their callers */
	size_t n = 0;
	for (size_t i = 0; i < nentries; i++)
		if (entries[i] >= lo && entries[i] < hi)
			v[n++] = entries[i];
	for (size_t i = 0; i < nsyms; i++)
		if (syms[i] >= lo && syms[i] < hi)
			v[n++] = syms[i];
	qsort(v, n, sizeof(*v), cmp_addr);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || v[i] != v[k - 1])
			v[k++] = v[i];
	uint32_t i = __atomic_fetch_add(&nmods, 1, __ATOMIC_RELAXED);
	if (i >= MAX_MODULES || k == 0) {
		munmap(v, len);
		return;
	}
	mprotect(v, len, PROT_READ);
	mods[i].lo = lo;
	mods[i].hi = hi;
	mods[i].n = k;
	__atomic_store_n(&mods[i].v, v, __ATOMIC_RELEASE);
}

/* is pc in the code of the function that holds the address at (a call's
 * site, within the function's entry)?  false when no table says */
bool ct_fnextent_within(uintptr_t at, uintptr_t pc)
{
	uint32_t n = __atomic_load_n(&nmods, __ATOMIC_RELAXED);
	if (n > MAX_MODULES)
		n = MAX_MODULES;
	for (uint32_t m = 0; m < n; m++) {
		const uintptr_t *v = __atomic_load_n(&mods[m].v, __ATOMIC_ACQUIRE);
		if (!v || at < mods[m].lo || at >= mods[m].hi)
			continue;
		/* the last start at or before at */
		size_t lo = 0, hi = mods[m].n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (v[mid] <= at)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0)
			return false;
		uintptr_t start = v[lo - 1], end = lo < mods[m].n ? v[lo] : mods[m].hi;
		return pc >= start && pc < end;
	}
	return false;
}
