/* Threads started after setuid(65534) (run as root): they cannot create
 * their rings in record's private directory, nor can a child forked then
 * create its .proc file.  The program runs as untraced; the main thread,
 * whose ring exists, goes on being traced. */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ct_test.h"

NOINLINE void before_setuid(int i)
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

NOINLINE void after_setuid(int i)
{
	sink += i;
}

NOTRACE static void *thread_main(void *arg)
{
	for (int i = 0; i < 1000; i++)
		in_thread(i);
	return arg;
}

int main(void)
{
	before_setuid(1);
	if (setgid(65534) != 0 || setuid(65534) != 0) {
		perror("setuid");
		return 1;
	}
	pthread_t th[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, thread_main, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		in_child(1);
		_exit(6);
	}
	int st;
	waitpid(pid, &st, 0);
	after_setuid(2);
	printf("uid %d, child exited %d\n", (int)getuid(), WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
