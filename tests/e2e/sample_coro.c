/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample (tests/e2e/sample_count_coro.sh): known work on
 * a ucontext coroutine's stack and on the main stack, turn about.
 * main_work() and co_work() run the same untraced loop; co_work() runs on
 * the coroutine's own stack, a static array (across the program's data
 * page and its bss) or, with "heap", a malloc'd one.
 *   sample_coro [heap]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "ct_test.h"

#define UNIT 2000000L
#define ROUNDS 40

static ucontext_t main_ctx, co_ctx;

NOTRACE NOINLINE static void loop(long n)
{
	for (long i = 0; i < n; i++)
		sink++;
}

NOINLINE void co_work(int i)
{
	loop(UNIT);
	sink += i;
}

NOINLINE void co_body(void)
{
	for (int i = 0; i < ROUNDS; i++) {
		co_work(i);
		swapcontext(&co_ctx, &main_ctx);
	}
}

NOTRACE static void co_entry(void)
{
	co_body();
	/* returning ends the coroutine: uc_link takes over */
}

NOINLINE void main_work(int i)
{
	loop(UNIT);
	sink += i;
}

int main(int argc, char **argv)
{
	static char static_stack[256 * 1024];
	char *stack = static_stack;
	if (argc > 1 && !strcmp(argv[1], "heap") && !(stack = malloc(sizeof(static_stack))))
		return 1;
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = stack;
	co_ctx.uc_stack.ss_size = sizeof(static_stack);
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, co_entry, 0);
	for (int i = 0; i <= ROUNDS; i++) {
		main_work(i);
		swapcontext(&main_ctx, &co_ctx);
	}
	printf("done\n");
	if (stack != static_stack)
		free(stack);
	return 0;
}
