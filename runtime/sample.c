/* SPDX-License-Identifier: MIT */
/*
 * record --sample: a sampled profile on the exact call tree.  Each thread
 * that records gets a clock on its own CPU time that raises a signal in
 * that thread every period, made with its ring and stopped when the ring
 * is handed over; a forked child makes its own (the parent's are not its
 * own), an exec'd image too (the environment carries the period).  The
 * handler writes one SAMPLE record naming the depth of the shadow stack
 * (nested.c ct_sample_put): no unwinding, no clock.
 *
 * The clock is a perf event where the kernel allows it (the thread's
 * task-clock, user time only as perf_event_paranoid 2 allows; its hrtimer
 * fires at the period), else a POSIX timer on CLOCK_THREAD_CPUTIME_ID
 * (SIGEV_THREAD_ID), which the kernel checks at its scheduler tick only:
 * a period shorter than the tick (4 ms at HZ=250) gives one signal per tick
 * whose overrun count says how many periods it stands for (the record
 * carries it), far fewer distinct samples.  Which one a process uses is in
 * its .proc file ("sample PERIOD SIGNAL perf|timer").
 *
 * The perf event signals the thread one of two ways, the first the kernel
 * takes (CT_ENV_SAMPLE_CLOCK may name where to start: trap, rt, timer):
 *  - trap (Linux 5.13): attr.sigtrap, a SIGTRAP (si_code TRAP_PERF, our
 *    cookie in si_perf_data) queued as task work, sent as the thread
 *    returns to user space from the timer's interrupt: nothing more, and
 *    the event runs on by itself (no system call in the handler);
 *  - rt: O_ASYNC with F_SETSIG, a real-time signal that the kernel sends
 *    from an irq_work, that is a second interrupt (a self-IPI) after the
 *    timer's; its overflows queue a signal each, so the event is armed for
 *    CT_SAMPLE_BATCH of them at a time (PERF_EVENT_IOC_REFRESH: the last
 *    one, POLL_HUP, stops it and its handler re-arms it), which bounds
 *    the queue while the thread blocks the signal.
 * In a VM each interrupt costs microseconds (bench/sigcost.c, doc/record.md
 * "The cost"): trap is half the cost of rt there.
 *
 * The signal is SIGTRAP with trap, else a real-time one, SIGRTMAX -
 * CT_SAMPLE_SIG_BELOW_MAX, not SIGPROF, which belongs to the program
 * (setitimer, gprof, gperftools).  Should the program use that one too:
 *  - its sigaction() and signal() for it are interposed here: the handler
 *    stays calltrace's, the program's is remembered (and returned as the
 *    old one), and every signal of that number that is not a sample (a
 *    kill(), sigqueue(), the program's own timers, a breakpoint) is passed
 *    to the program's handler, or takes its default action, or is
 *    ignored, as the program asked; said once on stderr;
 *  - while it blocks it, the thread's samples wait (SIGTRAP is pending
 *    once, rt's at most CT_SAMPLE_BATCH, a timer keeps one signal pending
 *    and counts its overruns): they are delivered when the signal is
 *    unblocked and charged to the call open then.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "count.h"
#include "insn.h"
#include "internal.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif
#ifndef TRAP_PERF
#define TRAP_PERF 6 /* (glibc before 2.36 does not name it) */
#endif

/* the rt signal's perf event: overflows per PERF_EVENT_IOC_REFRESH */
#define CT_SAMPLE_BATCH 8

enum { CLK_TIMER = 1, CLK_RT, CLK_TRAP };
static int clk; /* the process's clock (CLK_*) */

uint64_t ct_sample_ns; /* internal.h */
int ct_sample_sig;     /* internal.h */
bool ct_sample_perf;   /* internal.h */

/* the samples' si_value: tells them from other signals of that number */
static char cookie;

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static sigaction_fn real_sigaction;

/* the program's own disposition of the signal (SIG_DFL until it sets one),
 * read by the handler: written with the signal blocked in this thread and
 * a lock against the others */
