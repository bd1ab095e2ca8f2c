/* SPDX-License-Identifier: MIT */
/*
 * read= triggers (`record -T 'f@read=KIND'`, doc/record.md "Triggers and
 * windows"): a value read at the entry and at the exit of each recorded
 * call of f, each in a READ record of its own (calltrace/format.h
 * CT_EXT_READ); replay shows the first and the difference.
 *
 * Reached from the hooks (busy held), so async-signal-safe and libc only:
 *  - proc/statm: open, read and close /proc/self/statm (the process's
 *    size, resident and shared memory), parsed by hand;
 *  - page-fault: getrusage(RUSAGE_THREAD), the thread's major and minor
 *    faults;
 *  - pmu-cycle, pmu-cache, pmu-branch: a group of two hardware counters of
 *    the thread (user space only) from perf_event_open, opened at the
 *    thread's first such call and read with one read(2).  Where the kernel
 *    refuses them (no PMU in a virtual machine, perf_event_paranoid, a
 *    seccomp filter), one line says so and the calls are recorded without
 *    those values.
 * errno is the program's: it is kept across the reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

static uint32_t pmu_warned; /* 1 << kind, said once per process */

static const struct {
	const char *name;
	uint64_t cfg[2];
} pmu_ev[3] = {
	{"pmu-cycle", {PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS}},
	{"pmu-cache", {PERF_COUNT_HW_CACHE_REFERENCES, PERF_COUNT_HW_CACHE_MISSES}},
	{"pmu-branch", {PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_BRANCH_MISSES}},
};

/* the decimal number at *p (spaces before it skipped) */
static bool number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	while (s < end && *s == ' ')
		s++;
	if (s == end || *s < '0' || *s > '9')
		return false;
	uint64_t x = 0;
	while (s < end && *s >= '0' && *s <= '9' && x < (UINT64_MAX - 9) / 10)
		x = x * 10 + (uint64_t)(*s++ - '0');
	*p = s;
	*v = x;
	return true;
}

static unsigned read_statm(uint64_t *v)
{
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[160];
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return 0;
	const char *p = buf, *end = buf + n;
	uint64_t kb = (uint64_t)getpagesize() / 1024;
	for (unsigned i = 0; i < 3; i++) {
		if (!number(&p, end, &v[i]))
			return 0;
		v[i] *= kb ? kb : 1;
	}
	return 3;
}

static unsigned read_pgfault(uint64_t *v)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) < 0)
		return 0;
	v[0] = (uint64_t)ru.ru_majflt;
	v[1] = (uint64_t)ru.ru_minflt;
	return 2;
}

static int pmu_open(uint64_t cfg, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = cfg;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP;
	long fd = syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -1 : ct_fd_move_high((int)fd);
}

/* are the group's descriptors still the counters it opened?  (the program
 * may close them, and get their numbers back for its own files) */
static bool pmu_ours(const struct ct_read_pmu *g)
{
	uint64_t id = 0;
	return g->open && ioctl(g->fd[0], PERF_EVENT_IOC_ID, &id) == 0 && id == g->id;
}

static void pmu_close(struct ct_read_pmu *g)
{
	if (pmu_ours(g)) {
		close(g->fd[0]);
		close(g->fd[1]);
	}
	g->open = false;
}

static bool pmu_setup(struct ct_tstate *t, unsigned i)
{
	struct ct_read_pmu *g = &t->rd_pmu[i];
	if (g->tid != t->tid) {
		/* a forked child's copies count its parent's thread */
		pmu_close(g);
		g->failed = false;
		g->tid = t->tid;
	} else if (g->open) {
		if (pmu_ours(g))
			return true;
		g->open = false; /* the program's now: not closed */
	}
	if (g->failed)
		return false;
	int e = 0;
	g->fd[0] = pmu_open(pmu_ev[i].cfg[0], -1);
	if (g->fd[0] < 0) {
		e = errno;
	} else if (ioctl(g->fd[0], PERF_EVENT_IOC_ID, &g->id) < 0 ||
		   (g->fd[1] = pmu_open(pmu_ev[i].cfg[1], g->fd[0])) < 0) {
		e = errno;
		close(g->fd[0]);
		g->fd[0] = -1;
	}
	if (g->fd[0] >= 0) {
		g->open = true;
		return true;
	}
	g->failed = true;
	if (!(__atomic_fetch_or(&pmu_warned, 1u << i, __ATOMIC_RELAXED) & (1u << i)))
		ct_log("read=%s: the kernel refuses the hardware counters (perf_event_open: %s): "
		       "calls are recorded without them",
		       pmu_ev[i].name, strerror(e));
	return false;
}

static unsigned read_pmu(struct ct_tstate *t, unsigned i, uint64_t *v)
{
	if (!pmu_setup(t, i))
		return 0;
	uint64_t buf[3];
	if (read(t->rd_pmu[i].fd[0], buf, sizeof(buf)) != (ssize_t)sizeof(buf) || buf[0] != 2)
		return 0;
	v[0] = buf[1];
	v[1] = buf[2];
	return 2;
}

void ct_read_trig(struct ct_tstate *t, uintptr_t fn, bool at_exit)
{
	uint32_t mask = ct_filt_reads(fn);
	if (!mask || !t->ring || !t->cap)
		return;
	int saved = errno;
	for (unsigned k = 1; k < CT_READ_KINDS; k++) {
		if (!(mask & (1u << k)))
			continue;
		uint32_t w[1 + 2 * 3];
		uint64_t v[3];
		unsigned n = k == CT_READ_STATM     ? read_statm(v)
			     : k == CT_READ_PGFAULT ? read_pgfault(v)
						    : read_pmu(t, k - CT_READ_PMU_CYCLE, v);
		if (!n)
			continue;
		w[0] = ct_ext_word(CT_EXT_READ, 2 * n, k | (at_exit ? CT_READ_AT_EXIT : 0));
		for (unsigned j = 0; j < n; j++) {
			w[1 + 2 * j] = (uint32_t)v[j];
			w[2 + 2 * j] = (uint32_t)(v[j] >> 32);
		}
		ct_put_words(t, w, 1 + 2 * n);
	}
	errno = saved;
}

void ct_read_release(struct ct_tstate *t)
{
	for (unsigned i = 0; i < 3; i++)
		if (t->rd_pmu[i].tid == t->tid)
			pmu_close(&t->rd_pmu[i]);
}
