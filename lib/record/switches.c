/* SPDX-License-Identifier: MIT */
/*
 * record --sched: the context switches of the traced threads.
 *
 * record opens them itself, on the program it has forked and holds back
 * before its exec: one software dummy event per CPU with context_switch
 * set, bound to the program's pid and inherited (attr.inherit) by every
 * thread and process it starts; the kernel writes each thread's switch-out
 * and switch-in, with its pid, tid and CLOCK_MONOTONIC time, into the ring
 * of the CPU it ran on, and record copies the rings into DIR/sched at each
 * round of its drain loop.  Nothing of this runs in the program: its hooks,
 * its threads and its signals are as without --sched, and a crash or a
 * SIGKILL of it loses no switch already written.
 *
 * What the kernel allows: perf_event_paranoid 2 (this machine's, and the
 * usual default) lets an unprivileged process observe its own processes'
 * user-space events and the side-band records that come with them
 * (exclude_kernel set; context switches are such records), on tasks it
 * may ptrace (same user, and Yama's ptrace_scope 1 allows its
 * descendants); an inherited per-task event can only be mapped when it is
 * bound to a CPU, hence one per CPU.  paranoid 3 (Debian's patch) or a
 * seccomp filter (containers) refuse perf_event_open: record says so once
 * and records without.  The rings' memory counts against
 * perf_event_mlock_kb (516 KiB per CPU by default) and then RLIMIT_MEMLOCK:
 * a ring that cannot be had at 512 KiB is tried smaller.
 */
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "switches.h"
#include "util.h"

#define RING_PAGES_MAX 128 /* data pages per CPU at most (512 KiB) */

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int open_one(pid_t pid, int cpu)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_DUMMY;
	a.context_switch = 1;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.exclude_kernel = 1; /* (what perf_event_paranoid 2 allows) */
	a.exclude_hv = 1;
	a.inherit = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = 1u << 30; /* nobody polls: no wake-ups */
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void close_all(struct ct_sched *sc)
{
	size_t len = (size_t)sysconf(_SC_PAGESIZE) + sc->data_size;
	for (int i = 0; i < sc->ncpu; i++) {
		if (sc->map && sc->map[i])
			munmap(sc->map[i], len);
		if (sc->fd[i] >= 0)
			close(sc->fd[i]);
	}
	free(sc->fd);
	free(sc->map);
	sc->fd = NULL;
	sc->map = NULL;
	sc->ncpu = 0;
	if (sc->out >= 0)
		close(sc->out);
	sc->out = -1;
}

static int refused(struct ct_sched *sc, int e, const char *what, struct ct_error *err)
{
	close_all(sc);
	char par[32] = "?";
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	if (f) {
		if (!fgets(par, sizeof(par), f))
			snprintf(par, sizeof(par), "?");
		par[strcspn(par, "\n")] = 0;
		fclose(f);
	}
	ct_set_err(err,
		   "record --sched: the kernel gives no context switches (%s: %s; "
		   "perf_event_paranoid is %s): recording without off-CPU times",
		   what, strerror(e), par);
	return -1;
}

int ct_sched_open(struct ct_sched *sc, pid_t pid, int dfd, struct ct_error *err)
{
	memset(sc, 0, sizeof(*sc));
	sc->out = -1;
	long n = sysconf(_SC_NPROCESSORS_CONF);
	if (n < 1)
		n = 1;
	if (n > 4096)
		n = 4096;
	sc->fd = xcalloc((size_t)n, sizeof(int));
	sc->map = xcalloc((size_t)n, sizeof(*sc->map));
	for (long i = 0; i < n; i++)
		sc->fd[i] = -1;
	sc->ncpu = (int)n;
	/* for the tests: a kernel that refuses (errno) */
	const char *fake = getenv("CALLTRACE_TEST_SCHED_ERRNO");
	if (fake && *fake)
		return refused(sc, atoi(fake), "perf_event_open", err);
	int opened = 0;
	for (int i = 0; i < sc->ncpu; i++) {
		sc->fd[i] = open_one(pid, i);
		if (sc->fd[i] < 0) {
			/* a CPU that is not there (offline, not possible) */
			if (errno == ENODEV || (errno == EINVAL && opened))
				continue;
			return refused(sc, errno, "perf_event_open", err);
		}
		opened++;
	}
	if (!opened)
		return refused(sc, ENODEV, "perf_event_open", err);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	for (size_t pages = RING_PAGES_MAX;; pages /= 2) {
		sc->data_size = pages * page;
		bool ok = true;
		int e = 0;
		for (int i = 0; i < sc->ncpu && ok; i++) {
			if (sc->fd[i] < 0)
				continue;
			void *m = mmap(NULL, page + sc->data_size, PROT_READ | PROT_WRITE,
				       MAP_SHARED, sc->fd[i], 0);
			if (m == MAP_FAILED) {
				e = errno;
				ok = false;
			} else {
				sc->map[i] = m;
			}
		}
		if (ok)
			break;
		for (int i = 0; i < sc->ncpu; i++)
			if (sc->map[i]) {
				munmap(sc->map[i], page + sc->data_size);
				sc->map[i] = NULL;
			}
		if (pages <= 1)
			return refused(sc, e, "mmap of its ring", err);
	}
	sc->out = openat(dfd, CT_SCHED_FILE, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (sc->out < 0) {
		int e = errno;
		close_all(sc);
		ct_set_err(err, "record --sched: %s: %s: recording without off-CPU times",
			   CT_SCHED_FILE, strerror(e));
		return -1;
	}
	struct ct_sched_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CT_SCHED_MAGIC, 8);
	h.version = CT_FORMAT_VERSION;
	h.recsize = sizeof(struct ct_sched_rec);
	if (write_all(sc->out, &h, sizeof(h)) < 0) {
		int e = errno;
		close_all(sc);
		ct_set_err(err, "record --sched: %s: %s: recording without off-CPU times",
			   CT_SCHED_FILE, strerror(e));
		return -1;
	}
	return 0;
}

