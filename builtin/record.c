/* SPDX-License-Identifier: MIT */
/*
 * calltrace record: run a program with the runtime preloaded, drain every
 * thread's shared-memory ring into the data directory while it runs, and
 * whatever is left after it ends, however it ends.
 *
 * record makes itself a child subreaper, so it also waits for the
 * program's forked children and their children; it drains a process's
 * rings completely once it has reaped it.  Rings live in tmpfs files that
 * record unlinks as soon as it has mapped them, so nothing is left behind
 * if record itself is killed.
 *
 * The drainer is lib/record/drain.c, the data directory and its info file
 * lib/record/datadir.c; this file reads the options, starts the program, drives
 * the drainer until the program and what it started are gone, and ends:
 * symbols, the final info, the summary and the exit status.
 */
#include <ctype.h>
#include <elf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "argrecord.h"
#include "argspec.h"
#include "builtin.h"
#include "calltrace/format.h"
#include "calltrace/procstat.h"
#include "datadir.h"
#include "descend.h"
#include "countmerge.h"
#include "drain.h"
#include "follow.h"
#include "libcallopt.h"
#include "message.h"
#include "modfind.h"
#include "leftout.h"
#include "recfilter.h"
#include "record.h"
#include "recorder.h"
#include "symtab.h"
#include "session.h"
#include "snapshot.h"
#include "util.h"


static volatile sig_atomic_t forward_sig, interrupted, int_seen, snap_sig;
static pid_t child_pid;
static volatile sig_atomic_t child_alive = 1;

static void on_signal(int sig)
{
	forward_sig = sig;
	if (child_pid > 0 && child_alive)
		kill(child_pid, sig);
}

/* --flight: SIGUSR1 to record asks for a snapshot */
static void on_snapshot(int sig)
{
	(void)sig;
	snap_sig = 1;
}

/* --flight: a process that ends wakes the drain loop from its sleep (the
 * handler only interrupts it: the futex wait with a timeout ends with
 * EINTR even under SA_RESTART) */
static void on_child(int sig)
{
	(void)sig;
}

/* SIGINT/SIGQUIT from the terminal reach the program too: record only
 * notes them, and once the program has ended stops waiting for processes it
 * left behind (they run on untraced: doc/record.md) */
static void on_interrupt(int sig)
{
	(void)sig;
	int_seen = 1;
	if (!child_alive)
		interrupted = 1;
}


/* the signal dispositions and mask record inherited: the program starts
 * with them, as it would have without record (a handler cannot be
 * inherited through exec: only "ignored" is kept) */
static sigset_t inherited_mask, inherited_ignored;

static void save_inherited_signals(void)
{
	sigprocmask(SIG_SETMASK, NULL, &inherited_mask);
	sigemptyset(&inherited_ignored);
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&inherited_ignored, s);
	}
}

/* in the child, before exec: every disposition record changed back to what
 * record inherited, and the mask as it was */
static void restore_inherited_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	for (int s = 1; s < NSIG; s++) {
		if (s == SIGKILL || s == SIGSTOP)
			continue;
		sa.sa_handler = sigismember(&inherited_ignored, s) == 1 ? SIG_IGN : SIG_DFL;
		sigaction(s, &sa, NULL); /* (fails harmlessly on libc's own) */
	}
	sigprocmask(SIG_SETMASK, &inherited_mask, NULL);
}

/* record's handler for sig, unless sig was ignored when record started
 * (nohup, a background job's SIGINT): then record ignores it as the
 * program will */
static void take_signal(int sig, void (*fn)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sigismember(&inherited_ignored, sig) == 1 ? SIG_IGN : fn;
	sigaction(sig, &sa, NULL);
}

static bool use_tsc = true;

static uint64_t read_clock(void)
{
	return use_tsc ? ct_arch_cycles() : ct_mono_ns();
}

/* resolve the command as execvp does (through PATH when it has no '/'),
 * so that a command that cannot run is refused before anything is touched;
 * 0, or the shell's status: 127 not found, 126 found but not runnable */
