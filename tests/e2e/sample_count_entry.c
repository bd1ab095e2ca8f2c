/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample (tests/e2e/sample_count_entry.sh): samples
 * landed where they are known to be.  With the sampling signal blocked,
 * main waits until a sample is pending, then calls lander(), which calls
 * force(): its int3 traps, and the SIGTRAP handler sends it on as though
 * lander had called tick(), and unblocks the sampling signal in the mask
 * its return restores: the pending sample is delivered there, at the pc
 * the mode says, before any of it runs.
 *   prog entry   at tick's first instruction: the hook's call (its patched
 *                call, or call __fentry__)
 *   prog stub    at the stub that call goes to (patch.c's jump stub near
 *                the program, or __fentry__'s PLT stub), with the call's
 *                return address pushed, as the call would
 *   prog body    at the instruction after the hook's call, tick's own code,
 *                as though the hook had returned (but without the call on
 *                the counting stack: charged to lander)
 * Then tick runs from there as if called, and returns to lander.  Prints
 * how many samples landed, and where the hook's call goes.  x86-64 only.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

#define LANDINGS 20

volatile long sink;

__attribute__((noinline)) void tick(void)
{
	sink++;
}

/* int3, then (if the handler let it) back to the caller */
void force(void);
__asm__(".text\n"
	".globl force\n"
	".type force, @function\n"
	"force:\n"
	"\tint3\n"
	"\tret\n"
	".size force, . - force\n");

__attribute__((noinline)) void lander(void)
{
	force();
	__asm__ volatile("" ::: "memory"); /* (no tail call) */
}

static uintptr_t land_pc, land_push; /* where; a return address to push, or 0 */
static int sample_sig;

static void on_trap(int sig, siginfo_t *si, void *p)
{
	(void)sig;
	(void)si;
	ucontext_t *uc = p;
	greg_t *g = uc->uc_mcontext.gregs;
	if (land_push) {
		/* below the stack pointer: the red zone, which the signal frame
		 * leaves alone */
		g[REG_RSP] -= 8;
		memcpy((void *)g[REG_RSP], &land_push, 8);
	}
	g[REG_RIP] = (greg_t)land_pc;
	sigdelset(&uc->uc_sigmask, sample_sig);
}

/* the hook's call at the entry of fn (after an endbr64): its address,
 * where it returns to, and where it goes (the target of a call rel32, the
 * slot's content of a call *slot(%rip)) */
static int hook_call(uintptr_t fn, uintptr_t *at, uintptr_t *ret, uintptr_t *to)
{
	const uint8_t *b = (const uint8_t *)fn;
	if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
		b += 4;
	*at = (uintptr_t)b;
	int32_t rel;
	if (b[0] == 0xff && b[1] == 0x15) { /* call *slot(%rip): no stub */
		memcpy(&rel, b + 2, 4);
		*ret = (uintptr_t)b + 6;
		memcpy(to, (const void *)(*ret + (intptr_t)rel), sizeof(*to));
		return 1;
	}
	if (b[0] != 0xe8)
		return 0;
	memcpy(&rel, b + 1, 4);
	*ret = (uintptr_t)b + 5;
	*to = *ret + (intptr_t)rel;
	return 1;
}

/* a stub: jmp *slot(%rip), after an endbr64 and a bnd prefix */
static int is_stub(uintptr_t a)
{
	const uint8_t *b = (const uint8_t *)a;
	if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
		b += 4;
	if (b[0] == 0xf2)
		b++;
	return b[0] == 0xff && b[1] == 0x25;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "entry";
	uintptr_t at, ret, to;
	if (!hook_call((uintptr_t)tick, &at, &ret, &to)) {
		printf("tick has no hook call at its entry\n");
		return 1;
	}
	printf("tick's hook call goes %s\n", is_stub(to) ? "through a stub" : "straight in");
	if (!strcmp(mode, "entry")) {
		land_pc = (uintptr_t)tick;
	} else if (!strcmp(mode, "stub")) {
		if (!is_stub(to)) {
			printf("stub: no stub to land in\n");
			return 0;
		}
		land_pc = to;
		land_push = ret;
	} else if (!strcmp(mode, "body")) {
		land_pc = ret;
	} else {
		printf("usage: prog entry|stub|body\n");
		return 2;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
	/* the real-time signals glibc lets a program block (the sampling
	 * signal is one of them) */
	sigset_t rt, old, pend;
	sigemptyset(&rt);
	for (int s = SIGRTMIN + 2; s <= SIGRTMAX; s++)
		sigaddset(&rt, s);
	int landed = 0;
	for (int i = 0; i < LANDINGS; i++) {
		sigprocmask(SIG_BLOCK, &rt, &old);
		sample_sig = 0;
		for (long spins = 0; !sample_sig; spins++) {
			sink++;
			if (spins % 1000 == 0) {
				sigpending(&pend);
				for (int s = SIGRTMIN + 2; s <= SIGRTMAX && !sample_sig; s++)
					if (sigismember(&pend, s))
						sample_sig = s;
			}
		}
		lander();
		landed++;
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	printf("%s: %d samples landed\n", mode, landed);
	return 0;
}
