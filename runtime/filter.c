/* SPDX-License-Identifier: MIT */
/*
 * Record-time filters (`record -F/-N/--hide/-D/-t`, doc/record.md).
 *
 * `record` matches the regexes against the modules' function names before
 * the run and writes DIR/filter.spec (format below); here the runtime loads
 * it, puts each module's decisions into an address hash when the module is
 * mapped (start-up, dlopen; out again at dlclose), and the front ends ask
 * at each entry what to do with the call.  No regex, no ELF name on the
 * hot path: one hash look-up.
 *
 * The state of the filter lives on the shadow stack: each frame pushed
 * while filtering holds, in its flags word (CT_FR_F*), the state that holds
 * above it (inside a -N call?  inside a -F call?  how deep is the shown
 * tree?).  The state in force is the top frame's, so frames that vanish
 * (longjmp, exceptions, a context switch) take their state with them and
 * nothing needs to be resynchronised.
 *
 * -t (leave out calls shorter than TIME): a call's records are written as
 * usual, and when the call ends sooner than TIME and its records are still
 * in the buffer being written, they are taken back (zeroed, the write
 * position moved back).  A buffer switch moves the records of calls still
 * undecided (entered less than TIME ago) to the start of the next buffer,
 * so the decision is never taken from a buffer already handed over.  What
 * cannot be taken back (a signal handler's records in between, a buffer
 * switch that would move too much) is kept: a short call then stays in the
 * recording, never the other way round.
 *
 * The file:
 *   calltrace-filter 1
 *   depth N                 (0: no limit)
 *   time NS TICKS           (0 0: no limit; TICKS on the recording's clock)
 *   inc 0|1                 (whether some -F was given)
 *   trace 0|1               (0: --trace=off, tracing starts off)
 *   gate 0|1                (1: record opens and closes the doorbell's gate)
 *   trig I ACTION...        (-T; I from 0: on off on=call off=call finish
 *                            snapshot backtrace depth=N time=TICKS
 *                            read=KIND, KIND a CT_READ_*)
 *   signal SIGNO ACTION     (--signal: on off toggle finish)
 *   module BUILDID PATH     (PATH with bytes <= ' ' and '%' as %XX)
 *   f OFFSET FLAGS [TRIG]   (hex; CT_FL_* of calltrace/format.h; TRIG: 1 +
 *                            the trigger's index)
 *   n OFFSET VALUE NAME     (a library's function that the options decide
 *                            apart by the name it is called by, strtol and
 *                            strtoimax: VALUE (hex, FLAGS | TRIG << 16) for
 *                            calls through a slot named NAME; a name without
 *                            a line gets none; libcall.c records each name's
 *                            calls at a jump of its own)
 */
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "addrtab.h"
#include "internal.h"
#include "regs.h"

bool ct_filt_on;
struct ct_filt_conf ct_filt;
struct ct_filt_hash ct_filt_hash;
uint32_t ct_filt_gon = 1;
uint32_t ct_filt_done;

/* a -T trigger */
struct trig {
	bool on, off, on_call, off_call, finish, snapshot, backtrace;
	uint32_t read;  /* read=: 1 << CT_READ_* (readtrig.c) */
	uint32_t done;  /* backtrace: taken (only the first call's) */
	uint32_t depth; /* 0: none */
	uint64_t time;  /* ticks; valid if has_time */
	bool has_time;
};
#define MAX_TRIGS 256
static struct trig trigs[MAX_TRIGS];
static uint32_t ntrigs;

/* -F/-N 'REGEX@if:argN OP VALUE': "cond" lines */
static struct {
	uint8_t arg, op;
	int64_t val;
} conds[CT_FL_COND_MAX];
static uint32_t nconds;

/* --signal */
#define MAX_SIGS 8
static struct {
	int sig;
	int action; /* 0 on, 1 off, 2 toggle, 3 finish */
} sigs[MAX_SIGS];
static uint32_t nsigs;

/* the file has regexes over names (-F, -N, --hide, -T): an exec'd image
 * it does not cover asks record for its own (ask_record) */
static bool names;

/* each module's functions with their CT_FL_* flags, in ct_filt_hash */
static struct ct_atab F = {.h = &ct_filt_hash};

/* the address hash (internal.h): key 0 empty, 1 deleted */
#define H ct_filt_hash

uint32_t ct_filt_flags(uintptr_t fn)
{
	return ct_filt_lookup(fn);
}