static int check_command(const char *cmd)
{
	int e = ENOENT;
	if (!*cmd) {
		e = ENOENT;
	} else if (strchr(cmd, '/')) {
		struct stat st;
		if (stat(cmd, &st) < 0)
			e = errno;
		else if (S_ISDIR(st.st_mode))
			e = EACCES;
		else if (faccessat(AT_FDCWD, cmd, X_OK, AT_EACCESS) < 0)
			e = errno;
		else
			return 0;
	} else {
		const char *path = getenv("PATH");
		if (!path)
			path = "/bin:/usr/bin"; /* glibc's default */
		for (const char *p = path;;) {
			const char *c = strchrnul(p, ':');
			char cand[PATH_MAX];
			struct stat st;
			int n = snprintf(cand, sizeof(cand), "%.*s%s%s", (int)(c - p), p,
					 c > p ? "/" : "", cmd);
			if (n > 0 && n < (int)sizeof(cand) && stat(cand, &st) == 0) {
				if (!S_ISDIR(st.st_mode) &&
				    faccessat(AT_FDCWD, cand, X_OK, AT_EACCESS) == 0)
					return 0;
				e = EACCES; /* execvp goes on, and fails so */
			}
			if (!*c)
				break;
			p = c + 1;
		}
	}
	ct_error("cannot run '%s': %s", cmd, strerror(e));
	return e == ENOENT ? 127 : 126;
}

/* ---- the processes that outlive record's draining ------------------------ */

/* record stops draining: note the processes still running, those whose
 * later calls will not be recorded (lib/record/descend.c) */
static void note_running(struct recorder *r)
{
	r->nrunning = ct_running_descendants(&r->running);
}

/* ---- the clock -------------------------------------------------------- */

static double measure_hz(uint64_t *clock0, uint64_t *mono0, bool follow)
{
	if (!use_tsc) {
		*clock0 = *mono0 = ct_mono_ns();
		return 1e9;
	}
	/* a first estimate, for the info file written now (it is what a
	 * reader gets if record itself is killed); the rate is measured again
	 * over the whole run at the end.  Followed (live, top), this one is
	 * the rate for good: the views turn ticks into ns with it while the
	 * program runs, and report must have the same ns from the kept
	 * recording (doc/top.md); 20 ms make it as good as the final one */
	uint64_t m0 = ct_mono_ns(), c0 = ct_arch_cycles();
	struct timespec ts = {0, (follow ? 20 : 2) * 1000 * 1000};
	nanosleep(&ts, NULL);
	uint64_t m1 = ct_mono_ns(), c1 = ct_arch_cycles();
	*clock0 = c0;
	*mono0 = m0;
	return (double)(c1 - c0) * 1e9 / (double)(m1 - m0);
}

static const char *find_runtime(const char *opt, char *buf, size_t len)
{
	const char *env = getenv("CALLTRACE_LIB");
	if (opt)
		return opt;
	if (env && *env)
		return env;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	if ((size_t)snprintf(buf, len, "%s/libcalltrace.so", exe) < len && access(buf, R_OK) == 0)
		return buf;
	if ((size_t)snprintf(buf, len, "%s/../lib/calltrace/libcalltrace.so", exe) < len &&
	    access(buf, R_OK) == 0)
		return buf;
	return NULL;
}

/* ---- the options --------------------------------------------------------- */


/* -A/-R: a bad spec is a usage error (2); then the argument spec file for
 * the runtime (r->argspec), and a file that cannot be read is not (1) */
static int prepare_args(struct recorder *r)
{
	struct ct_args_opts *ao = &r->o.ao;
	struct ct_error err;
	char e[512];
	if (!ao->nA && !ao->nR && !ao->autoargs)
		return 0;
	for (size_t i = 0; i < ao->nA + ao->nR; i++) {
		char *re;
		struct ct_aspec sp;
		memset(&sp, 0, sizeof(sp));
		bool isr = i >= ao->nA;
		const char *spec = isr ? ao->R[i - ao->nA] : ao->A[i];
		bool autos;
		if (ct_args_parse_opt(spec, isr, &re, &sp, &autos, &err) < 0) {
			ct_error("%s %s", isr ? "-R" : "-A", err.msg);
			return 2;
		}
		regex_t rx;
		int rc = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB);
		if (rc) {
			regerror(rc, &rx, e, sizeof(e));
			ct_error("%s '%s': bad regex '%s': %s", isr ? "-R" : "-A", spec, re, e);
			free(re);
			ct_aspec_free(&sp);
			return 2;
		}
		regfree(&rx);
		free(re);
		ct_aspec_free(&sp);
	}
	struct ct_msgs warn = {0};
	int rc = ct_args_prepare(ao, r->o.argv[0], r->dirabs, r->dfd, r->argspec,
				 sizeof(r->argspec), &warn, &err);
	ct_msgs_flush(&warn);
	return rc < 0 ? ct_error("%s", err.msg) : 0;
}

/* record --inject: the rules matched against the program's functions and
 * what their front ends can do checked (lib/record/injectopt.c), the table kept
 * for start_recording.  0, or record's exit status (2: a front end cannot
 * do what a rule asks) */
