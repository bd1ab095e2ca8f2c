/* Raw clone() children, which neither fork() nor pthread_create() made.
 *  ./clone proc:    clone(fn, stack, SIGCHLD, arg): a new process (a copy
 *                   of memory) whose tracing state is a copy of its
 *                   parent's, and whose parent's ring mapping it shares;
 *                   child and parent make many traced calls at once.
 *  ./clone raw:     the same with syscall(SYS_clone, SIGCHLD, 0, ...), the
 *                   child going on in the same code (a fork made by hand).
 *  ./clone asm:     the same with the system call made by inline assembly,
 *                   which no interposer sees: the runtime notices the new
 *                   task at its first buffer switch.
 *  ./clone vm:      clone(fn, stack, CLONE_VM | SIGCHLD, arg): a task that
 *                   shares memory and TLS (no CLONE_SETTLS) with the
 *                   calling thread; both make traced calls at once.
 *  ./clone vfork:   clone(fn, stack, CLONE_VM | CLONE_VFORK | SIGCHLD,
 *                   arg): the parent waits; afterwards it traces again. */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

#define N 200000

NOINLINE int child_work(int i)
{
	sink += i;
	return i & 1;
}

NOINLINE int parent_work(int i)
{
	sink += i;
	return i & 1;
}

NOINLINE void after_wait(int st)
{
	sink += st;
}

static volatile int child_odd;

/* clone(SIGCHLD) with no new stack, by hand */
NOTRACE static long asm_fork(void)
{
#ifdef __x86_64__
	long ret;
	register long r10 __asm__("r10") = 0;
	register long r8 __asm__("r8") = 0;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_clone), "D"((long)SIGCHLD), "S"(0L), "d"(0L), "r"(r10),
			   "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
#else
	return syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
#endif
}

NOTRACE static int child_main(void *arg)
{
	int odd = 0;
	for (int i = 0; i < N; i++)
		odd += child_work(i);
	child_odd = odd;
	return arg ? 0 : odd == N / 2 ? 7 : 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	size_t sz = 1 << 20;
	char *stack = malloc(sz);
	if (!stack)
		return 1;
	int flags = SIGCHLD;
	if (!strcmp(argv[1], "vm"))
		flags |= CLONE_VM;
	else if (!strcmp(argv[1], "vfork"))
		flags |= CLONE_VM | CLONE_VFORK;
	fflush(stdout);
	pid_t pid;
	if (!strcmp(argv[1], "raw") || !strcmp(argv[1], "asm")) {
		pid = !strcmp(argv[1], "raw") ? (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0)
					      : (pid_t)asm_fork();
		if (pid == 0)
			_exit(child_main(NULL));
	} else {
		pid = clone(child_main, stack + sz, flags, NULL);
	}
	if (pid < 0) {
		perror("clone");
		return 1;
	}
	int odd = 0;
	for (int i = 0; i < N; i++)
		odd += parent_work(i);
	int st;
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	after_wait(st);
	printf("%s: parent odd %d, child exited %d%s\n", argv[1], odd,
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1,
	       flags & CLONE_VM ? (child_odd == N / 2 ? ", child odd ok" : ", child odd wrong") : "");
	return 0;
}
