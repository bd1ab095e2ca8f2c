/* SPDX-License-Identifier: MIT */
/* The runtime's DWARF CFI unwinder (runtime/unwind.c) against the C
 * library's backtrace() (libgcc's unwinder): the same return addresses,
 * frame by frame, from a chain of this file's functions of every shape to
 * main and on to the program's start; through signal frames (a handler's
 * own registers through the rt_sigreturn stub, or its ucontext), with an
 * interrupted pc that is exact (one at a function's first instruction);
 * from a signal handler on an alternate stack back to the main stack by
 * the stack_of callback; a walk bounded by its [lo, hi) that stops where a
 * return address lies outside, and never reads outside (the rest of the
 * stack made unreadable); a comparator that qsort calls (frames in libc);
 * and the module table made again (dlopen, dlclose, twice in a row, while
 * a walk holds the old one), with the sites noted kept; each step's kept
 * rule (the sample walks' cache) steps as the CFI does.  Linked with the
 * runtime's own unwind.o and cfi.o.
 *
 * The chain (built -O2 by the Makefile; objdump -d of build/tests/test_unwind
 * shows it so with gcc 12):
 *   main -> c_big -> c_align -> c_fp -> c_vla -> c_frameless1 -> c_frameless2
 *   -> c_inner
 *   c_big:  saves callee-saved registers (%rbp among them, used for a
 *           value); its early return's epilogue sits before its call of
 *           c_align (.cfi_remember_state/.cfi_restore_state)
 *   c_fp:   push %rbp; mov %rsp,%rbp (optimize("no-omit-frame-pointer")):
 *           its CFA is %rbp-based
 *   c_align: a 64-byte aligned local and a variable-length array: the stack
 *           realigned by way of %r10 (GCC's DRAP): the CFA is a
 *           DW_CFA_def_cfa_expression (DW_OP_breg6 -8; DW_OP_deref), %rbp's
 *           rule a DW_CFA_expression (its caller c_big's %rbp no frame
 *           pointer: the saved %rbp and the CFA differ)
 *   c_vla:  a variable-length array: %rbp-based CFA as well
 *   c_frameless1, c_frameless2: no frame pointer (sub $8,%rsp / push): their
 *           CFA is %rsp-based
 *   c_inner: takes its registers by inline asm (its %rbp then a value, not
 *           a frame pointer: saved, and restored by the step), then walks,
 *           or raises a signal, or calls ut_trap_entry or ut_trap_push
 *           (whose ud2 is at the entry, or right after a push)
 * sig_self is a leaf without any frame (the tgkill system call inline): a
 * signal interrupts it with CFA = %rsp + 8.  Under make asan
 * (-fno-omit-frame-pointer) every frame has %rbp; the comparisons hold the
 * same. */
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "check.h"
#include "unwind.h"

#if defined(CT_ARCH_UNWIND) && defined(__x86_64__)

/* not inlined, not cloned, no call made a tail call by what it knows of
 * the callee (gcc); clang: not inlined, and no frame pointer attribute */
#ifdef __clang__
#define NOIPA __attribute__((noinline))
#define WITH_FP
#else
#define NOIPA __attribute__((noipa))
#define WITH_FP __attribute__((optimize("no-omit-frame-pointer")))
#endif
#define MAXF 64
#define RA CT_ARCH_DWARF_RA
#define SP CT_ARCH_UW_SP
#define BP 6
#define KNOWN_SP_BP_PC ((1u << SP) | (1u << BP) | (1u << RA))
#define KNOWN_ALL ((1u << CT_ARCH_UW_NREGS) - 1)

int main(void); /* (the walks reach it) */

/* the registers here: the pc of label 1 (exact), %rsp and %rbp there */
#define CAPTURE(regs)                                                                    \
	do {                                                                             \
		uintptr_t pc_, sp_, bp_;                                                 \
		__asm__ volatile("lea 1f(%%rip), %0\n1:\tmov %%rsp, %1\n\tmov %%rbp, %2" \
				 : "=r"(pc_), "=r"(sp_), "=r"(bp_));                     \
		memset((regs), 0, sizeof(*(regs)));                                      \
		(regs)->r[RA] = pc_;                                                     \
		(regs)->r[SP] = sp_;                                                     \
		(regs)->r[BP] = bp_;                                                     \
		(regs)->known = KNOWN_SP_BP_PC;                                          \
	} while (0)

/* the main thread's stack (pthread_getattr_np: its end is that of the
 * [stack] mapping) */
static uintptr_t stack_lo, stack_hi;
/* UT_VERBOSE set: each walk beside backtrace()'s entries */
static bool verbose;

/* ---- a walk ------------------------------------------------------------- */

enum stop { ST_NONE, ST_MAX, ST_FIND, ST_STEP };

struct walk {
	uintptr_t pc[MAXF]; /* the pc of each caller, in order */
	uintptr_t sp[MAXF]; /* its stack pointer (the callee's CFA) */
	int n;
	int sigframe_at; /* the index of the interrupted pc (-1: none) */
	enum stop stop;
	int rules, rule_diffs; /* steps that gave a rule; whose rule's step differed */
};

/* from r (its pc exact or not) to where the unwinder stops; at each frame
 * first the rt_sigreturn stub (then the next pc is exact) */
