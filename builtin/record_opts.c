/* SPDX-License-Identifier: MIT */
/*
 * calltrace record's command line: its help, its option table (which also
 * tells live and top which of record's options take the next word) and
 * the checks of what was given together.  record.c runs what it says.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "builtin.h"
#include "calltrace/format.h"
#include "message.h"
#include "record.h"

static const char record_usage[] =
	"usage: calltrace record [options] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND, built with -finstrument-functions, -pg, -pg -mfentry or\n"
	"-fpatchable-function-entry, and record every call and return of every\n"
	"thread and process it starts into the data directory.\n"
	"The program's stdin, stdout, stderr and exit status pass through unchanged;\n"
	"record exits with the program's status (128+N if signal N ended it), or\n"
	"125 when it lost data by its own failure (a write error, a full disk),\n"
	"127/126 when the command cannot be found/run, 75 when another record is\n"
	"writing into the data directory, 1 when it cannot start.\n"
	"\n"
	"options:\n"
	"  -d, --data=DIR        data directory (default: calltrace.data; an existing\n"
	"                        one is moved to DIR.old, which is replaced only if it\n"
	"                        is a recording)\n"
	"  -b, --buffer-size=SZ  bytes per trace buffer (default 256K; K and M suffixes)\n"
	"      --buffers=N       buffers per thread, 3..64 (default 8)\n"
	"      --clock=CLOCK     tsc (default where invariant) or mono\n"
	"      --drop            when all of a thread's buffers are full, drop its\n"
	"                        events (counted and marked) instead of waiting\n"
	"      --flight[=SIZE]   flight recorder: keep only each thread's last SIZE\n"
	"                        of events (default 1M), write them when the program\n"
	"                        ends, crashes or is killed, on SIGUSR1 to record, or\n"
	"                        at calltrace_snapshot() (DIR/snapshot.N/)\n"
	"      --callsite        keep each call's call site (the return address in\n"
	"                        its caller): replay --srcline, callers --callsite\n"
	"      --count           counting mode: exact call counts per function and per\n"
	"                        caller->callee arc of each thread, no times, no event\n"
	"                        stream (report, callers, graph --no-time, coverage,\n"
	"                        export folded/callgrind read it; doc/record.md)\n"
	"      --lib=PATH        the runtime library (default: found next to calltrace)\n"
	"  -A, --args=SPEC       capture arguments of the functions SPEC names:\n"
	"                        'REGEX@arg1/d,arg2/s,fparg1/f' or 'REGEX@fmt=\"%d, %s\"'\n"
	"                        (repeatable; doc/args.md)\n"
	"  -R, --retval=SPEC     capture return values: 'REGEX@retval/x' (repeatable)\n"
	"  -a, --auto-args       arguments and return values of every function, typed\n"
	"                        from DWARF (build with -g); -A/-R override it\n"
	"      --str-max=N       bytes of a string argument copied at most (default 64)\n"
	"      --args-lib=PATH   also resolve -A/-R/-a and the filters in PATH (a\n"
	"                        library the program dlopen()s)\n"
	"                        Arguments need a build that saves registers: -pg,\n"
	"                        -pg -mfentry or -fpatchable-function-entry\n"
	"      --plugin=PATH[:ARGS]  load the shared object PATH into the program\n"
	"                        (every traced process): its callbacks run at the\n"
	"                        calls of the functions selected (doc/plugins.md)\n"
	"      --plugin-filter=REGEX  only functions matching REGEX reach the plugin\n"
	"                        (repeatable; default: every function)\n"
	"      --inject='REGEX@ACTION[,SELECTOR..]'  fault injection at the calls of\n"
	"                        matching functions: return=V (skip the body),\n"
	"                        retval=V, errno=E, signal=SIG, C++\n"
	"                        throw=std::bad_alloc|std::runtime_error(MSG);\n"
	"                        selectors nth=N, every=N,\n"
	"                        after=N, prob=P, if=argK==V (repeatable;\n"
	"                        doc/inject.md)\n"
	"      --inject-file=FILE  rules, one a line ('#' comments)\n"
	"      --seed=S          the seed of prob= (a run is reproducible)\n"
	"\n"
	"record-time filters (as replay's; decided per function before the run):\n"
	"  -F, --filter=REGEX    only functions matching REGEX and what they call\n"
	"  -N, --notrace=REGEX   not functions matching REGEX nor what they call\n"
	"      --hide=REGEX      not the calls of functions matching REGEX themselves:\n"
	"                        their callees are kept, under the nearest kept caller\n"
	"  -D, --depth=N         only calls at depth < N (from the -F function)\n"
	"  -t, --time-filter=TIME  only calls that last at least TIME (e.g. 1us)\n"
	"  -T, --trigger=REGEX@ACTION[,ACTION..]  at the calls of matching functions:\n"
	"                        trace_on, trace_off (from then on), trace_on=call,\n"
	"                        trace_off=call (during the call), depth=N, time=TIME,\n"
	"                        finish (stop recording when it returns)\n"
	"      --trace=off       start with tracing off (a trigger, a signal or\n"
	"                        calltrace_on() turns it on)\n"
	"      --signal=SIG@ACTION  SIG to the program: trace_on, trace_off, toggle,\n"
	"                        finish (e.g. USR1@toggle)\n"
	"      --time-range=START~END  record only calls that begin between these\n"
	"                        times after the start (e.g. 5s~10s, ~2s, 1s~)\n"
	"      --max-size=SIZE   stop recording when the data reaches SIZE (e.g. 500M)\n"
	"                        (regexes repeatable; doc/record.md)\n"
	"\n"
	"library calls (calls from traced code into shared libraries, on by default;\n"
	"doc/libcall.md):\n"
	"      --no-libcall      not recorded\n"
	"      --libcall=REGEX   only the library functions matching REGEX\n"
	"      --no-libcall=REGEX  not those matching REGEX (both repeatable)\n"
	"\n"
	"  -q, --quiet           no summary at the end\n"
	"  -h, --help            this help\n";

/* option codes of record's own long options without a letter (lib/record/recfilter.h has
 * the filters', from 0x2000) */
