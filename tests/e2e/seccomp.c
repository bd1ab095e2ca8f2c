/* seccomp during the run.
 *  - a thread enters SECCOMP_MODE_STRICT (only read, write, _exit and
 *    sigreturn are allowed from then on; the TSC is disabled too), makes
 *    traced calls (enough to fill several of the tracer's buffers), write()s
 *    its result and ends with the exit system call;
 *  - a thread installs a filter that kills the process on openat, makes
 *    traced calls, and creates a thread (which inherits the filter) that
 *    makes traced calls too.
 * "./seccomp tsync": a thread installs, on every thread of the process
 * (SECCOMP_FILTER_FLAG_TSYNC), a filter that kills the process on
 * rt_sigprocmask and gettid (which the tracer's buffer switches make; not
 * openat: a -pg build writes gmon.out untraced), then sleeps; the main thread makes enough
 * traced calls to fill several buffers and exits.
 * The program completes as it does untraced. */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void before_seccomp(int i)
{
	sink += i;
}

NOINLINE int in_strict(int i)
{
	sink += i;
	return i & 1;
}

NOINLINE void in_filter(int i)
{
	sink += i;
}

NOINLINE void in_filter_child(int i)
{
	sink += i;
}

NOINLINE void after_join(int i)
{
	sink += i;
}

NOTRACE static void *strict_thread(void *arg)
{
	before_seccomp(1);
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0) != 0)
		return arg;
	int odd = 0;
	for (int i = 0; i < 200000; i++)
		odd += in_strict(i);
	char msg[] = "strict thread: odd 000000\n";
	for (int i = 0, v = odd; i < 6; i++, v /= 10)
		msg[24 - i] = (char)('0' + v % 10);
	ssize_t w = write(1, msg, sizeof(msg) - 1);
	(void)w;
	syscall(SYS_exit, 0);
	return arg;
}

NOTRACE static void *filter_child(void *arg)
{
	for (int i = 0; i < 1000; i++)
		in_filter_child(i);
	return arg;
}

NOTRACE static void *filter_thread(void *arg)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(code) / sizeof(code[0]), code};
	before_seccomp(2);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		perror("seccomp");
		return arg;
	}
	for (int i = 0; i < 1000; i++)
		in_filter(i);
	pthread_t th;
	pthread_create(&th, NULL, filter_child, NULL);
	pthread_join(th, NULL);
	return arg;
}

NOINLINE int in_tsync(int i)
{
	sink += i;
	return i & 1;
}

static volatile int filtered, created;

NOTRACE static void *tsync_thread(void *arg)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_gettid, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = {sizeof(code) / sizeof(code[0]), code};
	/* pthread_create restores the creator's signal mask after the clone:
	 * not under the filter */
	while (!created)
		;
	before_seccomp(4);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0) {
		perror("seccomp");
		_exit(1);
	}
	filtered = 1;
	for (;;)
		pause();
	return arg;
}

NOTRACE static int tsync(void)
{
	pthread_t th;
	pthread_create(&th, NULL, tsync_thread, NULL);
	created = 1;
	while (!filtered)
		;
	int odd = 0;
	for (int i = 0; i < 200000; i++)
		odd += in_tsync(i);
	printf("main: odd %d\n", odd);
	return 0;
}

int main(int argc, char **argv)
{
	pthread_t th;
	if (argc > 1 && !strcmp(argv[1], "tsync"))
		return tsync();
	before_seccomp(0);
	pthread_create(&th, NULL, strict_thread, NULL);
	pthread_join(th, NULL);
	pthread_create(&th, NULL, filter_thread, NULL);
	pthread_join(th, NULL);
	after_join(3);
	printf("main: done\n");
	return 0;
}