static void walk_from(struct ct_uw_regs r, bool exact, struct ct_uw_mem *m, struct walk *w)
{
	w->n = 0;
	w->rules = w->rule_diffs = 0;
	w->sigframe_at = -1;
	w->stop = ST_MAX;
	ct_unwind_hold();
	while (w->n < MAXF) {
		if (ct_unwind_sigframe(&r, m)) {
			w->sigframe_at = w->n;
			w->pc[w->n] = r.r[RA];
			w->sp[w->n++] = r.r[SP];
			exact = true;
			continue;
		}
		struct ct_uw_func f;
		uintptr_t pc = r.r[RA];
		if (!ct_unwind_find(exact ? pc : pc - 1, &f)) {
			w->stop = ST_FIND;
			break;
		}
		/* (each step twice: by the CFI, and by the rule it gave, as
		 * the sample walks' cache applies it: the same registers) */
		struct ct_uw_regs before = r;
		struct ct_uw_mem mbefore = *m;
		struct ct_cfi_rule rule;
		if (!ct_unwind_step(&r, &f, exact, m, &rule)) {
			w->stop = ST_STEP;
			break;
		}
		if (rule.nsaved != CT_CFI_NO_RULE) {
			w->rules++;
			if (!ct_cfi_apply(&rule, &before, &mbefore) || before.known != r.known ||
			    memcmp(before.r, r.r, sizeof(r.r)) || mbefore.lo != m->lo ||
			    mbefore.hi != m->hi)
				w->rule_diffs++;
		}
		w->pc[w->n] = r.r[RA];
		w->sp[w->n++] = r.r[SP];
		exact = false;
	}
	ct_unwind_release();
}

/* the start of the function that holds pc (0: none) */
static uintptr_t fn_at(uintptr_t pc)
{
	struct ct_uw_func f;
	ct_unwind_hold();
	bool ok = ct_unwind_find(pc, &f);
	ct_unwind_release();
	return ok ? f.start : 0;
}

/* the index of backtrace()'s entry in the function that called it: its
 * entry 0 (ASan's interceptor of backtrace() adds one before it) */
static int bt_self(void *const *bt, int nbt, void *fn)
{
	for (int j = 0; j < nbt && j < 4; j++)
		if (fn_at((uintptr_t)bt[j] - 1) == (uintptr_t)fn)
			return j;
	return -1;
}

/* the first index of w whose pc is in fn (-1: none) */
static int index_in(const struct walk *w, void *fn)
{
	for (int i = 0; i < w->n; i++)
		if (fn_at(w->pc[i] - (i == w->sigframe_at ? 0 : 1)) == (uintptr_t)fn)
			return i;
	return -1;
}

/* w against backtrace()'s entries bt[from..]: how many match in a row */
static int matching(const struct walk *w, void *const *bt, int nbt, int from)
{
	int i = 0;
	while (i < w->n && from + i < nbt && (uintptr_t)bt[from + i] == w->pc[i])
		i++;
	return i;
}

static void print_walk(const char *what, const struct walk *w, void *const *bt, int nbt, int from)
{
	printf("  %s: %d frames (stop %d), backtrace() %d from %d\n", what, w->n, (int)w->stop, nbt,
	       from);
	for (int i = 0; i < w->n || from + i < nbt; i++)
		printf("    %2d %#18lx %#18lx  %#18lx\n", i, i < w->n ? (unsigned long)w->pc[i] : 0,
		       i < w->n ? (unsigned long)w->sp[i] : 0,
		       from + i < nbt && from + i >= 0 ? (unsigned long)bt[from + i] : 0);
}

/* w matches bt from entry from on, to both ends, through the frame in
 * main (which it must reach) */
static void check_same(const char *what, const struct walk *w, void *const *bt, int nbt, int from)
{
	int k = from >= 0 ? matching(w, bt, nbt, from) : 0;
	int im = index_in(w, (void *)main);
	bool ok = from >= 0 && im >= 0 && k > im && k == w->n && from + k == nbt;
	CHECK(from >= 0, "%s: backtrace() has no entry in its caller", what);
	CHECK(im >= 0 && k > im, "%s: reaches main (at %d), %d match", what, im, k);
	CHECK(k == w->n && from + k == nbt, "%s: both end together: %d of %d match, %d entries",
	      what, k, w->n, nbt - from);
	if (ok)
		printf("ok   %s: %d frames, the same as backtrace()'s, main at %d\n", what, w->n,
		       im);
	if (!ok || verbose)
		print_walk(what, w, bt, nbt, from);
}

/* ---- the chain ---------------------------------------------------------- */

enum mode { M_WALK, M_RAISE, M_ALTSTACK, M_TRAP, M_TRAP_PUSH };
static volatile int g_mode;
static pid_t g_pid, g_tid;

/* the first walk, from c_inner */
static struct ct_uw_regs g_regs;
static void *g_bt[MAXF];
static int g_nbt;
static struct walk g_walk;
/* ... and walks bounded just above its frames: hi = the CFA of frame k
 * less 8 (where its return address is), less 1, and the CFA itself */
#define NBOUND 4
static struct walk g_bound[NBOUND][3];

