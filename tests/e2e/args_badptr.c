/* SPDX-License-Identifier: MIT */
/*
 * String arguments the tracer must copy without making the program fault
 * (args_badptr.sh): good strings in each kind of memory the runtime reads
 * directly (the stack, a module's read-only data, its .bss, the brk heap)
 * and in memory it reads through the system call (mmap'd memory, a
 * thread's stack and arena), and bad ones: never mapped, unmapped,
 * PROT_NONE, a large malloc'd block freed (glibc unmaps it), strings that
 * run into an unmapped or PROT_NONE page, and, at the end, heap and .bss
 * pages the program itself turns PROT_NONE.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ct_test.h"

/* never reads s */
NOINLINE int str1(int label, const char *s)
{
	sink = label + (s != 0);
	return label;
}

static char bss_buf[3 * 4096];

/* the compiler must not drop a store as dead because str1 never reads it */
#define ESCAPE(p) __asm__ volatile("" : : "r"(p) : "memory")

/* a thread's stack and its malloc arena: read through the system call */
static void *thread(void *arg)
{
	char buf[32];
	strcpy(buf, "thread stack");
	ESCAPE(buf);
	str1(30, buf);
	char *h = malloc(32);
	strcpy(h, "thread heap");
	ESCAPE(h);
	str1(31, h);
	free(h);
	return arg;
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char stack_buf[32];
	strcpy(stack_buf, "on the stack");
	ESCAPE(stack_buf);
	str1(1, stack_buf);
	str1(2, "in rodata");
	strcpy(bss_buf, "in bss");
	ESCAPE(bss_buf);
	str1(3, bss_buf);
	char *heap = malloc(64);
	strcpy(heap, "on the heap");
	ESCAPE(heap);
	str1(4, heap);

	pthread_t th;
	if (pthread_create(&th, NULL, thread, NULL) || pthread_join(th, NULL))
		return 1;

	/* two mapped pages, then the second one gone */
	char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 1;
	strcpy(m, "mmap'd");
	ESCAPE(m);
	str1(5, m);
	memcpy(m + pg - 3, "end", 3); /* no NUL before the page's end */
	str1(6, m + pg - 3);	      /* straddles into a mapped page: "end" + the next */
	munmap(m + pg, pg);
	str1(7, m + pg - 3); /* straddles into an unmapped page: "end", cut */
	memcpy(m + pg - 3, "ok", 3);
	str1(8, m + pg - 3); /* ends right at the page's end */
	str1(9, m + pg);     /* unmapped */
	munmap(m, pg);
	str1(10, m); /* unmapped now */

	char *none = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none == MAP_FAILED)
		return 1;
	memcpy(none + pg - 4, "abcd", 4);
	mprotect(none + pg, pg, PROT_NONE);
	str1(11, none + pg);	 /* PROT_NONE */
	str1(12, none + pg - 4); /* straddles into PROT_NONE */

	char *big = malloc(4 << 20); /* mmap'd by malloc, unmapped by free */
	strcpy(big, "big block");
	ESCAPE(big);
	str1(13, big);
	free(big);
	str1(14, big);
	str1(15, (const char *)16);
	str1(16, (const char *)-4096L);
	str1(17, NULL);

	/* .bss, then the heap, made PROT_NONE by the program itself */
	char *bp = (char *)(((unsigned long)bss_buf + pg - 1) & ~(unsigned long)(pg - 1));
	strcpy(bp, "bss page");
	ESCAPE(bp);
	str1(18, bp);
	mprotect(bp, pg, PROT_NONE);
	str1(19, bp);
	mprotect(bp, pg, PROT_READ | PROT_WRITE);
	char *hp = NULL;
	if (posix_memalign((void **)&hp, pg, pg) || !hp)
		return 1;
	strcpy(hp, "heap page");
	ESCAPE(hp);
	str1(20, hp);
	mprotect(hp, pg, PROT_NONE);
	str1(21, hp);
	str1(22, "in rodata, again");
	mprotect(hp, pg, PROT_READ | PROT_WRITE);
	printf("done\n");
	return 0;
}
