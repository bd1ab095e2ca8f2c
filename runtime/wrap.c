/* SPDX-License-Identifier: MIT */
/*
 * The runtime's interposers: the functions of libc and the unwinder that it
 * wraps (doc/runtime.md, doc/frontends.md), in four groups.
 *
 * What the program does to its threads, processes and images that
 * tracing must know about before it happens:
 *
 *  - clone(): a child without CLONE_VM is a new process, set up as a
 *    forked child; one with CLONE_VM but without CLONE_SETTLS shares the
 *    calling thread's TLS, hence its tracing state: that thread stops
 *    tracing (with CLONE_VFORK, only while the parent is suspended);
 *  - prctl(PR_SET_TSC, PR_TSC_SIGSEGV), prctl(PR_SET_SECCOMP), seccomp():
 *    the thread will lose the TSC or the right to make system calls: it
 *    stops tracing first;
 *  - pthread_create() from such a thread: the new thread inherits what
 *    stopped it, and starts stopped;
 *  - syscall() with any of those numbers;
 *  - the exec family and posix_spawn: calltrace's variables are put back
 *    into an environment that lacks them.
 *
 * Frames that vanish without their exit hooks (the C++ exceptions'
 * catch, setjmp/longjmp), and what reads return addresses (the unwinder,
 * pthread_exit, backtrace(), ucontext switches: the return-hooked frames
 * must show their real return addresses to it): in runtime/wrap_unwind.c.
 *
 * Modules: dlopen and dlclose, after which the module map is read again.
 * Memory: munmap, mprotect and mremap, which may take away memory that the
 * argument capture reads directly (args.c).
 *
 * Interposers only: the logic they call is in thread.c (threads), fork.c,
 * execenv.c and modules.c (processes, environments, modules) and hook.c
 * (return hooking); the real definitions are found by realfn.c.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "args.h"
#include "internal.h"
#include "realfn.h"

/* the functions interposed below whose headers are not included (setjmp.h:
 * its prototypes are the ones being wrapped) or declare them otherwise */
int seccomp(unsigned int op, unsigned int flags, void *args);
void __monstartup(unsigned long lo, unsigned long hi);
void monstartup(unsigned long lo, unsigned long hi);
void _mcleanup(void);
void moncontrol(int mode);

typedef int (*clone_fn)(int (*)(void *), void *, int, void *, ...);
typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef int (*prctl_fn)(int, ...);
typedef long (*syscall_fn)(long, ...);
typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

/* the real functions, looked up at start-up: an exec after vfork, or a
 * system call our own code makes from a signal handler, must not call
 * dlsym */
static struct {
	clone_fn clone;
	pthread_create_fn pthread_create;
	prctl_fn prctl;
	syscall_fn syscall;
	execve_fn execve, execvpe;
	fexecve_fn fexecve;
	execveat_fn execveat;
	spawn_fn posix_spawn, posix_spawnp;
} libc;

static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}


static void resolve(void)
{
	if (__atomic_load_n(&libc.syscall, __ATOMIC_ACQUIRE))
		return;
	libc.clone = (clone_fn)next("clone");
	libc.pthread_create = (pthread_create_fn)next("pthread_create");
	libc.prctl = (prctl_fn)next("prctl");
	libc.execve = (execve_fn)next("execve");
	libc.execvpe = (execve_fn)next("execvpe");
	libc.fexecve = (fexecve_fn)next("fexecve");
	libc.execveat = (execveat_fn)next("execveat");
	libc.posix_spawn = (spawn_fn)next("posix_spawn");
	libc.posix_spawnp = (spawn_fn)next("posix_spawnp");
	__atomic_store_n(&libc.syscall, (syscall_fn)next("syscall"), __ATOMIC_RELEASE);
}

__attribute__((constructor(101))) static void wrap_init(void)
{
	resolve();
}

static bool active(void)
{
	return __atomic_load_n(&ct_cfg.state, __ATOMIC_ACQUIRE) == CT_RT_ACTIVE;
}

/* ---- clone ----------------------------------------------------------- */

struct clone_start {
	int (*fn)(void *);
	void *arg;
};

/* the child of a clone without CLONE_VM: a new process, like a forked one */
static int clone_child(void *p)
{
	struct clone_start *cs = p;
	int (*fn)(void *) = cs->fn;
	void *arg = cs->arg;
	ct_process_after_fork();
	return fn(arg);
}

