/* SPDX-License-Identifier: MIT */
/* The text of a read= trigger's values (record -T 'f@read=KIND',
 * doc/record.md): what replay shows of the CT_EXT_READ records of a call,
 * in the reference tool's words: the values read at its entry, and at its
 * exit their difference from those. */
#ifndef CT_READTEXT_H
#define CT_READTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* the entry values of the calls still open on one stream, by depth */
struct ct_reads {
	struct ct_read_at {
		size_t depth;
		unsigned kind, n;
		uint64_t v[3];
	} * e;
	size_t n, cap;
};

/* a CT_EXT_READ record (small argument arg, payload p of len words) read
 * with depth calls open: its text into buf ("read:proc/statm (size=6808KB,
 * rss=776KB, shared=712KB)"; at an exit whose entry values are known,
 * "diff:proc/statm (size=+4KB, rss=+0KB, shared=+0KB)").  False when the
 * record is not one of a known kind and size. */
bool ct_reads_text(struct ct_reads *r, size_t depth, unsigned arg, const unsigned char *p,
		   unsigned len, char *buf, size_t blen);
void ct_reads_free(struct ct_reads *r);

#endif
