/* two ucontext coroutines ping-pong with the main context many times,
 * with traced functions on every stack around each switch */
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "ct_test.h"

#define ROUNDS 500
static ucontext_t main_ctx, co_ctx[2];
static long total;

NOINLINE void co_leaf(int who, int i)
{
	total += who * 1000 + i;
}

NOINLINE void co_yield_from(int who, int i)
{
	co_leaf(who, i);
	/* switch away from inside traced frames; resumed later */
	swapcontext(&co_ctx[who], who == 0 ? &co_ctx[1] : &main_ctx);
	co_leaf(who, -i);
}

NOINLINE void co_body(int who)
{
	for (int i = 0; i < ROUNDS; i++)
		co_yield_from(who, i);
}

NOTRACE static void co_entry(int who)
{
	co_body(who);
	/* returning ends the coroutine: uc_link takes over */
}

NOINLINE void main_step(int i)
{
	sink += i;
	swapcontext(&main_ctx, &co_ctx[0]);
	sink -= i;
}

NOINLINE void driver(void)
{
	for (int i = 0; i < ROUNDS; i++)
		main_step(i);
	/* one more round lets both coroutines return */
	main_step(ROUNDS);
}

int main(void)
{
	static char stacks[2][256 * 1024];
	for (int k = 0; k < 2; k++) {
		getcontext(&co_ctx[k]);
		co_ctx[k].uc_stack.ss_sp = stacks[k];
		co_ctx[k].uc_stack.ss_size = sizeof(stacks[k]);
		co_ctx[k].uc_link = &main_ctx;
		makecontext(&co_ctx[k], (void (*)(void))co_entry, 1, k);
	}
	driver();
	printf("total %ld\n", total);
	return 0;
}
