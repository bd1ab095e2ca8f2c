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
 * catch, setjmp/longjmp: see their section below), and what reads return
 * addresses (the unwinder, pthread_exit, backtrace(), ucontext switches:
 * the return-hooked frames must show their real return addresses to it).
 *
 * Modules: dlopen and dlclose, after which the module map is read again.
 * Memory: munmap, mprotect and mremap, which may take away memory that the
 * argument capture reads directly (args.c).
 *
 * Interposers only: the logic they call is in thread.c (threads), fork.c,
 * execenv.c and modules.c (processes, environments, modules) and hook.c
 * (return hooking).
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

/* the functions interposed below whose headers are not included (setjmp.h:
 * its prototypes are the ones being wrapped) or declare them otherwise */
int seccomp(unsigned int op, unsigned int flags, void *args);
void ct_note_setjmp(void *env) CT_HIDDEN;
void *__cxa_begin_catch(void *exc);
void longjmp(void *env, int val) __attribute__((noreturn));
void _longjmp(void *env, int val) __attribute__((noreturn));
void siglongjmp(void *env, int val) __attribute__((noreturn));
void __longjmp_chk(void *env, int val) __attribute__((noreturn));
int _Unwind_RaiseException(void *exc);
int _Unwind_Resume_or_Rethrow(void *exc);
void _Unwind_Resume(void *exc) __attribute__((noreturn));
int _Unwind_ForcedUnwind(void *exc, void *stop, void *arg);
int backtrace(void **buf, int size);
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

/* ---- the real function, wherever it is ---------------------------------- */

/*
 * RTLD_NEXT searches the global scope after this library.  libc is there
 * (preloaded, this library brings it; linked, a program lists libc last),
 * so the functions of libc wrapped in this file are always found so.  Not
 * always the C++ runtime's and the unwinder's: a library loaded with
 * RTLD_LOCAL has its dependencies in a scope of its own.  A C++ library
 * that a C program dlopens (or Python through ctypes, or inject.c its
 * thrower) has libstdc++ and libgcc_s there only, yet its calls of
 * _Unwind_RaiseException and __cxa_begin_catch come here, the global
 * definitions, and RTLD_NEXT finds none.  So the definition is looked for,
 * in order: after us in the global scope; in the caller's scope (its
 * module and what that needs, as dlsym on its handle searches: what it
 * would have bound to without us); in every loaded module's.  Never ours,
 * never NULL unless nothing defines it.
 *
 * Found, it is kept until the next dlclose (which may unload it); not
 * found, it is looked for again at the next call.
 */
struct real {
	const char *name;
	void *fn;
	unsigned gen; /* real_gen when found */
	bool said;    /* that there is none */
};

static unsigned real_gen = 1; /* bumped at each dlclose */
static void *(*real_dlopen)(const char *, int);
static int (*real_dlclose)(void *);

/* the definition in the scope of the module holding addr, or NULL.  Not
 * the program's (its scope is the global one; its name, "" in the link
 * map, would be argv[0] in dladdr's answer) */
static void *in_scope_of(const void *addr, const char *name, const void *self_base)
{
	Dl_info di;
	struct link_map *lm = NULL;
	if (!addr || !dladdr1(addr, &di, (void **)&lm, RTLD_DL_LINKMAP) || !lm || !lm->l_name ||
	    !lm->l_name[0] || di.dli_fbase == self_base)
		return NULL;
	void *h = real_dlopen(lm->l_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return NULL;
	void *f = dlsym(h, name);
	real_dlclose(h);
	/* (a scope that holds this library: a program linked with it) */
	if (f && dladdr(f, &di) && di.dli_fbase == self_base)
		f = NULL;
	return f;
}

#define REAL_MODS 512
struct mods {
	const void *at[REAL_MODS];
	unsigned n;
};

static int mod_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct mods *m = data;
	if (m->n < REAL_MODS)
		m->at[m->n++] = info->dlpi_phdr; /* (mapped within the module) */
	return 0;
}

