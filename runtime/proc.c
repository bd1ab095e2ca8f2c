/* SPDX-License-Identifier: MIT */
/*
 * The traced process: start-up, its .proc file (argv, clock, module map),
 * dlopen/dlclose, fork, and thread exit.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "count.h"
#include "internal.h"

struct ct_config ct_cfg;
/* DIR/<pid>-<gen>.proc: O_APPEND, at a high number, checked before each
 * write (fds.c) */
static struct ct_held_fd proc_file = {.fd = -1};
static char proc_path[4200];
static pthread_key_t thread_key;
static int init_tid;
static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;

static void clock_check_tsc(void);
static void clock_no_tsc(void);

void ct_proc_printf(const char *fmt, ...)
{
	char buf[4096 + 512];
	va_list ap;
	va_start(ap, fmt);
	size_t n = ct_vfmt(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	buf[n++] = '\n';
	int fd = ct_fd_get(&proc_file, proc_path);
	if (fd >= 0) {
		ssize_t r = write(fd, buf, n);
		(void)r;
	}
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;
	if (ct_cfg.clock_vdso)
		clock_gettime(CLOCK_REALTIME, &ts);
	else /* the TSC is disabled: the vDSO would fault */
		syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- modules -------------------------------------------------------- */

#define MAX_MODULES 4096
struct module {
	uintptr_t base;
	uint64_t key; /* a hash of its name as the loader gives it */
	char name[256];
	int seen;
};
static struct module modules[MAX_MODULES];
static int nmodules;
static char exe_path[4096];

static void hex_buildid(const ElfW(Phdr) * ph, uintptr_t base, char *out, size_t outlen)
{
	const char *p = (const char *)(base + ph->p_vaddr);
	const char *end = p + ph->p_memsz;
	strcpy(out, "-");
	while (p + sizeof(ElfW(Nhdr)) <= end) {
		const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
		size_t namesz = (nh->n_namesz + 3) & ~3u, descsz = (nh->n_descsz + 3) & ~3u;
		const char *name = p + sizeof(*nh);
		const unsigned char *desc = (const unsigned char *)name + namesz;
		if ((const char *)desc + nh->n_descsz > end)
			break;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
		    nh->n_descsz * 2 + 1 <= outlen) {
			for (unsigned i = 0; i < nh->n_descsz; i++) {
				out[2 * i] = "0123456789abcdef"[desc[i] >> 4];
				out[2 * i + 1] = "0123456789abcdef"[desc[i] & 15];
			}
			out[2 * nh->n_descsz] = 0;
			return;
		}
		p = (const char *)desc + descsz;
	}
}

static uint64_t name_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* the file mapped at addr, as the kernel names it in /proc/self/maps (an
 * absolute path; "\012" there is a newline), into out: 1; 0 if there is
 * none (the vDSO's "[vdso]"), -1 if /proc cannot be read */
static int mapped_file(uintptr_t addr, char *out, size_t len)
{
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[8192];
	size_t have = 0;
	bool found = false, eof = false;
	while (!found && !eof) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (r <= 0)
			eof = true;
		else
			have += (size_t)r;
		buf[have] = 0;
		char *line = buf, *nl;
		while (!found && ((nl = strchr(line, '\n')) || (eof && *line))) {
			if (nl)
				*nl = 0;
			char *e;
			unsigned long lo = strtoul(line, &e, 16),
				      hi = *e == '-' ? strtoul(e + 1, &e, 16) : 0;
			if (addr >= lo && addr < hi) {
				/* "lo-hi perms offset dev inode   path" */
				for (int f = 0; f < 4 && *e; f++) {
					e += strspn(e, " ");
					e += strcspn(e, " ");
				}
				e += strspn(e, " ");
				size_t n = 0;
				for (; *e && n + 1 < len; e++)
					out[n++] = strncmp(e, "\\012", 4) ? *e : (e += 3, '\n');
				out[n] = 0;
				found = out[0] == '/';
				eof = true; /* (and not found: no file there) */
			}
			if (!nl)
				break;
			line = nl + 1;
		}
		/* what is left of a line that did not fit moves to the front */
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof(buf) - 1)
			have = 0; /* a line longer than the buffer: not a module's */
	}
	close(fd);
	return found;
}

