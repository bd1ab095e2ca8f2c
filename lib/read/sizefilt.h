/* SPDX-License-Identifier: MIT */
/*
 * -Z SIZE / --size-filter=SIZE (uftrace's size filter): the functions
 * whose code is smaller than SIZE bytes are left out, as --hide leaves
 * them out: their own frames go, what they call shows under the nearest
 * shown caller.  The size is the function's symbol's (st_size in the ELF
 * symbol table, from the binary or the copy saved in the recording).
 * A function of unknown size (a library call, an address no symbol
 * starts at, a symbol of size 0) is shown.
 *
 * The views mark the functions in lib/read/filter.c (struct ct_func's
 * hide); record writes them into the filter file as --hide's
 * (lib/record/recfilter.c), so that the hooked front ends leave them
 * unhooked.  Library calls are not size-filtered, in either.
 */
#ifndef CT_SIZEFILT_H
#define CT_SIZEFILT_H

#include <stdbool.h>
#include <stdint.h>

struct ct_error;
struct ct_session;
struct ct_msgs;

/* SIZE: a whole number of bytes, with no unit or B, K/KB/KiB (1024),
 * M/MB/MiB; at least 1.  0, or -1 with err filled: "-Z: want ..." */
int ct_size_filter_parse(const char *arg, uint64_t *out, struct ct_error *err);

/* is a function of symbol size size (0: unknown) left out by -Z min? */
static inline bool ct_size_filtered(uint64_t min, uint64_t size)
{
	return min && size && size < min;
}

/* -Z needs each process's symbol sizes: 0 when every process of s has its
 * program's symbol table (from the file or saved in the recording), else
 * -1 with err filled naming the first that has none */
int ct_size_filter_check(struct ct_session *s, struct ct_error *err);

#endif
