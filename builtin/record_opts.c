/* SPDX-License-Identifier: MIT */
/*
 * calltrace record's command line: its option table (lib/core/options.h:
 * its help too), the function that takes each option, and the checks of
 * what was given together.  record.c runs what it says; live and top take
 * the same options (builtin/record_wrap.c).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "builtin.h"
#include "calltrace/format.h"
#include "message.h"
#include "record.h"
#include "util.h"

static const char record_head[] =
	"usage: calltrace record [options] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND, built with -finstrument-functions, -pg, -pg -mfentry or\n"
	"-fpatchable-function-entry, and record every call and return of every\n"
	"thread and process it starts into the data directory.\n"
	"The program's stdin, stdout, stderr and exit status pass through unchanged;\n"
	"record exits with the program's status (128+N if signal N ended it), or\n"
	"125 when it lost data by its own failure (a write error, a full disk),\n"
	"127/126 when the command cannot be found/run, 75 when another record is\n"
	"writing into the data directory, 1 when it cannot start, 3 when the\n"
	"program exited 0 but nothing was recorded (not built for tracing).\n";

/* codes of record's options without a letter (lib/record/recfilter.h has
 * the filters', from 0x2000; plugopt.h, injectopt.h and libcallopt.h
 * theirs) */
enum {
	OPT_BUFFERS = 0x3000,
	OPT_CLOCK,
	OPT_LIB,
	OPT_DROP,
	OPT_HIDE,
	OPT_FLIGHT,
	OPT_COUNT,
	OPT_CALLSITE,
	OPT_STRMAX,
	OPT_ARGSLIB,
	OPT_SAMPLE,
	OPT_SAMPLE_CLOCK,
	OPT_SCHED,
};

