/* threads that start in worker(): two in the program, one in a forked
 * child (recfilter_thread.sh) */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE int work(int i)
{
	sink += i;
	return i + 1;
}

NOINLINE void *worker(void *arg)
{
	work((int)(long)arg);
	return NULL;
}

NOINLINE void start_two(void)
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

int main(void)
{
	start_two();
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		pthread_create(&t, NULL, worker, (void *)7);
		pthread_join(t, NULL);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	work(3);
	return 0;
}