/* the "n" lines: at most MAX_NAMED, the rest decided by address as before */
#define MAX_NAMED 128
static struct {
	uint32_t mod;
	uint32_t val;
	uint64_t off;
	char name[64];
} named[MAX_NAMED];
static uint32_t nnamed;

bool ct_filt_named(uintptr_t target, const char *name, uint32_t *val)
{
	if (!ct_filt_on || !nnamed)
		return false;
	bool apart = false;
	*val = 0;
	for (uint32_t a = 0; a < F.natt; a++) {
		if (target < F.att[a].base)
			continue;
		for (uint32_t i = 0; i < nnamed; i++) {
			if (named[i].mod != F.att[a].mod || F.att[a].base + named[i].off != target)
				continue;
			apart = true;
			if (!strcmp(named[i].name, name))
				*val = named[i].val;
		}
	}
	return apart;
}

/* ---- modules ---------------------------------------------------------- */

void ct_filt_module(uintptr_t base, const char *path, const char *buildid, bool added)
{
	if (ct_filt_on)
		ct_atab_module(&F, base, path, buildid, added);
}

void ct_filt_alias(uintptr_t alias, uintptr_t fn)
{
	if (ct_filt_on)
		ct_atab_put(&F, alias, ct_filt_lookup(fn));
}

void ct_filt_set(uintptr_t a, uint32_t val)
{
	if (ct_filt_on)
		ct_atab_put(&F, a, val);
}

bool ct_filt_unhooked(uintptr_t fn)
{
	return ct_filt_on && (ct_filt_flags(fn) & CT_FL_NOHOOK);
}

/* pthread_create(fn): a thread that starts in a function -N leaves out
 * records nothing.  record cannot know start routines before the run, so
 * each such function is noted once in the .proc file ("thread-left-out
 * ADDR"), and record names it in a warning at the end (doc/record.md) */
static uintptr_t noted[16];

void ct_filt_thread_start(uintptr_t fn)
{
	if (!ct_filt_on || !(ct_filt_flags(fn) & CT_FL_EXC))
		return;
	for (size_t i = 0; i < sizeof(noted) / sizeof(noted[0]); i++) {
		uintptr_t was = 0;
		if (__atomic_compare_exchange_n(&noted[i], &was, fn, false, __ATOMIC_RELAXED,
						__ATOMIC_RELAXED)) {
			ct_proc_printf("thread-left-out %lx", (unsigned long)fn);
			return;
		}
		if (was == fn)
			return;
	}
}

/* a forked child's .proc file is its own: it notes them again */
void ct_filt_after_fork(void)
{
	memset(noted, 0, sizeof(noted));
}

/* ---- loading the file ------------------------------------------------- */

/* a line of the file (ct_spec_lines); c: the counts of "f" and "module"
 * lines, which the tables were made for */