const struct ct_opt ct_record_options[] = {
	CT_OPT_GROUP("options:"),
	{"data", 'd', "DIR",
	 "data directory (default: calltrace.data; an existing\n"
	 "one is moved to DIR.old, which is replaced only if it\n"
	 "is a recording)"},
	{"buffer-size", 'b', "SIZE", "bytes per trace buffer (default 256K; K and M\nsuffixes)"},
	{"buffers", OPT_BUFFERS, "N", "buffers per thread, 3..64 (default 8)"},
	{"clock", OPT_CLOCK, "tsc|mono", "tsc (default where invariant) or mono"},
	{"drop", OPT_DROP, NULL,
	 "when all of a thread's buffers are full, drop its\n"
	 "events (counted and marked) instead of waiting"},
	{"flight", OPT_FLIGHT, "[=SIZE]",
	 "flight recorder: keep only each thread's last SIZE\n"
	 "of events (default 1M), write them when the program\n"
	 "ends, crashes or is killed, on SIGUSR1 to record, or\n"
	 "at calltrace_snapshot() (DIR/snapshot.N/)"},
	{"callsite", OPT_CALLSITE, NULL,
	 "keep each call's call site (the return address in\n"
	 "its caller): replay --srcline, callers --callsite"},
	{"sample", OPT_SAMPLE, "[=HZ]",
	 "sample each thread's CPU time (default 1000 Hz; 1..100k,\n"
	 "k suffix, or a period: 250us, 2ms) and charge each\n"
	 "sample to the call open on the recorded path:\n"
	 "sampled columns in report, graph, callers, html;\n"
	 "with --count the only times (doc/record.md)"},
	{"sample-clock", OPT_SAMPLE_CLOCK, "perf|tick",
	 "--sample's clock: perf (default), a perf event per\n"
	 "thread at the period; tick, a POSIX CPU-time timer\n"
	 "the kernel checks at its tick: no interrupt of its\n"
	 "own, one signal a tick standing for the periods in it"},
	{"sched", OPT_SCHED, NULL,
	 "record the threads' context switches (perf events):\n"
	 "each call's off-CPU time in replay and report\n"
	 "(doc/record.md)"},
	{"watch", 'W', "POINT",
	 "watch point: a line in replay at the first entry\n"
	 "after its value changes (and each thread's first);\n"
	 "POINT: cpu (the CPU the thread runs on; repeatable,\n"
	 "or comma-separated)"},
	{"count", OPT_COUNT, NULL,
	 "counting mode: exact call counts per function and per\n"
	 "caller->callee arc of each thread, no times, no event\n"
	 "stream (report, callers, graph, coverage,\n"
	 "export folded/callgrind read it; doc/record.md)"},
	{"lib", OPT_LIB, "PATH", "the runtime library (default: found next to calltrace)"},
	{"args", 'A', "SPEC",
	 "capture arguments of the functions SPEC names:\n"
	 "'REGEX@arg1/d,arg2/s,fparg1/f' or 'REGEX@fmt=\"%d, %s\"';\n"
	 "'REGEX' alone: typed from DWARF, as -a does\n"
	 "(repeatable; doc/args.md).  Arguments need a build\n"
	 "that saves registers: -pg, -pg -mfentry or\n"
	 "-fpatchable-function-entry"},
	{"retval", 'R', "SPEC",
	 "capture return values: 'REGEX@retval/x', or 'REGEX'\n"
	 "typed from DWARF (repeatable)"},
	{"auto-args", 'a', NULL,
	 "arguments and return values of every function, typed\n"
	 "from DWARF (build with -g); -A/-R override it"},
	{"str-max", OPT_STRMAX, "N", "bytes of a string argument copied at most (default 64)"},
	{"args-lib", OPT_ARGSLIB, "PATH",
	 "also resolve -A/-R/-a and the filters in PATH (a\n"
	 "library the program dlopen()s)"},
	{"plugin", CT_PL_OPT, "PATH[:ARGS]",
	 "load the shared object PATH into the program\n"
	 "(every traced process): its callbacks run at the\n"
	 "calls of the functions selected (doc/plugins.md)"},
	{"plugin-filter", CT_PL_FILTER, "REGEX",
	 "only functions matching REGEX reach the plugin\n"
	 "(repeatable; default: every function)"},
	{"inject", CT_INJ_OPT, "REGEX@ACTION[,SELECTOR..]",
	 "fault injection at the\n"
	 "calls of matching functions: return=V (skip the\n"
	 "body), retval=V, errno=E, signal=SIG, C++\n"
	 "throw=std::bad_alloc|std::runtime_error(MSG);\n"
	 "selectors nth=N, every=N, after=N, prob=P,\n"
	 "if=argK==V (repeatable; doc/inject.md)"},
	{"inject-file", CT_INJ_FILE_OPT, "FILE", "rules, one a line ('#' comments)"},
	{"seed", CT_INJ_SEED, "S", "the seed of prob= (a run is reproducible)"},
	CT_OPT_GROUP("record-time filters (as replay's; decided per function before the run):"),
	{"filter", 'F', "REGEX[@if:COND]",
	 "only functions matching REGEX and what they call\n"
	 "(COND argN OP V: only the calls whose argument N\n"
	 "compares to V, OP one of == != > >= < <=)"},
	{"notrace", 'N', "REGEX[@if:COND]", "not functions matching REGEX nor what they call"},
	{"hide", OPT_HIDE, "REGEX",
	 "not the calls of functions matching REGEX themselves:\n"
	 "their callees are kept, under the nearest kept caller"},
	{"depth", 'D', "N", "only calls at depth < N (from the -F function)"},
	{"time-filter", 't', "TIME", "only calls that last at least TIME (e.g. 1us)"},
	{"size-filter", 'Z', "SIZE",
	 "not the calls of functions smaller than SIZE bytes\n"
	 "(as --hide; the hooked front ends leave them unhooked)"},
	{"trigger", 'T', "REGEX@ACTION[,ACTION..]",
	 "at the calls of matching functions:\n"
	 "trace_on, trace_off (from then on), trace_on=call,\n"
	 "trace_off=call (during the call), depth=N, time=TIME,\n"
	 "finish (stop recording when it returns), snapshot\n"
	 "(a mark; with --flight, every thread's last events),\n"
	 "backtrace (the caller chain, at the first call),\n"
	 "read=KIND (a value at the entry and the exit:\n"
	 "proc/statm, page-fault, pmu-cycle, pmu-cache,\n"
	 "pmu-branch)"},
	{"trace", CT_RF_TRACE, "on|off",
	 "off: start with tracing off (a trigger, a signal or\n"
	 "calltrace_on() turns it on)"},
	{"signal", CT_RF_SIGNAL, "SIG@ACTION",
	 "SIG to the program: trace_on, trace_off, toggle,\n"
	 "finish (e.g. USR1@toggle)"},
	{"time-range", CT_RF_RANGE, "START~END",
	 "record only calls that begin between these\n"
	 "times after the start (e.g. 5s~10s, ~2s, 1s~)"},
	{"max-size", CT_RF_MAXSIZE, "SIZE",
	 "stop recording when the data reaches SIZE (e.g. 500M)\n"
	 "(regexes repeatable; doc/record.md)"},
	CT_OPT_GROUP("library calls (calls from traced code into shared libraries, on by default;\n"
		     "doc/libcall.md):"),
	{"no-libcall", CT_LC_OPT_OFF, "[=REGEX]",
	 "none recorded; with REGEX: not those matching\n"
	 "REGEX (repeatable)"},
	{"libcall", CT_LC_OPT_ON, "[=REGEX]",
	 "with REGEX: only the library functions matching\n"
	 "REGEX (repeatable)"},
	{"nest-libcall", CT_LC_OPT_NEST, NULL,
	 "the libraries' own library calls too (fopen calling\n"
	 "malloc), nested under the call that made them"},
	CT_OPT_GROUP(""),
	{"quiet", 'q', NULL, "no summary at the end"},
	CT_OPT_HELP,
	CT_OPT_END,
};

