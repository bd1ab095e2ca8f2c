/* SPDX-License-Identifier: MIT */
/*
 * `record --plugin=PATH[:ARGS]` and `--plugin-filter=REGEX` (doc/plugins.md):
 * checked before anything starts, then the plugin's table for the runtime,
 * DIR/plugin.spec (runtime/plugin.c has the format): each module's function
 * names, and which ones the filters select, decided now.
 */
#ifndef CT_PLUGOPT_H
#define CT_PLUGOPT_H

#include <stdbool.h>
#include <stddef.h>

struct ct_error;
struct ct_msgs;

struct ct_plugopt {
	char *path;     /* --plugin's PATH, absolute; NULL: no plugin */
	char *args;     /* its ARGS, or NULL */
	char **filters; /* --plugin-filter regexes (any one selects) */
	size_t nfilters;
};

enum {
	CT_PL_OPT = 0x2800, /* --plugin=PATH[:ARGS] */
	CT_PL_FILTER,       /* --plugin-filter=REGEX */
};

/* one of the options with its argument: a bad one is a usage error (-1
 * with err filled) */
int ct_plugopt_option(struct ct_plugopt *o, int opt, const char *arg, struct ct_error *err);
/* after all options: the plugin file checked (a usage error: -1 with err
 * filled) */
int ct_plugopt_check(const struct ct_plugopt *o, struct ct_error *err);
/* match the filters against the modules of prog (and libs) and write
 * DIR/plugin.spec (dfd: DIR open, or -1), its path into path; hz: the recording clock's ticks per second.
 * 0 (a filter that matched no function: a warning into warn), or -1 with
 * err. */
int ct_plugopt_prepare(const struct ct_plugopt *o, const char *prog, char *const *libs,
		       size_t nlibs, const char *dir, int dfd, double hz, char *path,
		       size_t pathlen, struct ct_msgs *warn, struct ct_error *err);
void ct_plugopt_free(struct ct_plugopt *o);

#endif
