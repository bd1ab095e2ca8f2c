/* SPDX-License-Identifier: MIT */
/*
 * `record -F/-N/--hide/-D/-t`: filters decided before the run.  The regexes
 * are matched against the (demangled) function names of the modules the
 * program will trace (modfind.h), and the decisions written to
 * DIR/filter.spec, which the runtime loads (runtime/filter.c has the
 * format).  Same spelling and meaning as the views' filters (filter.h).
 */
#ifndef CT_RECFILTER_H
#define CT_RECFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_error;

struct ct_recfilter {
	char **inc, **exc, **hide; /* -F, -N, --hide regexes */
	size_t ninc, nexc, nhide;
	uint32_t max_depth;        /* -D; 0 none */
	uint64_t min_time;         /* -t, ns; 0 none */
	char **libs;               /* --args-lib / --module: more modules */
	size_t nlibs;
};

/* any filter given? */
bool ct_recfilter_active(const struct ct_recfilter *f);
/* one of the options 'F', 'N', 'H' (--hide), 'D', 't' with its argument:
 * checked now (a bad regex, depth or time is a usage error: message,
 * -1) */
int ct_recfilter_option(struct ct_recfilter *f, int opt, const char *arg);
/* the options as one line, for info and the summary (malloc'd) */
char *ct_recfilter_describe(const struct ct_recfilter *f);
/* match against the modules of prog and write DIR/filter.spec into path;
 * hz: the recording clock's ticks per second.  0, or -1 with err. */
int ct_recfilter_prepare(const struct ct_recfilter *f, const char *prog, const char *dir,
			 double hz, char *path, size_t pathlen, struct ct_error *err);
void ct_recfilter_free(struct ct_recfilter *f);

#endif
