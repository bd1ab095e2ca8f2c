/* SPDX-License-Identifier: MIT */
/*
 * Start-up: the configuration from calltrace's environment variables (none
 * trusted under AT_SECURE), the doorbell of `record`, the parts set up in
 * order, the first traced call of any thread waiting for it; the
 * constructor and destructor.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "args.h"
#include "count.h"
#include "internal.h"

struct ct_config ct_cfg;
static int init_tid;

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
	ct_clock_check_tsc();
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
	ct_clock_no_tsc();
	ssize_t n = readlink("/proc/self/exe", ct_exe_path, sizeof(ct_exe_path) - 1);
	ct_exe_path[n > 0 ? n : 0] = 0;
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
	/* record-time filters: every hook asks them, on the C paths (an
	 * exec'd image may ask record, through the doorbell, for its own) */
	ct_filt_init();
	ct_plug_init(); /* its table; the plugin itself in the constructor */
	ct_inj_init();  /* record --inject's rules */
	ct_libcall_init();
	ct_callsite_init();
	ct_sample_init(); /* record --sample: the signal's handler */
	/* record --count (the hooks count from below), and --sample with it:
	 * known before the modules are patched (patch.c notes where
	 * aarch64's functions end) */
	const char *count = ct_getenv(CT_ENV_COUNT);
	bool counting = count && !strcmp(count, "1") && !ct_cfg.linked;
	ct_count_stack = counting && ct_sample_ns;
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
		ct_exec_env_save();
	if (!ct_proc_file_start()) {
		ct_cfg.state = CT_RT_OFF;
		return;
	}
	static int once;
	if (!once++) {
		ct_fork_init();
		ct_thread_key_init();
	}
	/* record --count: from now on the hooks count (count.c) */
	ct_count_on = counting;
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