static void *find_real(struct real *r, const void *caller)
{
	unsigned gen = __atomic_load_n(&real_gen, __ATOMIC_ACQUIRE);
	void *f = __atomic_load_n(&r->fn, __ATOMIC_ACQUIRE);
	if (likely(f && __atomic_load_n(&r->gen, __ATOMIC_RELAXED) == gen))
		return f;
	f = next(r->name);
	if (!f) {
		if (!real_dlopen) {
			real_dlclose = (int (*)(void *))next("dlclose");
			__atomic_store_n(&real_dlopen, (void *(*)(const char *, int))next("dlopen"),
					 __ATOMIC_RELEASE);
		}
		Dl_info self;
		if (!real_dlopen || !real_dlclose || !dladdr((void *)find_real, &self))
			return NULL;
		f = in_scope_of(caller, r->name, self.dli_fbase);
		if (!f) {
			struct mods m = {.n = 0};
			/* (dlopen is called outside dl_iterate_phdr's lock) */
			dl_iterate_phdr(mod_cb, &m);
			for (unsigned i = 0; !f && i < m.n; i++)
				f = in_scope_of(m.at[i], r->name, self.dli_fbase);
		}
		if (!f)
			return NULL;
	}
	__atomic_store_n(&r->gen, gen, __ATOMIC_RELAXED);
	__atomic_store_n(&r->fn, f, __ATOMIC_RELEASE);
	return f;
}

/* the real function or, when nothing defines it, NULL after one line */
static void *real_or_say(struct real *r, const void *caller)
{
	void *f = find_real(r, caller);
	if (!f && !__atomic_exchange_n(&r->said, true, __ATOMIC_RELAXED))
		ct_log("no definition of %s to call but the runtime's own", r->name);
	return f;
}

#define CALLER() __builtin_extract_return_addr(__builtin_return_address(0))

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

/* ---- frames that vanish without their exit hooks -------------------------- */

/*
 * C++ exceptions: gcc calls the exit hooks while an exception unwinds, clang
 * does not.  __cxa_begin_catch, called by the catching frame, is wrapped:
 * every shadow-stack frame below the catching frame's stack pointer is gone,
 * and is closed with an UNWIND record.  (Under gcc there is none left.)
 *
 * setjmp/longjmp: a longjmp skips the exits of the frames it jumps out of.
 * setjmp is wrapped (arch/<arch>/jmp.S) to note the depth of the shadow
 * stack for its jmp_buf; longjmp closes the frames above that depth with an
 * UNWIND record before jumping, so the calls made afterwards land at the
 * right depth.  (setjmp.h is not included: its prototypes are the ones
 * being wrapped.)
 */

/* the real functions, used by jmp.S and below */
void *ct_real__setjmp CT_HIDDEN;
void *ct_real_setjmp CT_HIDDEN;
void *ct_real___sigsetjmp CT_HIDDEN;

typedef void (*jump_fn)(void *, int) __attribute__((noreturn));

/* called from jmp.S before the real setjmp; must not disturb the stack
 * above its caller's frame (it does not: it is an ordinary call) */
CT_HIDDEN void ct_note_setjmp(void *env)
{
	if (!ct_real__setjmp) {
		ct_real__setjmp = next("_setjmp");
		ct_real_setjmp = next("setjmp");
		ct_real___sigsetjmp = next("__sigsetjmp");
	}
	struct ct_tstate *t = &ct_self;
	if (t->cap == 0 || t->busy)
		return;
	for (unsigned i = 0; i < CT_JMP_NOTES; i++) {
		if (t->jmp[i].env == env) {
			t->jmp[i].depth = t->depth;
			return;
		}
	}
	struct ct_jmp_note *n = &t->jmp[t->jmp_next++ % CT_JMP_NOTES];
	n->env = env;
	n->depth = t->depth;
}

