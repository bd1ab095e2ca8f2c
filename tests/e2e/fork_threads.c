/* threads that end, then fork: the child creates threads, on the stacks
 * glibc cached for the parent's threads that ended (and that it may have
 * mapped where their rings were), 20 times over */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void *worker(void *arg)
{
	sink += 1;
	return arg;
}

NOINLINE int spawn(int n)
{
	pthread_t t[8];
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return -1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(void)
{
	int bad = 0;
	for (int round = 0; round < 20; round++) {
		if (spawn(8)) /* threads that end: their rings go */
			return 1;
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0)
			_exit(spawn(8) ? 2 : 0);
		int st;
		if (waitpid(pid, &st, 0) != pid) {
			perror("waitpid");
			return 1;
		}
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("round %d: child %s %d\n", round, WIFSIGNALED(st) ? "killed by signal" : "exited",
			       WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			bad++;
		}
	}
	printf("%d of 20 children failed\n", bad);
	return bad != 0;
}
