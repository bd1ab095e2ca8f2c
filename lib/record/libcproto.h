/* SPDX-License-Identifier: MIT */
/*
 * Prototypes of common C library functions, for `record -a` on library
 * calls (doc/libcall.md): they have no DWARF of their own in most
 * installations, so their arguments and return values come from this table
 * (-A/-R override it, as they override DWARF).
 */
#ifndef CT_LIBCPROTO_H
#define CT_LIBCPROTO_H

#include <stddef.h>

struct ct_libc_proto {
	const char *name;
	const char *args; /* -A's items after the '@', or NULL */
	const char *ret;  /* -R's items, or NULL */
};

extern const struct ct_libc_proto ct_libc_protos[];
extern const size_t ct_nlibc_protos;

#endif