static int resolve_inject(struct recorder *r)
{
	struct ct_error e;
	char thrower[PATH_MAX + 32];
	snprintf(thrower, sizeof(thrower), "%s", r->libabs);
	char *sl = strrchr(thrower, '/');
	snprintf(sl ? sl + 1 : thrower, sizeof(thrower) - (size_t)(sl ? sl + 1 - thrower : 0),
		 "libcalltrace-throw.so");
	if (ct_injopt_throws(&r->o.inj) && access(thrower, R_OK) != 0)
		return ct_error("--inject: throw= needs %s beside the runtime: %s", thrower,
				strerror(errno));
	ct_injopt_thrower = thrower;
	const char *lce = getenv(CT_ENV_LIBCALL);
	/* library calls on: --libcall, patterns (--libcall=REGEX and
	 * --no-libcall=REGEX turn them on as ct_libcall_prepare does), or the
	 * environment's default */
	bool lc =
		r->o.lc.set > 0 ||
		(r->o.lc.set == 0 && (r->o.lc.ninc || r->o.lc.nexc || !(lce && !strcmp(lce, "0"))));
	struct ct_msgs warn = {0};
	int rc = ct_injopt_resolve(&r->o.inj, r->o.argv[0], r->o.ao.libs, r->o.ao.nlibs, lc,
				   &r->o.lc, &r->injtext, &r->injlen, &warn, &e);
	ct_injopt_thrower = NULL;
	ct_msgs_flush(&warn);
	if (rc == 2 || rc < 0)
		ct_error("%s", e.msg);
	return rc == 2 ? 2 : rc < 0 ? 1 : 0;
}