static struct sigaction prog_sa;
static int prog_lock;

static sigaction_fn get_real(void)
{
	if (!real_sigaction)
		real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
	return real_sigaction;
}

/* a signal of our number that is not a sample: as the program asked */
static void pass_on(int sig, siginfo_t *si, void *uc)
{
	/* (the lock's holder has the signal blocked: it is not this handler's
	 * thread, and lets go soon) */
	while (__atomic_exchange_n(&prog_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
	struct sigaction sa = prog_sa;
	if (sa.sa_flags & SA_RESETHAND) {
		memset(&prog_sa, 0, sizeof(prog_sa));
		prog_sa.sa_handler = SIG_DFL;
	}
	__atomic_store_n(&prog_lock, 0, __ATOMIC_RELEASE);
	if (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN)
		return;
	if (!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL) {
		/* the default action: the process ends by it (a real-time
		 * signal's, SIGTRAP's with a core dump) */
		struct sigaction dfl;
		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		get_real()(sig, &dfl, NULL);
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, sig);
		pthread_sigmask(SIG_UNBLOCK, &s, NULL);
		syscall(SYS_tgkill, getpid(), (int)syscall(SYS_gettid), sig);
		return;
	}
	sigset_t old;
	pthread_sigmask(SIG_BLOCK, &sa.sa_mask, &old);
	if (sa.sa_flags & SA_SIGINFO)
		sa.sa_sigaction(sig, si, uc);
	else
		sa.sa_handler(sig);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* the runtime's own code (--count: a sample there is the tracer's, not
 * the program's); empty when the runtime is linked into the program */
static uintptr_t self_lo, self_hi;
extern const char __ehdr_start[] __attribute__((visibility("hidden")));

static void find_self(void)
{
	if (!ct_cfg.linked)
		ct_elf_extent(__ehdr_start, true, &self_lo, &self_hi);
}

/* is the interrupted pc the tracer's?  In the runtime's code, or at the
 * instruction that enters it: a hook's call (the nops an untraced run
 * would run there) or the stub it goes through, patch.c's jump stub near
 * the module or a PLT stub (arch insn.h ct_insn_enters), which are
 * outside the runtime and not the program's (doc/record.md, "Sampling") */
static inline bool tracers_pc(uintptr_t pc)
{
	return (pc >= self_lo && pc < self_hi) || (self_hi && ct_insn_enters(pc, self_lo, self_hi));
}

/* n samples: on the recorded path, or on the counting stack (--count),
 * where those the tracer's code took are set apart */
static inline void put(struct ct_tstate *t, uint32_t n, const void *uc)
{
	if (ct_count_on) {
		ct_count_sample(n, tracers_pc(ct_arch_uc_pc(uc)), uc);
	} else {
		ct_sample_put(t, n);
	}
}

/* siginfo's si_perf_data (the kernel's field, which glibc's siginfo_t
 * does not name: the word after si_addr) */
static uintptr_t perf_data(const siginfo_t *si)
{
	uintptr_t v;
	memcpy(&v, (const char *)&si->si_addr + sizeof(void *), sizeof(v));
	return v;
}

static void on_sample(int sig, siginfo_t *si, void *uc)
{
	struct ct_tstate *t = &ct_self;
	int e = errno;
	if (si->si_code == SI_TIMER && si->si_value.sival_ptr == &cookie) {
		int over = si->si_overrun;
		put(t, 1u + (over > 0 ? (uint32_t)over : 0u), uc);
	} else if (clk == CLK_TRAP && sig == SIGTRAP && si->si_code == TRAP_PERF &&
		   perf_data(si) == (uintptr_t)&cookie) {
		/* the perf event's overflow; it runs on (one that comes after
		 * its descriptor was closed: nothing) */
		if (t->sample_on == 2)
			put(t, 1, uc);
	} else if ((si->si_code == POLL_HUP || si->si_code == POLL_IN) && clk == CLK_RT) {
		/* the perf event's overflow; the batch's last stopped it:
		 * start it again (one that comes after its descriptor was
		 * closed: nothing) */
		if (t->sample_on == 2 && si->si_fd == t->sample_timer) {
			put(t, 1, uc);
			if (si->si_code == POLL_HUP)
				ioctl(t->sample_timer, PERF_EVENT_IOC_REFRESH, CT_SAMPLE_BATCH);
		}
	} else {
		errno = e;
		pass_on(sig, si, uc);
		return;
	}
	errno = e;
}

/* this thread's task-clock as a perf event of kind (CLK_TRAP, CLK_RT) that
 * signals it at each period (sample_on 2; arm: started), or false */
static bool perf_start(struct ct_tstate *t, int kind, bool arm)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = ct_sample_ns;
	a.disabled = 1;
	a.exclude_kernel = 1; /* (what perf_event_paranoid 2 allows) */
	a.exclude_hv = 1;
	if (kind == CLK_TRAP) {
		a.sigtrap = 1;
		a.remove_on_exec = 1; /* (sigtrap wants it) */
		a.sig_data = (uintptr_t)&cookie;
	}
	int fd = (int)syscall(SYS_perf_event_open, &a, t->tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	struct f_owner_ex o = {F_OWNER_TID, t->tid};
	if ((kind == CLK_RT &&
	     (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) < 0 ||
	      fcntl(fd, F_SETSIG, ct_sample_sig) < 0 || fcntl(fd, F_SETOWN_EX, &o) < 0)) ||
	    (arm && (kind == CLK_TRAP ? ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)
				      : ioctl(fd, PERF_EVENT_IOC_REFRESH, CT_SAMPLE_BATCH)) < 0)) {
		close(fd);
		return false;
	}
	t->sample_timer = fd;
	t->sample_on = 2;
	return true;
}

