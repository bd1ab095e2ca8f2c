/*
 * timeorder: two threads whose events interleave in a fixed order, with
 * untraced waits between them.  main enters main() and at once creates the
 * worker, then waits (untraced) until the worker is inside w_wait(); the
 * worker first naps 150 ms in w_nap(); m_work() runs while the worker waits
 * (untraced) for main's word in w_wait(); then main waits in pthread_join
 * while the worker ends.  Pipes fix the order of the events.  The merged
 * replay must show each line when its event happened.
 * "timeorder N": the worker also makes N calls of w_leaf() in w_wait()
 * before main goes on.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"

static int ready[2], go[2];
static long nleaf;

NOTRACE static void xread(int fd)
{
	char c;
	while (read(fd, &c, 1) != 1)
		;
}

NOTRACE static void xwrite(int fd)
{
	char c = 1;
	while (write(fd, &c, 1) != 1)
		;
}

/* long: at least 150 ms (a sleep is never shorter than asked) */
NOINLINE void w_nap(void)
{
	struct timespec ts = {0, 150000000L};
	while (nanosleep(&ts, &ts) != 0)
		;
	sink += 6;
}

NOINLINE void w_leaf(void)
{
	sink += 5;
}

NOINLINE void w_wait(void)
{
	sink += 1;
	for (long i = 0; i < nleaf; i++)
		w_leaf();
	xwrite(ready[1]); /* main may run m_work() now */
	xread(go[0]);     /* until main is done with it */
}

NOINLINE void w_after(void)
{
	sink += 2;
}

NOINLINE void *worker(void *arg)
{
	(void)arg;
	w_nap();
	w_wait();
	w_after();
	return NULL;
}

NOINLINE void m_work(void)
{
	sink += 3;
}

NOINLINE void m_end(void)
{
	sink += 4;
}

int main(int argc, char **argv)
{
	pthread_t th;
	nleaf = argc > 1 ? atol(argv[1]) : 0;
	if (pipe(ready) || pipe(go)) {
		perror("pipe");
		return 1;
	}
	if (pthread_create(&th, NULL, worker, NULL) != 0) {
		perror("pthread_create");
		return 1;
	}
	xread(ready[0]); /* the worker is in w_wait() */
	m_work();
	xwrite(go[1]);
	pthread_join(th, NULL);
	m_end();
	printf("timeorder done\n");
	return 0;
}
