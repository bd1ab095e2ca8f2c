/* SPDX-License-Identifier: MIT */
/*
 * Frames that vanish without their exit hooks.
 *
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
#include <dlfcn.h>

#include "internal.h"

/* the real functions, used by jmp.S and below */
void *ct_real__setjmp CT_HIDDEN;
void *ct_real_setjmp CT_HIDDEN;
void *ct_real___sigsetjmp CT_HIDDEN;

typedef void (*jump_fn)(void *, int) __attribute__((noreturn));

static void *lookup(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/* called from jmp.S before the real setjmp; must not disturb the stack
 * above its caller's frame (it does not: it is an ordinary call) */
CT_HIDDEN void ct_note_setjmp(void *env)
{
	if (!ct_real__setjmp) {
		ct_real__setjmp = lookup("_setjmp");
		ct_real_setjmp = lookup("setjmp");
		ct_real___sigsetjmp = lookup("__sigsetjmp");
	}
	struct ct_thread *t = &ct_self;
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
	struct ct_thread *t = &ct_self;
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
		if (t->depth > target)
			n += t->depth - target;
		t->busy++;
		if (t->depth > target) {
			ct_hook_dropping(t, target, (uintptr_t)__builtin_frame_address(0));
			t->depth = target;
		}
		if (interrupted) {
			uint32_t w[3] = {ct_ext_word(CT_EXT_UNWIND_TO, 2, 0), target, n};
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
	static void *(*real)(void *);
	if (!real)
		real = (void *(*)(void *))lookup("__cxa_begin_catch");
	struct ct_thread *t = &ct_self;
	if (t->cap != 0 && t->busy == 0) {
		uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
		uint32_t d = t->depth;
		/* a return-hooked frame's CFA is its caller's stack pointer: a
		 * callee of the catching frame has exactly sp */
		while (d > 0 && (t->stk[d - 1].cfa < sp || (t->stk[d - 1].cfa == sp && t->stk[d - 1].ret)))
			d--;
		t->busy++;
		if (d < t->depth) {
			uint32_t n = t->depth - d;
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

#define WRAP_JUMP(name)                                                                 \
	CT_EXPORT __attribute__((noreturn)) void name(void *env, int val)               \
	{                                                                               \
		static jump_fn real;                                                    \
		if (!real)                                                              \
			real = (jump_fn)lookup(#name);                                  \
		note_longjmp(env);                                                      \
		real(env, val);                                                         \
	}

WRAP_JUMP(longjmp)
WRAP_JUMP(_longjmp)
WRAP_JUMP(siglongjmp)
WRAP_JUMP(__longjmp_chk)