void ct_sample_init(void)
{
	const char *v = ct_getenv(CT_ENV_SAMPLE);
	ct_sample_ns = 0;
	if (!v || !*v)
		return;
	uint64_t ns = 0;
	const char *p = v;
	while (*p >= '0' && *p <= '9' && ns < (1ull << 40))
		ns = ns * 10 + (uint64_t)(*p++ - '0');
	if (*p || ns < 1000 || ns >= (1ull << 40)) {
		ct_log("%s=%s: not a sampling period in ns; this process is not sampled",
		       CT_ENV_SAMPLE, v);
		return;
	}
	ct_sample_sig = SIGRTMAX - CT_SAMPLE_SIG_BELOW_MAX;
	find_self();
	/* the first clock the kernel gives (tried on this thread), from the
	 * one CT_ENV_SAMPLE_CLOCK names */
	const char *c = ct_getenv(CT_ENV_SAMPLE_CLOCK);
	clk = CLK_TRAP;
	if (c && !strcmp(c, "rt"))
		clk = CLK_RT;
	else if (c && !strcmp(c, "timer"))
		clk = CLK_TIMER;
	else if (c && *c && strcmp(c, "trap"))
		ct_log("%s=%s: not trap, rt or timer; ignored", CT_ENV_SAMPLE_CLOCK, c);
	ct_sample_ns = ns;
	for (; clk > CLK_TIMER; clk--) {
		struct ct_tstate probe = {.tid = (int)syscall(SYS_gettid)};
		if (perf_start(&probe, clk, false)) {
			close(probe.sample_timer);
			break;
		}
	}
	ct_sample_ns = 0;
	ct_sample_perf = clk != CLK_TIMER;
	if (clk == CLK_TRAP)
		ct_sample_sig = SIGTRAP;
	memset(&prog_sa, 0, sizeof(prog_sa));
	prog_sa.sa_handler = SIG_DFL;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (!get_real() || get_real()(ct_sample_sig, &sa, &old) < 0) {
		ct_log("cannot take signal %d for --sample: %s; this process is not sampled",
		       ct_sample_sig, strerror(errno));
		return;
	}
	/* what the image had before (inherited across exec: ignored or not) */
	if (old.sa_handler == SIG_IGN && !(old.sa_flags & SA_SIGINFO))
		prog_sa.sa_handler = SIG_IGN;
	ct_sample_ns = ns;
}

