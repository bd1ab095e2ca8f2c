/* SPDX-License-Identifier: MIT */
/*
 * The runtime's interposers of what makes frames vanish without their
 * exit hooks (C++ exceptions, setjmp/longjmp) and of what reads return
 * addresses (the unwinder, pthread_exit, backtrace(), ucontext switches):
 * see runtime/wrap.c for the other groups.
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
#include "count.h"
#include "internal.h"
#include "realfn.h"

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
		ct_real__setjmp = dlsym(RTLD_NEXT, "_setjmp");
		ct_real_setjmp = dlsym(RTLD_NEXT, "setjmp");
		ct_real___sigsetjmp = dlsym(RTLD_NEXT, "__sigsetjmp");
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
		if (interrupted && t->wr_p) {
			/* a record it was writing: padding, not a payload
			 * behind a zero header */
			for (volatile uint32_t *w = (uint32_t *)t->wr_p; (uintptr_t)w < t->wr_end;
			     w++)
				*w = 0;
			t->wr_p = 0;
		}
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
		if (interrupted && !ct_count_on) {
			/* (the calls the stream has open: the recorded ones) */
			uint32_t w[3] = {ct_ext_word(CT_EXT_UNWIND_TO, 2, 0),
					 ct_filt_recorded(t, 0, target), n};
			ct_put_words(t, w, 3);
			/* and a new delta base: the interrupted hook may have
			 * moved it without its record (or the other way) */
			ct_put_time(t, ct_clock());
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
	void *(*real)(void *) = (void *(*)(void *))ct_real_or_say(&r, CALLER());
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
			real = (jump_fn)dlsym(RTLD_NEXT, #name);          \
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
	raise_fn real = (raise_fn)ct_real_or_say(&r, CALLER());
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
	raise_fn real = (raise_fn)ct_real_or_say(&r, CALLER());
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
	void (*real)(void *) = (void (*)(void *))ct_real_or_say(&r, CALLER());
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
	forced_fn real = (forced_fn)ct_real_or_say(&r, CALLER());
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
		real = (void (*)(void *))dlsym(RTLD_NEXT, "pthread_exit");
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
		real = (int (*)(void **, int))dlsym(RTLD_NEXT, "backtrace");
	return real ? real(buf, size) : 0;
}

/* backtrace() must see what it would see untraced: our own frame is left
 * out of the result */
CT_EXPORT __attribute__((noinline)) int backtrace(void **buf, int size)
{
	static int (*real)(void **, int);
	if (!real)
		real = (int (*)(void **, int))dlsym(RTLD_NEXT, "backtrace");
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
		real = (int (*)(ucontext_t *, const ucontext_t *))dlsym(RTLD_NEXT, "swapcontext");
	struct ct_tstate *t = &ct_self;
	uint32_t gen = ct_hook_park(t, SP());
#ifdef CT_ARCH_UNWIND
	if (ct_count_stack && ucp)
		ct_walk_switch(ucp->uc_stack.ss_sp, ucp->uc_stack.ss_size);
#endif
	int rc = real(oucp, ucp);
	ct_hook_unpark(t, SP(), gen);
	return rc;
}

CT_EXPORT int setcontext(const ucontext_t *ucp)
{
	static int (*real)(const ucontext_t *);
	if (!real)
		real = (int (*)(const ucontext_t *))dlsym(RTLD_NEXT, "setcontext");
	ct_hook_leave(&ct_self, SP());
#ifdef CT_ARCH_UNWIND
	if (ct_count_stack && ucp)
		ct_walk_switch(ucp->uc_stack.ss_sp, ucp->uc_stack.ss_size);
#endif
	return real(ucp);
}