/* a task that will share this thread's TLS (CLONE_VM without CLONE_SETTLS)
 * until clone returns (CLONE_VFORK) or for good */
static void shared_tls_clone(int flags)
{
	struct ct_tstate *t = &ct_self;
	if (t->off)
		return;
	if (!(flags & CLONE_VFORK)) {
		ct_thread_stop(t, CT_UNTRACED_CLONE);
		return;
	}
	/* the parent is suspended until the child execs or exits: the child
	 * only drops its events meanwhile (counted as lost), and the parent
	 * goes on tracing afterwards (see clone below) */
	ct_untraced(CT_UNTRACED_CLONE);
	t->off = CT_UNTRACED_CLONE + 1;
	t->busy += CT_BUSY_OFF;
}

CT_EXPORT int clone(int (*fn)(void *), void *stack, int flags, void *arg, ...)
{
	va_list ap;
	va_start(ap, arg);
	pid_t *ptid = va_arg(ap, pid_t *);
	void *tls = va_arg(ap, void *);
	pid_t *ctid = va_arg(ap, pid_t *);
	va_end(ap);
	resolve();
	if (!active() || !fn || !stack)
		return libc.clone(fn, stack, flags, arg, ptid, tls, ctid);
	if (!(flags & CLONE_VM)) {
		if (flags & CLONE_SETTLS) /* a TLS of its own in a copy: leave it */
			return libc.clone(fn, stack, flags, arg, ptid, tls, ctid);
		/* fn and arg go on top of the child's stack, which is the
		 * child's alone (and copied into it) */
		uintptr_t top = ((uintptr_t)stack - sizeof(struct clone_start)) & ~(uintptr_t)15;
		struct clone_start *cs = (struct clone_start *)top;
		cs->fn = fn;
		cs->arg = arg;
		return libc.clone(clone_child, (void *)top, flags, cs, ptid, tls, ctid);
	}
	if (flags & CLONE_SETTLS) /* a thread with a TLS, hence a state, of its own */
		return libc.clone(fn, stack, flags, arg, ptid, tls, ctid);
	struct ct_tstate *t = &ct_self;
	bool paused = !t->off && (flags & CLONE_VFORK);
	shared_tls_clone(flags);
	int r = libc.clone(fn, stack, flags, arg, ptid, tls, ctid);
	if (paused) {
		/* the child has exec'd or exited: the state is ours again */
		int e = errno;
		t->busy -= CT_BUSY_OFF;
		t->off = 0;
		errno = e;
	}
	return r;
}

/* ---- vfork (arch/<arch>/vfork.S) ---------------------------------------- */

/*
 * The child shares the parent's memory, this thread's tracing state and
 * ring included, until it execs or exits, while the parent waits.  It is
 * not traced meanwhile: every hook of it takes the stopped thread's path
 * (t->off), which drops the event and counts it in nested_lost and the
 * ring's lost count; the parent puts those back when it resumes, since
 * nothing of its own was lost.  The child writes nothing else: it returns
 * from vfork past the return trampoline (ct_vfork_child_ret), and the
 * program it execs is traced as a new image.
 *
 * Signals are blocked from before the state is shared until the parent has
 * it back: a signal that came for the parent meanwhile (the child's exit,
 * a kill from the child) is delivered as the system call returns, and its
 * handler's calls would be dropped and their counts taken back with the
 * child's.  The child restores the mask before it returns (it keeps it
 * across its exec), the parent once its state is its own again.
 */
static __thread struct {
	uint64_t nested_lost, ring_lost;
	struct ct_ring_header *ring;
	uint64_t mask; /* the signal mask before vfork (the kernel's sigset) */
} vf __attribute__((tls_model("initial-exec")));

static void vf_mask(const uint64_t *set, uint64_t *old)
{
	ct_arch_syscall5(SYS_rt_sigprocmask, SIG_SETMASK, (long)set, (long)old, sizeof(*set), 0);
}

void ct_return_tramp(void) CT_HIDDEN;
int ct_vfork_enter(void) CT_HIDDEN;
long ct_vfork_parent(long rc, int paused) CT_HIDDEN;
uintptr_t ct_vfork_child_ret(uintptr_t ret, int paused) CT_HIDDEN;

/* before the system call: 1 when the state was made to drop the child's
 * events (the parent's token for ct_vfork_parent) */
