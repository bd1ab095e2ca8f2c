/* SPDX-License-Identifier: MIT */
/* args_libc: the C library's flags and signals by name under record -a
 * (doc/args.md, lib/record/libcproto.c): open's flags, and its mode only
 * with O_CREAT (without it the third register holds whatever was there:
 * here a value loaded on purpose); openat's AT_FDCWD; mmap's prot and
 * flags; signal numbers and handlers.  Run in the directory it may write:
 * args_libc DIR. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ct_test.h"

/* leaves 0x1ff in rdx, where a third argument would be, so that a mode
 * read without O_CREAT shows */
NOINLINE long dirty(long a, long b, long c)
{
	sink = (int)(a + b + c);
	return c;
}

NOINLINE void files(void)
{
	dirty(1, 2, 0x1ff);
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	close(fd);
	fd = open("made", O_WRONLY | O_CREAT | O_TRUNC, 0640);
	close(fd);
	dirty(1, 2, 0x1ff);
	fd = openat(AT_FDCWD, "made", O_RDWR | O_APPEND);
	close(fd);
}

NOINLINE void maps(void)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *q = mmap(NULL, 4096, PROT_NONE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	if (q != MAP_FAILED)
		munmap(q, 4096);
}

NOINLINE void on_usr1(int sig)
{
	sink = sig;
}

NOINLINE void signals(void)
{
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_IGN);
	kill(getpid(), SIGUSR1);
	signal(SIGUSR1, SIG_DFL);
}

int main(int argc, char **argv)
{
	if (argc < 2 || chdir(argv[1]) != 0)
		return 2;
	files();
	maps();
	signals();
	printf("pid %d\n", (int)getpid());
	return 0;
}
