/* SPDX-License-Identifier: MIT */
/*
 * record --count --sample (tests/e2e/count_sample_table.sh): where the
 * samples are kept.  deep() calls itself down to 40 distinct-looking
 * frames of a few functions and spins at the bottom until the thread has
 * had 200 ms of CPU time (samples at 4 kHz: hundreds of them, each adding
 * slots for the arcs and functions open), then the program reads its own
 * tables in $CALLTRACE_SHM (this process's, by their headers' pid): how
 * many slots of the arcs' tables (cnt-*) hold samples, and how many of
 * the tables of samples (cns-*) hold samples and calls.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calltrace/format.h"
#include "ct_test.h"

static NOTRACE double cpu_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

NOINLINE void leaf(double until)
{
	while (cpu_ms() < until)
		for (int i = 0; i < 1000; i++)
			sink += i;
}

NOINLINE void deep_a(int n, double until);
NOINLINE void deep_b(int n, double until)
{
	if (n)
		deep_a(n - 1, until);
	else
		leaf(until);
	sink++;
}

NOINLINE void deep_a(int n, double until)
{
	if (n)
		deep_b(n - 1, until);
	else
		leaf(until);
	sink++;
}

/* the slots of this process's tables named prefix*: those with a sample's
 * key and those with a call's */
static NOTRACE void scan(const char *dir, const char *prefix, unsigned long *samples,
			 unsigned long *calls, int *tables)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		int fd = open(path, O_RDONLY);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < 4096) {
			if (fd >= 0)
				close(fd);
			continue;
		}
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (m == MAP_FAILED)
			continue;
		const struct ct_count_header *h = m;
		if (h->magic == CT_COUNT_MAGIC && h->pid == (uint32_t)getpid() &&
		    h->slots_offset + h->nslots * sizeof(struct ct_count_slot) <=
			    (uint64_t)st.st_size) {
			const struct ct_count_slot *s =
				(const void *)((const char *)m + h->slots_offset);
			(*tables)++;
			for (uint64_t i = 0; i < h->nslots; i++) {
				if (!s[i].to)
					continue;
				if (!(s[i].to & CT_COUNT_SITE) &&
				    (s[i].to & (CT_COUNT_SSELF | CT_COUNT_STOTAL)))
					(*samples)++;
				else
					(*calls)++;
			}
		}
		munmap(m, (size_t)st.st_size);
	}
	if (d)
		closedir(d);
}

int main(void)
{
	deep_a(40, cpu_ms() + 200);
	const char *dir = getenv("CALLTRACE_SHM");
	if (!dir) {
		printf("no CALLTRACE_SHM\n");
		return 1;
	}
	unsigned long as = 0, ac = 0, ss = 0, sc = 0;
	int at = 0, stb = 0;
	scan(dir, "cnt-", &as, &ac, &at);
	scan(dir, "cns-", &ss, &sc, &stb);
	printf("arcs' tables: %s, calls in them: %s, samples in them: %lu\n", at ? "yes" : "no",
	       ac ? "yes" : "no", as);
	printf("tables of samples: %s, samples in them: %s, calls in them: %lu\n",
	       stb ? "yes" : "no", ss ? "yes" : "no", sc);
	fprintf(stderr, "arcs' tables %d: %lu calls' slots, %lu samples'; tables of samples %d: %lu samples' slots, %lu calls'\n",
		at, ac, as, stb, ss, sc);
	return 0;
}