int ct_vfork_enter(void)
{
	struct ct_tstate *t = &ct_self;
	if (t->off)
		return 0;
	uint64_t all = ~(uint64_t)0;
	vf_mask(&all, &vf.mask);
	vf.nested_lost = t->nested_lost;
	vf.ring = t->ring;
	vf.ring_lost = t->ring ? __atomic_load_n(&t->ring->lost, __ATOMIC_RELAXED) : 0;
	t->off = CT_UNTRACED_CLONE + 1;
	t->busy += CT_BUSY_OFF;
	return 1;
}

/* the parent, the child gone (exec'd or exited): the state is its own
 * again; rc is the system call's, the result vfork's */
long ct_vfork_parent(long rc, int paused)
{
	struct ct_tstate *t = &ct_self;
	if (paused) {
		t->busy -= CT_BUSY_OFF;
		t->off = 0;
		t->nested_lost = vf.nested_lost;
		if (t->ring && t->ring == vf.ring)
			__atomic_store_n(&t->ring->lost, vf.ring_lost, __ATOMIC_RELAXED);
		int e = errno;
		vf_mask(&vf.mask, NULL);
		errno = e;
	}
	if (rc < 0 && rc > -4096) {
		errno = (int)-rc;
		return -1;
	}
	return rc;
}

/* the child: where vfork returns to (its signal mask restored).  A library call's trampoline put the
 * return trampoline in the caller's slot, whose return would pop the
 * parent's shadow stack: the original address is read from its top frame */
uintptr_t ct_vfork_child_ret(uintptr_t ret, int paused)
{
	const struct ct_tstate *t = &ct_self;
	if (paused)
		vf_mask(&vf.mask, NULL); /* (read only: the parent's memory) */
	if (ret == (uintptr_t)ct_return_tramp && t->stk && t->depth > 0 && t->stk[t->depth - 1].ret)
		return t->stk[t->depth - 1].ret;
	return ret;
}

/* ---- threads that start stopped ------------------------------------------ */

struct born {
	void *(*fn)(void *);
	void *arg;
	uint32_t off;
};

static void *born_start(void *p)
{
	struct born b = *(struct born *)p;
	free(p);
	ct_thread_born_off(&ct_self, b.off);
	return b.fn(b.arg);
}

CT_EXPORT int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *),
			     void *arg)
{
	resolve();
	ct_filt_thread_start((uintptr_t)fn);
	uint32_t off = ct_self.off;
	if (off == 0)
		off = __atomic_load_n(&ct_cfg.stop_all, __ATOMIC_RELAXED);
	/* a thread whose TSC is disabled or that is under seccomp passes
	 * that on; sharing state with a clone child does not */
	if (likely(off == 0 || off == CT_UNTRACED_CLONE + 1))
		return libc.pthread_create(th, attr, fn, arg);
	struct born *b = malloc(sizeof(*b));
	if (!b)
		return EAGAIN;
	b->fn = fn;
	b->arg = arg;
	b->off = off;
	int r = libc.pthread_create(th, attr, born_start, b);
	if (r)
		free(b);
	return r;
}

/* ---- the TSC and seccomp -------------------------------------------------- */

/* before a prctl or seccomp call that takes the TSC or system calls away
 * from this thread */
static void before_prctl(unsigned long option, unsigned long a2)
{
	if (!active())
		return;
	if (option == PR_SET_TSC && a2 == PR_TSC_SIGSEGV)
		ct_thread_stop(&ct_self, CT_UNTRACED_TSC);
	else if (option == PR_SET_SECCOMP &&
		 (a2 == SECCOMP_MODE_STRICT || a2 == SECCOMP_MODE_FILTER))
		ct_thread_stop(&ct_self, CT_UNTRACED_SECCOMP);
}

static void before_seccomp(unsigned long op, unsigned long flags)
{
	if (!active() || (op != SECCOMP_SET_MODE_STRICT && op != SECCOMP_SET_MODE_FILTER))
		return;
	ct_thread_stop(&ct_self, CT_UNTRACED_SECCOMP);
	/* the filter goes on every thread of the process: each stops at its
	 * next buffer switch (or start, or end), without a system call */
	if (op == SECCOMP_SET_MODE_FILTER && (flags & SECCOMP_FILTER_FLAG_TSYNC))
		__atomic_store_n(&ct_cfg.stop_all, CT_UNTRACED_SECCOMP + 1, __ATOMIC_RELEASE);
}

