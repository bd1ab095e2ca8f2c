/* SPDX-License-Identifier: MIT */
/*
 * The process's .proc file (DIR/<pid>-<gen>.proc, doc/format.md): its
 * header (pid, parent, executable, arguments, clock), the front ends it
 * records through, its threads' names; the module map's lines are
 * modules.c's.  Every line is one write(2) to a file opened O_APPEND.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"

/* DIR/<pid>-<gen>.proc: O_APPEND, at a high number, checked before each
 * write (fds.c) */
static struct ct_held_fd proc_file = {.fd = -1};
static char proc_path[4200];

static void proc_write(const char *buf, size_t n)
{
	int fd = ct_fd_get(&proc_file, proc_path);
	if (fd >= 0) {
		ssize_t r = write(fd, buf, n);
		(void)r;
	}
}

void ct_proc_printf(const char *fmt, ...)
{
	char buf[4096 + 512];
	va_list ap;
	va_start(ap, fmt);
	size_t n = ct_vfmt(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	buf[n++] = '\n';
	proc_write(buf, n);
}

/* the front ends this process records through (CT_FE_*), each noted once
 * in its .proc file so that the reader uses the matching overhead figures */
static unsigned frontends;

static void frontend_note(unsigned fe)
{
	ct_proc_printf("frontend %s", fe == CT_FE_HOOK ? "hook" : "cyg");
}

/* the first time a thread of this process records through front end fe
 * (not the calibration's own calls): one line, written with one write(2)
 * (async-signal-safe; the file is O_APPEND) */
void ct_frontend_seen(struct ct_tstate *t, unsigned fe)
{
	if ((__atomic_load_n(&frontends, __ATOMIC_RELAXED) & fe) || ct_calibrating(t))
		return;
	if (!(__atomic_fetch_or(&frontends, fe, __ATOMIC_RELAXED) & fe))
		frontend_note(fe);
}

/* a forked child goes on with its parent's frames and front ends */
static void frontends_again(void)
{
	unsigned fe = __atomic_load_n(&frontends, __ATOMIC_RELAXED);
	if (fe & CT_FE_CYG)
		frontend_note(CT_FE_CYG);
	if (fe & CT_FE_HOOK)
		frontend_note(CT_FE_HOOK);
}

/* a text with backslash and newline escaped (\\, \n), as .proc lines
 * hold them, into buf (len > 0): its length */
static size_t escape_line(char *buf, size_t len, const char *a)
{
	size_t n = 0;
	for (; *a && n + 3 < len; a++) {
		if (*a == '\\' || *a == '\n') {
			buf[n++] = '\\';
			buf[n++] = *a == '\n' ? 'n' : '\\';
		} else {
			buf[n++] = *a;
		}
	}
	buf[n] = 0;
	return n;
}

void ct_proc_path_line(const char *head, const char *path)
{
	char buf[4096 + 512];
	size_t n = ct_fmt(buf, 256, "%s ", head);
	n += escape_line(buf + n, sizeof(buf) - 1 - n, path);
	buf[n++] = '\n';
	proc_write(buf, n);
}

static void put_escaped_arg(const char *a)
{
	char buf[4096];
	escape_line(buf, sizeof(buf), a);
	ct_proc_printf("arg %s", buf);
}

/* the name of thread tid (its comm, at most 15 bytes), or "" */
static void read_comm(const char *path, char *out, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, out, len - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	while (n > 0 && out[n - 1] == '\n')
		n--;
	out[n] = 0;
}

/* "thread-name CLOCK TID NAME": thread tid's name as it is now, for the
 * views (pthread_setname_np, prctl(PR_SET_NAME), or inherited from the
 * thread that created it) */
void ct_thread_name_note(int tid)
{
	if (ct_cfg.state != CT_RT_ACTIVE)
		return;
	char path[64], name[32], esc[80];
	ct_fmt(path, sizeof(path), "/proc/self/task/%d/comm", tid);
	read_comm(path, name, sizeof(name));
	if (!name[0])
		return;
	escape_line(esc, sizeof(esc), name);
	ct_proc_printf("thread-name %lu %d %s", (unsigned long)ct_clock(), tid, esc);
}

/* a new thread: its name, when it is not the process's (the main thread's,
 * which every thread inherits unless it or its creator was named) */
void ct_thread_name_start(int tid)
{
	char self[32], main[32];
	if (tid == ct_cfg.pid || ct_cfg.state != CT_RT_ACTIVE)
		return;
	read_comm("/proc/thread-self/comm", self, sizeof(self));
	read_comm("/proc/self/comm", main, sizeof(main));
	if (self[0] && strcmp(self, main))
		ct_thread_name_note(tid);
}

/* after pthread_setname_np named some thread of the process: the tasks
 * that now carry that name (the tid of a pthread_t is not public) */
void ct_thread_name_find(const char *name)
{
	char want[16];
	size_t n = strlen(name);
	if (n > 15)
		n = 15;
	memcpy(want, name, n);
	want[n] = 0;
	int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[4096];
	long got;
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			struct {
				uint64_t ino;
				int64_t off;
				unsigned short reclen;
				unsigned char type;
				char name[];
			} *d = (void *)(buf + off);
			off += d->reclen;
			if (d->name[0] < '1' || d->name[0] > '9')
				continue;
			char path[64], comm[32];
			ct_fmt(path, sizeof(path), "/proc/self/task/%s/comm", d->name);
			read_comm(path, comm, sizeof(comm));
			if (!strcmp(comm, want))
				ct_thread_name_note(atoi(d->name));
		}
	}
	close(fd);
}