/* a module the loader names by a relative path ("./libx.so", or found
 * through a relative LD_LIBRARY_PATH): relative to the working directory
 * of the dlopen, which the program may change at any time (another thread
 * even before this scan).  The kernel knows which file it mapped at addr:
 * that name, or, without /proc, the working directory now */
static const char *absolute_name(const char *name, uintptr_t addr, char *out, size_t len)
{
	if (name[0] == '/')
		return name;
	int m = mapped_file(addr, out, len);
	if (m >= 0)
		return m ? out : name;
	char cwd[4096];
	struct stat st;
	if (stat(name, &st) == 0 && getcwd(cwd, sizeof(cwd)) &&
	    strlen(cwd) + strlen(name) + 2 <= len) {
		ct_fmt(out, len, "%s/%s", cwd, name[0] == '.' && name[1] == '/' ? name + 2 : name);
		return out;
	}
	return name;
}

static int module_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uint64_t now = *(uint64_t *)data;
	const char *name = info->dlpi_name;
	if (!name || !*name)
		name = exe_path;
	uint64_t key = name_key(name);
	for (int i = 0; i < nmodules; i++) {
		if (modules[i].base == info->dlpi_addr && modules[i].key == key) {
			modules[i].seen = 1;
			return 0;
		}
	}
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	char bid[128] = "-";
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD) {
			uintptr_t a = info->dlpi_addr + ph->p_vaddr;
			if (a < lo)
				lo = a;
			if (a + ph->p_memsz > hi)
				hi = a + ph->p_memsz;
		} else if (ph->p_type == PT_NOTE && bid[0] == '-') {
			hex_buildid(ph, info->dlpi_addr, bid, sizeof(bid));
		}
	}
	if (lo == UINTPTR_MAX)
		lo = hi = info->dlpi_addr;
	char abs[4096];
	name = absolute_name(name, lo, abs, sizeof(abs));
	ct_proc_printf("module %lu %lx %lx %lx %s %s", (unsigned long)now,
		       (unsigned long)info->dlpi_addr, (unsigned long)lo, (unsigned long)hi, bid,
		       name);
	ct_args_module(info->dlpi_addr, name, bid, true);
	ct_filt_module(info->dlpi_addr, name, bid, true);
	ct_plug_module(info->dlpi_addr, name, bid, true);
	ct_inj_module(info->dlpi_addr, name, bid, true);
	ct_args_segments(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, true);
	if (nmodules < MAX_MODULES) {
		modules[nmodules].base = info->dlpi_addr;
		modules[nmodules].key = key;
		size_t l = strlen(name);
		if (l > 255)
			l = 255;
		memcpy(modules[nmodules].name, name, l);
		modules[nmodules].name[l] = 0;
		modules[nmodules].seen = 1;
		nmodules++;
	}
	/* -fpatchable-function-entry: patch the module's sites (once); its
	 * library calls after the walk (libcall.c) */
	bool sites =
		ct_patch_module(name, name, info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum);
	ct_libcall_note(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, sites);
	return 0;
}

void ct_modules_rescan(void)
{
	uint64_t now = ct_clock();
	pthread_mutex_lock(&mod_lock);
	for (int i = 0; i < nmodules; i++)
		modules[i].seen = 0;
	dl_iterate_phdr(module_cb, &now);
	ct_libcall_flush();
	for (int i = 0; i < nmodules;) {
		if (!modules[i].seen) {
			ct_proc_printf("unmodule %lu %lx %s", (unsigned long)now,
				       (unsigned long)modules[i].base, modules[i].name);
			ct_patch_forget(modules[i].base);
			ct_libcall_forget(modules[i].base);
			ct_args_module(modules[i].base, modules[i].name, NULL, false);
			ct_filt_module(modules[i].base, modules[i].name, NULL, false);
			ct_plug_module(modules[i].base, modules[i].name, NULL, false);
			ct_inj_module(modules[i].base, modules[i].name, NULL, false);
			ct_args_segments(modules[i].base, NULL, 0, false);
			modules[i] = modules[--nmodules];
		} else {
			i++;
		}
	}
	pthread_mutex_unlock(&mod_lock);
}

