/* SPDX-License-Identifier: MIT */
/*
 * bench/sigcost.c: what a CPU-time sample costs this machine with no
 * tracer at all (doc/record.md, "Sampling": the cost).  A loop of known
 * work runs with an EMPTY signal handler raised by the same clock as
 * record --sample's: a perf event on the thread's task-clock (user time,
 * O_ASYNC signal, PERF_EVENT_IOC_REFRESH in the handler, as
 * runtime/sample.c), or a POSIX timer on CLOCK_THREAD_CPUTIME_ID; it prints
 * the process's CPU time (user + system) and the signals taken.
 *
 *   sigcost none|perf|timer HZ TURNS
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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;
static volatile long nsig;
static int pfd = -1;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	nsig++;
	if (pfd >= 0)
		ioctl(pfd, PERF_EVENT_IOC_REFRESH, 1);
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	const char *mode = argv[1];
	long hz = atol(argv[2]), turns = atol(argv[3]);
	int sig = SIGRTMAX - 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(sig, &sa, NULL);
	int tid = (int)syscall(SYS_gettid);
	if (!strcmp(mode, "perf")) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof(a));
		a.type = PERF_TYPE_SOFTWARE;
		a.size = sizeof(a);
		a.config = PERF_COUNT_SW_TASK_CLOCK;
		a.sample_period = (uint64_t)(1000000000 / hz);
		a.disabled = 1;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		pfd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		struct f_owner_ex o = {F_OWNER_TID, tid};
		if (pfd < 0 || fcntl(pfd, F_SETFL, O_ASYNC | O_NONBLOCK) < 0 ||
		    fcntl(pfd, F_SETSIG, sig) < 0 || fcntl(pfd, F_SETOWN_EX, &o) < 0 ||
		    ioctl(pfd, PERF_EVENT_IOC_REFRESH, 1) < 0) {
			perror("perf_event_open");
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
	}
	for (long i = 0; i < turns; i++)
		sink++;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%s %ld Hz: cpu %.1f ms (user %.1f, sys %.1f), %ld signals\n", mode, hz,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3,
	       ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3,
	       ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3, nsig);
	return 0;
}