/* the image's command line as it started: read once, before main, and
 * kept, so that a program that rewrites its argv memory (its title, as
 * redis and setproctitle do) and then forks still shows its command: the
 * child's /proc/self/cmdline is that title.  A copy made by fork keeps
 * its parent's (an exec'd image reads its own). */
static char start_cmdline[65536];
static ssize_t start_cmdline_len = -1;

const char *ct_start_cmdline(size_t *len)
{
	if (start_cmdline_len < 0) {
		ssize_t n = 0, r;
		int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
		while (fd >= 0 && n < (ssize_t)sizeof(start_cmdline) - 1 &&
		       (r = read(fd, start_cmdline + n, sizeof(start_cmdline) - 1 - n)) > 0)
			n += r;
		if (fd >= 0)
			close(fd);
		start_cmdline[n] = 0;
		start_cmdline_len = n;
	}
	*len = (size_t)start_cmdline_len;
	return start_cmdline;
}

static void write_args(void)
{
	size_t n;
	const char *buf = ct_start_cmdline(&n);
	for (size_t i = 0; i < n; i += strlen(buf + i) + 1)
		put_escaped_arg(buf + i);
}

/* create DIR/<pid>-<gen>.proc: the first free generation is this image's.
 * Private (0600), new (O_EXCL), never through a link. */
static bool open_proc_file(void)
{
	for (int gen = 0; gen < 100000; gen++) {
		ct_fmt(proc_path, sizeof(proc_path), "%s/%d-%d.proc", ct_cfg.dir, ct_cfg.pid, gen);
		int fd =
			open(proc_path,
			     O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			ct_cfg.gen = gen;
			return ct_fd_hold(&proc_file, fd);
		}
		if (errno != EEXIST) {
			ct_log("cannot create %s: %s", proc_path, strerror(errno));
			return false;
		}
	}
	return false;
}

int ct_proc_pid(void)
{
	return ct_cfg.pid;
}

/* create this image's .proc file and write its header, the module map
 * (and a forked child's hooked library calls); false if it cannot be made */
bool ct_proc_file_start(void)
{
	ct_cfg.pid = getpid();
	if (!open_proc_file())
		return false;
	uint64_t mono = ct_clock_start();
	ct_proc_printf("calltrace-proc %d", CT_FORMAT_VERSION);
	ct_proc_printf("pid %d", ct_cfg.pid);
	ct_proc_printf("ppid %d", (int)getppid());
	ct_proc_printf("gen %d", ct_cfg.gen);
	ct_proc_path_line("exe", ct_exe_path);
	write_args();
	ct_proc_printf("clock %lu %lu %lu", (unsigned long)ct_cfg.start_clock, (unsigned long)mono,
		       (unsigned long)ct_clock_realtime());
	ct_calibrate_note();
	if (ct_sample_ns) /* record --sample: PERIOD_NS SIGNAL perf|timer */
		ct_proc_printf("sample %lu %d %s", (unsigned long)ct_sample_ns, ct_sample_sig,
			       ct_sample_perf ? "perf" : "timer");
	frontends_again();
	ct_modules_reset();
	ct_libcall_lines(); /* a fork child's: the slots its parent hooked */
	ct_modules_rescan();
	return true;
}

/* a forked child: the parent's file is not its own */
void ct_proc_file_close(void)
{
	ct_fd_close(&proc_file);
}
