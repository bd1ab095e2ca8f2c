/* A thread that blocks for ever in a call while main works and then ends
 * the process with _exit: the blocked calls are unfinished, and last to
 * the process's last event, not 0 ns (issue 27). */
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int fds[2];

__attribute__((noinline)) void block_forever(void)
{
	pthread_mutex_lock(&m);
	char b = 1;
	/* main starts working only once this thread is about to wait */
	if (write(fds[1], &b, 1) != 1)
		_exit(3);
	for (;;)
		pthread_cond_wait(&c, &m);
}

__attribute__((noinline)) void *waiter(void *a)
{
	(void)a;
	block_forever();
	return 0;
}

__attribute__((noinline)) void work(void)
{
	volatile unsigned long x = 0;
	for (unsigned long i = 0; i < 2000000; i++)
		x += i;
}

int main(void)
{
	pthread_t t;
	char b;
	if (pipe(fds) || pthread_create(&t, 0, waiter, 0) || read(fds[0], &b, 1) != 1)
		return 2;
	/* the waiter holds the mutex until pthread_cond_wait releases it */
	pthread_mutex_lock(&m);
	pthread_mutex_unlock(&m);
	work();
	_exit(0);
}