/* a leaf without any frame: the signal arrives when the system call
 * returns, at the instruction after it */
static NOIPA long sig_self(long pid, long tid, long sig)
{
	long ret = SYS_tgkill;
	__asm__ volatile("syscall"
			 : "+a"(ret)
			 : "D"(pid), "S"(tid), "d"(sig)
			 : "rcx", "r11", "memory");
	return ret;
}

/* functions that trap (ud2: SIGILL, the handler skips it): at the first
 * instruction (the pc - 1 of a return address would be outside), and
 * right after a push (the rules at pc - 1 would have the CFA 8 too low) */
__asm__(".text\n"
	".p2align 4\n"
	".globl ut_trap_entry\n"
	".hidden ut_trap_entry\n"
	".type ut_trap_entry, @function\n"
	"ut_trap_entry:\n"
	".cfi_startproc\n"
	"\tud2\n"
	"\tret\n"
	".cfi_endproc\n"
	".size ut_trap_entry, .-ut_trap_entry\n"
	".p2align 4\n"
	".globl ut_trap_push\n"
	".hidden ut_trap_push\n"
	".type ut_trap_push, @function\n"
	"ut_trap_push:\n"
	".cfi_startproc\n"
	"\tpush %rbp\n"
	".cfi_adjust_cfa_offset 8\n"
	".cfi_rel_offset %rbp, 0\n"
	"\tud2\n"
	"\tpop %rbp\n"
	".cfi_adjust_cfa_offset -8\n"
	".cfi_restore %rbp\n"
	"\tret\n"
	".cfi_endproc\n"
	".size ut_trap_push, .-ut_trap_push\n");
void ut_trap_entry(void) __attribute__((visibility("hidden")));
void ut_trap_push(void) __attribute__((visibility("hidden")));

static NOIPA int c_inner(int x)
{
	switch (g_mode) {
	case M_WALK: {
		CAPTURE(&g_regs);
		g_nbt = backtrace(g_bt, MAXF);
		struct ct_uw_mem m = {g_regs.r[SP] & ~(uintptr_t)15, stack_hi, NULL, NULL};
		walk_from(g_regs, true, &m, &g_walk);
		for (int k = 1; k <= NBOUND && k < g_walk.n; k++) {
			uintptr_t cfa = g_walk.sp[k];
			uintptr_t his[3] = {cfa - 8, cfa - 1, cfa};
			for (int v = 0; v < 3; v++) {
				struct ct_uw_mem b = {m.lo, his[v], NULL, NULL};
				walk_from(g_regs, true, &b, &g_bound[k - 1][v]);
			}
		}
		break;
	}
	case M_RAISE:
		raise(SIGUSR1);
		break;
	case M_ALTSTACK:
		x += (int)sig_self(g_pid, g_tid, SIGUSR2);
		break;
	case M_TRAP:
		ut_trap_entry();
		break;
	case M_TRAP_PUSH:
		ut_trap_push();
		break;
	}
	return x + 1;
}

static NOIPA int c_frameless2(int x)
{
	return c_inner(x + 1) + 1;
}

static NOIPA int c_frameless1(int x)
{
	return c_frameless2(x * 3) ^ 5;
}

static NOIPA int c_vla(int n)
{
	char buf[n + 16];
	volatile char *vp = buf;
	vp[0] = (char)n;
	vp[n + 15] = 1;
	int r = c_frameless1(n);
	return r + vp[n + 15] + vp[0];
}

static NOIPA WITH_FP int c_fp(int x)
{
	return c_vla(x % 7 + 9) + 3;
}

/* stack realignment with a variable-sized frame: GCC's DRAP (%r10), the
 * CFA an expression (DW_OP_breg6 -8; DW_OP_deref), %rbp's rule another */
static NOIPA int c_align(int n)
{
	_Alignas(64) volatile char a[64];
	char buf[n + 16];
	volatile char *vp = buf;
	a[0] = (char)n;
	vp[0] = 1;
	int r = c_fp(n + 1);
	return r + a[0] + vp[0];
}

static volatile int g_opaque = 12345;

static NOIPA int opaque(int x)
{
	return x ^ g_opaque;
}

/* the early return's epilogue comes first (likely), then the path that
 * calls on */
static NOIPA int c_big(int x, const int *v)
{
	int a = v[0] * 3, b = v[1] + 7, c = v[2] ^ 9, d = v[3] - 1, e = v[4] * v[5];
	int s = opaque(a + b);
	if (__builtin_expect(s == x, 1))
		return a + b + c + d + e;
	s += opaque(c) + opaque(d);
	s += c_align(x + s);
	return s + a * b + c * d + e * s;
}

static int run_chain(enum mode mode)
{
	static const int v[6] = {1, 2, 3, 4, 5, 6};
	g_mode = mode;
	return c_big(1, v);
}

/* ---- signal handlers ------------------------------------------------------ */

struct sig_result {
	int sig, count;
	struct ct_uw_regs regs; /* the handler's own */
	void *bt[MAXF];         /* backtrace() in the handler */
	int nbt;
	struct walk w;                  /* from the handler's registers */
	struct walk uw;                 /* from its ucontext */
	struct walk w_nostack;          /* (altstack) without stack_of */
	uintptr_t uc[CT_ARCH_UW_NREGS]; /* the interrupted registers */
	/* a step through the rt_sigreturn stub by its CFI */
	bool cfi_found, cfi_step;
	struct ct_uw_regs cfi;
	bool sigframe_nostack; /* ct_unwind_sigframe without stack_of (altstack) */
	int stack_of_calls, stack_of_main;
};
static struct sig_result g_sig;

