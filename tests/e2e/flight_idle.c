/* record --flight drains nothing while the program runs: record sleeps
 * until something needs it.  This program (record's child) counts record's
 * voluntary context switches over one second of its own sleep, or however
 * long the sleep lasted (a busy machine wakes a sleeper late), per second. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ct_test.h"

NOTRACE static long switches(pid_t pid)
{
	char path[64], line[256];
	long n = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1)
			break;
	fclose(f);
	return n;
}

NOTRACE static long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

NOINLINE void work(int n)
{
	sink += n;
}

int main(void)
{
	pid_t rec = getppid();
	work(1);
	long t0 = now_ns();
	long a = switches(rec);
	struct timespec one = {1, 0};
	nanosleep(&one, NULL);
	long b = switches(rec);
	double s = (now_ns() - t0) / 1e9;
	work(2);
	if (a < 0 || b < 0)
		printf("cannot read /proc/%d/status\n", (int)rec);
	else if (b - a < 150 * s)
		printf("record woke fewer than 150 times a second: yes\n");
	else
		printf("record woke %ld times in %.3f s\n", b - a, s);
	return 0;
}