/* --flight[=SIZE]: bytes per thread, K, M or G suffix, default 1M */
static bool parse_flight(struct record_opts *o, const char *arg, struct ct_error *err)
{
	o->flight = 1u << 20;
	o->flight_arg = arg;
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
		ct_set_err(err,
			   "bad --flight size '%s' (bytes per thread, e.g. 1M; K, M and G "
			   "suffixes; at most 64G)",
			   arg);
		return false;
	}
	o->flight = v << shift;
	return true;
}

/* --sample[=HZ]: a rate in Hz (k suffix, "Hz" allowed: 1000, 4k, 2kHz) or
 * a period (250us, 2ms, 100000ns), 1 Hz to 100 kHz */
static bool parse_sample(struct record_opts *o, const char *arg, struct ct_error *err)
{
	static const struct {
		const char *unit;
		double hz, ns; /* one of them */
	} units[] = {{"", 1, 0},      {"Hz", 1, 0},  {"k", 1e3, 0},  {"kHz", 1e3, 0}, {"K", 1e3, 0},
		     {"KHz", 1e3, 0}, {"s", 0, 1e9}, {"ms", 0, 1e6}, {"us", 0, 1e3},  {"ns", 0, 1}};
	o->sample_ns = 1000000; /* 1 kHz */
	if (arg) {
		char *end = (char *)arg;
		errno = 0;
		double v = isdigit((unsigned char)*arg) ? strtod(arg, &end) : -1;
		size_t u = sizeof(units) / sizeof(units[0]);
		if (v >= 0 && !errno)
			for (u = 0; u < sizeof(units) / sizeof(units[0]); u++)
				if (!strcmp(end, units[u].unit))
					break;
		if (u == sizeof(units) / sizeof(units[0])) {
			ct_set_err(err,
				   "bad --sample '%s' (a rate in Hz, e.g. 1000 or 4k, or a period, "
				   "e.g. 250us or 2ms)",
				   arg);
			return false;
		}
		/* the period in ns (a rate of 0 Hz: none, too slow) */
		double ns = units[u].hz ? (v > 0 ? 1e9 / (v * units[u].hz) : 2e9) : v * units[u].ns;
		if (ns < 1e4 - 0.5 || ns > 1e9 + 0.5) {
			ct_set_err(err,
				   "--sample=%s: %s; the rate must be 1 Hz to 100 kHz (a period "
				   "of 10us to 1s)",
				   arg, ns < 1e4 ? "too fast" : "too slow");
			return false;
		}
		o->sample_ns = (uint64_t)(ns + 0.5);
	}
	snprintf(o->sample_buf, sizeof(o->sample_buf), "%llu", (unsigned long long)o->sample_ns);
	return true;
}

