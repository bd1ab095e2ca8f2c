/*
 * A program that dies: "segv" (SIGSEGV), "abort" (abort()), "kill" (prints
 * "ready PID" and spins in instrumented calls until it is SIGKILLed from
 * outside).  In "kill" mode argv[2] names a file in which spin() counts its
 * calls (a MAP_SHARED page survives the kill), so that the test can check
 * that every call made before the kill is in the trace.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ct_test.h"

static volatile long *counter;

NOINLINE void c_leaf(int x)
{
	sink += x;
}

NOINLINE void setup(void)
{
	c_leaf(1);
	c_leaf(2);
}

NOINLINE void do_segv(void)
{
	volatile int *volatile p = NULL;
	c_leaf(3);
	*p = 1;
}

NOINLINE void do_abort(void)
{
	c_leaf(4);
	abort();
}

NOINLINE void spin(void)
{
	sink += 1;
	(*counter)++; /* after the entry hook ran, so the call is recorded */
}

NOINLINE void wait_loop(void)
{
	for (long i = 0;; i++) {
		spin();
		if (i == 200000) {
			printf("ready %d\n", (int)getpid());
			fflush(stdout);
		}
	}
}

NOINLINE void level2(const char *mode)
{
	sink += 2;
	if (!strcmp(mode, "segv"))
		do_segv();
	else if (!strcmp(mode, "abort"))
		do_abort();
	else
		wait_loop();
}

NOINLINE void level1(const char *mode)
{
	sink += 1;
	level2(mode);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "kill")) {
		int fd = argc > 2 ? open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644) : -1;
		if (fd < 0 || ftruncate(fd, 4096) != 0) {
			perror("counter file");
			return 2;
		}
		counter = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (counter == MAP_FAILED) {
			perror("mmap");
			return 2;
		}
	}
	printf("start %s\n", argv[1]);
	fflush(stdout);
	setup();
	level1(argv[1]);
	return 0;
}
