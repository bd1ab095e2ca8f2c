/* The TSC disabled (PR_SET_TSC, PR_TSC_SIGSEGV: rdtsc faults, and so does
 * the vDSO's clock_gettime): traced calls, then prctl(PR_SET_TSC,
 * PR_TSC_SIGSEGV) and more traced calls (and a longjmp), in this thread
 * and in a thread it creates afterwards (which inherits the setting); a
 * forked child (which inherits it too: a process that starts with the TSC
 * disabled) makes traced calls; exit 3.  The longjmp goes back to a
 * setjmp made while the thread still traced.  (An exec with the TSC
 * disabled dies in the dynamic loader, which reads the TSC, traced or not:
 * glibc 2.36's _dl_start.) */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void before_prctl(int i)
{
	sink += i;
}

NOINLINE void after_prctl(int i)
{
	sink += i;
}

NOINLINE void in_thread(int i)
{
	sink += i;
}

NOINLINE void in_child(int i)
{
	sink += i;
}

static jmp_buf jb;

NOINLINE void jump_out(int i)
{
	sink += i;
	longjmp(jb, 1);
}

NOTRACE static void *thread_main(void *arg)
{
	for (int i = 0; i < 1000; i++)
		in_thread(i);
	return arg;
}

NOTRACE static int tsc_state(void)
{
	int v = 0;
	prctl(PR_GET_TSC, &v, 0, 0, 0);
	return v;
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		before_prctl(i);
	if (!setjmp(jb)) {
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0) {
			perror("prctl");
			return 1;
		}
		for (int i = 0; i < 100000; i++)
			after_prctl(i);
		jump_out(1);
	}
	after_prctl(1);
	pthread_t th;
	pthread_create(&th, NULL, thread_main, NULL);
	pthread_join(th, NULL);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 5; i++)
			in_child(i);
		printf("child: TSC %s\n", tsc_state() == PR_TSC_SIGSEGV ? "disabled" : "enabled");
		return 0;
	}
	int st;
	waitpid(pid, &st, 0);
	printf("TSC %s, child exited %d\n", tsc_state() == PR_TSC_SIGSEGV ? "disabled" : "enabled",
	       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 3;
}