static void flush(struct ct_sched *sc)
{
	if (!sc->nbuf)
		return;
	if (!sc->write_failed && write_all(sc->out, sc->buf, sc->nbuf * sizeof(sc->buf[0])) < 0) {
		sc->write_failed = true;
		ct_msg_add(sc->msgs, CT_MSG_WARN,
			   "record --sched: %s: %s: the rest of the context switches are not "
			   "recorded",
			   CT_SCHED_FILE, strerror(errno));
	}
	sc->nbuf = 0;
}

static void put(struct ct_sched *sc, uint32_t pid, uint32_t tid, uint32_t kind, uint32_t n,
		uint64_t ns)
{
	if (sc->nbuf == sizeof(sc->buf) / sizeof(sc->buf[0]))
		flush(sc);
	sc->buf[sc->nbuf++] = (struct ct_sched_rec){pid, tid, kind, n, ns};
}

/* bytes [off, off + n) of a ring's data, which may wrap */
static void ring_copy(const unsigned char *data, size_t size, uint64_t off, void *to, size_t n)
{
	size_t o = (size_t)(off & (size - 1));
	size_t first = n < size - o ? n : size - o;
	memcpy(to, data + o, first);
	memcpy((unsigned char *)to + first, data, n - first);
}

static void drain_ring(struct ct_sched *sc, unsigned char *m)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg = (void *)m;
	const unsigned char *data = m + page;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail;
	while (tail + sizeof(struct perf_event_header) <= head) {
		struct perf_event_header h;
		ring_copy(data, sc->data_size, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		unsigned char rec[64];
		size_t n = h.size - sizeof(h);
		if (n > sizeof(rec))
			n = sizeof(rec);
		ring_copy(data, sc->data_size, tail + sizeof(h), rec, n);
		uint32_t ids[2];
		uint64_t v[2];
		if (h.type == PERF_RECORD_SWITCH && n >= 16) {
			/* sample_id: pid, tid, time */
			memcpy(ids, rec, 8);
			memcpy(&v[0], rec + 8, 8);
			bool out = h.misc & PERF_RECORD_MISC_SWITCH_OUT;
			uint32_t kind = out ? CT_SCHED_OUT : CT_SCHED_IN;
			if (out && (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT))
				kind |= CT_SCHED_PREEMPT;
			sc->switches += out;
			put(sc, ids[0], ids[1], kind, 0, v[0]);
		} else if (h.type == PERF_RECORD_LOST && n >= 32) {
			/* id, lost, then sample_id: pid, tid, time */
			uint64_t when;
			memcpy(v, rec, 16);
			memcpy(ids, rec + 16, 8);
			memcpy(&when, rec + 24, 8);
			sc->lost += v[1];
			put(sc, ids[0], ids[1], CT_SCHED_LOST,
			    v[1] > UINT32_MAX ? UINT32_MAX : (uint32_t)v[1], when);
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

void ct_sched_drain(struct ct_sched *sc)
{
	if (sc->out < 0)
		return;
	for (int i = 0; i < sc->ncpu; i++)
		if (sc->map[i])
			drain_ring(sc, sc->map[i]);
	flush(sc);
}

void ct_sched_close(struct ct_sched *sc)
{
	if (sc->out < 0)
		return;
	ct_sched_drain(sc);
	close_all(sc);
}