/* -W POINT[,POINT..]: the watch points, the reference tool's names */
static bool parse_watch(struct record_opts *o, const char *arg, struct ct_error *err)
{
	const char *p = arg;
	do {
		size_t n = strcspn(p, ",");
		if (n != 3 || strncmp(p, "cpu", 3) != 0) {
			ct_set_err(err, "unknown watch point '%.*s' in -W '%s' (valid: cpu)",
				   (int)n, p, arg);
			return false;
		}
		o->watch_cpu = true;
		p += n;
	} while (*p++ == ',');
	return true;
}

/* a size with an optional K or M suffix */
static bool parse_size(const char *arg, unsigned long long *v)
{
	char *end;
	errno = 0;
	*v = strtoull(arg, &end, 0);
	if (*end == 'k' || *end == 'K')
		*v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		*v <<= 20, end++;
	return !errno && end != arg && !*end && isdigit((unsigned char)*arg);
}

void ct_record_opts_init(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* arg appended to the array *v of *n */
static void push_arg(char ***v, size_t *n, const char *arg)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = (char *)arg;
}

int ct_record_option(void *ctx, const struct ct_opt *opt, const char *arg, struct ct_error *err)
{
	struct record_opts *o = ctx;
	struct ct_args_opts *ao = &o->ao;
	unsigned long long v;
	char *end;
	int c = opt->val;
	switch (c) {
	case 'd':
		o->dir = arg;
		return 0;
	case 'b':
		if (!parse_size(arg, &v) || v < 4096 || v > (1ull << 30)) {
			ct_set_err(err, "bad buffer size '%s' (4K..1G)", arg);
			return -1;
		}
		o->bufsize = arg;
		return 0;
	case OPT_BUFFERS: {
		long n = strtol(arg, &end, 10);
		if (*end || end == arg || n < 3 || n > CT_RING_MAX_SLOTS) {
			ct_set_err(err, "bad number of buffers '%s' (3..%d)", arg,
				   CT_RING_MAX_SLOTS);
			return -1;
		}
		o->nbuf = arg;
		return 0;
	}
	case OPT_CLOCK:
		if (strcmp(arg, "tsc") && strcmp(arg, "mono")) {
			ct_set_err(err, "unknown clock '%s' (tsc or mono)", arg);
			return -1;
		}
		o->clock = arg;
		return 0;
	case OPT_LIB:
		o->lib = arg;
		return 0;
	case OPT_DROP:
		o->drop = true;
		return 0;
	case OPT_HIDE:
		c = 'H';
		/* fall through */
	case 'F':
	case 'N':
	case 'D':
	case 't':
	case 'T':
	case 'Z':
	case CT_RF_TRACE:
	case CT_RF_SIGNAL:
	case CT_RF_RANGE:
	case CT_RF_MAXSIZE:
		return ct_recfilter_option(&o->rf, c, arg, err);
	case OPT_FLIGHT:
		return parse_flight(o, arg, err) ? 0 : -1;
	case CT_LC_OPT_ON:
	case CT_LC_OPT_OFF:
	case CT_LC_OPT_NEST:
		return ct_libcall_option(&o->lc, c, arg, err);
	case OPT_COUNT:
		o->count = true;
		return 0;
	case OPT_SAMPLE:
		return parse_sample(o, arg, err) ? 0 : -1;
	case OPT_SAMPLE_CLOCK:
		/* (the runtime's first clock to try: trap, then rt, then the
		 * timer, runtime/sample.c) */
		if (!strcmp(arg, "perf"))
			o->sample_clock = "trap";
		else if (!strcmp(arg, "tick"))
			o->sample_clock = "timer";
		else {
			ct_set_err(err, "bad --sample-clock '%s' (perf or tick)", arg);
			return -1;
		}
		return 0;
	case OPT_CALLSITE:
		o->callsite = true;
		return 0;
	case OPT_SCHED:
		o->sched = true;
		return 0;
	case 'W':
		return parse_watch(o, arg, err) ? 0 : -1;
	case CT_PL_OPT:
	case CT_PL_FILTER:
		return ct_plugopt_option(&o->pl, c, arg, err);
	case CT_INJ_OPT:
	case CT_INJ_FILE_OPT:
	case CT_INJ_SEED:
		return ct_injopt_option(&o->inj, c, arg, err);
	case 'q':
		o->quiet = true;
		return 0;
	case 'A':
		push_arg(&ao->A, &ao->nA, arg);
		return 0;
	case 'R':
		push_arg(&ao->R, &ao->nR, arg);
		return 0;
	case 'a':
		ao->autoargs = true;
		return 0;
	case OPT_ARGSLIB:
		push_arg(&ao->libs, &ao->nlibs, arg);
		return 0;
	case OPT_STRMAX:
		v = strtoull(arg, &end, 10);
		if (*end || !isdigit((unsigned char)*arg) || v < 1 || v > CT_ARGS_STRMAX_MAX) {
			ct_set_err(err, "bad --str-max '%s' (1..%d)", arg, CT_ARGS_STRMAX_MAX);
			return -1;
		}
		ao->strmax = (unsigned)v;
		return 0;
	}
	return -1; /* not reached: the parser gives the table's options only */
}