static uintptr_t alt_lo, alt_hi;

struct so_ctx {
	int calls, in_main;
};

static bool stack_of_main(void *ctx, uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	struct so_ctx *c = ctx;
	c->calls++;
	if (sp < stack_lo || sp > stack_hi)
		return false;
	c->in_main++;
	*lo = stack_lo;
	*hi = stack_hi;
	return true;
}

static void on_signal(int sig, siginfo_t *si, void *ucv)
{
	(void)si;
	ucontext_t *uc = ucv;
	struct sig_result *s = &g_sig;
	CAPTURE(&s->regs);
	s->nbt = backtrace(s->bt, MAXF);
	s->sig = sig;
	s->count++;
	uintptr_t sp = s->regs.r[SP];
	bool alt = sp >= alt_lo && sp < alt_hi;
	struct so_ctx so = {0, 0};
	struct ct_uw_mem m = {sp & ~(uintptr_t)15, alt ? alt_hi : stack_hi,
			      alt ? stack_of_main : NULL, &so};
	walk_from(s->regs, true, &m, &s->w);
	s->stack_of_calls = so.calls;
	s->stack_of_main = so.in_main;

	/* from the ucontext: the interrupted pc is exact */
	ct_arch_uw_from_gregs(uc->uc_mcontext.gregs, s->uc);
	struct ct_uw_regs ur;
	memcpy(ur.r, s->uc, sizeof(ur.r));
	ur.known = KNOWN_ALL;
	struct ct_uw_mem um = {s->uc[SP] & ~(uintptr_t)15, stack_hi, NULL, NULL};
	walk_from(ur, true, &um, &s->uw);

	/* one step from the handler, then the stub's own CFI (glibc's
	 * __restore_rt has it, 'S' in its CIE): the interrupted registers */
	struct ct_uw_regs r = s->regs;
	struct ct_uw_mem cm = {sp & ~(uintptr_t)15, alt ? alt_hi : stack_hi,
			       alt ? stack_of_main : NULL, &so};
	struct ct_uw_func f;
	s->cfi_found = s->cfi_step = false;
	ct_unwind_hold();
	if (ct_unwind_find(r.r[RA], &f) && ct_unwind_step(&r, &f, true, &cm, NULL) &&
	    ct_unwind_find(r.r[RA] - 1, &f)) {
		s->cfi_found = true;
		s->cfi_step = ct_unwind_step(&r, &f, false, &cm, NULL);
		s->cfi = r;
	}
	ct_unwind_release();

	if (alt) {
		/* without stack_of: the walk stops at the signal frame */
		struct ct_uw_mem nm = {sp & ~(uintptr_t)15, alt_hi, NULL, NULL};
		walk_from(s->regs, true, &nm, &s->w_nostack);
		r = s->regs;
		nm.lo = sp & ~(uintptr_t)15;
		nm.hi = alt_hi;
		ct_unwind_hold();
		s->sigframe_nostack = ct_unwind_find(r.r[RA], &f) &&
				      ct_unwind_step(&r, &f, true, &nm, NULL) &&
				      ct_unwind_sigframe(&r, &nm);
		ct_unwind_release();
	}
	if (sig == SIGILL)
		uc->uc_mcontext.gregs[REG_RIP] += 2; /* past the ud2 */
}

static void install(int sig, int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(sig, &sa, NULL) == 0, "sigaction %d", sig);
}

/* the signal test's common part: the handler's walk through the signal
 * frame against backtrace(), and the walk from its ucontext */
static void check_signal(const char *what, void *interrupted_fn, int at_offset)
{
	struct sig_result *s = &g_sig;
	char name[96];
	CHECK(s->count == 1, "%s: the handler ran %d times", what, s->count);
	int j = bt_self(s->bt, s->nbt, (void *)on_signal);
	snprintf(name, sizeof(name), "%s, from the handler", what);
	check_same(name, &s->w, s->bt, s->nbt, j + 1);
	/* frame 0: the stub (where the handler returns), 1: the interrupted pc */
	CHECK(s->w.sigframe_at == 1, "%s: the signal frame at %d", what, s->w.sigframe_at);
	CHECK(s->w.n > 1 && s->w.pc[1] == s->uc[RA] && s->w.sp[1] == s->uc[SP],
	      "%s: the interrupted pc and sp", what);
	if (interrupted_fn)
		CHECK(fn_at(s->uc[RA]) == (uintptr_t)interrupted_fn,
		      "%s: the interrupted pc %#lx in its function", what,
		      (unsigned long)s->uc[RA]);
	if (at_offset >= 0)
		CHECK(s->uc[RA] == (uintptr_t)interrupted_fn + (uintptr_t)at_offset,
		      "%s: interrupted at +%d", what, at_offset);

	/* from the ucontext: the frames after the interrupted one */
	snprintf(name, sizeof(name), "%s, from the ucontext", what);
	check_same(name, &s->uw, s->bt, s->nbt, j + 3);
	CHECK(s->uw.n + 2 == s->w.n && !memcmp(s->uw.pc, s->w.pc + 2, sizeof(uintptr_t) * s->uw.n),
	      "%s: the ucontext's walk is the handler's past the signal frame", what);

	/* the stub's CFI: the same registers as the ucontext's */
	CHECK(s->cfi_found && s->cfi_step, "%s: a step through the stub by its CFI", what);
	if (s->cfi_step) {
		int same = 0;
		for (int i = 0; i < CT_ARCH_UW_NREGS; i++)
			same += (s->cfi.known >> i & 1) && s->cfi.r[i] == s->uc[i];
		CHECK(same == CT_ARCH_UW_NREGS, "%s: %d of the %d registers by the stub's CFI",
		      what, same, CT_ARCH_UW_NREGS);
	}
	printf("%s   %s: the signal frame at 1, the interrupted pc %#lx; the stub's CFI agrees\n",
	       s->w.n > 1 && s->w.pc[1] == s->uc[RA] ? "ok" : "FAIL", what,
	       (unsigned long)s->uc[RA]);
}

