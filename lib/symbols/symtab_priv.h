/* SPDX-License-Identifier: MIT */
/*
 * What symtab.c (reading tables, the .sym format) shares with symsave.c
 * (saving a recording's tables, the per-user cache); not for the views.
 */
#ifndef CT_SYMTAB_PRIV_H
#define CT_SYMTAB_PRIV_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"

/* err->msg from a format, made safe for a terminal; err may be NULL */
/* the separate debug file of a build-id (malloc'd), or NULL */
char *ct_debug_file_path(const char *buildid);
/* a .sym field: spaces, control bytes, DEL and '%' as %XX; and back
 * (malloc'd) */
void ct_sym_put_enc(FILE *f, const char *s);
char *ct_sym_dec(const char *s, size_t n);
/* a new file, mode 0600, never through a link (a stale one is replaced) */
FILE *ct_sym_fopen_private(const char *path);

#endif