/* what the options say together, once all are given: 0, or -1 with err
 * filled */
static int check_together(struct record_opts *o, struct ct_error *err)
{
	const struct ct_args_opts *ao = &o->ao;
	if (ct_plugopt_check(&o->pl, err) < 0 || ct_injopt_check(&o->inj, err) < 0)
		return -1;
	if (o->lc.nest && o->count) {
		ct_set_err(err, "--nest-libcall: library calls are off with --count");
		return -1;
	}
	if (ct_libcall_check(&o->lc, err) < 0)
		return -1;
	if (o->inj.nrules && o->count) {
		ct_set_err(err, "--inject: not with --count (no events to show the faults)");
		return -1;
	}
	if (o->pl.path && (o->count || ct_recfilter_active(&o->rf) || o->watch_cpu)) {
		/* (their C paths know nothing of plugins yet; -W cpu takes
		 * them) */
		ct_set_err(err, "--plugin: not with %s",
			   o->count       ? "--count"
			   : o->watch_cpu ? "-W cpu"
					  : "record-time filters");
		return -1;
	}
	if (o->sample_clock && !o->sample_ns) {
		ct_set_err(err, "--sample-clock: only with --sample");
		return -1;
	}
	if (o->sample_ns) {
		/* (-t and time= take back the records of short calls, their
		 * samples with them: not yet) */
		bool timed = o->rf.min_time != 0;
		for (size_t i = 0; i < o->rf.ntrig; i++)
			timed |= strstr(o->rf.trig[i], "time=") != NULL;
		if (timed) {
			ct_set_err(err, "--sample: not with -t or a time= trigger (not yet)");
			return -1;
		}
	}
	if (o->count) {
		/* counts have no events: nothing to buffer, filter or capture */
		const char *what = o->callsite                        ? "--callsite"
				   : o->watch_cpu                     ? "-W cpu"
				   : o->sched                         ? "--sched"
				   : o->flight                        ? "--flight"
				   : o->drop                          ? "--drop"
				   : o->bufsize || o->nbuf            ? "-b/--buffers"
				   : ao->nA || ao->nR || ao->autoargs ? "-A/-R/-a"
				   : ct_recfilter_active(&o->rf)      ? "record-time filters"
				   : o->lc.set > 0 || o->lc.ninc      ? "--libcall"
								      : NULL;
		if (what) {
			ct_set_err(err, "--count records call counts only: not with %s", what);
			return -1;
		}
	}
	if (o->flight) {
		/* SIZE is the whole ring: --buffers of SIZE/N bytes each */
		uint64_t n = o->nbuf ? strtoul(o->nbuf, NULL, 10) : 8;
		uint64_t b = o->flight / n & ~(uint64_t)7;
		if (o->bufsize) {
			ct_set_err(err,
				   "--flight sets the buffer size (SIZE / --buffers): not with -b");
			return -1;
		}
		if (b < 4096 || b > (1ull << 30)) {
			/* say it in the user's terms: SIZE as given, and the
			 * range the --buffers count (given or 8) allows */
			ct_set_err(err,
				   "bad --flight=%s: with %llu buffers (%s) it must be "
				   "%lluK..%lluG "
				   "(each buffer of SIZE/%llu bytes between 4K and 1G)",
				   o->flight_arg ? o->flight_arg : "1M", (unsigned long long)n,
				   o->nbuf ? "--buffers" : "the default; --buffers sets it",
				   (unsigned long long)n * 4, (unsigned long long)n,
				   (unsigned long long)n);
			return -1;
		}
		if (o->drop) {
			ct_set_err(err,
				   "--flight never waits for record: --drop has no use with it");
			return -1;
		}
		snprintf(o->flight_buf, sizeof(o->flight_buf), "%llu", (unsigned long long)b);
		o->bufsize = o->flight_buf;
	}
	return 0;
}

