/* A storm of signals whose traced handler siglongjmp()s out every other
 * time, from an alternate signal stack, while the main thread runs traced
 * recursion: handlers land in every instruction of the hooks, including a
 * buffer switch (the test records with small buffers), and the hook they
 * interrupted never resumes.  The trace must stay readable and the program
 * must not hang.  With "mark", main also writes a long mark each round
 * (calltrace_mark: a record of many words, its payload written before its
 * header): a jump out of the handler that interrupted one must not leave
 * the payload (its 'a's read as returns) behind a zero header. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calltrace/calltrace.h"

#include "ct_test.h"

static sigjmp_buf jb;
static volatile int handled, jumps, done;
static pthread_t me, k; /* not locals: set after sigsetjmp */

NOINLINE void h_leaf(int x)
{
	sink += x;
}

NOINLINE void handler(int s)
{
	h_leaf(s);
	handled++;
	if (handled % 2 == 0) {
		jumps++;
		siglongjmp(jb, 1);
	}
}

NOINLINE int rec(int n)
{
	if (n == 0) {
		h_leaf(1);
		return 0;
	}
	int r = rec(n - 1);
	sink += r;
	return r + 1;
}

NOTRACE static void *killer(void *arg)
{
	pthread_t main_thread = *(pthread_t *)arg;
	for (long i = 0; i < 100000000 && !done; i++) {
		pthread_kill(main_thread, SIGUSR1);
		for (volatile int k = 0; k < 2000; k++)
			;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int mark = argc > 1 && !strcmp(argv[1], "mark");
	static char text[201];
	memset(text, 'a', sizeof(text) - 1);
	stack_t ss;
	ss.ss_sp = malloc(1 << 16);
	ss.ss_size = 1 << 16;
	ss.ss_flags = 0;
	sigaltstack(&ss, NULL);
	struct sigaction sa;
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	me = pthread_self();
	volatile int rounds = 0;
	/* jb is set before the first signal can come; with savemask 0 the
	 * jump leaves SIGUSR1 blocked until we are off the alternate stack
	 * (else pending signals would nest handlers there until it overflows) */
	if (sigsetjmp(jb, 0)) {
		sigset_t u;
		sigemptyset(&u);
		sigaddset(&u, SIGUSR1);
		pthread_sigmask(SIG_UNBLOCK, &u, NULL);
	} else {
		pthread_create(&k, NULL, killer, &me);
	}
	/* (mark: until 300 signals came, most of them during a mark) */
	while (mark ? handled < 300 && rounds < 100000 : rounds < 60000) {
		rounds++;
		rec(mark ? 2 : 20);
		if (mark)
			calltrace_mark("%s", text);
	}
	done = 1;
	pthread_join(k, NULL);
	/* the counts depend on timing: stderr */
	fprintf(stderr, "handled %d jumps %d\n", handled, jumps);
	printf("finished\n");
	return 0;
}