void ct_sample_thread_start(struct ct_tstate *t)
{
	t->sample_on = 0;
	t->sample_owed = 0;
	if (!ct_sample_ns)
		return;
	if (clk != CLK_TIMER && perf_start(t, clk, true))
		return;
	struct sigevent ev;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = ct_sample_sig;
	ev.sigev_value.sival_ptr = &cookie;
	ev.sigev_notify_thread_id = t->tid;
	int id = -1;
	if (syscall(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, &ev, &id) < 0) {
		static int said;
		if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
			ct_log("cannot make a CPU-time timer for --sample: %s; thread %d (and "
			       "others that fail the same way) is not sampled",
			       strerror(errno), t->tid);
		return;
	}
	struct itimerspec its;
	its.it_interval.tv_sec = (time_t)(ct_sample_ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(ct_sample_ns % 1000000000u);
	its.it_value = its.it_interval;
	if (syscall(SYS_timer_settime, id, 0, &its, NULL) < 0) {
		syscall(SYS_timer_delete, id);
		return;
	}
	t->sample_timer = id;
	t->sample_on = 1;
}

void ct_sample_thread_stop(struct ct_tstate *t)
{
	if (!t->sample_on)
		return;
	uint32_t was = t->sample_on;
	t->sample_on = 0;
	if (was == 2)
		close(t->sample_timer); /* (a signal pending finds sample_on 0) */
	else
		syscall(SYS_timer_delete, t->sample_timer);
}

void ct_sample_after_fork(struct ct_tstate *t)
{
	/* the parent's: not this process's (its perf event's descriptor is a
	 * copy: closed, the parent's stays) */
	if (t->sample_on == 2)
		close(t->sample_timer);
	t->sample_on = 0;
	t->sample_owed = 0;
}

/* ---- the program's own sigaction() and signal() for our signal ---------- */

static void lock_prog(sigset_t *old)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, ct_sample_sig);
	pthread_sigmask(SIG_BLOCK, &s, old);
	while (__atomic_exchange_n(&prog_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void unlock_prog(const sigset_t *old)
{
	__atomic_store_n(&prog_lock, 0, __ATOMIC_RELEASE);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

static void say_taken(const struct sigaction *act)
{
	static int said;
	if (act->sa_handler == SIG_DFL && !(act->sa_flags & SA_SIGINFO))
		return;
	if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		return;
	char name[24] = "SIGTRAP";
	if (ct_sample_sig != SIGTRAP)
		ct_fmt(name, sizeof(name), "SIGRTMAX-%d", CT_SAMPLE_SIG_BELOW_MAX);
	ct_log("the program sets its own handler for signal %d (%s), which record --sample "
	       "uses: the samples stay calltrace's, its other signals of that number go to the "
	       "program's handler",
	       ct_sample_sig, name);
}

CT_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn real = get_real();
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (!ct_sample_ns || sig != ct_sample_sig)
		return real(sig, act, old);
	sigset_t m;
	lock_prog(&m);
	struct sigaction was = prog_sa;
	if (act) {
		prog_sa = *act;
		say_taken(act);
	}
	unlock_prog(&m);
	if (old)
		*old = was;
	return 0;
}

typedef sighandler_t (*signal_fn)(int, sighandler_t);
static signal_fn real_signal;

/* the real functions found before the program may call them from a
 * signal handler (dlsym is not async-signal-safe) */
__attribute__((constructor(101))) static void find_reals(void)
{
	get_real();
	real_signal = (signal_fn)dlsym(RTLD_NEXT, "signal");
}

CT_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
	if (!ct_sample_ns || sig != ct_sample_sig) {
		if (!real_signal)
			real_signal = (signal_fn)dlsym(RTLD_NEXT, "signal");
		if (!real_signal) {
			errno = ENOSYS;
			return SIG_ERR;
		}
		return real_signal(sig, handler);
	}
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART; /* glibc's signal(): BSD semantics */
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}
