/* SPDX-License-Identifier: MIT */
/* record -A/-R/-a: DIR/args.spec from the options (argrecord.c), argument
 * types from DWARF (dwarfargs.c).  The recording side of argument capture;
 * the reading side (specs, formatting) is lib/args/argspec.h. */
#ifndef CT_ARGRECORD_H
#define CT_ARGRECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "argspec.h"

struct ct_args_opts {
	char **A, **R; /* -A and -R options */
	size_t nA, nR;
	bool autoargs; /* -a: every function, from DWARF */
	char **libs;   /* --args-lib: more modules (dlopen'ed ones) */
	size_t nlibs;
	unsigned strmax; /* --str-max, 0: default */
};

/* an -A/-R option: FUNC_REGEX@ITEM[,ITEM...] (ct_aspec_from_opt), or
 * FUNC_REGEX alone or FUNC_REGEX@auto-args (*autos: the types from DWARF,
 * spec left empty); *re the regex, malloc'd.  0, or -1 with err filled */
int ct_args_parse_opt(const char *opt, bool ret, char **re, struct ct_aspec *spec, bool *autos,
		      struct ct_error *err);

/* an -A/-R option without argument items: FUNC_REGEX alone or
 * FUNC_REGEX@auto-args (the types, and on aarch64 the places, from DWARF) */
bool ct_args_opt_auto(const char *opt);

/* -a: add a spec for every function of the module at path that has DWARF
 * (dwarfargs.c); st is its symbol table.  A module without DWARF is a
 * warning into warn. */
struct ct_symtab;
struct ct_msgs;
int ct_dwarf_specs(const char *path, struct ct_argtab *t, struct ct_amodule *m,
		   const struct ct_symtab *st, struct ct_msgs *warn, struct ct_error *err);

/* write DIR/args.spec (dfd: DIR open, or -1) for the program prog (as
 * execvp finds it); its path in specpath.  0 (the warnings, a -A or -R
 * that matched no function say, into warn), or -1 with a message in err. */
int ct_args_prepare(const struct ct_args_opts *o, const char *prog, const char *dir, int dfd,
		    char *specpath, size_t splen, struct ct_msgs *warn, struct ct_error *err);

#endif