static void note_longjmp(void *env)
{
	struct ct_tstate *t = &ct_self;
	if (t->cap == 0 || t->off) /* a stopped thread's busy stays up */
		return;
	for (unsigned i = 0; i < CT_JMP_NOTES; i++) {
		if (t->jmp[i].env != env)
			continue;
		uint32_t target = t->jmp[i].depth;
		/* Jumping out of a signal handler that interrupted a hook: that
		 * hook never resumes, and the handler's nested frames end too.
		 * The interrupted hook may have written its ENTER or EXIT record
		 * and not yet moved the depth (or the other way round), so the
		 * number of frames the stream has open is not known here: say
		 * how many must remain instead (UNWIND_TO), which holds either
		 * way.  A buffer switch it was waiting for is not half done
		 * (ct_buffer_full waits before it starts), so forget the wait. */
		bool interrupted = t->busy != 0;
		uint32_t n = t->ndepth;
		t->busy = 0;
		t->ndepth = 0;
		t->in_wait = 0;
		ct_hook_reset_nested(t);
		t->busy++;
		if (t->depth > target)
			n += interrupted || !ct_filt_on ? ct_filt_recorded(t, target, t->depth)
							: ct_filt_unwinding(t, target, t->depth);
		if (t->depth > target) {
			ct_hook_dropping(t, target, (uintptr_t)__builtin_frame_address(0));
			t->depth = target;
		}
		if (interrupted) {
			/* (the calls the stream has open: the recorded ones) */
			uint32_t w[3] = {ct_ext_word(CT_EXT_UNWIND_TO, 2, 0),
					 ct_filt_recorded(t, 0, target), n};
			ct_put_words(t, w, 3);
		} else {
			ct_emit_unwind(t, n);
		}
		t->busy--;
		return;
	}
}

CT_EXPORT void *__cxa_begin_catch(void *exc)
{
	static struct real r = {.name = "__cxa_begin_catch"};
	void *(*real)(void *) = (void *(*)(void *))real_or_say(&r, CALLER());
	if (!real) /* (what it returns cannot be made up) */
		abort();
	struct ct_tstate *t = &ct_self;
	if (t->cap != 0 && t->busy == 0) {
		uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
		uint32_t d = t->depth;
		/* a return-hooked frame's CFA is its caller's stack pointer: a
		 * callee of the catching frame has exactly sp */
		while (d > 0 &&
		       (t->stk[d - 1].cfa < sp || (t->stk[d - 1].cfa == sp && t->stk[d - 1].ret)))
			d--;
		t->busy++;
		if (d < t->depth) {
			uint32_t n = ct_filt_on ? ct_filt_unwinding(t, d, t->depth) : t->depth - d;
			ct_hook_dropping(t, d, (uintptr_t)__builtin_frame_address(0));
			t->depth = d;
			ct_emit_unwind(t, n);
		}
		/* the frames that survive get the return trampoline again */
		ct_hook_catch(t, (uintptr_t)__builtin_frame_address(0));
		t->busy--;
	}
	return real(exc);
}

