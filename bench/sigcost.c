/* SPDX-License-Identifier: MIT */
/*
 * bench/sigcost.c: what a CPU-time sample costs this machine with no
 * tracer at all (doc/record.md, "Sampling": the cost).  A loop of known
 * work runs with an EMPTY signal handler raised by the clocks record
 * --sample may use (runtime/sample.c), each a perf event on the thread's
 * task-clock (user time) but timer:
 *
 *   none   no clock: the loop alone
 *   nosig  the perf event's timer with no signal: its interrupt alone
 *   ring   the same writing a sample (PERF_SAMPLE_IP|PERF_SAMPLE_TIME) to
 *          the event's mmap'd ring: a sampling without a signal
 *   trap   attr.sigtrap: a SIGTRAP sent as the thread returns to user
 *          space from the timer's interrupt, the event runs on (the
 *          runtime's clock where the kernel has it, Linux 5.13)
 *   rt     O_ASYNC + F_SETSIG: a real-time signal sent from an irq_work
 *          (a second interrupt), PERF_EVENT_IOC_REFRESH every 8 signals
 *          (the runtime's clock without sigtrap)
 *   rt1    the same, PERF_EVENT_IOC_REFRESH in every signal (the
 *          runtime's clock until 2026-11-30)
 *   timer  a POSIX timer on CLOCK_THREAD_CPUTIME_ID (checked at the tick)
 *   kill   no clock: HZ signals in all, each sent by tgkill() after
 *          TURNS/HZ turns (a signal without an interrupt)
 *
 * It prints the process's CPU time (user + system), the signals taken and
 * the periods the perf event counted (its task-clock / the period).  The
 * cost of one sample: (cpu - none's cpu) / signals (nosig: / periods).
 *
 *   sigcost MODE HZ TURNS
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;
static volatile long nsig;
static int pfd = -1, batch;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	nsig++;
	if (batch && (batch == 1 || si->si_code == POLL_HUP))
		ioctl(pfd, PERF_EVENT_IOC_REFRESH, batch);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	const char *mode = argv[1];
	long hz = atol(argv[2]), turns = atol(argv[3]);
	int rt = !strcmp(mode, "rt") || !strcmp(mode, "rt1"), trap = !strcmp(mode, "trap");
	int ring = !strcmp(mode, "ring");
	int sig = trap ? SIGTRAP : SIGRTMAX - 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(sig, &sa, NULL);
	int tid = (int)syscall(SYS_gettid);
	if (rt || trap || ring || !strcmp(mode, "nosig")) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.size = sizeof(a);
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.sample_period = (uint64_t)(1000000000 / hz);
		a.disabled = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		if (ring)
			a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
		a.wakeup_events = 1u << 30; /* (ring: no wake-up, no signal) */
		a.sigtrap = (unsigned)trap;
		a.remove_on_exec = (unsigned)trap;
		pfd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		struct f_owner_ex o = {F_OWNER_TID, tid};
		batch = rt ? (mode[2] == '1' ? 1 : 8) : 0;
		if (pfd < 0 ||
		    (rt && (fcntl(pfd, F_SETFL, O_ASYNC | O_NONBLOCK) < 0 ||
			    fcntl(pfd, F_SETSIG, sig) < 0 || fcntl(pfd, F_SETOWN_EX, &o) < 0)) ||
		    (rt ? ioctl(pfd, PERF_EVENT_IOC_REFRESH, batch)
			: ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0)) < 0) {
			perror("perf_event_open");
			return 1;
		}
		if (ring && mmap(NULL, 257 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0) ==
				    MAP_FAILED) {
			perror("mmap");
			return 1;
		}
	} else if (!strcmp(mode, "timer")) {
		struct sigevent ev;
		memset(&ev, 0, sizeof(ev));
		ev.sigev_notify = SIGEV_THREAD_ID;
		ev.sigev_signo = sig;
		ev._sigev_un._tid = tid;
		timer_t id;
		if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &id) < 0) {
			perror("timer_create");
			return 1;
		}
		struct itimerspec its = {{0, 1000000000 / hz}, {0, 1000000000 / hz}};
		timer_settime(id, 0, &its, NULL);
	} else if (strcmp(mode, "none") && strcmp(mode, "kill")) {
		fprintf(stderr, "sigcost: no mode %s\n", mode);
		return 2;
	}
	/* (the same loop in every mode: HZ rounds of TURNS/HZ turns) */
	int kill = !strcmp(mode, "kill"), pid = getpid();
	for (long k = 0; k < hz; k++) {
		for (long i = 0; i < turns / hz; i++)
			sink++;
		if (kill)
			syscall(SYS_tgkill, pid, tid, sig);
	}
	uint64_t count = 0;
	if (pfd >= 0 && read(pfd, &count, sizeof(count)) != sizeof(count))
		count = 0;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%s %ld Hz: cpu %.1f ms (user %.1f, sys %.1f), %ld signals, %lu periods\n", mode, hz,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3,
	       ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3,
	       ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3, nsig,
	       (unsigned long)(count / (uint64_t)(1000000000 / hz)));
	return 0;
}