/* ct_error, then rc */
static int __attribute__((format(printf, 2, 3))) emu_refuse(int rc, const char *fmt, ...)
{
	char m[PATH_MAX + 512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	ct_error("%s", m);
	return rc;
}

/* an aarch64 program on another machine (lib/record/emulate.h): the
 * emulator and the aarch64 runtime found, and what the runtime cannot do
 * there yet refused before anything is touched (exit 2; doc/frontends.md,
 * "AArch64").  The recording's clock is CLOCK_MONOTONIC: the emulated
 * counter is not this machine's. */
static int prepare_emulation(struct recorder *r, const char *exe)
{
	struct ct_error e;
	char bindir[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", bindir, sizeof(bindir) - 1);
	bindir[n > 0 ? n : 0] = 0;
	char *sl = strrchr(bindir, '/');
	if (sl)
		*sl = 0;
	const char *env = getenv("CALLTRACE_LIB");
	const char *lib = r->o.lib ? r->o.lib : env && *env ? env : NULL;
	int rc = ct_emu_prepare(r->o.argv[0], exe, lib, sl ? bindir : NULL, &r->emu, &e);
	if (rc)
		return emu_refuse(rc, "%s", e.msg);
	if (!r->emu.on)
		return 0;
	const char *arg0 = r->o.argv[0];
	int fe = ct_module_frontends(exe);
	/* -finstrument-functions, -pg (_mcount) and patched entries
	 * (arch/aarch64/patch.S) are there */
	if (fe > 0 && (fe & ~(CT_MOD_FE_CYG | CT_MOD_FE_MCOUNT | CT_MOD_FE_PATCH)))
		return emu_refuse(2,
				  "%s is built with %s, which calltrace does not support on %s "
				  "yet: build it with -finstrument-functions, -pg or "
				  "-fpatchable-function-entry=2 (doc/frontends.md)",
				  arg0, "-pg -mfentry", r->emu.arch);
	const char *no = r->o.lc.nest            ? "--nest-libcall"
			 : r->o.clock && use_tsc ? "--clock=tsc (the emulated counter is not this "
						   "machine's)"
						 : NULL;
	if (no)
		return emu_refuse(2,
				  "%s: %s: not available for an %s program yet "
				  "(doc/frontends.md)",
				  arg0, no, r->emu.arch);
	use_tsc = r->o.use_tsc = false;
	ct_modules_root(r->emu.sysroot); /* its libraries, for the record-time decisions */
	return 0;
}

/* -A with argument items (argN, fpargN, fmt=, %LOC) for an aarch64
 * program: its only register-seeing front end is -pg, and at _mcount the
 * argument registers are not the arguments (doc/args.md, "AArch64"); -a
 * and -A REGEX take each parameter where DWARF puts it there.  Refused
 * (exit 2) unless the program has patched entries, where x0-x7 and
 * v0-v7 are the arguments.  -R is not: x0/x1 and d0/d1 are exact at the
 * return trampoline.  (--count works with every aarch64 front end:
 * patch.S counts patched entries by call site, as _mcount does.)  0, or
 * record's exit status */
static int a64_args_refusal(struct recorder *r, const char *exe)
{
	if (!r->o.ao.nA || ct_elf_machine(exe) != EM_AARCH64)
		return 0;
	int fe = ct_module_frontends(exe);
	if (fe > 0 && (fe & CT_MOD_FE_PATCH))
		return 0;
	for (size_t i = 0; i < r->o.ao.nA; i++)
		if (!ct_args_opt_auto(r->o.ao.A[i]))
			return emu_refuse(2,
					  "%s: -A '%s': on aarch64, -pg's registers at _mcount are "
					  "not the arguments: use -a or -A 'REGEX' (each parameter "
					  "where DWARF puts it: build with -g; doc/args.md)",
					  r->o.argv[0], r->o.ao.A[i]);
	return 0;
}

/* what must hold before anything is made: the runtime, a command that can
 * run (refused before anything is touched), the data directory, the
 * argument specs.  0, or record's exit status. */
static int prepare(struct recorder *r)
{
	int code = check_command(r->o.argv[0]);
	if (code)
		return code;
	char *exe = ct_find_program(r->o.argv[0]);
	if (exe) /* -A/-R's register names: the program's (lib/args/argregs.h) */
		ct_aspec_set_machine(ct_elf_machine(exe));
	if (exe && ((code = prepare_emulation(r, exe)) != 0 || (code = a64_args_refusal(r, exe)))) {
		free(exe);
		return code;
	}
	char libbuf[PATH_MAX];
	const char *lib =
		r->emu.on ? r->emu.runtime : find_runtime(r->o.lib, libbuf, sizeof(libbuf));
	if (!lib || !realpath(lib, r->libabs)) {
		free(exe);
		return ct_error("cannot find the runtime libcalltrace.so%s%s (use --lib or "
				"CALLTRACE_LIB)",
				lib ? " at " : "", lib ? lib : "");
	}
	/* a program built without any front end: said before it runs (its
	 * libraries, or what it execs, may still be traced) */
	char why[256];
	if (exe && ct_program_secure(exe, why, sizeof(why))) {
		/* the loader will not preload the runtime: said before and after */
		snprintf(r->secure, sizeof(r->secure), "%s is %s", r->o.argv[0], why);
		ct_warn("%s: the loader ignores LD_PRELOAD for it (secure execution, AT_SECURE), "
			"so it runs untraced; record it as the user it runs as, or a copy "
			"without the bit",
			r->secure);
	} else if (exe && ct_module_instrumented(exe) == 0)
		ct_warn("%s is not built for tracing (no -finstrument-functions, -pg, -pg -mfentry "
			"or -fpatchable-function-entry hooks in it): only libraries or programs it "
			"runs that are can be traced",
			r->o.argv[0]);
	free(exe);
	if (r->o.inj.nrules && (code = resolve_inject(r)) != 0)
		return code; /* (before DIR is touched) */
	struct ct_error de;
	int dc = ct_datadir_prepare(r->o.dir, &r->dfd, &de);
	if (dc) {
		ct_error("%s", de.msg);
		return dc == CT_DATADIR_BUSY ? CT_DATADIR_BUSY_EXIT : 1;
	}
	/* the directory opened and checked, by its name now (what the
	 * runtime is given); every file record makes is made through r->dfd */
	char fdp[64];
	snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", r->dfd);
	ssize_t n = readlink(fdp, r->dirabs, sizeof(r->dirabs) - 1);
	if (n > 0 && r->dirabs[0] == '/') {
		r->dirabs[n] = 0;
	} else if (!realpath(r->o.dir, r->dirabs)) {
		return ct_error("%s: %s", r->o.dir, strerror(errno));
	}
	r->info.dfd = r->dfd;
	r->dr.dir_fd = r->dfd;
	return prepare_args(r);
}

/* ---- the start ----------------------------------------------------------- */

/* the ring directory, and a first info (what a reader gets if record
 * itself is killed), with room kept for the final one */
static int start_recording(struct recorder *r)
{
	struct ct_info *ri = &r->ri;
	struct ct_error me;
	int made = ct_drainer_make_dir(&r->dr, r->o.quiet, &me);
	ct_msgs_flush(&r->dr.msgs);
	if (made)
		return ct_error("%s", me.msg);
	ri->argv = r->o.argv;
	ri->clock = use_tsc ? "tsc" : "mono";
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(ri->start_time, sizeof(ri->start_time), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ri->hz = measure_hz(&r->clock0, &r->mono0, r->follow != NULL);
	if (ct_recfilter_active(&r->o.rf)) {
		/* decided now, per function of each module (lib/record/recfilter.c) */
		struct ct_error e;
		struct ct_msgs warn = {0};
		r->o.rf.libs = r->o.ao.libs;
		r->o.rf.nlibs = r->o.ao.nlibs;
		int rc = ct_recfilter_prepare(&r->o.rf, r->o.argv[0], r->dirabs, r->dfd, ri->hz,
					      r->filterspec, sizeof(r->filterspec), &warn, &e);
		ct_msgs_flush(&warn);
		if (rc == -2)
			return ct_usage_error("%s", e.msg);
		if (rc < 0)
			return ct_error("%s", e.msg);
		r->filters = ct_recfilter_describe(&r->o.rf);
		ri->filters = r->filters;
	}
	if (r->o.pl.path) {
		/* the plugin's table: names, and what --plugin-filter selects */
		struct ct_error e;
		struct ct_msgs warn = {0};
		int rc = ct_plugopt_prepare(&r->o.pl, r->o.argv[0], r->o.ao.libs, r->o.ao.nlibs,
					    r->dirabs, r->dfd, ri->hz, r->plugspec,
					    sizeof(r->plugspec), &warn, &e);
		ct_msgs_flush(&warn);
		if (rc < 0)
			return ct_error("%s", e.msg);
	}
	if (r->injtext) {
		/* record --inject's rules, resolved in prepare() */
		struct ct_error e;
		if (ct_injopt_write(r->injtext, r->injlen, r->dirabs, r->dfd, r->injspec,
				    sizeof(r->injspec), &e) < 0)
			return ct_error("%s", e.msg);
	}
	struct ct_error le;
	if (ct_libcall_prepare(&r->o.lc, r->o.argv[0], r->o.ao.libs, r->o.ao.nlibs, r->dirabs,
			       r->dfd, r->libcall, sizeof(r->libcall), &le) < 0)
		return ct_error("%s", le.msg);
	ri->start_clock = read_clock();
	ri->flight = r->o.flight;
	r->dr.flight = r->o.flight != 0;
	if (r->dr.db)
		r->dr.db->flight = r->dr.flight;
	struct ct_error ie;
	if (ct_info_write(&r->info, ri, &ie))
		return ct_error("%s", ie.msg);
	ct_info_reserve(&r->info, ri->argv);
	if (r->o.rf.range || r->o.rf.max_size)
		r->dr.db->gate = ct_recfilter_gate(&r->o.rf, 0, 0);
	return 0;
}

/* --time-range, --max-size: open and close the doorbell's gate */
static void drive_gate(struct recorder *r)
{
	if (!(r->o.rf.range || r->o.rf.max_size) || !r->dr.db)
		return;
	uint64_t el = ct_mono_ns() - r->mono0;
	unsigned g = ct_recfilter_gate(&r->o.rf, el, r->dr.st.bytes);
	unsigned old = __atomic_load_n(&r->dr.db->gate, __ATOMIC_RELAXED);
	if (old == CT_GATE_OVER || g == old)
		return;
	__atomic_store_n(&r->dr.db->gate, g, __ATOMIC_RELEASE);
	if (g == CT_GATE_OVER) {
		r->gate_closed = el;
		r->size_reached = r->o.rf.max_size && r->dr.st.bytes >= r->o.rf.max_size;
	}
}

/* the runtime's environment variables (include/calltrace/format.h): in
 * the program's environment only as record sets them, whatever the user's
 * had (CALLTRACE, linked-in mode's switch, is left: with CALLTRACE_DIR and
 * CALLTRACE_SHM set it has no effect) */
static const char *const runtime_env[] = {
	CT_ENV_DIR,    CT_ENV_SHM,          CT_ENV_BUFSIZE, CT_ENV_NBUF,   CT_ENV_DROP,
	CT_ENV_CLOCK,  CT_ENV_ARGS,         CT_ENV_FILTER,  CT_ENV_FLIGHT, CT_ENV_LIBCALL,
	CT_ENV_COUNT,  CT_ENV_NEST_LIBCALL, CT_ENV_PLUGIN,  CT_ENV_INJECT, CT_ENV_CALLSITE,
	CT_ENV_SAMPLE, CT_ENV_WATCH,
};

/* setenv name=val when val is given and not empty */
static void set_if(const char *name, const char *val)
{
	if (val && *val)
		setenv(name, val, 1);
}

/* in the child: an aarch64 program under qemu-aarch64, the runtime
 * preloaded into the emulated process only (-E: the emulator itself is a
 * program of this machine's), its libraries from the emulator's root (-L),
 * argv[0] as given (-0); returns if the emulator cannot be run */
static void exec_emulated(const struct recorder *r, const char *preload)
{
	size_t n = 0;
	while (r->o.argv[n])
		n++;
	char **av = calloc(n + 10, sizeof(char *));
	char *pre = malloc(strlen(preload) + 16);
	char *exe = ct_find_program(r->o.argv[0]);
	if (!av || !pre || !exe)
		return;
	sprintf(pre, "LD_PRELOAD=%s", preload);
	unsetenv("LD_PRELOAD");
	size_t k = 0;
	av[k++] = (char *)r->emu.qemu;
	if (*r->emu.sysroot) {
		av[k++] = "-L";
		av[k++] = (char *)r->emu.sysroot;
	}
	av[k++] = "-E";
	av[k++] = pre;
	av[k++] = "-0";
	av[k++] = r->o.argv[0];
	av[k++] = exe;
	for (size_t i = 1; i < n; i++)
		av[k++] = r->o.argv[i];
	av[k] = NULL;
	execv(r->emu.qemu, av);
}

/* in the child: the runtime preloaded and told where to write, then the
 * command; never returns */
static void exec_program(const struct recorder *r)
{
	restore_inherited_signals();
	/* $CALLTRACE_LIBCALL=0 is the documented switch that turns library
	 * calls off when no --libcall option says otherwise (tests/lib.sh
	 * uses it); any other value the user left is not the runtime's to read */
	const char *lce = getenv(CT_ENV_LIBCALL);
	bool lc_off = lce && !strcmp(lce, "0");
	for (size_t i = 0; i < sizeof(runtime_env) / sizeof(runtime_env[0]); i++)
		unsetenv(runtime_env[i]);
	const char *old = getenv("LD_PRELOAD");
	char *pre = malloc(strlen(r->libabs) + (old ? strlen(old) : 0) + 2);
	if (!pre) {
		ct_error("%s", strerror(errno));
		_exit(126);
	}
	strcpy(pre, r->libabs);
	if (old && *old) {
		strcat(pre, ":");
		strcat(pre, old);
	}
	if (!r->emu.on)
		setenv("LD_PRELOAD", pre, 1);
	setenv(CT_ENV_DIR, r->dirabs, 1);
	setenv(CT_ENV_SHM, r->dr.shm, 1);
	setenv(CT_ENV_CLOCK, use_tsc ? "tsc" : "mono", 1);
	set_if(CT_ENV_BUFSIZE, r->o.bufsize);
	set_if(CT_ENV_NBUF, r->o.nbuf);
	set_if(CT_ENV_ARGS, r->argspec);
	set_if(CT_ENV_FILTER, r->filterspec);
	set_if(CT_ENV_DROP, r->o.drop ? "1" : NULL);
	set_if(CT_ENV_CALLSITE, r->o.callsite ? "1" : NULL);
	set_if(CT_ENV_SAMPLE, r->o.sample_buf);
	set_if(CT_ENV_SAMPLE_CLOCK, r->o.sample_clock); /* (else the user's, if any) */
	set_if(CT_ENV_FLIGHT, r->o.flight ? "1" : NULL);
	set_if(CT_ENV_LIBCALL, *r->libcall ? r->libcall : lc_off ? "0" : NULL);
	set_if(CT_ENV_COUNT, r->o.count ? "1" : NULL);
	set_if(CT_ENV_WATCH, r->o.watch_cpu ? "cpu" : NULL);
	set_if(CT_ENV_NEST_LIBCALL, r->o.lc.nest ? "1" : NULL);
	set_if(CT_ENV_PLUGIN, r->plugspec);
	set_if(CT_ENV_INJECT, r->injspec);
	if (r->emu.on) {
		/* (never the program itself: execvp would give it to the shell) */
		exec_emulated(r, pre);
		ct_error("cannot run '%s': %s", r->emu.qemu, strerror(errno));
		_exit(126);
	}
	execvp(r->o.argv[0], r->o.argv);
	int e = errno;
	ct_error("cannot run '%s': %s", r->o.argv[0], strerror(e));
	_exit(e == ENOENT ? 127 : 126);
}

/* record becomes the subreaper of what it starts, takes the signals it
 * passes on or notes, and starts the program */
static int start_program(struct recorder *r)
{
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	take_signal(SIGTERM, on_signal);
	take_signal(SIGHUP, on_signal);
	take_signal(SIGINT, on_interrupt);
	take_signal(SIGQUIT, on_interrupt);
	/* record waits for its children: SIGCHLD never ignored here (an
	 * inherited SIG_IGN would have the kernel reap them) */
	sa.sa_handler = r->o.flight ? on_child : SIG_DFL;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	sa.sa_flags = 0;
	if (r->o.flight) {
		sa.sa_handler = on_snapshot;
		sigaction(SIGUSR1, &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);
	/* a file size limit makes write() fail with EFBIG (counted and
	 * reported) rather than kill record; the program gets it as it was */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, NULL);

	fflush(NULL);
	/* --sched: the program waits for its events to be open (a byte or
	 * the end of the pipe) before it runs anything */
	int hold[2] = {-1, -1};
	if (r->o.sched && pipe2(hold, O_CLOEXEC) < 0)
		return ct_error("pipe: %s", strerror(errno));
	child_pid = fork();
	if (child_pid < 0)
		return ct_error("fork: %s", strerror(errno));
	if (child_pid == 0) {
		if (hold[0] >= 0) {
			char b;
			close(hold[1]);
			while (read(hold[0], &b, 1) < 0 && errno == EINTR)
				;
		}
		exec_program(r);
	}
	if (hold[0] >= 0) {
		struct ct_error e;
		close(hold[0]);
		if (ct_sched_open(&r->sched, child_pid, r->dfd, &e) < 0) {
			ct_warn("%s", e.msg);
		} else {
			r->sched_on = true;
			r->sched.msgs = &r->dr.msgs; /* a write failure, said at the end */
		}
		close(hold[1]);
	}
	return 0;
}

/* ---- the flight recorder (--flight) --------------------------------------- */

/* a snapshot while the program runs (lib/record/snapshot.c), with the clock's
 * rate as measured so far */
static void take_snapshot(struct recorder *r, const char *reason)
{
	struct ct_info ri = r->ri;
	ri.end_clock = read_clock();
	if (use_tsc) {
		uint64_t m = ct_mono_ns();
		if (m > r->mono0)
			ri.hz = (double)(ri.end_clock - r->clock0) * 1e9 / (double)(m - r->mono0);
	}
	struct ct_snapshot_dir sd = {r->dirabs, r->dfd};
	struct ct_snapshot_taken got;
	struct ct_msgs msgs = {0};
	struct ct_error e;
	unsigned n = r->nsnap + 1;
	int rc = ct_snapshot_take(&sd, &r->dr, &ri, n, reason, &got, &msgs, &e);
	ct_msgs_flush(&r->dr.msgs);
	ct_msgs_flush(&msgs);
	if (rc < 0) {
		ct_error("%s", e.msg);
		return;
	}
	r->nsnap = n;
	if (!r->o.quiet)
		ct_note_plain("snapshot %u (%s): %llu events of %zu thread%s in %s/snapshot.%u/", n,
			      reason, (unsigned long long)got.events, got.threads,
			      got.threads == 1 ? "" : "s", r->o.dir, n);
}

/* --flight: a snapshot asked for by SIGUSR1, or by the program
 * (calltrace_snapshot: the doorbell's request, served and its caller woken) */
static void flight_requests(struct recorder *r)
{
	if (snap_sig) {
		snap_sig = 0;
		take_snapshot(r, "signal SIGUSR1");
	}
	char reason[96];
	if (!ct_snapshot_requested(r->dr.db, reason, sizeof(reason)))
		return;
	take_snapshot(r, reason);
	ct_snapshot_served(r->dr.db);
}

/* ---- the drain loop ------------------------------------------------------ */

/* drain while the program and what it started run; reap them, draining
 * each process's rings to the end.  Once they are all gone (or after ^C,
 * once the program is), stop draining and let the ring directory go. */
static void drain_loop(struct recorder *r)
{
	bool told = false;
	/* for the tests of --drop only: hold the drainer back at first */
	const char *pause = getenv("CALLTRACE_TEST_DRAIN_PAUSE_MS");
	uint64_t drain_from = ct_mono_ns() + (pause ? strtoull(pause, NULL, 10) * 1000000u : 0);
	/* the pause between rounds with nothing to drain: a millisecond, so
	 * that full buffers are taken at once (the writers' doorbell is rung
	 * only when half a ring is full).  --flight drains nothing while the
	 * program runs: what needs record then wakes it (a snapshot asked for
	 * rings the doorbell, SIGUSR1 and SIGCHLD interrupt the sleep), so it
	 * wakes 50 times a second, not 1000 (CPU time taken from the program
	 * on a busy machine); a gate (--time-range, --max-size) keeps the
	 * millisecond */
	unsigned idle_ms = r->o.flight && !r->o.rf.range && !r->o.rf.max_size ? 20 : 1;
	for (;;) {
		ct_drainer_heartbeat(&r->dr);
		drive_gate(r);
		ct_drainer_scan(&r->dr);
		ct_record_exec_filters(r);
		if (r->o.flight)
			flight_requests(r);
		bool did = ct_mono_ns() >= drain_from && ct_drainer_drain(&r->dr);
		if (r->sched_on)
			ct_sched_drain(&r->sched);
		if (r->follow)
			r->follow->round(r->follow->ctx, false);
		int st;
		pid_t p;
		bool gone = false;
		while ((p = waitpid(-1, &st, WNOHANG)) > 0) {
			if (p == child_pid) {
				r->status = st;
				r->have_status = true;
				child_alive = 0;
			}
			ct_drainer_process_gone(&r->dr, p);
		}
		if (p < 0 && errno == ECHILD)
			gone = true;
		ct_msgs_flush(&r->dr.msgs);
		if (r->have_status && !gone && !told && !r->o.quiet && isatty(2)) {
			ct_note_plain("the program ended; waiting for the processes it "
				      "left running (Ctrl-C to stop waiting)");
			told = true;
		}
		/* ^C: once the program has ended, stop waiting for the
		 * processes it left running (they run on, untraced) */
		if (interrupted || (int_seen && r->have_status))
			gone = true;
		if (gone) {
			ct_drainer_stop(&r->dr);
			note_running(r);
			break;
		}
		if (!did)
			ct_drainer_sleep(&r->dr, idle_ms);
	}
	r->ri.end_clock = read_clock();
	if (r->sched_on)
		ct_sched_close(&r->sched);
	/* live, top: all is in the files; their last round (after the end
	 * of the recording's time) */
	if (r->follow)
		r->follow->round(r->follow->ctx, true);
	/* what the runtime could not trace, then the ring directory goes */
	ct_drainer_untraced(&r->dr, r->ri.untraced);
	ct_msgs_flush(&r->dr.msgs);
	if (r->o.count) {
		struct ct_msgs msgs = {0};
		struct ct_error e;
		int rc = ct_counts_collect(r->dr.shm_fd, r->dr.shm, r->dirabs, &r->counts, &msgs,
					   &e);
		ct_msgs_flush(&msgs);
		if (rc < 0) {
			ct_error("%s", e.msg);
			r->counts.failures++;
		}
	}
	ct_drainer_remove_dir(&r->dr);
	ct_msgs_flush(&r->dr.msgs);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	int code;
	if (!ct_record_parse(&o, argc, argv, &code)) {
		ct_record_opts_free(&o);
		return code;
	}
	return ct_record_run(&o, NULL);
}

int ct_record_run(struct record_opts *o, const struct ct_record_follow *follow)
{
	struct recorder r;
	int code;
	/* before record takes any signal for itself */
	save_inherited_signals();
	memset(&r, 0, sizeof(r));
	r.o = *o; /* (taken: freed at the end) */
	memset(o, 0, sizeof(*o));
	r.dfd = -1;
	r.sched.out = -1;
	r.follow = follow;
	ct_drainer_init(&r.dr, r.dirabs);
	ct_info_init(&r.info, r.dirabs);
	use_tsc = r.o.use_tsc;
	if ((code = prepare(&r)))
		goto out;
	/* (2: an injection rule that a front end cannot do) */
	if ((code = start_recording(&r)) != 0)
		goto out;
	code = 1;
	/* what the drainer copies, and (but where records may be taken
	 * back) what the threads are writing */
	struct ct_error fe;
	if (follow && follow->start(follow->ctx, &r.dr, r.dirabs,
				    !r.o.drop && !r.o.rf.min_time && !r.o.rf.ntrig, &fe)) {
		ct_error("%s", fe.msg);
		goto out;
	}
	if (start_program(&r))
		goto out;
	drain_loop(&r);
	code = ct_record_finish(&r);
out:
	if (r.sched_on)
		ct_sched_close(&r.sched);
	ct_drainer_free(&r.dr);
	ct_msgs_flush(&r.dr.msgs);
	ct_info_discard(&r.info);
	if (r.dfd >= 0)
		close(r.dfd); /* (the lock goes with it) */
	free(r.running);
	free(r.flight_info);
	ct_record_opts_free(&r.o);
	free(r.injtext);
	free(r.filters);
	ct_record_exec_free(&r);
	return code;
}
