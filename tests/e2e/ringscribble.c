/* SPDX-License-Identifier: MIT */
/* A program that rewrites the header of its own trace ring once `record`
 * has taken it (its mapping in /proc/self/maps shows "(deleted)": the
 * drainer unlinks a ring once its header is checked).
 *   ringscribble offset N   data_offset far outside the ring, then N more
 *                           calls (the buffers go on being drained), exit 0
 *   ringscribble all N      data_offset, buf_stride and nslots far outside,
 *                           N more calls, then SIGKILL itself
 * It prints how many calls of work() it made. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "ct_test.h"

NOINLINE void work(int i)
{
	sink += i;
}

/* the header of this thread's ring, once record took it; NULL if never */
NOTRACE static struct ct_ring_header *taken_ring(void)
{
	for (int tries = 0; tries < 60000; tries++) {
		FILE *f = fopen("/proc/self/maps", "r");
		char line[4096];
		unsigned long start = 0;
		int deleted = 0;
		while (f && fgets(line, sizeof(line), f)) {
			char *path = strstr(line, "/calltrace-");
			if (!path || strstr(path, CT_DOORBELL_NAME) || strstr(path, CT_COUNT_PREFIX))
				continue;
			start = strtoul(line, NULL, 16);
			deleted = strstr(path, "(deleted)") != NULL;
			break;
		}
		if (f)
			fclose(f);
		if (start && deleted)
			return (struct ct_ring_header *)start;
		struct timespec ts = {0, 1000000};
		nanosleep(&ts, NULL); /* a poll, not a measure */
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int all = !strcmp(argv[1], "all"), n = atoi(argv[2]), calls = 0;
	for (int i = 0; i < 1000; i++, calls++)
		work(i);
	struct ct_ring_header *h = taken_ring();
	if (!h || h->magic != CT_RING_MAGIC) {
		printf("no ring found\n");
		return 3;
	}
	h->data_offset = 1ull << 40;
	if (all) {
		h->buf_stride = 1ull << 40;
		h->nslots = 100000;
	}
	for (int i = 0; i < n; i++, calls++)
		work(i);
	printf("made %d calls\n", calls);
	fflush(stdout);
	if (all)
		kill(getpid(), SIGKILL);
	return 0;
}