int ct_record_opts_check(struct record_opts *o, int argc, char **argv, struct ct_error *err)
{
	if (argc < 1) {
		ct_set_err(err, "no command given");
		return 2;
	}
	o->argv = argv;
	if (check_together(o, err) < 0)
		return 2;
	o->use_tsc = o->clock ? !strcmp(o->clock, "tsc") : ct_arch_cycles_invariant();
	return 0;
}

void ct_record_opts_free(struct record_opts *o)
{
	free(o->ao.A);
	free(o->ao.R);
	free(o->ao.libs);
	o->rf.libs = NULL; /* the same as ao.libs */
	ct_recfilter_free(&o->rf);
	ct_libcall_opts_free(&o->lc);
	ct_plugopt_free(&o->pl);
	ct_injopt_free(&o->inj);
	memset(o, 0, sizeof(*o));
}

bool ct_record_parse(struct record_opts *o, int argc, char **argv, int *code)
{
	struct ct_opt_table t = {ct_record_options, ct_record_option, o};
	struct ct_opt_cmd c = {.head = record_head, .tabs = &t, .ntabs = 1, .in_order = true};
	struct ct_error err;
	ct_record_opts_init(o);
	*code = ct_opt_parse(&c, argc, argv, &err);
	if (*code < 0 && ct_record_opts_check(o, argc - c.next, argv + c.next, &err))
		*code = 2;
	if (*code == 2)
		ct_usage_error("%s", err.msg);
	else if (*code == 1)
		ct_error("%s", err.msg);
	if (*code >= 0)
		return false;
	if (!o->dir)
		o->dir = "calltrace.data";
	return true;
}
