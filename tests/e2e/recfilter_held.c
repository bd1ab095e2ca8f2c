/* record -t alone holds each call's entry back until the call proves long
 * (-finstrument-functions: runtime/cyg.c; the hooked front ends: hook.c and
 * the trampolines): a long call with no traced call after its first
 * TIME (decided at its own exit, the entries held below it written then),
 * a deep recursion whose bottom is long (forty entries written at once), a
 * long call decided at an entry inside it, held calls again after each of
 * these, and a longjmp out of held calls.  With the argument "stale"
 * (recorded with -t 100ms): short calls entered after the deadline of a
 * held call that has returned (the hooks' short path leaves it, the next
 * entry past it finds the true one), one with the deadline passing inside
 * it: left out.  With "kill" (recorded with -t 50ms): a long call killed
 * (SIGKILL) after 150 ms of short calls inside it */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ct_test.h"

static jmp_buf env;

NOTRACE static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* at least ms milliseconds without a traced call */
NOTRACE static void spin_ms(long ms)
{
	long t0 = now_ns();
	while (now_ns() - t0 < ms * 1000000L)
		sink++;
}

/* long: at least 25 ms (the test's threshold is 10 ms) */
NOTRACE static void spin(void)
{
	spin_ms(25);
}

NOINLINE void leaf(int x)
{
	sink += x;
}

NOINLINE void shorts(int n)
{
	for (int i = 0; i < n; i++)
		leaf(i);
}

/* long, and nothing traced inside it: decided at its exit */
NOINLINE void long_leaf(void)
{
	spin();
}

NOINLINE void mid(void)
{
	shorts(50);
	long_leaf();
	shorts(3);
}

NOINLINE void recurse(int n)
{
	leaf(n);
	if (n > 0)
		recurse(n - 1);
	else
		long_leaf();
	sink += n; /* not a tail call */
}

/* long, decided at the entry of leaf() after it has run TIME */
NOINLINE void late(void)
{
	shorts(2);
	spin();
	leaf(9);
	shorts(2);
}

NOINLINE void jumper(void)
{
	shorts(2);
	longjmp(env, 1);
}

NOINLINE void held_jump(int n)
{
	if (n > 0)
		held_jump(n - 1);
	else
		jumper();
	sink += n;
}

/* short, entered 150 ms after a short call returned */
NOINLINE void quick(void)
{
	shorts(2);
}

/* short (2 ms), entered 99 ms after a short call began: the deadline that
 * call left passes inside it, at the entry of leaf() (the margins are wide
 * so that a loaded machine's preemption does not make it long) */
NOINLINE void quick2(void)
{
	spin_ms(2);
	leaf(3);
}

NOINLINE void after_jump(void)
{
	shorts(4);
	long_leaf();
}

/* long, short calls inside it for 150 ms, then the process is killed: its
 * entry (and main's) was written at an entry TIME after it, in every front
 * end (the hooked ones' held entries once waited for the call's exit, and
 * the kill lost them) */
NOINLINE void killed(void)
{
	long t0 = now_ns();
	while (now_ns() - t0 < 150000000L)
		shorts(3);
	raise(SIGKILL);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "kill")) {
		shorts(2);
		killed();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "stale")) {
		shorts(1);
		spin_ms(150);
		quick();
		shorts(1);
		spin_ms(99);
		quick2();
		printf("done\n");
		return 0;
	}
	shorts(10);
	mid();
	shorts(10);
	recurse(40);
	shorts(10);
	late();
	if (!setjmp(env))
		held_jump(5);
	after_jump();
	shorts(10);
	printf("done\n");
	return 0;
}
