/* SPDX-License-Identifier: MIT */
/* AArch64: the generic timer and the signal-safe reservation. */
#ifndef CT_ARCH_H
#define CT_ARCH_H

#include <stdint.h>

#define CT_ARCH_NAME "aarch64"
#define CT_ARCH_HAS_CYCLE_COUNTER 1

static inline __attribute__((always_inline)) uint64_t ct_arch_cycles(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* no single non-atomic fetch-and-add exists here: an atomic one is still a
 * single instruction with LSE (ldadd), and correct without it */
static inline __attribute__((always_inline)) uintptr_t ct_arch_reserve(uintptr_t *pos, uintptr_t n)
{
	return __atomic_fetch_add(pos, n, __ATOMIC_RELAXED);
}

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

/* the interrupted program counter of a signal handler's context */
#include <ucontext.h>
static inline uintptr_t ct_arch_uc_pc(const void *uc)
{
	return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
}

#endif