static bool line_of(void *c, uint32_t line, const char **p, const char *le)
{
	const uint32_t nf = ((const uint32_t *)c)[0], nm = ((const uint32_t *)c)[1];
	uint64_t a, b;
	if (line == 1) {
		if (!ct_spec_keyword(p, le, "calltrace-filter") || !ct_spec_number(p, le, 10, &a) ||
		    a != 1)
			return false;
	} else if (ct_spec_keyword(p, le, "depth")) {
		if (!ct_spec_number(p, le, 10, &a) || a > UINT32_MAX)
			return false;
		ct_filt.max_depth = (uint32_t)a;
	} else if (ct_spec_keyword(p, le, "time")) {
		if (!ct_spec_number(p, le, 10, &a) || !ct_spec_number(p, le, 10, &b))
			return false;
		ct_filt.min_time = b;
	} else if (ct_spec_keyword(p, le, "inc")) {
		if (!ct_spec_number(p, le, 10, &a) || a > 1)
			return false;
		ct_filt.has_inc = a != 0;
	} else if (ct_spec_keyword(p, le, "trace")) {
		if (!ct_spec_number(p, le, 10, &a) || a > 1)
			return false;
		ct_filt_gon = (uint32_t)a;
	} else if (ct_spec_keyword(p, le, "names")) {
		if (!ct_spec_number(p, le, 10, &a) || a > 1)
			return false;
		names = a != 0;
	} else if (ct_spec_keyword(p, le, "gate")) {
		if (!ct_spec_number(p, le, 10, &a) || a > 1)
			return false;
		ct_filt.gated = a != 0;
	} else if (ct_spec_keyword(p, le, "trig")) {
		if (!ct_spec_number(p, le, 10, &a) || a != ntrigs || ntrigs == MAX_TRIGS)
			return false;
		struct trig *tr = &trigs[ntrigs++];
		const char *w;
		size_t n;
		const char *q = *p;
		while (ct_spec_word(&q, le, &w, &n)) {
			const char *v = q;
			if (n == 2 && !memcmp(w, "on", 2))
				tr->on = true;
			else if (n == 3 && !memcmp(w, "off", 3))
				tr->off = true;
			else if (n == 7 && !memcmp(w, "on=call", 7))
				tr->on_call = true;
			else if (n == 8 && !memcmp(w, "off=call", 8))
				tr->off_call = true;
			else if (n == 6 && !memcmp(w, "finish", 6))
				tr->finish = true;
			else if (n == 8 && !memcmp(w, "snapshot", 8))
				tr->snapshot = true;
			else if (n == 9 && !memcmp(w, "backtrace", 9))
				tr->backtrace = true;
			else if (n > 6 && !memcmp(w, "depth=", 6)) {
				const char *x = w + 6;
				if (!ct_spec_number(&x, w + n, 10, &b) || !b || b > 1000000)
					return false;
				tr->depth = (uint32_t)b;
			} else if (n > 5 && !memcmp(w, "read=", 5)) {
				const char *x = w + 5;
				if (!ct_spec_number(&x, w + n, 10, &b) || !b || b >= CT_READ_KINDS)
					return false;
				tr->read |= 1u << b;
			} else if (n > 5 && !memcmp(w, "time=", 5)) {
				const char *x = w + 5;
				if (!ct_spec_number(&x, w + n, 10, &b))
					return false;
				tr->time = b;
				tr->has_time = true;
				ct_filt.timed = true;
			} else {
				return false;
			}
			*p = q;
			(void)v;
		}
		ct_filt.has_trig = true;
	} else if (ct_spec_keyword(p, le, "cond")) {
		uint64_t op, v;
		if (!ct_spec_number(p, le, 10, &a) || a != nconds || nconds == CT_FL_COND_MAX ||
		    !ct_spec_number(p, le, 10, &b) || b < 1 || b > 6 ||
		    !ct_spec_number(p, le, 10, &op) || op > 5 || !ct_spec_number(p, le, 16, &v))
			return false;
		conds[nconds].arg = (uint8_t)b;
		conds[nconds].op = (uint8_t)op;
		conds[nconds].val = (int64_t)v;
		nconds++;
	} else if (ct_spec_keyword(p, le, "signal")) {
		if (!ct_spec_number(p, le, 10, &a) || !ct_spec_number(p, le, 10, &b) || a < 1 ||
		    a >= 65 || b > 3 || nsigs == MAX_SIGS)
			return false;
		sigs[nsigs].sig = (int)a;
		sigs[nsigs].action = (int)b;
		nsigs++;
	} else if (ct_spec_keyword(p, le, "module")) {
		struct ct_atab_mod *m = &F.mods[F.nmods];
		if (F.nmods == nm || !ct_spec_text(p, le, m->buildid, sizeof(m->buildid)) ||
		    !ct_spec_text(p, le, m->path, sizeof(m->path)))
			return false;
		if (!strcmp(m->buildid, "-"))
			m->buildid[0] = 0;
		m->f0 = F.nfuncs;
		m->nf = 0;
		F.nmods++;
	} else if (ct_spec_keyword(p, le, "f")) {
		if (!F.nmods || F.nfuncs == nf || !ct_spec_number(p, le, 16, &a) ||
		    !ct_spec_number(p, le, 16, &b) || b > 0xffffffffu ||
		    (b > 0xffff && !(b & CT_FL_NOHOOK)))
			return false;
		uint64_t tg = 0;
		const char *q = *p;
		if (ct_spec_number(&q, le, 16, &tg)) {
			if (!tg || tg > ntrigs)
				return false;
			*p = q;
		}
		F.funcs[F.nfuncs].off = a;
		F.funcs[F.nfuncs].val = (uint32_t)(b | tg << CT_FL_TRIG_SHIFT);
		if (b & CT_FL_NOHOOK)
			ct_filt.has_nohook = true;
		F.nfuncs++;
		F.mods[F.nmods - 1].nf++;
	} else if (ct_spec_keyword(p, le, "n")) {
		char name[sizeof(named[0].name)];
		if (!F.nmods || !ct_spec_number(p, le, 16, &a) || !ct_spec_number(p, le, 16, &b) ||
		    !b || b > 0xffffffffu ||
		    ((b >> CT_FL_TRIG_SHIFT) && !(b & CT_FL_NOHOOK) &&
		     (b >> CT_FL_TRIG_SHIFT) > ntrigs))
			return false;
		/* (a name too long for the table: decided by address) */
		if (ct_spec_text(p, le, name, sizeof(name)) && nnamed < MAX_NAMED) {
			named[nnamed].mod = F.nmods - 1;
			named[nnamed].off = a;
			named[nnamed].val = (uint32_t)b;
			memcpy(named[nnamed++].name, name, sizeof(name));
		} else {
			*p = le;
		}
	} else {
		const char *w;
		size_t n;
		if (ct_spec_word(p, le, &w, &n))
			return false; /* an unknown line: not ours */
	}
	return true;
}

