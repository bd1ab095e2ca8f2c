/* SPDX-License-Identifier: MIT */
/* x86-64: the clock and the signal-safe reservation used by the runtime. */
#ifndef CT_ARCH_H
#define CT_ARCH_H

#include <stddef.h>
#include <stdint.h>

#define CT_ARCH_NAME "x86_64"
#define CT_ARCH_HAS_CYCLE_COUNTER 1
/* the hooked front ends (-pg, -pg -mfentry, patchable entries, library
 * calls) have their trampolines here (tramp.S) */
#define CT_ARCH_HOOKED_FRONTENDS 1
/* the calibration measures the hooked front ends' cost (cal.S
 * ct_cal_hooked: -pg -mfentry's) */
#define CT_ARCH_CAL_HOOKED 1
/* library calls: their stubs (lcstub.h) and ct_libcall_tramp (tramp.S) */
#define CT_ARCH_LIBCALL 1
/* the DWARF register number of the return address (%rip) */
#define CT_ARCH_DWARF_RA 16

/* the invariant time-stamp counter; rdtsc is not serialising, which is what
 * we want: a few cycles of skew, no pipeline flush */
static inline __attribute__((always_inline)) uint64_t ct_arch_cycles(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* Reserve n bytes at *pos and return the old value.  One instruction
 * (xadd without lock: only the own thread and its signal handlers touch
 * *pos), so a signal can land before or after it, never inside. */
static inline __attribute__((always_inline)) uintptr_t ct_arch_reserve(uintptr_t *pos, uintptr_t n)
{
	__asm__ volatile("xaddq %0, %1" : "+r"(n), "+m"(*pos) : : "memory");
	return n;
}

/* Replace *pos and return the old value in one instruction. */
static inline __attribute__((always_inline)) uintptr_t ct_arch_swap(uintptr_t *pos, uintptr_t v)
{
	__asm__ volatile("xchgq %0, %1" : "+r"(v), "+m"(*pos) : : "memory");
	return v;
}

static inline void ct_arch_pause(void)
{
	__asm__ volatile("pause");
}

/* does the CPU say its TSC is invariant?  (CPUID 0x80000007 EDX bit 8) */
static inline int ct_arch_cycles_invariant(void)
{
	uint32_t a, b, c, d;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
	if (a < 0x80000007u)
		return 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000007u), "c"(0));
	return (d >> 8) & 1;
}

/* a system call of up to five arguments, without libc (a wrapper of a libc
 * function that must not look the function up): the kernel's result,
 * -errno on failure */
static inline long ct_arch_syscall5(long n, long a, long b, long c, long d, long e)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	__asm__ volatile("syscall"
			 : "+a"(n)
			 : "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return n;
}

/* the interrupted program counter of a signal handler's context */
#include <ucontext.h>
static inline uintptr_t ct_arch_uc_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
}

/* ... and stack pointer */
static inline uintptr_t ct_arch_uc_sp(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
}

/* ... and link register: none (a call pushes its return address) */
static inline uintptr_t ct_arch_uc_lr(const void *uc)
{
	(void)uc;
	return 0;
}

/* ---- the runtime's unwinder (runtime/unwind.c) ---- */
/* record --count --sample finds the hooked calls open by the call frame
 * information (runtime/stackwalk.c) */
#define CT_ARCH_UNWIND 1
/* the DWARF registers a step keeps: %rax..%r15 (0-15), the pc (16) */
#define CT_ARCH_UW_NREGS 17
#define CT_ARCH_UW_SP 7
/* a frame's registers, by DWARF number, from a signal handler's context
 * (all known) */
static inline void ct_arch_uw_from_gregs(const greg_t *g, uintptr_t *r)
{
	static const unsigned char greg[CT_ARCH_UW_NREGS] = {
		REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP, REG_R8,
		REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
	};
	for (int i = 0; i < CT_ARCH_UW_NREGS; i++)
		r[i] = (uintptr_t)g[greg[i]];
}

/* the registers a walk from here starts with: the pc, the stack pointer
 * and the frame pointer where this is inlined */
static inline __attribute__((always_inline)) void ct_arch_uw_here(uintptr_t *r, uint32_t *known)
{
	uintptr_t pc, sp, bp;
	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
			 : "=&r"(pc), "=&r"(sp), "=&r"(bp));
	r[16] = pc;
	r[7] = sp;
	r[6] = bp;
	*known = 1u << 16 | 1u << 7 | 1u << 6;
}

/* where a signal handler returns to: the kernel's rt_sigreturn stub the
 * C library gives (mov $15, %rax; syscall) */
#define CT_ARCH_UW_SIGRETURN_LEN 9
static inline int ct_arch_uw_is_sigreturn(uintptr_t pc)
{
	static const unsigned char stub[CT_ARCH_UW_SIGRETURN_LEN] = {0x48, 0xc7, 0xc0, 0x0f, 0x00,
								     0x00, 0x00, 0x0f, 0x05};
	const unsigned char *p = (const unsigned char *)pc;
	for (int i = 0; i < CT_ARCH_UW_SIGRETURN_LEN; i++)
		if (p[i] != stub[i])
			return 0;
	return 1;
}

/* ... whose stack pointer then is the ucontext the kernel saved (the
 * return address popped): the interrupted registers, if the context is
 * inside [lo, hi) */
static inline int ct_arch_uw_sigcontext(uintptr_t sp, uintptr_t *r, uintptr_t lo, uintptr_t hi)
{
	if (sp < lo || sp > hi ||
	    hi - sp < offsetof(ucontext_t, uc_mcontext.gregs) + sizeof(gregset_t))
		return 0;
	ct_arch_uw_from_gregs(((const ucontext_t *)sp)->uc_mcontext.gregs, r);
	return 1;
}

#endif