#define WRAP_JUMP(name)                                                   \
	CT_EXPORT __attribute__((noreturn)) void name(void *env, int val) \
	{                                                                 \
		static jump_fn real;                                      \
		if (!real)                                                \
			real = (jump_fn)next(#name);                      \
		note_longjmp(env);                                        \
		real(env, val);                                           \
	}

WRAP_JUMP(longjmp)
WRAP_JUMP(_longjmp)
WRAP_JUMP(siglongjmp)
WRAP_JUMP(__longjmp_chk)

/* ---- whatever reads return addresses --------------------------------------- */

#define SP() ((uintptr_t)__builtin_frame_address(0))

/* C++ exceptions: the unwinder reads the return addresses of every frame
 * between the throw and the catch (twice); __cxa_begin_catch (above)
 * closes the frames that are gone and hooks the others again */
typedef int (*raise_fn)(void *);
#define URC_FATAL_PHASE1_ERROR 3 /* unwind.h's _URC_: the thrower terminates */

CT_EXPORT int _Unwind_RaiseException(void *exc)
{
	static struct real r = {.name = "_Unwind_RaiseException"};
	raise_fn real = (raise_fn)real_or_say(&r, CALLER());
	if (!real)
		return URC_FATAL_PHASE1_ERROR;
	struct ct_tstate *t = &ct_self;
	bool b = ct_hook_begin_real(t, SP());
	int rc = real(exc);
	/* only returns when no handler was found: nothing was unwound */
	if (b)
		ct_hook_end_real(t, SP());
	return rc;
}

CT_EXPORT int _Unwind_Resume_or_Rethrow(void *exc)
{
	static struct real r = {.name = "_Unwind_Resume_or_Rethrow"};
	raise_fn real = (raise_fn)real_or_say(&r, CALLER());
	if (!real)
		return URC_FATAL_PHASE1_ERROR;
	struct ct_tstate *t = &ct_self;
	bool b = ct_hook_begin_real(t, SP());
	int rc = real(exc);
	if (b)
		ct_hook_end_real(t, SP());
	return rc;
}

CT_EXPORT void _Unwind_Resume(void *exc)
{
	static struct real r = {.name = "_Unwind_Resume"};
	void (*real)(void *) = (void (*)(void *))real_or_say(&r, CALLER());
	if (!real) /* (the libgcc_s one aborts when it cannot go on) */
		abort();
	ct_hook_begin_real(&ct_self, SP());
	real(exc);
	__builtin_unreachable();
}

typedef int (*forced_fn)(void *, void *, void *);
CT_EXPORT int _Unwind_ForcedUnwind(void *exc, void *stop, void *arg)
{
	static struct real r = {.name = "_Unwind_ForcedUnwind"};
	forced_fn real = (forced_fn)real_or_say(&r, CALLER());
	if (!real)
		return URC_FATAL_PHASE1_ERROR;
	struct ct_tstate *t = &ct_self;
	bool b = ct_hook_begin_real(t, SP());
	int rc = real(exc, stop, arg);
	if (b)
		ct_hook_end_real(t, SP());
	return rc;
}

/* pthread_exit unwinds the thread's stack (forced unwinding inside libc,
 * not through the interposable entry points above) */
CT_EXPORT __attribute__((noreturn)) void pthread_exit(void *v)
{
	static void (*real)(void *);
	if (!real)
		real = (void (*)(void *))next("pthread_exit");
	ct_hook_begin_real(&ct_self, SP());
	real(v);
	__builtin_unreachable();
}

/* glibc's backtrace(), not ours (hook.c's backtrace trigger has given the
 * frames their return addresses back itself) */
int ct_backtrace_real(void **buf, int size)
{
	static int (*real)(void **, int);
	if (!real)
		real = (int (*)(void **, int))next("backtrace");
	return real ? real(buf, size) : 0;
}

/* backtrace() must see what it would see untraced: our own frame is left
 * out of the result */
CT_EXPORT __attribute__((noinline)) int backtrace(void **buf, int size)
{
	static int (*real)(void **, int);
	if (!real)
		real = (int (*)(void **, int))next("backtrace");
	if (size <= 0)
		return real(buf, size);
	struct ct_tstate *t = &ct_self;
	bool b = ct_hook_begin_real(t, SP());
	void *local[257], **tmp = local;
	size_t len = 0;
	if (size + 1 > 257) {
		len = ((size_t)size + 1) * sizeof(void *);
		tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (tmp == MAP_FAILED) {
			tmp = local;
			len = 0;
		}
	}
	int n = real(tmp, tmp == local ? (size + 1 > 257 ? 257 : size + 1) : size + 1);
	if (b)
		ct_hook_end_real(t, SP());
	int out = n > 0 ? n - 1 : 0;
	if (out > size)
		out = size;
	for (int i = 0; i < out; i++)
		buf[i] = tmp[i + 1];
	if (len)
		munmap(tmp, len);
	return out;
}

/* coroutines: the frames of the stack being left are parked (real return
 * addresses back, kept open); swapcontext returns when this stack runs
 * again, and they are hooked again */
CT_EXPORT __attribute__((noinline)) int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
	static int (*real)(ucontext_t *, const ucontext_t *);
	if (!real)
		real = (int (*)(ucontext_t *, const ucontext_t *))next("swapcontext");
	struct ct_tstate *t = &ct_self;
	uint32_t gen = ct_hook_park(t, SP());
	int rc = real(oucp, ucp);
	ct_hook_unpark(t, SP(), gen);
	return rc;
}

CT_EXPORT int setcontext(const ucontext_t *ucp)
{
	static int (*real)(const ucontext_t *);
	if (!real)
		real = (int (*)(const ucontext_t *))next("setcontext");
	ct_hook_leave(&ct_self, SP());
	return real(ucp);
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
	__atomic_add_fetch(&real_gen, 1, __ATOMIC_RELEASE);
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