/* ---- the bounded walk, strictly: on a stack of its own -------------------- */

#define CSTACK (256 * 1024)
static uint8_t *cstack; /* [cstack, cstack + CSTACK), a guard page either side */
static ucontext_t uc_main, uc_chain;
static volatile uintptr_t pad_lo, pad_hi; /* b_pad's buffer */
static struct ct_uw_regs b_regs;
static void *b_bt[MAXF];
static int b_nbt, b_result;

static NOIPA int b_inner(void)
{
	CAPTURE(&b_regs);
	b_nbt = backtrace(b_bt, MAXF);
	return swapcontext(&uc_chain, &uc_main) + 1; /* (not a tail call) */
}

static NOIPA int b_mid(int x)
{
	return b_inner() + x;
}

static NOIPA int b_pad(int x)
{
	volatile char buf[3 * 4096];
	buf[0] = (char)x;
	pad_lo = (uintptr_t)buf;
	pad_hi = (uintptr_t)buf + sizeof(buf);
	int r = b_mid(x);
	return r + buf[0];
}

static NOIPA int b_outer(int x)
{
	return b_pad(x) * 2;
}

static void b_start(void)
{
	b_result = b_outer(3);
}

static sigjmp_buf segv_jb;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jb, 1);
}

/* walk b_regs with [lo, hi), the rest of the stack unreadable: false if
 * a read faulted */
static bool strict_walk(uintptr_t lo, uintptr_t hi, struct walk *w)
{
	uintptr_t base = (uintptr_t)cstack, top = base + CSTACK;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	volatile bool ok = true;
	if (lo > base)
		mprotect((void *)base, lo - base, PROT_NONE);
	if (hi < top)
		mprotect((void *)hi, top - hi, PROT_NONE);
	if (sigsetjmp(segv_jb, 1) == 0) {
		struct ct_uw_mem m = {lo, hi, NULL, NULL};
		walk_from(b_regs, true, &m, w);
	} else {
		ok = false;
		ct_unwind_release(); /* (the walk's hold) */
	}
	mprotect((void *)base, CSTACK, PROT_READ | PROT_WRITE);
	sigaction(SIGSEGV, &old, NULL);
	return ok;
}

