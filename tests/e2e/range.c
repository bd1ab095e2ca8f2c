/* three phases of 100 ms each, one after the other, for replay -r */
#include <time.h>

#include "ct_test.h"

NOTRACE static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

NOINLINE void tick(void)
{
	sink++;
}

NOINLINE void spin(long ns)
{
	long t0 = now_ns();
	while (now_ns() - t0 < ns)
		sink++;
	tick();
}

NOINLINE void phase1(void)
{
	spin(100000000L);
}

NOINLINE void phase2(void)
{
	spin(100000000L);
}

NOINLINE void phase3(void)
{
	spin(100000000L);
}

int main(void)
{
	phase1();
	phase2();
	phase3();
	return 0;
}