#define OPT_FLIGHT 0x3000
#define OPT_COUNT 0x3001
#define OPT_CALLSITE 0x3010

/* --flight[=SIZE]: bytes per thread, K, M or G suffix, default 1M */
static bool parse_flight(struct record_opts *o, const char *arg)
{
	o->flight = 1u << 20;
	if (!arg)
		return true;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(arg, &end, 10);
	unsigned shift = 0;
	if (*end == 'k' || *end == 'K')
		shift = 10, end++;
	else if (*end == 'm' || *end == 'M')
		shift = 20, end++;
	else if (*end == 'g' || *end == 'G')
		shift = 30, end++;
	if (errno || end == arg || *end || !isdigit((unsigned char)*arg) || v == 0 ||
	    v > (64ull << 30) >> shift) {
		ct_error("bad --flight size '%s' (bytes per thread, e.g. 1M; K, M and G "
			 "suffixes; at most 64G)",
			 arg);
		return false;
	}
	o->flight = v << shift;
	return true;
}

/* record's options (its short ones in SHORT_OPTS) */
static const struct option opts[] = {
	{"data", required_argument, NULL, 'd'},
	{"buffer-size", required_argument, NULL, 'b'},
	{"buffers", required_argument, NULL, 'n'},
	{"clock", required_argument, NULL, 'c'},
	{"lib", required_argument, NULL, 'L'},
	{"drop", no_argument, NULL, 'X'},
	{"filter", required_argument, NULL, 'F'},
	{"notrace", required_argument, NULL, 'N'},
	{"hide", required_argument, NULL, 'H'},
	{"depth", required_argument, NULL, 'D'},
	{"time-filter", required_argument, NULL, 't'},
	{"trigger", required_argument, NULL, 'T'},
	{"trace", required_argument, NULL, CT_RF_TRACE},
	{"signal", required_argument, NULL, CT_RF_SIGNAL},
	{"time-range", required_argument, NULL, CT_RF_RANGE},
	{"max-size", required_argument, NULL, CT_RF_MAXSIZE},
	{"flight", optional_argument, NULL, OPT_FLIGHT},
	{"count", no_argument, NULL, OPT_COUNT},
	{"callsite", no_argument, NULL, OPT_CALLSITE},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{"args", required_argument, NULL, 'A'},
	{"retval", required_argument, NULL, 'R'},
	{"auto-args", no_argument, NULL, 'a'},
	{"str-max", required_argument, NULL, 'S'},
	{"args-lib", required_argument, NULL, 'l'},
	{"libcall", optional_argument, NULL, CT_LC_OPT_ON},
	{"no-libcall", optional_argument, NULL, CT_LC_OPT_OFF},
	{"plugin", required_argument, NULL, CT_PL_OPT},
	{"plugin-filter", required_argument, NULL, CT_PL_FILTER},
	{"inject", required_argument, NULL, CT_INJ_OPT},
	{"inject-file", required_argument, NULL, CT_INJ_FILE_OPT},
	{"seed", required_argument, NULL, CT_INJ_SEED},
	{NULL, 0, NULL, 0},
};
#define SHORT_OPTS "+:d:b:qhA:R:aF:N:D:t:T:"

