/* What the runtime cannot trace, each counted once in the doorbell (read
 * by tool_doorbell): a thread that disables its TSC (tsc) and the thread it
 * creates then (tsc); a thread in strict seccomp (seccomp); a thread under
 * a filter (seccomp) and the thread it creates then (ring: no ring can be
 * made under the filter); a clone(CLONE_VM | CLONE_VFORK) child (clone:
 * the parent pauses) and a clone(CLONE_VM) child (clone: the parent stops
 * for good); a posix_spawn with an empty environment (exec_env: put back). */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void work(int i)
{
	sink += i;
}

NOTRACE static void *plain_thread(void *arg)
{
	work(1);
	return arg;
}

NOTRACE static void *tsc_thread(void *arg)
{
	work(1);
	prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
	work(2);
	pthread_t th;
	pthread_create(&th, NULL, plain_thread, NULL);
	pthread_join(th, NULL);
	return arg;
}

NOTRACE static void *strict_thread(void *arg)
{
	work(1);
	prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);
	work(2);
	syscall(SYS_exit, 0);
	return arg;
}

NOTRACE static void *filter_thread(void *arg)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(code) / sizeof(code[0]), code};
	work(1);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
	work(2);
	pthread_t th;
	pthread_create(&th, NULL, plain_thread, NULL);
	pthread_join(th, NULL);
	return arg;
}

NOTRACE static int clone_child(void *arg)
{
	work(3);
	return arg ? 1 : 0;
}

NOTRACE static void run(void *(*fn)(void *))
{
	pthread_t th;
	pthread_create(&th, NULL, fn, NULL);
	pthread_join(th, NULL);
}

extern char **environ;

int main(int argc, char **argv)
{
	if (argc > 1)
		return 0; /* the spawned image */
	work(0);
	run(tsc_thread);
	run(strict_thread);
	run(filter_thread);
	char *args[] = {argv[0], "spawned", NULL};
	char *noenv[] = {NULL};
	pid_t pid;
	int st;
	if (posix_spawn(&pid, argv[0], NULL, NULL, args, noenv) == 0)
		waitpid(pid, &st, 0);
	size_t sz = 1 << 20;
	char *stack = malloc(sz);
	pid = clone(clone_child, stack + sz, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	waitpid(pid, &st, 0);
	work(4);
	char *stack2 = malloc(sz);
	pid = clone(clone_child, stack2 + sz, CLONE_VM | SIGCHLD, NULL);
	waitpid(pid, &st, 0);
	work(5);
	printf("done\n");
	return 0;
}