CT_EXPORT int prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long);
	unsigned long a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
	va_end(ap);
	resolve();
	before_prctl((unsigned long)option, a2);
	int rc = libc.prctl(option, a2, a3, a4, a5);
	if (option == PR_SET_NAME && rc == 0) {
		int e = errno;
		ct_thread_name_note((int)syscall(SYS_gettid));
		errno = e;
	}
	return rc;
}

/* a thread's name, for the views */
CT_EXPORT int pthread_setname_np(pthread_t th, const char *name)
{
	static int (*real)(pthread_t, const char *);
	if (!real)
		real = (int (*)(pthread_t, const char *))next("pthread_setname_np");
	int rc = real(th, name);
	if (rc == 0) {
		int e = errno;
		if (pthread_equal(th, pthread_self()))
			ct_thread_name_note((int)syscall(SYS_gettid));
		else
			ct_thread_name_find(name);
		errno = e;
	}
	return rc;
}

/* glibc has no seccomp(); a libc that does, or a library that defines it */
CT_EXPORT int seccomp(unsigned int op, unsigned int flags, void *args)
{
	resolve();
	before_seccomp(op, flags);
	int (*r)(unsigned int, unsigned int, void *) =
		(int (*)(unsigned int, unsigned int, void *))next("seccomp");
	if (r)
		return r(op, flags, args);
	return (int)libc.syscall(SYS_seccomp, op, flags, args);
}

/* struct clone_args (linux/sched.h) as far as it matters here */
struct ct_clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
};

CT_EXPORT long syscall(long n, ...)
{
	va_list ap;
	va_start(ap, n);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	resolve();
	if (likely(n != SYS_prctl && n != SYS_seccomp && n != SYS_clone && n != SYS_clone3))
		return libc.syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
	bool fork_like = false;
	if (n == SYS_prctl) {
		before_prctl((unsigned long)a[0], (unsigned long)a[1]);
	} else if (n == SYS_seccomp) {
		before_seccomp((unsigned long)a[0], (unsigned long)a[1]);
	} else if (active()) {
		/* clone(flags, stack, ...) or clone3(struct clone_args *, size) */
		uint64_t flags = (uint64_t)a[0], stack = (uint64_t)a[1];
		if (n == SYS_clone3) {
			const struct ct_clone_args *ca = (const struct ct_clone_args *)a[0];
			flags = ca ? ca->flags : 0;
			stack = ca ? ca->stack : 0;
		}
		if (!(flags & CLONE_VM))
			fork_like = stack == 0 && !(flags & CLONE_SETTLS);
		else if (!(flags & CLONE_SETTLS))
			ct_thread_stop(&ct_self, CT_UNTRACED_CLONE);
	}
	long r = libc.syscall(n, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (fork_like && r == 0) {
		/* the child of a fork made by hand: its own files and rings */
		int e = errno;
		ct_process_after_fork();
		errno = e;
	}
	return r;
}

/* ---- exec and spawn: the environment ------------------------------------- */

/* fixed = envp, or a copy on the stack with calltrace's variables put back;
 * nothing here allocates (after vfork, in posix_spawn's child...) */
#define WITH_ENV(envp, fixed)                                                          \
	size_t n_ = 0;                                                                 \
	while ((envp) && (envp)[n_])                                                   \
		n_++;                                                                  \
	char *out_[n_ + ct_exec_env_extra()];                                          \
	char buf_[ct_exec_env_buf(envp)];                                              \
	bool changed_;                                                                 \
	char *const *fixed = ct_exec_env((envp), out_, buf_, sizeof(buf_), &changed_); \
	(void)changed_

CT_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	resolve();
	WITH_ENV(envp, env);
	return libc.execve(path, argv, env);
}

CT_EXPORT int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

CT_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	resolve();
	WITH_ENV(envp, env);
	return libc.execvpe(file, argv, env);
}

CT_EXPORT int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

CT_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	resolve();
	WITH_ENV(envp, env);
	return libc.fexecve(fd, argv, env);
}

CT_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
		       int flags)
{
	resolve();
	if (!libc.execveat) {
		errno = ENOSYS;
		return -1;
	}
	WITH_ENV(envp, env);
	return libc.execveat(dirfd, path, argv, env, flags);
}

/* execl, execlp, execle: their arguments into an array on the stack (glibc
 * calls its internal execve from them, which no interposer sees) */