static void test_strict_bounds(void)
{
	void *mem = mmap(NULL, CSTACK + 2 * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(mem != MAP_FAILED, "mmap");
	if (mem == MAP_FAILED)
		return;
	cstack = (uint8_t *)mem + 4096;
	mprotect(cstack, CSTACK, PROT_READ | PROT_WRITE);
	getcontext(&uc_chain);
	uc_chain.uc_stack.ss_sp = cstack;
	uc_chain.uc_stack.ss_size = CSTACK;
	uc_chain.uc_link = &uc_main;
	makecontext(&uc_chain, b_start, 0);
	swapcontext(&uc_main, &uc_chain);
	/* b_inner is suspended in swapcontext: its frames stay */
	uintptr_t lo = b_regs.r[SP] & ~(uintptr_t)4095, top = (uintptr_t)cstack + CSTACK;
	struct walk full, cut;
	bool ok_full = strict_walk(lo, top, &full);
	CHECK(ok_full, "the whole walk on the context's stack read outside it");
	int j = bt_self(b_bt, b_nbt, (void *)b_inner);
	int k = j >= 0 ? matching(&full, b_bt, b_nbt, j + 1) : 0;
	int is = index_in(&full, (void *)b_start);
	/* (past b_start: makecontext's __start_context, whose return address is
	 * its first byte; both unwinders may stop or not there) */
	CHECK(is >= 0 && k > is, "context: through b_start (at %d), %d match backtrace()", is, k);
	if (!(is >= 0 && k > is) || verbose)
		print_walk("context", &full, b_bt, b_nbt, j + 1);

	/* hi: a page boundary in b_pad's buffer, above b_mid's frame, below
	 * b_pad's return address: two frames (b_mid's and b_pad's pcs), then
	 * the step of b_pad's frame cannot read its return address */
	uintptr_t p = (pad_lo + 4095) & ~(uintptr_t)4095;
	int ip = index_in(&full, (void *)b_pad);
	CHECK(p + 4096 <= pad_hi && ip == 1, "b_pad's buffer %#lx-%#lx, b_pad at %d",
	      (unsigned long)pad_lo, (unsigned long)pad_hi, ip);
	bool ok_cut = strict_walk(lo, p, &cut);
	CHECK(ok_cut, "the bounded walk read outside [lo, hi)");
	CHECK(ok_cut && cut.n == 2 && cut.stop == ST_STEP &&
		      !memcmp(cut.pc, full.pc, 2 * sizeof(uintptr_t)),
	      "bounded at b_pad's buffer: %d frames, stop %d", cut.n, (int)cut.stop);
	/* lo: the page above b_inner's return address (all below unreadable):
	 * not one frame */
	struct walk none;
	uintptr_t lo1 = ((full.sp[0] - 8) & ~(uintptr_t)4095) + 4096;
	bool ok_none = strict_walk(lo1, top, &none);
	CHECK(ok_none, "the walk from lo above b_inner's return address read below it");
	CHECK(ok_none && none.n == 0 && none.stop == ST_STEP,
	      "lo past the first return address: %d", none.n);
	if (ok_full && ok_cut && ok_none)
		printf("ok   strict bounds: the whole walk %d frames (backtrace() %d match), hi in "
		       "b_pad's buffer: %d, lo past b_inner's return address: %d; no read "
		       "outside\n",
		       full.n, k, cut.n, none.n);
	/* let the chain return */
	swapcontext(&uc_main, &uc_chain);
	CHECK(b_result == 2 * (3 + 1 + 3), "the chain returned: %d", b_result);
	munmap(mem, CSTACK + 2 * 4096);
}

/* ---- qsort's comparator ----------------------------------------------------- */

static struct ct_uw_regs q_regs;
static void *q_bt[MAXF];
static int q_nbt, q_calls;
static struct walk q_walk;

static int cmp_int(const void *a, const void *b)
{
	if (q_calls++ == 0) {
		CAPTURE(&q_regs);
		q_nbt = backtrace(q_bt, MAXF);
		struct ct_uw_mem m = {q_regs.r[SP] & ~(uintptr_t)15, stack_hi, NULL, NULL};
		walk_from(q_regs, true, &m, &q_walk);
	}
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static NOIPA int q_caller(int n)
{
	int v[64];
	for (int i = 0; i < n; i++)
		v[i] = (i * 37) % 64;
	qsort(v, (size_t)n, sizeof(v[0]), cmp_int);
	return v[0] + v[n - 1];
}

/* ---- the tests ---------------------------------------------------------------- */

static void test_find(void)
{
	void *fns[] = {(void *)c_inner,       (void *)c_frameless2, (void *)c_frameless1,
		       (void *)c_vla,         (void *)c_align,      (void *)c_fp,
		       (void *)c_big,         (void *)main,         (void *)sig_self,
		       (void *)ut_trap_entry, (void *)ut_trap_push, (void *)on_signal};
	int good = 0;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		uintptr_t a = (uintptr_t)fns[i];
		bool ok = fn_at(a) == a && fn_at(a + 1) == a;
		CHECK(ok, "ct_unwind_find of function %zu: %#lx, not %#lx", i,
		      (unsigned long)fn_at(a), (unsigned long)a);
		good += ok;
	}
	/* ut_trap_entry's 3 bytes (ud2, ret), then padding: its last byte is
	 * in it, the next is in none */
	uintptr_t te = (uintptr_t)ut_trap_entry;
	CHECK(fn_at(te + 2) == te && fn_at(te + 3) == 0, "the end of ut_trap_entry: %#lx %#lx",
	      (unsigned long)fn_at(te + 2), (unsigned long)fn_at(te + 3));
	void *q = dlsym(RTLD_DEFAULT, "qsort");
	CHECK(q && fn_at((uintptr_t)q) == (uintptr_t)q, "ct_unwind_find(qsort) in libc");
	int x = 0;
	void *heap = malloc(16);
	CHECK(fn_at((uintptr_t)&x) == 0 && fn_at((uintptr_t)heap) == 0 && fn_at(0) == 0 &&
		      fn_at(UINTPTR_MAX) == 0,
	      "no function on the stack, the heap, at 0");
	free(heap);
	printf("ok   ct_unwind_find: %d of %zu functions at their start; libc's qsort; none off "
	       "code\n",
	       good, sizeof(fns) / sizeof(fns[0]));
}

static void test_chain(void)
{
	run_chain(M_WALK);
	int j = bt_self(g_bt, g_nbt, (void *)c_inner);
	check_same("chain", &g_walk, g_bt, g_nbt, j + 1);
	void *order[] = {(void *)c_frameless2, (void *)c_frameless1, (void *)c_vla, (void *)c_fp,
			 (void *)c_align,      (void *)c_big,        (void *)main};
	int inorder = 0;
	for (int i = 0; i < 7; i++)
		inorder += i < g_walk.n && fn_at(g_walk.pc[i] - 1) == (uintptr_t)order[i];
	CHECK(inorder == 7, "the chain's frames in order: %d of 7", inorder);
	/* the rules kept for the common frames step as the CFI does (the
	 * chain's realigned frame has none: its CFA is an expression) */
	CHECK(g_walk.rules >= 6 && g_walk.rule_diffs == 0,
	      "the chain's kept rules: %d steps gave one, %d stepped otherwise by it", g_walk.rules,
	      g_walk.rule_diffs);

	/* bounded: hi below frame k's return address (its CFA less 8, less 1):
	 * k frames and the step stops; at the CFA: k + 1 */
	int good = 0, tried = 0;
	for (int k = 1; k <= NBOUND && k < g_walk.n; k++)
		for (int v = 0; v < 3; v++) {
			const struct walk *b = &g_bound[k - 1][v];
			int want = v == 2 ? k + 1 : k;
			bool ok = b->n == want && b->stop == ST_STEP &&
				  !memcmp(b->pc, g_walk.pc, (size_t)want * sizeof(uintptr_t)) &&
				  !memcmp(b->sp, g_walk.sp, (size_t)want * sizeof(uintptr_t));
			CHECK(ok, "bounded at frame %d (%d): %d frames, stop %d, want %d", k, v,
			      b->n, (int)b->stop, want);
			good += ok;
			tried++;
		}
	printf("%s   bounds: %d of %d walks with hi just below (or at) a frame's CFA stop there, "
	       "their frames right\n",
	       good == tried ? "ok" : "FAIL", good, tried);
}

static void test_raise(void)
{
	install(SIGUSR1, 0);
	memset(&g_sig, 0, sizeof(g_sig));
	run_chain(M_RAISE);
	check_signal("raise(SIGUSR1)", NULL, -1);
	/* the interrupted frame is libc's (raise); the chain follows */
	int ic = index_in(&g_sig.w, (void *)c_inner);
	CHECK(ic > 1, "raise: c_inner at %d", ic);
}

static void test_trap(void)
{
	install(SIGILL, 0);
	memset(&g_sig, 0, sizeof(g_sig));
	run_chain(M_TRAP);
	check_signal("ud2 at a function's entry (SIGILL)", (void *)ut_trap_entry, 0);
	/* exact: the frame after it is c_inner's, by its entry's rules */
	CHECK(g_sig.w.n > 2 && fn_at(g_sig.w.pc[2] - 1) == (uintptr_t)c_inner,
	      "trap: c_inner after the trapping entry");
	memset(&g_sig, 0, sizeof(g_sig));
	run_chain(M_TRAP_PUSH);
	check_signal("ud2 right after a push (SIGILL)", (void *)ut_trap_push, 1);
	CHECK(g_sig.w.n > 2 && fn_at(g_sig.w.pc[2] - 1) == (uintptr_t)c_inner,
	      "trap: c_inner after the push's frame");
}

static void test_altstack(void)
{
	size_t len = 256 * 1024;
	void *alt = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(alt != MAP_FAILED, "mmap");
	if (alt == MAP_FAILED)
		return;
	stack_t ss = {.ss_sp = alt, .ss_size = len, .ss_flags = 0}, old;
	CHECK(sigaltstack(&ss, &old) == 0, "sigaltstack");
	alt_lo = (uintptr_t)alt;
	alt_hi = alt_lo + len;
	install(SIGUSR2, SA_ONSTACK);
	memset(&g_sig, 0, sizeof(g_sig));
	run_chain(M_ALTSTACK);
	struct sig_result *s = &g_sig;
	CHECK(s->regs.r[SP] >= alt_lo && s->regs.r[SP] < alt_hi, "the handler on the altstack");
	check_signal("tgkill (SIGUSR2) on the altstack", (void *)sig_self, -1);
	CHECK(s->stack_of_main >= 1 && s->stack_of_main == s->stack_of_calls,
	      "stack_of asked %d times, %d for the main stack", s->stack_of_calls,
	      s->stack_of_main);
	CHECK(s->w.n > 1 && s->w.sp[1] >= stack_lo && s->w.sp[1] < stack_hi,
	      "the interrupted sp on the main stack");
	CHECK(s->w.n > 2 && fn_at(s->w.pc[2] - 1) == (uintptr_t)c_inner,
	      "c_inner after the frameless sig_self");
	/* without stack_of: no way to the main stack */
	CHECK(s->w_nostack.n == 1 && !s->sigframe_nostack,
	      "without stack_of: %d frames, sigframe %d", s->w_nostack.n, s->sigframe_nostack);
	printf("ok   altstack: stack_of %d times (the main stack), without it the walk stops at "
	       "the signal frame (%d frame)\n",
	       s->stack_of_calls, s->w_nostack.n);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(old.ss_sp ? &old : &ss, NULL);
	munmap(alt, len);
	alt_lo = alt_hi = 0;
}

static void test_qsort_and_refresh(void)
{
	/* twice in a row: the tables replaced */
	ct_unwind_refresh();
	ct_unwind_refresh();
	q_calls = 0;
	q_caller(40);
	int j = bt_self(q_bt, q_nbt, (void *)cmp_int);
	check_same("qsort's comparator", &q_walk, q_bt, q_nbt, j + 1);
	CHECK(q_walk.rules >= 3 && q_walk.rule_diffs == 0,
	      "qsort's kept rules: %d steps gave one, %d stepped otherwise by it", q_walk.rules,
	      q_walk.rule_diffs);
	int iq = index_in(&q_walk, (void *)q_caller);
	CHECK(iq >= 1, "qsort: libc's frames, then q_caller at %d", iq);

	/* a site noted moves on with its module */
	uintptr_t site = (uintptr_t)c_big + 4;
	ct_unwind_note_site(site);
	struct ct_uw_func f;
	ct_unwind_hold();
	bool ok1 = ct_unwind_find((uintptr_t)c_big, &f) && f.site && *f.site == site;
	ct_unwind_release();
	/* a walk holding the table across a refresh: the function found
	 * before it steps after it (to main), and lookups go on */
	struct ct_uw_regs r;
	CAPTURE(&r);
	struct ct_uw_mem m = {r.r[SP] & ~(uintptr_t)15, stack_hi, NULL, NULL};
	struct ct_uw_func held;
	ct_unwind_hold();
	bool found = ct_unwind_find(r.r[RA], &held);
	ct_unwind_refresh();
	bool stepped = found && ct_unwind_step(&r, &held, true, &m, NULL);
	bool found2 = ct_unwind_find((uintptr_t)c_big, &f) && f.start == (uintptr_t)c_big;
	ct_unwind_release();
	ct_unwind_refresh();
	ct_unwind_hold();
	bool ok2 = ct_unwind_find((uintptr_t)c_big, &f) && f.site && *f.site == site;
	ct_unwind_release();
	CHECK(ok1 && ok2, "the site noted, before (%d) and after refreshes (%d)", ok1, ok2);
	CHECK(found && held.start == (uintptr_t)test_qsort_and_refresh && stepped &&
		      fn_at(r.r[RA] - 1) == (uintptr_t)main && found2,
	      "a step across a refresh while held: %d %d %d", found, stepped, found2);

	/* dlopen: a module loaded after the refresh is unknown until the next */
	void *was = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
	void *h = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	CHECK(h != NULL, "dlopen libm.so.6: %s", dlerror());
	if (!h)
		return;
	uintptr_t a = (uintptr_t)dlsym(h, "cbrt");
	CHECK(a != 0, "dlsym cbrt");
	if (!was)
		CHECK(fn_at(a) == 0, "cbrt known before the refresh");
	ct_unwind_refresh();
	CHECK(fn_at(a) == a, "cbrt after the refresh: %#lx, not %#lx", (unsigned long)fn_at(a),
	      (unsigned long)a);
	ct_unwind_refresh();
	CHECK(fn_at(a) == a, "cbrt after a second refresh");
	/* a site in libm noted; libm closed and the table made again while a
	 * walk holds it: libm's sites stay mapped until released (the next
	 * refresh unmaps them) */
	ct_unwind_note_site(a + 4);
	ct_unwind_hold();
	uintptr_t *lsite = ct_unwind_find(a, &f) ? f.site : NULL;
	CHECK(lsite && *lsite == a + 4, "libm's site noted");
	dlclose(h);
	void *still = dlopen("libm.so.6", RTLD_NOW | RTLD_NOLOAD);
	bool gone = !was && !still;
	if (gone) {
		ct_unwind_refresh();
		CHECK(fn_at(a) == 0, "cbrt known after dlclose and refresh");
		uintptr_t pg = (uintptr_t)lsite & ~(uintptr_t)4095;
		CHECK(msync((void *)pg, 4096, MS_ASYNC) == 0,
		      "libm's site array unmapped while a walk holds the table");
		ct_unwind_release();
		ct_unwind_refresh();
		CHECK(msync((void *)pg, 4096, MS_ASYNC) != 0,
		      "libm's site array still mapped after the release and a refresh");
	} else {
		ct_unwind_release();
	}
	if (still)
		dlclose(still);
	if (was)
		dlclose(was);
	/* and the walks still work */
	q_calls = 0;
	q_caller(40);
	j = bt_self(q_bt, q_nbt, (void *)cmp_int);
	check_same("qsort's comparator after the refreshes", &q_walk, q_bt, q_nbt, j + 1);
	printf("ok   refresh: twice in a row, across a held walk, libm %s: its cbrt found after%s; "
	       "sites kept\n",
	       was ? "already loaded" : "dlopened",
	       gone ? ", gone after dlclose, its sites kept while held" : "");
}

int main(void)
{
	pthread_attr_t at;
	void *addr;
	size_t size;
	CHECK(pthread_getattr_np(pthread_self(), &at) == 0, "pthread_getattr_np");
	pthread_attr_getstack(&at, &addr, &size);
	pthread_attr_destroy(&at);
	stack_lo = (uintptr_t)addr;
	stack_hi = stack_lo + size;
	verbose = getenv("UT_VERBOSE") != NULL;
	g_pid = getpid();
	g_tid = gettid();
	/* backtrace() loads libgcc_s on its first call: before the handlers */
	void *warm[4];
	backtrace(warm, 4);
	ct_unwind_refresh();

	test_find();
	test_chain();
	test_raise();
	test_trap();
	test_altstack();
	test_strict_bounds();
	test_qsort_and_refresh();
	return check_done();
}

#else

int main(void)
{
	printf("skipped: no unwinder on this architecture\n");
	return check_done();
}

#endif
