/* SPDX-License-Identifier: MIT */
/* x86-64: the clock and the signal-safe reservation used by the runtime. */
#ifndef CT_ARCH_H
#define CT_ARCH_H

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

#endif