/* parse the file held in buf; false on the first bad line */
static bool parse(const char *buf, size_t len, uint32_t *bad_line)
{
	uint32_t n[2];
	ct_spec_count(buf, len, &n[0], &n[1]);
	if (!ct_atab_alloc(&F, n[0], n[1]) || !ct_spec_lines(buf, len, line_of, n, bad_line))
		return false;
	size_t cap = 1024;
	while (cap < 2 * (size_t)F.nfuncs + 16)
		cap *= 2;
	if (!F.nfuncs)
		return true; /* nothing to look up: the hash stays empty */
	return ct_atab_hash(&F, cap);
}

/* --signal=SIG@ACTION: the program got SIG */
static void on_signal(int sig)
{
	for (uint32_t i = 0; i < nsigs; i++) {
		if (sigs[i].sig != sig)
			continue;
		switch (sigs[i].action) {
		case 0:
			__atomic_store_n(&ct_filt_gon, 1, __ATOMIC_RELAXED);
			break;
		case 1:
			__atomic_store_n(&ct_filt_gon, 0, __ATOMIC_RELAXED);
			break;
		case 2:
			__atomic_fetch_xor(&ct_filt_gon, 1, __ATOMIC_RELAXED);
			break;
		default:
			__atomic_store_n(&ct_filt_done, 1, __ATOMIC_RELAXED);
		}
	}
}

/* load the file at path; false when it cannot be read (nothing is ever
 * selected then) */
static bool load(const char *path)
{
	size_t len = 0;
	char *buf = ct_spec_load(path, "the filter file", "this process records nothing",
				 CT_SPEC_MAX, &len);
	if (!buf) {
		ct_filt.has_inc = true; /* nothing is ever selected */
		return false;
	}
	uint32_t bad = 0;
	if (!parse(buf, len, &bad)) {
		ct_log("%s: line %u: not a filter file of this version; this process records "
		       "nothing",
		       path, bad);
		H.keys = NULL;
		ct_filt.has_inc = true;
	}
	ct_spec_free(buf, len);
	return true;
}

/* does the file loaded name this image's executable (its build id, or
 * without one its path)? */
static bool covers_exe(void)
{
	char bid[128];
	ct_modules_main_buildid(bid, sizeof(bid));
	for (uint32_t i = 0; i < F.nmods; i++) {
		const struct ct_atab_mod *m = &F.mods[i];
		if (bid[0] != '-' && m->buildid[0] ? !strcmp(m->buildid, bid)
						   : !strcmp(m->path, ct_exe_path))
			return true;
	}
	return false;
}

/* an image exec'd from a program the file does not cover: its names were
 * never matched.  Ask record (the doorbell) to match them against this
 * executable and what it loads, and wait for its answer while record
 * lives (its matching reads symbol tables: up to a few seconds for a big
 * program).  The path of the file it wrote into out, or false (said in
 * one line) */
