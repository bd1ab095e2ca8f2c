/*
 * An instrumented signal handler interrupting instrumented code N times:
 * a second thread sends SIGUSR1 to the main thread with pthread_kill, and
 * sends the next one only after the handler has counted the previous one,
 * so that no signal is merged with another.  The main thread runs a loop of
 * instrumented calls meanwhile, as fast as it can, so that signals land
 * everywhere, also inside the tracer's hooks (where the runtime must not
 * drop the handler's calls).  The loop is bounded: after WORK_PER_SIGNAL
 * calls with no new signal handled it yields (uninstrumented) instead, so
 * that a slow or loaded machine, where the sender waits long for the CPU,
 * makes no bigger trace than 2000 x 4000 calls (under 100 MB).
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ct_test.h"

#define NSIGNALS 2000
#define WORK_PER_SIGNAL 4000

static volatile sig_atomic_t handled;
static int done;
static pthread_t main_thread;

NOINLINE void on_signal(void)
{
	sink += 1;
}

NOINLINE void handler(int sig)
{
	(void)sig;
	on_signal();
	handled = handled + 1; /* after on_signal() has returned */
}

NOINLINE void work(void)
{
	sink += 2;
}

NOINLINE void *sender(void *arg)
{
	(void)arg;
	for (int i = 0; i < NSIGNALS; i++) {
		sig_atomic_t before = handled;
		pthread_kill(main_thread, SIGUSR1);
		while (handled == before)
			sched_yield();
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	main_thread = pthread_self();
	pthread_t th;
	if (pthread_create(&th, NULL, sender, NULL) != 0)
		return 1;
	sig_atomic_t seen = 0;
	int since = 0;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		if (handled != seen) {
			seen = handled;
			since = 0;
		}
		if (since < WORK_PER_SIGNAL) {
			work();
			since++;
		} else {
			sched_yield();
		}
	}
	pthread_join(th, NULL);
	printf("handled %d\n", (int)handled);
	return 0;
}
