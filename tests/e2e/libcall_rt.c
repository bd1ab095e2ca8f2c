/* libcall_rt: the calls the runtime interposes (runtime/wrap.c,
 * arch/x86_64/vfork.S) shown as library calls (doc/libcall.md), one mode
 * per run:
 *  ./libcall_rt calls LIB:  sigaction, signal; pthread_create of a thread
 *                           that returns and of one that calls pthread_exit;
 *                           fork (the child _exits); vfork (the child makes
 *                           a traced call, sends SIGUSR1 to its parent and
 *                           _exits); the exec family and
 *                           fexecve, failing; posix_spawn and posix_spawnp
 *                           of this program (mode "target"); dlopen of LIB,
 *                           whose constructor and destructor make traced
 *                           calls, and dlclose; clone without CLONE_VM (the
 *                           child makes a traced call) and with CLONE_VM |
 *                           CLONE_VFORK; mprotect, munmap; exit.
 *  ./libcall_rt exec:       execl of this program (mode "target"): the call
 *                           never returns.
 *  ./libcall_rt vforkexec:  vfork, and the child execs this program (mode
 *                           "target").
 *  ./libcall_rt target:     one traced call. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

extern char **environ;
static const char *self;

NOINLINE void on_sig(int s)
{
	sink += s;
}

NOINLINE void signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, on_sig);
}

NOINLINE void *thread_fn(void *arg)
{
	sink++;
	return arg;
}

NOINLINE void *exiter(void *arg)
{
	sink++;
	pthread_exit(arg);
}

NOINLINE void threads(void)
{
	pthread_t t;
	pthread_create(&t, NULL, thread_fn, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, exiter, NULL);
	pthread_join(t, NULL);
}

NOINLINE void forked(void)
{
	sink++;
}

NOINLINE void do_fork(void)
{
	pid_t p = fork();
	if (p == 0) {
		forked();
		_exit(0);
	}
	waitpid(p, NULL, 0);
}

NOINLINE void vforked(void)
{
	sink++;
}

NOINLINE void do_vfork(void)
{
	pid_t p = vfork();
	if (p == 0) {
		vforked(); /* not recorded: the child shares its parent's state */
		/* pending when the parent resumes: its handler's call is the
		 * parent's, under vfork */
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	waitpid(p, NULL, 0);
}

NOINLINE void execs(void)
{
	static char *const av[] = {"none", NULL};
	execve("/nonexistent/none", av, environ);
	execv("/nonexistent/none", av);
	execvp("/nonexistent/none", av);
	execvpe("/nonexistent/none", av, environ);
	execl("/nonexistent/none", "none", (char *)NULL);
	execlp("/nonexistent/none", "none", (char *)NULL);
	execle("/nonexistent/none", "none", (char *)NULL, environ);
	fexecve(-1, av, environ);
}

NOINLINE void spawns(void)
{
	char *av[] = {(char *)self, "target", NULL};
	pid_t p;
	if (posix_spawn(&p, self, NULL, NULL, av, environ) == 0)
		waitpid(p, NULL, 0);
	if (posix_spawnp(&p, self, NULL, NULL, av, environ) == 0)
		waitpid(p, NULL, 0);
}

NOINLINE void modules(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return;
	}
	int (*run)(void) = (int (*)(void))dlsym(h, "lib_run");
	if (run)
		sink += run();
	dlclose(h);
}

NOINLINE int cloned(void *arg)
{
	sink++;
	return arg != NULL;
}

static char stack[2][65536] __attribute__((aligned(16)));

NOINLINE void clones(void)
{
	pid_t p = clone(cloned, stack[0] + sizeof(stack[0]), SIGCHLD, NULL);
	if (p > 0)
		waitpid(p, NULL, 0);
	p = clone(cloned, stack[1] + sizeof(stack[1]), CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	if (p > 0)
		waitpid(p, NULL, 0);
}

NOINLINE void memory(void)
{
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mprotect(m, 4096, PROT_READ);
	munmap(m, 4096);
}

NOINLINE void target(void)
{
	sink++;
}

NOINLINE void do_exec(void)
{
	execl(self, self, "target", (char *)NULL);
}

NOINLINE void do_vforkexec(void)
{
	pid_t p = vfork();
	if (p == 0) {
		execl(self, self, "target", (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(p, &st, 0);
	printf("child exit %d\n", WEXITSTATUS(st));
}

int main(int argc, char **argv)
{
	self = argv[0];
	if (argc < 2)
		return 2;
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(argv[1], "target")) {
		target();
		return 0;
	}
	if (!strcmp(argv[1], "exec")) {
		do_exec();
		return 1;
	}
	if (!strcmp(argv[1], "vforkexec")) {
		do_vforkexec();
		return 0;
	}
	if (strcmp(argv[1], "calls") || argc < 3)
		return 2;
	signals();
	threads();
	do_fork();
	do_vfork();
	execs();
	spawns();
	modules(argv[2]);
	clones();
	memory();
	exit(0);
}