/* ---- the .proc file -------------------------------------------------- */

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
 * hold them, into buf */
static void escape_line(char *buf, size_t len, const char *a)
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

static void write_args(void)
{
	char buf[65536];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = 0, r;
	while (n < (ssize_t)sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
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

static uint64_t start_mono; /* CLOCK_MONOTONIC at ct_cfg.start_clock */

static bool start_process_file(void)
{
	ct_cfg.pid = getpid();
	if (!open_proc_file())
		return false;
	ct_cfg.start_clock = ct_clock();
	start_mono = ct_clock_mono();
	ct_proc_printf("calltrace-proc %d", CT_FORMAT_VERSION);
	ct_proc_printf("pid %d", ct_cfg.pid);
	ct_proc_printf("ppid %d", (int)getppid());
	ct_proc_printf("gen %d", ct_cfg.gen);
	ct_proc_printf("exe %s", exe_path);
	write_args();
	ct_proc_printf("clock %lu %lu %lu", (unsigned long)ct_cfg.start_clock,
		       (unsigned long)start_mono, (unsigned long)realtime_ns());
	ct_calibrate_note();
	frontends_again();
	pthread_mutex_lock(&mod_lock);
	nmodules = 0;
	pthread_mutex_unlock(&mod_lock);
	ct_libcall_lines(); /* a fork child's: the slots its parent hooked */
	ct_modules_rescan();
	return true;
}

/* ---- fork and thread exit ------------------------------------------- */

static void after_fork_child(void)
{
	if (ct_cfg.state != CT_RT_ACTIVE)
		return;
	struct ct_tstate *t = &ct_self;
	if (t->off == CT_UNTRACED_SECCOMP + 1 || ct_cfg.stop_all) {
		/* the filter came along: no system call of ours may be allowed */
		ct_untraced(CT_UNTRACED_SECCOMP);
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	if (t->off) {
		/* the forking thread had stopped tracing (its TSC disabled, its
		 * state shared with a clone child): this new process's one
		 * thread has state of its own and may trace again, with the
		 * monotonic clock if the TSC still is disabled */
		if (t->off == CT_UNTRACED_TSC + 1) {
			clock_check_tsc();
			clock_no_tsc();
			ct_hook_modes();
		}
		t->off = 0;
		t->busy = 0;
		t->state = 1; /* a new ring, below */
	}
	int ppid = ct_cfg.pid;
	ct_fd_close(&proc_file);
	ct_rings_forget_all();
	/* record gone: this child is not traced (no .proc file, no ring) */
	if (ct_recorder_gone(true)) {
		ct_cfg.state = CT_RT_OFF;
		ct_thread_after_fork(&ct_self); /* frames open at the fork are let go */
		if (ct_count_on)
			ct_count_after_fork();
		return;
	}
	if (!start_process_file()) {
		/* after setuid, say: the child cannot make its files.  Its one
		 * thread's ring was the parent's, unmapped just now */
		ct_cfg.state = CT_RT_OFF;
		ct_thread_orphaned(t);
		return;
	}
	ct_proc_printf("fork %lu %d", (unsigned long)ct_clock(), ppid);
	if (ct_count_on)
		ct_count_after_fork();
	ct_thread_after_fork(&ct_self);
}

void ct_process_after_fork(void)
{
	after_fork_child();
}

static void thread_exit(void *arg)
{
	(void)arg;
	if (__atomic_load_n(&ct_cfg.stop_all, __ATOMIC_RELAXED))
		ct_thread_stop_quiet(&ct_self, (enum ct_untraced)(ct_cfg.stop_all - 1));
	else if (ct_self.off)
		ct_thread_stopped_exit(&ct_self);
	else
		ct_thread_release(&ct_self, true);
	ct_count_thread_exit();
}

void ct_thread_key_set(void)
{
	pthread_setspecific(thread_key, (void *)1);
}

/* ---- the environment of exec'd images ---------------------------------- */

/* calltrace's variables as this image got them from `record` ("NAME=value",
 * or empty), put back into the environment of an image that the program
 * execs or spawns without them (wrap.c), so that it is traced too */
static const char *const exec_names[] = {
	"LD_PRELOAD",   CT_ENV_DIR,   CT_ENV_SHM,    CT_ENV_CLOCK,  CT_ENV_BUFSIZE,
	CT_ENV_NBUF,    CT_ENV_DROP,  CT_ENV_ARGS,   CT_ENV_FILTER, CT_ENV_FLIGHT,
	CT_ENV_LIBCALL, CT_ENV_COUNT, CT_ENV_PLUGIN, CT_ENV_INJECT, CT_ENV_CALLSITE,
};
#define NEXEC (sizeof(exec_names) / sizeof(exec_names[0]))
static char exec_vals[NEXEC][4200];
static char self_lib[4096]; /* this library's path, as LD_PRELOAD names it */

static void save_exec_env(void)
{
	Dl_info di;
	if (dladdr((void *)ct_process_ready, &di) && di.dli_fname &&
	    strlen(di.dli_fname) < sizeof(self_lib))
		strcpy(self_lib, di.dli_fname);
	for (size_t i = 0; i < NEXEC; i++) {
		const char *v = ct_getenv(exec_names[i]);
		exec_vals[i][0] = 0;
		if (!v || strlen(exec_names[i]) + strlen(v) + 2 > sizeof(exec_vals[i]))
			continue;
		ct_fmt(exec_vals[i], sizeof(exec_vals[i]), "%s=%s", exec_names[i], v);
	}
	/* an LD_PRELOAD too long to keep: our library alone */
	if (!exec_vals[0][0] && self_lib[0] && ct_getenv("LD_PRELOAD"))
		ct_fmt(exec_vals[0], sizeof(exec_vals[0]), "LD_PRELOAD=%s", self_lib);
}

/* envp's entry NAME=..., or NULL */
static char *env_find(char *const envp[], const char *name)
{
	size_t l = strlen(name);
	for (size_t i = 0; envp && envp[i]; i++)
		if (!strncmp(envp[i], name, l) && envp[i][l] == '=')
			return envp[i];
	return NULL;
}

/* does the LD_PRELOAD value v name our library (as an element)? */
static bool preload_has_self(const char *v)
{
	size_t l = strlen(self_lib);
	while (*v) {
		size_t n = strcspn(v, ": ");
		if (n == l && !strncmp(v, self_lib, l))
			return true;
		v += n;
		v += strspn(v, ": ");
	}
	return false;
}

size_t ct_exec_env_extra(void)
{
	return NEXEC + 1;
}

size_t ct_exec_env_buf(char *const envp[])
{
	const char *p = env_find(envp, "LD_PRELOAD");
	return strlen(self_lib) + (p ? strlen(p) : 0) + 16;
}

char *const *ct_exec_env(char *const envp[], char **out, char *buf, size_t buflen, bool *changed)
{
	*changed = false;
	if (!exec_vals[1][0] || !exec_vals[2][0]) /* not under record */
		return envp;
	size_t n = 0;
	bool missing[NEXEC] = {false};
	char *preload = NULL; /* a new LD_PRELOAD entry */
	for (size_t i = 0; i < NEXEC; i++) {
		if (!exec_vals[i][0])
			continue;
		char *e = env_find(envp, exec_names[i]);
		if (!e) {
			missing[i] = *changed = true;
		} else if (i == 0 && self_lib[0] && !preload_has_self(e + 11)) {
			/* the program's own LD_PRELOAD: ours first, then its */
			size_t l = strlen(self_lib);
			if (l + strlen(e) + 2 > buflen)
				continue;
			memcpy(buf, "LD_PRELOAD=", 11);
			memcpy(buf + 11, self_lib, l);
			buf[11 + l] = ':';
			strcpy(buf + 12 + l, e + 11);
			preload = buf;
			*changed = true;
		}
	}
	if (!*changed)
		return envp;
	for (size_t i = 0; envp && envp[i]; i++)
		out[n++] = preload && !strncmp(envp[i], "LD_PRELOAD=", 11) ? preload : envp[i];
	for (size_t i = 0; i < NEXEC; i++)
		if (missing[i])
			out[n++] = exec_vals[i];
	out[n] = NULL;
	ct_untraced(CT_UNTRACED_EXEC_ENV);
	return out;
}

/* ---- the clock ------------------------------------------------------- */

/* PR_SET_TSC (inherited across fork and exec) makes rdtsc fault in this
 * process, and the vDSO's clock_gettime with it.  Until this check, the
 * clock is CLOCK_MONOTONIC by system call (a hook may run before start-up);
 * after it, the vDSO's, unless the TSC is disabled */
static bool tsc_disabled;

static void clock_check_tsc(void)
{
	int v = 0;
	tsc_disabled = prctl(PR_GET_TSC, &v, 0, 0, 0) == 0 && v == PR_TSC_SIGSEGV;
	__atomic_store_n(&ct_cfg.clock_vdso, !tsc_disabled, __ATOMIC_RELAXED);
}

/* the TSC's rate and a point of it against CLOCK_MONOTONIC, taken while a
 * thread still has the TSC (ct_thread_stop), over at least a millisecond
 * since the process started */
static bool rate_noted;

void ct_clock_note_rate(void)
{
	if (rate_noted || !ct_cfg.use_tsc)
		return;
	uint64_t tsc, mono;
	do {
		tsc = ct_clock();
		mono = ct_clock_mono();
	} while (mono - start_mono < 1000 * 1000);
	if (tsc <= ct_cfg.start_clock)
		return;
	ct_cfg.synth_mult = (uint64_t)(((unsigned __int128)(tsc - ct_cfg.start_clock) << 32) /
				       (mono - start_mono));
	ct_cfg.synth_tsc0 = tsc;
	ct_cfg.synth_mono0 = mono;
	rate_noted = true;
}

/* then the TSC cannot be the clock, and the trampolines stay off their fast
 * paths (they read it).  In a child forked by a thread that noted the
 * TSC's rate, CLOCK_MONOTONIC is turned into TSC ticks; else its times are
 * nanoseconds */
static void clock_no_tsc(void)
{
	if (!tsc_disabled)
		return;
	if (ct_cfg.use_tsc && rate_noted) {
		ct_cfg.tsc_synth = true;
		ct_log("the TSC is disabled in this process (PR_SET_TSC): its times are "
		       "CLOCK_MONOTONIC, scaled to the TSC's rate measured in its parent");
	} else if (ct_cfg.use_tsc) {
		ct_log("the TSC is disabled in this process (PR_SET_TSC): its times are "
		       "CLOCK_MONOTONIC nanoseconds (record --clock=mono to compare them "
		       "with other processes')");
	}
	ct_cfg.use_tsc = false;
}

/* ---- start-up -------------------------------------------------------- */

/* a set-user-ID or set-group-ID program, or one with file capabilities,
 * run by someone its privileges are not theirs (AT_SECURE): its
 * environment is that someone's to set, and the runtime trusts none of it
 * (secure_getenv), so it records nothing: no file of the program's user
 * made or replaced where the caller says */
static bool secure_mode(void)
{
	static int s; /* 0 not known, 1 no, 2 yes */
	if (!s)
		s = getauxval(AT_SECURE) ? 2 : 1;
	return s == 2;
}

/* getenv, also before libc has set `environ`: a function of the program's
 * .preinit_array runs first of all, and its traced calls start the
 * runtime.  Then the variables are read from the kernel's copy,
 * /proc/self/environ (the environment the process was started with, which
 * is what the runtime wants). */
static const char *any_getenv(const char *name)
{
	static char *text;
	static size_t len;
	if (environ)
		return getenv(name);
	if (!text) {
		size_t cap = 4u << 20; /* ARG_MAX-sized; pages are touched as read */
		char *b = mmap(NULL, cap, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		int fd = b == MAP_FAILED ? -1 : open("/proc/self/environ", O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (b != MAP_FAILED)
				munmap(b, cap);
			return NULL;
		}
		ssize_t r;
		while (len < cap - 1 && (r = read(fd, b + len, cap - 1 - len)) > 0)
			len += (size_t)r;
		close(fd);
		b[len] = 0;
		text = b;
	}
	size_t n = strlen(name);
	for (size_t i = 0; i < len; i += strlen(text + i) + 1)
		if (!strncmp(text + i, name, n) && text[i + n] == '=')
			return text + i + n + 1;
	return NULL;
}

/* ... with secure_getenv's rule: nothing under AT_SECURE */
const char *ct_getenv(const char *name)
{
	return secure_mode() ? NULL : any_getenv(name);
}

static size_t env_size(const char *name, size_t def, size_t min, size_t max)
{
	const char *v = ct_getenv(name);
	if (!v || !*v)
		return def;
	char *end;
	unsigned long long n = strtoull(v, &end, 0);
	if (*end == 'k' || *end == 'K')
		n <<= 10;
	else if (*end == 'm' || *end == 'M')
		n <<= 20;
	if (n < min)
		n = min;
	if (n > max)
		n = max;
	return (size_t)n;
}

static void process_init(void)
{
	const char *dir = ct_getenv(CT_ENV_DIR);
	const char *shm = ct_getenv(CT_ENV_SHM);
	const char *on = ct_getenv(CT_ENV_ENABLE);
	const char *clk = ct_getenv(CT_ENV_CLOCK);

	ct_cfg.proc_fd = -1;
	clock_check_tsc();
	if (secure_mode()) {
		/* (said only to a caller who asked for a recording) */
		const char *d = any_getenv(CT_ENV_DIR), *e = any_getenv(CT_ENV_ENABLE);
		if ((d && *d) || (e && !strcmp(e, "1")))
			ct_log("this program runs with privileges its caller does not have "
			       "(set-user-ID, set-group-ID or file capabilities): calltrace's "
			       "variables are ignored and nothing is recorded");
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	if (shm && *shm && dir && *dir) {
		ct_cfg.linked = false;
	} else if ((dir && *dir) || (on && !strcmp(on, "1"))) {
		ct_cfg.linked = true;
		if (!dir || !*dir)
			dir = "calltrace.data";
		shm = "";
	} else {
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	if (strlen(dir) >= sizeof(ct_cfg.dir) || strlen(shm) >= sizeof(ct_cfg.shm)) {
		ct_log("data directory name too long");
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	strcpy(ct_cfg.dir, dir);
	strcpy(ct_cfg.shm, shm);
	if (clk && !strcmp(clk, "mono"))
		ct_cfg.use_tsc = false;
	else if (clk && !strcmp(clk, "tsc"))
		ct_cfg.use_tsc = true;
	else
		ct_cfg.use_tsc = ct_arch_cycles_invariant();
	clock_no_tsc();
	/* record-time filters: every hook asks them, on the C paths */
	ct_filt_init();
	ct_plug_init(); /* its table; the plugin itself in the constructor */
	ct_inj_init();  /* record --inject's rules */
	ct_libcall_init();
	ct_callsite_init();
	/* the trampolines' fast paths read the TSC (set before the calibration
	 * below, which measures them) */
	ct_hook_modes();
	ct_cfg.buf_size = env_size(CT_ENV_BUFSIZE, 256 * 1024, 4096, 1u << 30) & ~(size_t)7;
	ct_cfg.nslots = (uint32_t)env_size(CT_ENV_NBUF, 8, 3, CT_RING_MAX_SLOTS);
	const char *drop = ct_getenv(CT_ENV_DROP);
	ct_cfg.drop = drop && !strcmp(drop, "1");
	const char *flight = ct_getenv(CT_ENV_FLIGHT);
	ct_cfg.flight = flight && !strcmp(flight, "1") && !ct_cfg.linked;
	if (ct_cfg.flight)
		ct_cfg.drop = false; /* nothing waits: nothing to drop */

	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe_path[n > 0 ? n : 0] = 0;
	if (!ct_cfg.linked) {
		/* only the doorbell our own record made: a regular file of
		 * ours, private, one page, with its magic and version; anything
		 * else (a link, an empty file, another user's) leaves this
		 * process untraced rather than trusted or killed by SIGBUS */
		char db[4200];
		ct_fmt(db, sizeof(db), "%s/%s", ct_cfg.shm, CT_DOORBELL_NAME);
		int fd = open(db, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		const char *why = NULL;
		void *m = MAP_FAILED;
		if (fd < 0 && errno == ENOENT) {
			/* record removes it when it stops draining: an image
			 * exec'd since (a daemon left running after ^C) */
			ct_recorder_gone(true);
			ct_cfg.state = CT_RT_OFF;
			return;
		}
		if (fd < 0)
			why = strerror(errno);
		else if (fstat(fd, &st) < 0)
			why = strerror(errno);
		else if (!S_ISREG(st.st_mode))
			why = "not a regular file";
		else if (st.st_uid != geteuid())
			why = "it belongs to another user";
		else if (st.st_mode & 077)
			why = "it is not private (mode has group or other bits)";
		else if (st.st_size != CT_DOORBELL_SIZE)
			why = "it is not the size of a doorbell";
		else if ((m = mmap(NULL, CT_DOORBELL_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
				   0)) == MAP_FAILED)
			why = strerror(errno);
		else if (((struct ct_doorbell *)m)->magic != CT_DOORBELL_MAGIC ||
			 ((struct ct_doorbell *)m)->version != CT_FORMAT_VERSION)
			why = "not a calltrace doorbell of this version";
		if (fd >= 0)
			close(fd);
		if (why) {
			if (m != MAP_FAILED)
				munmap(m, CT_DOORBELL_SIZE);
			ct_log("%s: %s; this process is not traced", db, why);
			ct_cfg.state = CT_RT_OFF;
			return;
		}
		ct_cfg.doorbell = m;
	}
	if (ct_cfg.linked) {
		mkdir(ct_cfg.dir, 0700);
		ct_linked_info(false);
	}
	ct_args_init();
	/* an image exec'd after record stopped (or died): no .proc file */
	if (!ct_cfg.linked && ct_recorder_gone(true)) {
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	if (!ct_cfg.linked)
		save_exec_env();
	if (!start_process_file()) {
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	static int once;
	if (!once++) {
		pthread_atfork(NULL, NULL, after_fork_child);
		pthread_key_create(&thread_key, thread_exit);
	}
	/* record --count: from now on the hooks count (count.c) */
	const char *count = ct_getenv(CT_ENV_COUNT);
	ct_count_on = count && !strcmp(count, "1") && !ct_cfg.linked;
	ct_hook_modes(); /* counting: off the recording fast paths */
	__atomic_store_n(&ct_cfg.state, CT_RT_ACTIVE, __ATOMIC_RELEASE);
}

bool ct_process_ready(void)
{
	int s = __atomic_load_n(&ct_cfg.state, __ATOMIC_ACQUIRE);
	if (likely(s == CT_RT_ACTIVE))
		return true;
	if (s == CT_RT_OFF)
		return false;
	int expect = CT_RT_UNINIT;
	int tid = (int)syscall(SYS_gettid);
	if (__atomic_compare_exchange_n(&ct_cfg.state, &expect, CT_RT_INITIALIZING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		init_tid = tid;
		process_init();
		return ct_cfg.state == CT_RT_ACTIVE;
	}
	if (init_tid == tid) /* traced code called from inside start-up */
		return false;
	while (__atomic_load_n(&ct_cfg.state, __ATOMIC_ACQUIRE) == CT_RT_INITIALIZING)
		sched_yield();
	return ct_cfg.state == CT_RT_ACTIVE;
}

/* start as early as possible, so the module map is written even if the
 * program makes no traced call in its first moments */
__attribute__((constructor(101))) static void ct_constructor(void)
{
	/* record --plugin: loaded here, where dlopen may run (not in a
	 * .preinit_array function's hook, which may start the runtime) */
	if (ct_process_ready()) {
		ct_plug_load();
		ct_inj_load(); /* record --inject's throw=: its C++ half */
	}
}

__attribute__((destructor(101))) static void ct_destructor(void)
{
	/* what the filters left out in this thread since its last buffer
	 * switch (other threads publish theirs when they end) */
	struct ct_tstate *t = &ct_self;
	if (t->ring && !t->off)
		t->ring->filtered = t->fl_filtered;
	if (ct_cfg.state == CT_RT_ACTIVE && ct_cfg.linked)
		ct_rings_flush_all();
}