#define COLLECT_ARGS(arg0, argv, ap_last)                                  \
	size_t argc_ = 1;                                                  \
	va_list ap_;                                                       \
	va_start(ap_, arg0);                                               \
	while (va_arg(ap_, const char *))                                  \
		argc_++;                                                   \
	va_end(ap_);                                                       \
	char *argv[argc_ + 1];                                             \
	va_start(ap_, arg0);                                               \
	argv[0] = (char *)(arg0);                                          \
	for (size_t i_ = 1; i_ <= argc_; i_++)                             \
		argv[i_] = va_arg(ap_, char *); /* the last is the NULL */ \
	ap_last;                                                           \
	va_end(ap_)

CT_EXPORT int execl(const char *path, const char *arg, ...)
{
	COLLECT_ARGS(arg, argv, (void)0);
	return execve(path, argv, environ);
}

CT_EXPORT int execlp(const char *file, const char *arg, ...)
{
	COLLECT_ARGS(arg, argv, (void)0);
	return execvpe(file, argv, environ);
}

CT_EXPORT int execle(const char *path, const char *arg, ...)
{
	char *const *envp;
	COLLECT_ARGS(arg, argv, envp = va_arg(ap_, char *const *));
	return execve(path, argv, envp);
}

CT_EXPORT int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
			  const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	resolve();
	WITH_ENV(envp, env);
	return libc.posix_spawn(pid, path, fa, attr, argv, env);
}

CT_EXPORT int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
			   const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	resolve();
	WITH_ENV(envp, env);
	return libc.posix_spawnp(pid, file, fa, attr, argv, env);
}

/* ---- gprof's start-up and gmon.out, neutralised while tracing ----------- */

static bool tracing(void)
{
	return ct_process_ready();
}

CT_EXPORT void __monstartup(unsigned long lo, unsigned long hi)
{
	if (tracing())
		return;
	void (*real)(unsigned long, unsigned long) =
		(void (*)(unsigned long, unsigned long))next("__monstartup");
	if (real)
		real(lo, hi);
}

CT_EXPORT void monstartup(unsigned long lo, unsigned long hi)
{
	__monstartup(lo, hi);
}

CT_EXPORT void _mcleanup(void)
{
	if (tracing())
		return;
	void (*real)(void) = (void (*)(void))next("_mcleanup");
	if (real)
		real();
}

CT_EXPORT void moncontrol(int mode)
{
	if (tracing())
		return;
	void (*real)(int) = (void (*)(int))next("moncontrol");
	if (real)
		real(mode);
}

/* ---- modules ------------------------------------------------------------------ */

CT_EXPORT void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	if (!real)
		real = (void *(*)(const char *, int))next("dlopen");
	void *h = real(file, mode);
	if (h && ct_cfg.state == CT_RT_ACTIVE)
		ct_modules_rescan();
	return h;
}

CT_EXPORT int dlclose(void *handle)
{
	static int (*real)(void *);
	if (!real)
		real = (int (*)(void *))next("dlclose");
	ct_args_dlclose(true);
	int r = real(handle);
	/* what was found outside the global scope may be gone now */
	ct_real_forget();
	if (ct_cfg.state == CT_RT_ACTIVE)
		ct_modules_rescan();
	ct_args_dlclose(false);
	return r;
}

/* ---- memory the argument capture reads directly (args.c) ------------------------ */

/* the system call itself, as glibc's functions make it: looking the next
 * definition up (dlsym) could call back into an allocator that unmaps */
static long mem_syscall(long n, long a, long b, long c, long d, long e)
{
	long r = ct_arch_syscall5(n, a, b, c, d, e);
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}

CT_EXPORT int munmap(void *addr, size_t len)
{
	ct_args_unmap((uintptr_t)addr, len);
	return (int)mem_syscall(SYS_munmap, (long)addr, (long)len, 0, 0, 0);
}

CT_EXPORT int mprotect(void *addr, size_t len, int prot)
{
	if (!(prot & PROT_READ))
		ct_args_unmap((uintptr_t)addr, len);
	return (int)mem_syscall(SYS_mprotect, (long)addr, (long)len, prot, 0, 0);
}

CT_EXPORT void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)
{
	void *at = NULL;
	if (flags & MREMAP_FIXED) {
		va_list ap;
		va_start(ap, flags);
		at = va_arg(ap, void *);
		va_end(ap);
	}
	ct_args_unmap((uintptr_t)old, old_len);
	if (at)
		ct_args_unmap((uintptr_t)at, new_len);
	long r = mem_syscall(SYS_mremap, (long)old, (long)old_len, (long)new_len, flags, (long)at);
	return r == -1 ? MAP_FAILED : (void *)r;
}
