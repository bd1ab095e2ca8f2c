/* SPDX-License-Identifier: MIT */
/*
 * The spec files `record` writes for the runtime, matched against every
 * module's function names before the program runs: DIR/filter.spec
 * (recfilter.c, read by runtime/filter.c) and DIR/plugin.spec (plugopt.c,
 * read by runtime/plugin.c).  What both write the same way: the file
 * (private, new, never through a link), a text field, and a module's line
 * with its symbol table.
 */
#ifndef CT_SPECOUT_H
#define CT_SPECOUT_H

#include <stddef.h>
#include <stdio.h>

struct ct_error;
struct ct_modfound;
struct ct_symtab;

/* DIR/NAME made for writing (its path into path), relative to dfd (DIR
 * open, or -1: by path); NULL with err filled */
FILE *ct_specout_create(const char *dir, int dfd, const char *name, char *path, size_t pathlen,
			struct ct_error *err);
/* a text field: "-" when empty, bytes <= ' ', '%' and DEL as %XX */
void ct_specout_text(FILE *f, const char *s);
/* module m's symbol table (names and values) after its line "module
 * BUILDID PATH" is written; NULL when it has none: *rc 0 (a library: left
 * out) or -1 with err filled (the program, or a module named on the
 * command line) */
struct ct_symtab *ct_specout_module(FILE *f, const struct ct_modfound *m, struct ct_error *err,
				    int *rc);

#endif