bool ct_record_takes_arg(const char *a)
{
	if (a[0] != '-')
		return false;
	if (a[1] == '-') {
		for (const struct option *o = opts; o->name; o++)
			if (o->has_arg == required_argument && !strcmp(a + 2, o->name))
				return true;
		return false;
	}
	const char *c = a[1] && !a[2] ? strchr(&SHORT_OPTS[2], a[1]) : NULL;
	return c && c[1] == ':';
}

const char *ct_record_data_option(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--") || a[0] != '-')
			return NULL; /* the command */
		if ((!strcmp(a, "-d") || !strcmp(a, "--data")) && i + 1 < argc)
			return argv[i + 1];
		if (!strncmp(a, "--data=", 7))
			return a + 7;
		if (!strncmp(a, "-d", 2) && a[2])
			return a + 2;
		if (ct_record_takes_arg(a))
			i++;
	}
	return NULL;
}

bool ct_record_parse(struct record_opts *o, int argc, char **argv, int *code)
{
	struct ct_args_opts *ao = &o->ao;
	const char *clock_opt = NULL;
	void *grown;
	int c;
	*code = 2;
	o->dir = "calltrace.data";
	optind = 1;
	opterr = 0; /* record's own messages, with its prefix */
	while ((c = getopt_long(argc, argv, SHORT_OPTS, opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dir = optarg;
			break;
		case 'b':
			o->bufsize = optarg;
			break;
		case 'n':
			o->nbuf = optarg;
			break;
		case 'c':
			clock_opt = optarg;
			break;
		case 'L':
			o->lib = optarg;
			break;
		case 'X':
			o->drop = true;
			break;
		case 'F':
		case 'N':
		case 'H':
		case 'D':
		case 't':
		case 'T':
		case CT_RF_TRACE:
		case CT_RF_SIGNAL:
		case CT_RF_RANGE:
		case CT_RF_MAXSIZE:
			if (ct_recfilter_option(&o->rf, c, optarg) < 0)
				return false;
			break;
		case OPT_FLIGHT:
			if (!parse_flight(o, optarg))
				return false;
			break;
		case CT_LC_OPT_ON:
		case CT_LC_OPT_OFF:
			if (ct_libcall_option(&o->lc, c, optarg) < 0)
				goto usage;
			break;
		case OPT_COUNT:
			o->count = true;
			break;
		case OPT_CALLSITE:
			o->callsite = true;
			break;
		case CT_PL_OPT:
		case CT_PL_FILTER:
			if (ct_plugopt_option(&o->pl, c, optarg) < 0)
				goto usage;
			break;
		case CT_INJ_OPT:
		case CT_INJ_FILE_OPT:
		case CT_INJ_SEED:
			if (ct_injopt_option(&o->inj, c, optarg) < 0)
				goto usage;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'A':
			if (!(grown = realloc(ao->A, (ao->nA + 1) * sizeof(char *))))
				goto nomem;
			ao->A = grown;
			ao->A[ao->nA++] = optarg;
			break;
		case 'R':
			if (!(grown = realloc(ao->R, (ao->nR + 1) * sizeof(char *))))
				goto nomem;
			ao->R = grown;
			ao->R[ao->nR++] = optarg;
			break;
		case 'a':
			ao->autoargs = true;
			break;
		case 'l':
			if (!(grown = realloc(ao->libs, (ao->nlibs + 1) * sizeof(char *))))
				goto nomem;
			ao->libs = grown;
			ao->libs[ao->nlibs++] = optarg;
			break;
		case 'S': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);
			if (*end || !*optarg || v < 1 || v > CT_ARGS_STRMAX_MAX) {
				ct_error("bad --str-max '%s' (1..%d)", optarg, CT_ARGS_STRMAX_MAX);
				return false;
			}
			ao->strmax = (unsigned)v;
			break;
		}
		case 'h':
			fputs(record_usage, stdout);
			*code = 0;
			return false;
		case ':':
			ct_error("option '%s' needs an argument", argv[optind - 1]);
			goto usage;
		default:
			ct_error("unknown option '%s'", argv[optind - 1]);
			goto usage;
		}
	}
	if (optind >= argc) {
		ct_error("no command given");
		goto usage;
	}
	o->argv = argv + optind;
	if (o->bufsize) {
		char *end;
		unsigned long long v = strtoull(o->bufsize, &end, 0);
		if (*end == 'k' || *end == 'K')
			v <<= 10, end++;
		else if (*end == 'm' || *end == 'M')
			v <<= 20, end++;
		if (*end || v < 4096 || v > (1ull << 30)) {
			ct_error("bad buffer size '%s' (4K..1G)", o->bufsize);
			return false;
		}
	}
	if (o->nbuf) {
		char *end;
		long v = strtol(o->nbuf, &end, 10);
		if (*end || v < 3 || v > CT_RING_MAX_SLOTS) {
			ct_error("bad number of buffers '%s' (3..%d)", o->nbuf, CT_RING_MAX_SLOTS);
			return false;
		}
	}
	if (ct_plugopt_check(&o->pl) < 0 || ct_injopt_check(&o->inj) < 0)
		goto usage;
	if (o->inj.nrules && o->count) {
		ct_error("--inject: not with --count (no events to show the faults)");
		goto usage;
	}
	if (o->pl.path && (o->count || ct_recfilter_active(&o->rf))) {
		/* (their C paths know nothing of plugins yet) */
		ct_error("--plugin: not with %s", o->count ? "--count" : "record-time filters");
		goto usage;
	}
	if (o->count) {
		/* counts have no events: nothing to buffer, filter or capture */
		const char *what = o->callsite                        ? "--callsite"
				   : o->flight                        ? "--flight"
				   : o->drop                          ? "--drop"
				   : o->bufsize || o->nbuf            ? "-b/--buffers"
				   : ao->nA || ao->nR || ao->autoargs ? "-A/-R/-a"
				   : ct_recfilter_active(&o->rf)      ? "record-time filters"
				   : o->lc.set > 0 || o->lc.ninc      ? "--libcall"
								      : NULL;
		if (what) {
			ct_error("--count records call counts only: not with %s", what);
			goto usage;
		}
	}
	if (o->flight) {
		/* SIZE is the whole ring: --buffers of SIZE/N bytes each */
		uint64_t n = o->nbuf ? strtoul(o->nbuf, NULL, 10) : 8;
		uint64_t b = o->flight / n & ~(uint64_t)7;
		if (o->bufsize) {
			ct_error("--flight sets the buffer size (SIZE / --buffers): not with -b");
			return false;
		}
		if (b < 4096 || b > (1ull << 30)) {
			ct_error("bad --flight size: %llu buffers of %llu bytes (4K..1G each)",
				 (unsigned long long)n, (unsigned long long)b);
			return false;
		}
		if (o->drop) {
			ct_error("--flight never waits for record: --drop has no use with it");
			return false;
		}
		snprintf(o->flight_buf, sizeof(o->flight_buf), "%llu", (unsigned long long)b);
		o->bufsize = o->flight_buf;
	}
	if (clock_opt) {
		if (!strcmp(clock_opt, "mono"))
			o->use_tsc = false;
		else if (strcmp(clock_opt, "tsc")) {
			ct_error("unknown clock '%s' (tsc or mono)", clock_opt);
			return false;
		}
	} else {
		o->use_tsc = ct_arch_cycles_invariant();
	}
	return true;
usage:
	fputs("Try 'calltrace record --help' for more.\n", stderr);
	return false;
nomem:
	ct_error("out of memory");
	*code = 1;
	return false;
}
