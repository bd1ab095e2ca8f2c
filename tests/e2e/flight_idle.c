/* record --flight drains nothing while the program runs: record sleeps
 * until something needs it.  This program (record's child) counts record's
 * voluntary context switches over one second of its own sleep. */
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

NOINLINE void work(int n)
{
	sink += n;
}

int main(void)
{
	pid_t rec = getppid();
	work(1);
	long a = switches(rec);
	struct timespec one = {1, 0};
	nanosleep(&one, NULL);
	long b = switches(rec);
	work(2);
	if (a < 0 || b < 0)
		printf("cannot read /proc/%d/status\n", (int)rec);
	else if (b - a < 150)
		printf("record woke fewer than 150 times in 1 s: yes\n");
	else
		printf("record woke %ld times in 1 s\n", b - a);
	return 0;
}
