/* SPDX-License-Identifier: MIT */
/*
 * `record -F/-N/--hide/-D/-t/-T`: filters decided before the run.  The
 * regexes are matched against the (demangled) function names of every
 * module the program will load (modfind.h), and the decisions written to
 * DIR/filter.spec, which the runtime loads (runtime/filter.c has the
 * format).  Same spelling and meaning as the views' filters (filter.h).
 */
#ifndef CT_RECFILTER_H
#define CT_RECFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_error;
struct ct_msgs;

/* the depth -D allows when recording (the shadow stack's frames keep it in
 * 21 bits) */
#define CT_RECFILTER_DEPTH_MAX 2097150u

struct ct_recfilter {
	char **inc, **exc, **hide; /* -F, -N, --hide regexes */
	size_t ninc, nexc, nhide;
	uint32_t max_depth; /* -D; 0 none */
	uint64_t min_time;  /* -t, ns; 0 none */
	char **libs;        /* --args-lib / --module: more modules */
	size_t nlibs;
	char **trig; /* -T 'REGEX@ACTION[,ACTION...]' */
	size_t ntrig;
	bool trace_off; /* --trace=off */
	struct {
		int sig;
		int action; /* 0 trace_on, 1 trace_off, 2 toggle, 3 finish */
	} sigs[8];          /* --signal=SIG@ACTION */
	size_t nsigs;
	bool range;                      /* --time-range=START~END, ns from the start */
	uint64_t range_start, range_end; /* range_end 0: none */
	uint64_t max_size;               /* --max-size, bytes; 0 none */
	uint64_t min_fsize;              /* -Z: functions smaller than this (bytes) are
			     * hidden as --hide hides them; 0 none */
};

/* the doorbell's gate (record drives it, doc/record.md): what it should be
 * elapsed ns after the program started with bytes recorded (CT_GATE_*) */
unsigned ct_recfilter_gate(const struct ct_recfilter *f, uint64_t elapsed, uint64_t bytes);

/* any filter given? */
bool ct_recfilter_active(const struct ct_recfilter *f);
/* option codes besides the letters F, N, H (--hide), D, t, T */
enum {
	CT_RF_TRACE = 0x2000, /* --trace=on|off */
	CT_RF_SIGNAL,         /* --signal=SIG@ACTION */
	CT_RF_RANGE,          /* --time-range=START~END */
	CT_RF_MAXSIZE,        /* --max-size=SIZE */
};
/* one of the options 'F', 'N', 'H' (--hide), 'D', 't', 'T', 'Z' or CT_RF_* with its argument:
 * checked now (a bad regex, depth or time is a usage error: -1 with err
 * filled) */
int ct_recfilter_option(struct ct_recfilter *f, int opt, const char *arg, struct ct_error *err);
/* the options as one line, for info and the summary (malloc'd) */
char *ct_recfilter_describe(const struct ct_recfilter *f);
/* match against the modules of prog and write DIR/filter.spec (dfd: DIR
 * open, or -1), its path into path;
 * hz: the recording clock's ticks per second.  0 (a warning into warn for
 * each regex that matched no function), or -1 with err (-2: a condition,
 * if:, on a function whose hooks do not see its arguments: a usage error). */
int ct_recfilter_prepare(const struct ct_recfilter *f, const char *prog, const char *dir, int dfd,
			 double hz, char *path, size_t pathlen, struct ct_msgs *warn,
			 struct ct_error *err);
/* the same into DIR/name, for an image exec'd later from the program prog
 * (an absolute path): record answers the runtime's request (struct
 * ct_doorbell's fx_*) with it */
int ct_recfilter_prepare_as(const struct ct_recfilter *f, const char *prog, const char *dir,
			    int dfd, const char *name, double hz, char *path, size_t pathlen,
			    struct ct_msgs *warn, struct ct_error *err);
void ct_recfilter_free(struct ct_recfilter *f);

#endif
