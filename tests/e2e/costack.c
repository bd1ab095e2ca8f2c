/* SPDX-License-Identifier: MIT */
/* A coroutine whose stack is an array in main's frame: it lies above the
 * frames of foo, which switches to it, so bar, which runs on it inside foo,
 * has frames at higher addresses than foo's.  foo must stay open around
 * bar and return normally (not be taken as gone by its address). */
#include <stdio.h>
#include <ucontext.h>

#include "ct_test.h"

static ucontext_t main_ctx, co_ctx;

NOINLINE int leaf(int x)
{
	sink = x;
	return x + 1;
}

NOINLINE void bar(void)
{
	leaf(1);
	swapcontext(&co_ctx, &main_ctx); /* back to foo */
	leaf(2);
}

NOINLINE void co_main(void)
{
	bar();
}

NOINLINE int foo(void)
{
	swapcontext(&main_ctx, &co_ctx); /* into the coroutine: bar */
	leaf(3);
	swapcontext(&main_ctx, &co_ctx); /* bar goes on and ends */
	return leaf(4);
}

int main(void)
{
	/* the coroutine's stack: in main's frame, above foo's */
	static volatile int keep;
	char stack[64 * 1024] __attribute__((aligned(16)));
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = stack;
	co_ctx.uc_stack.ss_size = sizeof(stack);
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, co_main, 0);
	int r = foo();
	keep = stack[0];
	printf("foo %d\n", r);
	return 0;
}
