/* SPDX-License-Identifier: MIT */
/* AArch64: the generic timer, the signal-safe reservation and a raw system
 * call, as arch/x86_64/arch.h gives them for x86-64. */
#ifndef CT_ARCH_H
#define CT_ARCH_H

#include <stdint.h>

#define CT_ARCH_NAME "aarch64"
#define CT_ARCH_HAS_CYCLE_COUNTER 1
/* the front ends whose code this directory has (doc/frontends.md):
 * -finstrument-functions, -pg (_mcount, tramp.S), patched entries
 * (patchsite.h, patch.S) and library calls (lcstub.h, libcall.S).
 * CT_ARCH_HOOKED_FRONTENDS 0: the shared code that decodes x86-64's
 * instructions stays off (patch.c patches by patchsite.h's CT_ARCH_PATCH) */
#define CT_ARCH_HOOKED_FRONTENDS 0
#define CT_ARCH_LIBCALL 1
/* the DWARF register number of the return address (x30, the link register) */
#define CT_ARCH_DWARF_RA 30
/* -pg's return-address slot is the saved link register of the traced
 * function's frame record (x29 + 8), not the word below its entry stack
 * pointer (its CFA) as on x86-64: hook.c finds the CFA from the prologue
 * (insn.h ct_insn_a64_fp_off) and the slot from the CFA again (frame_slot).
 * A library call's slot is the word below its CFA, as on x86-64 (libcall.S
 * makes it): hook.c tells its frames apart (FR_CFA_SLOT) */
#define CT_ARCH_SLOT_IN_FRAME_RECORD 1
/* the calibration measures the hooked front ends' cost (-pg's here:
 * cal.S ct_cal_hooked) */
#define CT_ARCH_CAL_HOOKED 1
/* the return address is a register (x30) at a function's entry: a frame
 * whose slot the trampoline made below its CFA (a library call's, a
 * patched entry's: FR_CFA_SLOT) has it saved where the function's code
 * says, found by the unwinder (runtime/hook.c unhook_unwinder,
 * rehook_unwinder); -pg's is in the frame record, where hook.c finds it */
#define CT_ARCH_RA_IN_REG 1

/* the virtual count of the generic timer: readable from EL0 under Linux
 * (CNTKCTL_EL1.EL0VCTEN), constant-rate; like rdtsc, not ordered with the
 * instructions around it (no isb: a few cycles of skew, no flush) */
static inline __attribute__((always_inline)) uint64_t ct_arch_cycles(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* its nominal frequency, as the firmware set it (record measures the rate
 * against CLOCK_MONOTONIC all the same, as on x86-64) */
static inline uint64_t ct_arch_cycles_freq(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

/* Reserve n bytes at *pos and return the old value.  A signal must not
 * split the read and the write: with LSE (ARMv8.1) an atomic add is one
 * instruction (ldadd); without it the compiler's ldxr/stxr loop retries
 * when a signal lands between them (the exception clears the monitor), so
 * it is as safe.  Only the own thread and its handlers touch *pos:
 * relaxed order is enough. */
static inline __attribute__((always_inline)) uintptr_t ct_arch_reserve(uintptr_t *pos, uintptr_t n)
{
	return __atomic_fetch_add(pos, n, __ATOMIC_RELAXED);
}

/* Replace *pos and return the old value, atomic against a signal as above */
static inline __attribute__((always_inline)) uintptr_t ct_arch_swap(uintptr_t *pos, uintptr_t v)
{
	return __atomic_exchange_n(pos, v, __ATOMIC_RELAXED);
}

static inline void ct_arch_pause(void)
{
	__asm__ volatile("yield");
}

/* the generic timer is architecturally constant-rate */
static inline int ct_arch_cycles_invariant(void)
{
	return 1;
}

/* a system call of up to five arguments, without libc: the kernel's
 * result, -errno on failure (svc #0, number in x8) */
static inline long ct_arch_syscall5(long n, long a, long b, long c, long d, long e)
{
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4)
			 : "memory");
	return x0;
}

/* the interrupted program counter of a signal handler's context */
#include <ucontext.h>
static inline uintptr_t ct_arch_uc_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
}

/* ... and stack pointer */
static inline uintptr_t ct_arch_uc_sp(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.sp;
}

/* the link register (x30) */
static inline uintptr_t ct_arch_uc_lr(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.regs[30];
}

#endif
