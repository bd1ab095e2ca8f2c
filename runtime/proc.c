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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "internal.h"

struct ct_config ct_cfg;
static pthread_key_t thread_key;
static int init_tid;
static pthread_mutex_t mod_lock = PTHREAD_MUTEX_INITIALIZER;

size_t ct_vfmt(char *buf, size_t len, const char *fmt, va_list ap) CT_HIDDEN;

void ct_proc_printf(const char *fmt, ...)
{
	char buf[4096 + 512];
	va_list ap;
	va_start(ap, fmt);
	size_t n = ct_vfmt(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	buf[n++] = '\n';
	if (ct_cfg.proc_fd >= 0) {
		ssize_t r = write(ct_cfg.proc_fd, buf, n);
		(void)r;
	}
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- modules -------------------------------------------------------- */

#define MAX_MODULES 4096
struct module {
	uintptr_t base;
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

static int module_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uint64_t now = *(uint64_t *)data;
	const char *name = info->dlpi_name;
	if (!name || !*name)
		name = exe_path;
	for (int i = 0; i < nmodules; i++) {
		if (modules[i].base == info->dlpi_addr && !strncmp(modules[i].name, name, 255)) {
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
	ct_proc_printf("module %lu %lx %lx %lx %s %s", (unsigned long)now,
		       (unsigned long)info->dlpi_addr, (unsigned long)lo, (unsigned long)hi, bid, name);
	ct_args_module(info->dlpi_addr, name, bid, true);
	if (nmodules < MAX_MODULES) {
		modules[nmodules].base = info->dlpi_addr;
		size_t l = strlen(name);
		if (l > 255)
			l = 255;
		memcpy(modules[nmodules].name, name, l);
		modules[nmodules].name[l] = 0;
		modules[nmodules].seen = 1;
		nmodules++;
	}
	/* -fpatchable-function-entry: patch the module's sites (once) */
	ct_patch_module(name, name, info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum);
	return 0;
}

void ct_modules_rescan(void)
{
	uint64_t now = ct_clock();
	pthread_mutex_lock(&mod_lock);
	for (int i = 0; i < nmodules; i++)
		modules[i].seen = 0;
	dl_iterate_phdr(module_cb, &now);
	for (int i = 0; i < nmodules;) {
		if (!modules[i].seen) {
			ct_proc_printf("unmodule %lu %lx %s", (unsigned long)now,
				       (unsigned long)modules[i].base, modules[i].name);
			ct_patch_forget(modules[i].base);
			ct_args_module(modules[i].base, modules[i].name, NULL, false);
			modules[i] = modules[--nmodules];
		} else {
			i++;
		}
	}
	pthread_mutex_unlock(&mod_lock);
}

CT_EXPORT void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	if (!real)
		real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	void *h = real(file, mode);
	if (h && ct_cfg.state == CT_RT_ACTIVE)
		ct_modules_rescan();
	return h;
}

CT_EXPORT int dlclose(void *handle)
{
	static int (*real)(void *);
	if (!real)
		real = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	int r = real(handle);
	if (ct_cfg.state == CT_RT_ACTIVE)
		ct_modules_rescan();
	return r;
}

/* ---- the .proc file -------------------------------------------------- */

static void put_escaped_arg(const char *a)
{
	char buf[4096];
	size_t n = 0;
	for (; *a && n + 2 < sizeof(buf); a++) {
		if (*a == '\\' || *a == '\n') {
			buf[n++] = '\\';
			buf[n++] = *a == '\n' ? 'n' : '\\';
		} else {
			buf[n++] = *a;
		}
	}
	buf[n] = 0;
	ct_proc_printf("arg %s", buf);
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

/* create DIR/<pid>-<gen>.proc: the first free generation is this image's */
static int open_proc_file(void)
{
	char path[4200];
	for (int gen = 0; gen < 100000; gen++) {
		ct_fmt(path, sizeof(path), "%s/%d-%d.proc", ct_cfg.dir, ct_cfg.pid, gen);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
		if (fd >= 0) {
			ct_cfg.gen = gen;
			return fd;
		}
		if (errno != EEXIST) {
			ct_log("cannot create %s: %s", path, strerror(errno));
			return -1;
		}
	}
	return -1;
}

static bool start_process_file(void)
{
	ct_cfg.pid = getpid();
	ct_cfg.proc_fd = open_proc_file();
	if (ct_cfg.proc_fd < 0)
		return false;
	ct_cfg.start_clock = ct_clock();
	ct_proc_printf("calltrace-proc %d", CT_FORMAT_VERSION);
	ct_proc_printf("pid %d", ct_cfg.pid);
	ct_proc_printf("ppid %d", (int)getppid());
	ct_proc_printf("gen %d", ct_cfg.gen);
	ct_proc_printf("exe %s", exe_path);
	write_args();
	ct_proc_printf("clock %lu %lu %lu", (unsigned long)ct_cfg.start_clock,
		       (unsigned long)ct_clock_mono(), (unsigned long)realtime_ns());
	ct_calibrate_note();
	pthread_mutex_lock(&mod_lock);
	nmodules = 0;
	pthread_mutex_unlock(&mod_lock);
	ct_modules_rescan();
	return true;
}

/* ---- fork and thread exit ------------------------------------------- */

static void after_fork_child(void)
{
	if (ct_cfg.state != CT_RT_ACTIVE)
		return;
	int ppid = ct_cfg.pid;
	if (ct_cfg.proc_fd >= 0)
		close(ct_cfg.proc_fd);
	ct_rings_forget_all();
	/* record gone: this child is not traced (no .proc file, no ring) */
	if (ct_recorder_gone(true) || !start_process_file()) {
		ct_cfg.state = CT_RT_OFF;
		ct_thread_after_fork(&ct_self); /* frames open at the fork are let go */
		return;
	}
	ct_proc_printf("fork %lu %d", (unsigned long)ct_clock(), ppid);
	ct_thread_after_fork(&ct_self);
}

static void thread_exit(void *arg)
{
	(void)arg;
	ct_thread_release(&ct_self, true);
}

void ct_thread_key_set(void)
{
	pthread_setspecific(thread_key, (void *)1);
}

/* ---- start-up -------------------------------------------------------- */

static size_t env_size(const char *name, size_t def, size_t min, size_t max)
{
	const char *v = getenv(name);
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
	const char *dir = getenv(CT_ENV_DIR);
	const char *shm = getenv(CT_ENV_SHM);
	const char *on = getenv(CT_ENV_ENABLE);
	const char *clk = getenv(CT_ENV_CLOCK);

	ct_cfg.proc_fd = -1;
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
	/* the trampolines' fast paths read the TSC (set before the calibration
	 * below, which measures them) */
	ct_hook_fast = ct_cfg.use_tsc;
	ct_cfg.buf_size = env_size(CT_ENV_BUFSIZE, 256 * 1024, 4096, 1u << 30) & ~(size_t)7;
	ct_cfg.nslots = (uint32_t)env_size(CT_ENV_NBUF, 8, 3, CT_RING_MAX_SLOTS);
	const char *drop = getenv(CT_ENV_DROP);
	ct_cfg.drop = drop && !strcmp(drop, "1");

	ssize_t n = readlink("/proc/self/exe", exe_path, sizeof(exe_path) - 1);
	exe_path[n > 0 ? n : 0] = 0;
	if (!ct_cfg.linked) {
		char db[4200];
		ct_fmt(db, sizeof(db), "%s/%s", ct_cfg.shm, CT_DOORBELL_NAME);
		int fd = open(db, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (m != MAP_FAILED)
				ct_cfg.doorbell = m;
			close(fd);
		}
	}
	if (ct_cfg.linked) {
		mkdir(ct_cfg.dir, 0755);
		ct_linked_info(false);
	}
	ct_args_init();
	/* an image exec'd after record stopped (or died): no .proc file */
	if (!ct_cfg.linked && ct_recorder_gone(true)) {
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	if (!start_process_file()) {
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	static int once;
	if (!once++) {
		pthread_atfork(NULL, NULL, after_fork_child);
		pthread_key_create(&thread_key, thread_exit);
	}
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
	ct_process_ready();
}

__attribute__((destructor(101))) static void ct_destructor(void)
{
	if (ct_cfg.state == CT_RT_ACTIVE && ct_cfg.linked)
		ct_rings_flush_all();
}
