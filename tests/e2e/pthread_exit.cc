/* threads that end inside traced frames: pthread_exit() three frames deep,
 * with a destructor to run in a frame the forced unwinding goes through,
 * and pthread_cancel() of a thread waiting in a traced frame */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "ct_test.h"

static volatile int started;
static volatile int destructors;

struct on_unwind {
	NOTRACE ~on_unwind()
	{
		destructors++;
	}
};

NOINLINE void pe_leaf(int x)
{
	sink += x;
}

NOINLINE void pe_exit(int x)
{
	pe_leaf(x);
	pthread_exit((void *)(long)(x + 1));
}

NOINLINE void pe_mid(int x)
{
	on_unwind u;
	pe_exit(x);
	sink += 1; /* not reached */
}

NOTRACE static void *exiter(void *arg)
{
	pe_mid((int)(long)arg);
	return NULL;
}

NOINLINE void cancel_wait(void)
{
	started = 1;
	for (;;) {
		pe_leaf(1);
		usleep(1000); /* a cancellation point */
	}
}

NOINLINE void cancel_mid(void)
{
	cancel_wait();
	sink += 1; /* not reached */
}

NOTRACE static void *cancelled(void *arg)
{
	(void)arg;
	cancel_mid();
	return NULL;
}

NOINLINE void after(void)
{
	sink += 2;
}

int main(void)
{
	pthread_t a, b;
	void *ra, *rb;
	pthread_create(&a, NULL, exiter, (void *)41L);
	pthread_join(a, &ra);
	pthread_create(&b, NULL, cancelled, NULL);
	while (!started)
		usleep(1000);
	pthread_cancel(b);
	pthread_join(b, &rb);
	after();
	printf("exit value %ld, cancelled %s, destructors run %d\n", (long)ra,
	       rb == PTHREAD_CANCELED ? "yes" : "no", destructors);
	return 0;
}