static bool ask_record(char *out, size_t len)
{
	struct ct_doorbell *db = ct_cfg.doorbell;
	const char *why = "record is gone";
	for (int i = 0;; i++) {
		uint32_t free_ = 0;
		if (__atomic_compare_exchange_n(&db->fx_lock, &free_, 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		if (i >= 30000 || ct_recorder_gone(i >= 500)) {
			why = i >= 30000 ? "record did not answer in 30 s" : why;
			goto fail;
		}
		struct timespec ts = {0, 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	__atomic_store_n(&db->fx_pid, (int32_t)getpid(), __ATOMIC_RELAXED);
	uint32_t req = __atomic_add_fetch(&db->fx_req, 1, __ATOMIC_SEQ_CST);
	ct_ring_doorbell();
	for (int i = 0;; i++) {
		uint32_t done = __atomic_load_n(&db->fx_done, __ATOMIC_ACQUIRE);
		if (done == req)
			break;
		if (i >= 1500 || ct_recorder_gone(i >= 25)) {
			why = i >= 1500 ? "record did not answer in 30 s" : why;
			goto fail;
		}
		ct_futex_wait(&db->fx_done, done, 20 * 1000 * 1000);
	}
	ct_fmt(out, len, "%s/" CT_FILTER_EXEC_FMT, ct_cfg.dir, req);
	/* none: record could not match them, and said why */
	return access(out, F_OK) == 0;
fail:
	if (ct_recorder_gone(false))
		return false; /* (said once, by recorder.c) */
	ct_log("%s: the record-time filters (-F, -N, --hide, -T) were not matched against "
	       "the functions of this exec'd program (%s): they do not apply to them",
	       ct_exe_path, why);
	return false;
}

/* what the first file loaded set up, forgotten for another */
static void forget(void)
{
	memset(&ct_filt, 0, sizeof(ct_filt));
	memset(trigs, 0, sizeof(trigs));
	ntrigs = nsigs = nconds = 0;
	names = false;
	ct_filt_gon = 1;
	H.keys = NULL;
	H.vals = NULL;
	H.mask = 0;
	F.used = F.nfuncs = F.nmods = F.natt = 0;
}

void ct_filt_init(void)
{
	/* record -W cpu (watch.c): the gate on, with or without filters, so
	 * that every recorded entry is written by ct_enter_slow */
	ct_watch_init();
	const char *path = ct_getenv(CT_ENV_FILTER);
	if (!path || !*path) {
		if (ct_watch_cpu)
			ct_filt_on = true; /* no file: every call recorded */
		return;
	}
	if (!load(path)) {
		ct_filt_on = true;
		return;
	}
	/* an exec'd image (the doorbell is mapped before this) */
	char own[4200];
	if (names && ct_cfg.doorbell && ct_exe_path[0] && !covers_exe() &&
	    ask_record(own, sizeof(own))) {
		forget();
		if (!load(own)) {
			ct_filt_on = true;
			return;
		}
	}
	ct_filt_on = true;
	ct_filt.timed |= ct_filt.min_time != 0;
	for (uint32_t i = 0; i < ntrigs; i++) {
		if (trigs[i].backtrace) {
			/* glibc's backtrace() loads the unwinder the first time:
			 * now, not inside a hook */
			void *b[2];
			ct_backtrace_real(b, 2);
			break;
		}
	}
	/* (-t alone holds entries back, and writes them without
	 * ct_enter_slow: not with -W cpu, which takes -t's general path) */
	ct_filt.only_time = ct_filt.min_time && !ct_filt.has_inc && !ct_filt.max_depth &&
			    !ct_filt.has_trig && !ct_filt.gated && !F.nfuncs && !nsigs &&
			    !ct_watch_cpu;
	for (uint32_t i = 0; i < nsigs; i++) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i].sig, &sa, NULL);
	}
}

void ct_filt_enable(void)
{
	ct_filt.only_time = false; /* tracing may go off: decide each call */
	ct_cyg_held = ct_cyg_held_alone = false;
	ct_held_fast = false;
	if (ct_filt_on)
		return;
	/* the trampolines' assembly fast paths know nothing of filters: from
	 * now on every hook takes the C paths */
	ct_hook_fast = false;
	ct_enter_fast = ct_cs_fast = false;
	ct_cyg_enter_fast = ct_cyg_sel_fast = ct_cyg_exit_fast = false;
	__atomic_store_n(&ct_filt_on, true, __ATOMIC_RELEASE);
}

/* ---- the decisions ------------------------------------------------------- */

/* ---- -t ------------------------------------------------------------------ */

static bool tp_grow(struct ct_tstate *t)
{
	if (t->fl_tcap >= t->cap)
		return true;
	size_t old = (size_t)t->fl_tcap * sizeof(struct ct_tpend);
	size_t len = (size_t)t->cap * sizeof(struct ct_tpend);
	void *p = old ? mremap(t->fl_tp, old, len, MREMAP_MAYMOVE)
		      : mmap(NULL, len, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return false;
	t->fl_tp = p;
	t->fl_tcap = t->cap;
	return true;
}

void ct_filt_note_entry(struct ct_tstate *t, uint64_t now)
{
	uint32_t d = t->depth;
	if (d >= t->fl_tcap && !tp_grow(t))
		return; /* not noted: the call is kept, never taken back */
	ct_filt_note_at(t, d, now);
}

bool ct_filt_take_back(struct ct_tstate *t, uint32_t i, uint64_t now)
{
	if (i >= t->fl_tcap || !ct_filt_take_back_at(t, &t->fl_tp[i], now))
		return false;
	t->depth = i;
	return true;
}

uint32_t ct_filt_unwinding(struct ct_tstate *t, uint32_t from, uint32_t to)
{
	if (t->fl_plo != CT_PEND_NONE && t->fl_plo >= from) {
		t->fl_plo = CT_PEND_NONE; /* held back, gone: nothing was written */
		t->fl_due = UINT64_MAX;
	}
	if (!ct_filt.timed)
		return ct_filt_recorded(t, from, to);
	/* the calls that vanish and were short go as if they had returned:
	 * they are the innermost ones; the outermost of them takes the
	 * records of the others with it.  With triggers, thresholds differ: a
	 * call long by its own stays, and so do the calls it is in (as at an
	 * exit, ct_filt_kept), so those taken back are above the innermost
	 * long one */
	uint64_t now = ct_clock();
	uint32_t lo = from;
	for (uint32_t k = to; ct_filt.has_trig && k-- > from;) {
		if (t->stk[k].flags & CT_FR_NOREC)
			continue;
		if (k >= t->fl_tcap || now - t->fl_tp[k].t0 >= t->fl_tp[k].thr ||
		    now < t->fl_tp[k].t0) {
			lo = k + 1;
			break;
		}
	}
	for (uint32_t k = lo; k < to && k < t->fl_tcap; k++) {
		if (t->stk[k].flags & CT_FR_NOREC)
			continue;
		if (ct_filt_take_back_at(t, &t->fl_tp[k], now)) {
			to = k;
			break;
		}
	}
	uint32_t n = ct_filt_recorded(t, from, to);
	if (n)
		ct_filt_kept(t);
	/* the others end now: the reader takes the time of an UNWIND from
	 * the record after it, which may have been taken back */
	if (n)
		ct_put_time(t, now);
	return n;
}

uintptr_t ct_filt_carry(struct ct_tstate *t, uintptr_t base, uintptr_t end, uintptr_t nbase,
			uint64_t newseq)
{
	if (!ct_filt.timed || !t->fl_tp)
		return end;
	uint64_t now = ct_clock();
	uint32_t lo = t->depth;
	uint64_t oldseq = newseq - 1;
	/* the undecided frames: recorded, entered in this buffer less than
	 * TIME ago; the older ones lie below */
	while (lo > 0 && lo - 1 < t->fl_tcap) {
		const struct ct_frame *f = &t->stk[lo - 1];
		const struct ct_tpend *p = &t->fl_tp[lo - 1];
		if (!(f->flags & CT_FR_FILT))
			break;
		if (!(f->flags & CT_FR_NOREC)) {
			uint64_t thr = ct_filt.has_trig ? p->thr : ct_filt.min_time;
			if (p->seq != oldseq || now - p->t0 >= thr || now < p->t0)
				break;
		}
		lo--;
	}
	/* the first undecided recorded frame from the bottom of that run */
	uintptr_t from = end;
	for (uint32_t i = lo; i < t->depth && i < t->fl_tcap; i++) {
		if (!(t->stk[i].flags & CT_FR_NOREC)) {
			from = t->fl_tp[i].pos;
			break;
		}
	}
	if (from >= end || from < base || end - from > t->ring->buf_size / 4)
		return end;
	size_t n = end - from;
	__builtin_memcpy((void *)nbase, (const void *)from, n);
	__builtin_memset((void *)from, 0, n);
	for (uint32_t i = lo; i < t->depth && i < t->fl_tcap; i++) {
		struct ct_tpend *p = &t->fl_tp[i];
		if (p->seq == oldseq && p->pos >= from) {
			p->pos = p->pos - from + nbase;
			p->seq = newseq;
		}
	}
	return from;
}

void ct_filt_due(struct ct_tstate *t, uint64_t now)
{
	uint32_t i = t->fl_plo, d = t->depth;
	while (i < d && i < t->fl_tcap &&
	       (t->stk[i].flags & (CT_FR_PEND | CT_FR_NOREC)) != (CT_FR_PEND | CT_FR_NOREC))
		i++;
	if (i >= d || i >= t->fl_tcap) {
		t->fl_plo = CT_PEND_NONE;
		t->fl_due = UINT64_MAX;
	} else {
		t->fl_plo = i;
		t->fl_due = t->fl_tp[i].t0 + ct_filt.min_time;
		if (now - t->fl_tp[i].t0 >= ct_filt.min_time)
			ct_filt_flush(t);
	}
}

void ct_filt_flush(struct ct_tstate *t)
{
	uint32_t lo = t->fl_plo;
	t->fl_plo = CT_PEND_NONE;
	t->fl_due = UINT64_MAX;
	for (uint32_t i = lo; i < t->depth && i < t->fl_tcap; i++) {
		struct ct_frame *f = &t->stk[i];
		if ((f->flags & (CT_FR_PEND | CT_FR_NOREC)) != (CT_FR_PEND | CT_FR_NOREC))
			continue;
		f->flags &= ~(CT_FR_PEND | CT_FR_NOREC);
		/* written now, and noted as any recorded call is: one that
		 * proves short after all (the entry of a call inside it was
		 * due, or wrote the entries below it) is taken back at its
		 * exit, with what was written after it */
		uint64_t t0 = t->fl_tp[i].t0;
		ct_filt_note_at(t, i, t0);
		ct_put_enter(t, f->fn, t0, t->fl_tp[i].site);
	}
}

void ct_filt_release(struct ct_tstate *t)
{
	if (t->fl_tp)
		munmap(t->fl_tp, (size_t)t->fl_tcap * sizeof(struct ct_tpend));
	t->fl_tp = NULL;
	t->fl_tcap = 0;
}

/* ---- conditions (if:) ----------------------------------------------------- */

static bool cond_holds(uint32_t i, const struct ct_arch_regs *r)
{
	if (!i || i > nconds || !r)
		return false; /* (-finstrument-functions: record refused it) */
	int64_t v = (int64_t)r->gp[conds[i - 1].arg - 1], c = conds[i - 1].val;
	switch (conds[i - 1].op) {
	case 0:
		return v == c;
	case 1:
		return v != c;
	case 2:
		return v > c;
	case 3:
		return v >= c;
	case 4:
		return v < c;
	default:
		return v <= c;
	}
}

uint32_t ct_filt_cond(const struct ct_tstate *t, uint32_t fl)
{
	uint32_t ic = (fl >> CT_FL_ICOND_SHIFT) & CT_FL_COND_MAX,
		 xc = (fl >> CT_FL_XCOND_SHIFT) & CT_FL_COND_MAX;
	if (ic && !cond_holds(ic, t->fl_regs))
		fl &= ~CT_FL_INC;
	if (xc && !cond_holds(xc, t->fl_regs))
		fl &= ~CT_FL_EXC;
	return fl & ~CT_FL_COND_MASK;
}

/* ---- triggers ------------------------------------------------------------- */

static const struct trig *trig_of(uint32_t fl)
{
	if (fl & CT_FL_NOHOOK)
		return NULL; /* the high bits are its size */
	uint32_t i = fl >> CT_FL_TRIG_SHIFT;
	return i && i <= ntrigs ? &trigs[i - 1] : NULL;
}

/* the depth limit and time threshold in force above the top frame: those
 * of the nearest frame that keeps them (CT_FR_TP), else the options' */
static void limits(const struct ct_tstate *t, uint32_t *lim, uint64_t *thr)
{
	for (uint32_t i = t->depth; i-- > 0;) {
		uintptr_t f = t->stk[i].flags;
		if (!(f & CT_FR_FILT))
			break;
		if ((f & CT_FR_TP) && i < t->fl_tcap) {
			*lim = t->fl_tp[i].lim;
			*thr = t->fl_tp[i].thr;
			return;
		}
	}
	*lim = ct_filt.max_depth ? ct_filt.max_depth : UINT32_MAX;
	*thr = ct_filt.min_time;
}

unsigned ct_filt_enter_trig(struct ct_tstate *t, uintptr_t fn, uintptr_t *flags)
{
	uintptr_t s = ct_filt_state(t);
	*flags = CT_FR_FILT | CT_FR_NOREC | s;
	if (s & CT_FR_NIN)
		return CT_FD_SKIP; /* inside a -N call: nothing acts */
	uint32_t fl = ct_filt_lookup(fn);
	if (unlikely(fl & CT_FL_COND_MASK) && !(fl & CT_FL_NOHOOK))
		fl = ct_filt_cond(t, fl);
	const struct trig *tr = trig_of(fl);
	if (tr && tr->on && !ct_filt_done &&
	    !__atomic_exchange_n(&ct_filt_gon, 1, __ATOMIC_RELAXED))
		ct_put_mark(t, "tracing on (trigger)", 20);
	if (tr && tr->off && __atomic_exchange_n(&ct_filt_gon, 0, __ATOMIC_RELAXED))
		ct_put_mark(t, "tracing off (trigger)", 21);
	if (tr && tr->snapshot)
		ct_api_snapshot_trigger(t);
	if (tr && tr->backtrace &&
	    !__atomic_exchange_n(&((struct trig *)tr)->done, 1, __ATOMIC_RELAXED))
		ct_hook_backtrace(t, fn);
	if (fl & CT_FL_EXC) {
		*flags |= CT_FR_NIN;
		return CT_FD_MARK;
	}
	uintptr_t sd = (s & CT_FR_SD_MASK) >> CT_FR_SD_SHIFT;
	uintptr_t fin = s & CT_FR_FIN, ton = s & CT_FR_TON, toff = s & CT_FR_TOFF;
	uint32_t lim;
	uint64_t thr;
	limits(t, &lim, &thr);
	if (fl & CT_FL_INC) {
		/* a -F call begins afresh, also inside another */
		fin = CT_FR_FIN;
		sd = 0;
		lim = ct_filt.max_depth ? ct_filt.max_depth : UINT32_MAX;
		thr = ct_filt.min_time;
	} else if (!fin) {
		return CT_FD_SKIP;
	}
	bool changed = fin != (s & CT_FR_FIN) || (fl & CT_FL_INC);
	if (tr) {
		if (tr->on_call) {
			ton = CT_FR_TON;
			toff = 0;
		}
		if (tr->off_call) {
			toff = CT_FR_TOFF;
			ton = 0;
		}
		/* depth=N: this call and N - 1 levels under it */
		if (tr->depth && sd + tr->depth < lim)
			lim = (uint32_t)(sd + tr->depth);
		if (tr->has_time)
			thr = tr->time;
		changed |= tr->on_call || tr->off_call || tr->depth || tr->has_time || tr->finish;
	}
	bool live = !__atomic_load_n(&ct_filt_done, __ATOMIC_RELAXED) &&
		    (ton || (!toff && ct_filt_live()));
	unsigned dec;
	if (!live || (fl & CT_FL_HIDE) || sd >= lim || sd + 1 > CT_FR_SD_MASK >> CT_FR_SD_SHIFT) {
		if (!changed)
			return CT_FD_SKIP;
		*flags = CT_FR_FILT | CT_FR_NOREC | fin | ton | toff | sd << CT_FR_SD_SHIFT;
		dec = CT_FD_MARK;
	} else {
		*flags = CT_FR_FILT | fin | ton | toff | (sd + 1) << CT_FR_SD_SHIFT;
		/* read=: its values once the ENTER (and ARGS) are written */
		if (tr && tr->read)
			*flags |= CT_FR_READ;
		dec = CT_FD_RECORD;
	}
	/* the frame keeps the limits for what it calls */
	uint32_t d = t->depth;
	if (d < t->fl_tcap || tp_grow(t)) {
		if (d < t->fl_tcap) {
			t->fl_tp[d].lim = lim;
			t->fl_tp[d].thr = thr;
			*flags |= CT_FR_TP;
		}
	}
	t->fl_lim = lim;
	t->fl_thr = thr;
	return dec;
}

uint32_t ct_filt_reads(uintptr_t fn)
{
	const struct trig *tr = trig_of(ct_filt_lookup(fn));
	return tr ? tr->read : 0;
}

void ct_filt_exit_trig(uintptr_t fn)
{
	const struct trig *tr = trig_of(ct_filt_lookup(fn));
	if (tr && tr->finish && !__atomic_exchange_n(&ct_filt_done, 1, __ATOMIC_RELAXED))
		ct_put_mark(&ct_self, "recording finished (trigger)", 28);
}
