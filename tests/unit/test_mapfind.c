/* SPDX-License-Identifier: MIT */
/* The parse of /proc/self/maps that the sample handler makes
 * (runtime/mapfind.c): the mapping that holds an address, its bounds
 * (the end not in it) and its kind, from lines of any length, across the
 * parse's buffer, with names that only look like "[stack]", and a last
 * line without its newline; and this process's own stack.  And whether a
 * range is mapped whole, across mappings that follow each other.  Linked with
 * the runtime's own mapfind.o. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "mapfind.h"

/* the text in an unnamed file, at its start: an fd to read */
static int text_fd(const char *text)
{
	FILE *f = tmpfile();
	CHECK(f != NULL, "tmpfile");
	if (!f)
		exit(1);
	fputs(text, f);
	fflush(f);
	int fd = dup(fileno(f));
	fclose(f);
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* find p in text: 1 and the bounds and kind, or 0 */
static int find(const char *text, uintptr_t p, uintptr_t *lo, uintptr_t *hi, enum ct_map_kind *kind)
{
	int fd = text_fd(text);
	*lo = *hi = 0;
	*kind = (enum ct_map_kind)99; /* (not set) */
	bool r = ct_map_find(fd, p, lo, hi, kind);
	close(fd);
	return r;
}

static const char *MAPS = "555555554000-555555556000 r--p 00000000 08:01 1234   /usr/bin/prog\n"
			  "555555556000-555555577000 rw-p 00000000 00:00 0      [heap]\n"
			  "7ffff7dd0000-7ffff7df0000 rw-p 00000000 00:00 0 \n"
			  "7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0      [stack]\n";

int main(void)
{
	uintptr_t lo, hi;
	enum ct_map_kind k;

	CHECK(find(MAPS, 0x555555560000, &lo, &hi, &k) && lo == 0x555555556000 &&
		      hi == 0x555555577000 && k == CT_MAP_HEAP,
	      "heap: %d %lx-%lx", (int)k, (unsigned long)lo, (unsigned long)hi);
	CHECK(find(MAPS, 0x7ffffffde000, &lo, &hi, &k) && lo == 0x7ffffffde000 && k == CT_MAP_STACK,
	      "stack at its start");
	CHECK(find(MAPS, 0x7ffff7de0000, &lo, &hi, &k) && k == CT_MAP_OTHER && hi == 0x7ffff7df0000,
	      "anonymous");
	CHECK(find(MAPS, 0x555555554000, &lo, &hi, &k) && k == CT_MAP_OTHER, "a file");
	/* the end is not in the mapping: the next one's start */
	CHECK(find(MAPS, 0x555555556000, &lo, &hi, &k) && k == CT_MAP_HEAP, "end: the next");
	CHECK(!find(MAPS, 0x7ffff7df0000, &lo, &hi, &k), "between two mappings");
	CHECK(!find(MAPS, 0x7ffffffff000, &lo, &hi, &k), "past the last");
	CHECK(!find("", 0x1000, &lo, &hi, &k), "empty");

	/* names that end like the kinds without being them */
	CHECK(find("1000-2000 rw-p 0 00:00 0 /tmp/x[stack]\n", 0x1800, &lo, &hi, &k) &&
		      k == CT_MAP_OTHER,
	      "no space before [stack]");
	CHECK(find("1000-2000 rw-p 0 00:00 0 [stack] (deleted)\n", 0x1800, &lo, &hi, &k) &&
		      k == CT_MAP_OTHER,
	      "more after [stack]");
	CHECK(find("1000-2000 rw-p 0 00:00 0 /a/b [heap]\n", 0x1800, &lo, &hi, &k) &&
		      k == CT_MAP_HEAP,
	      "a path ending in ' [heap]' reads as the heap (the kernel's names come last)");
	/* the last line without its newline */
	CHECK(find("1000-2000 rw-p 0 00:00 0 [stack]", 0x1000, &lo, &hi, &k) && k == CT_MAP_STACK,
	      "no newline");

	/* lines far longer than the parse's buffer, before and at the match */
	size_t n = 20000;
	char *big = malloc(3 * n);
	CHECK(big != NULL, "malloc");
	if (!big)
		return 1;
	char *w = big;
	w += sprintf(w, "1000-2000 r--p 0 08:01 1 /");
	memset(w, 'a', n);
	w += n;
	w += sprintf(w, "\n3000-5000 rw-p 0 00:00 0 /");
	memset(w, 'b', n);
	w += n;
	w += sprintf(w, " [stack]\n6000-7000 rw-p 0 00:00 0 [heap]\n");
	CHECK(find(big, 0x4fff, &lo, &hi, &k) && lo == 0x3000 && hi == 0x5000 && k == CT_MAP_STACK,
	      "long lines: %lx-%lx %d", (unsigned long)lo, (unsigned long)hi, (int)k);
	CHECK(find(big, 0x6000, &lo, &hi, &k) && k == CT_MAP_HEAP, "after long lines");
	CHECK(find(big, 0x1000, &lo, &hi, &k) && k == CT_MAP_OTHER, "a long first line");
	free(big);

	/* ranges mapped whole: in one mapping, across two that follow each
	 * other, not across a gap, not past the last */
	static const char *DATA = "1000-2000 rw-p 0 08:01 1 /prog\n"
				  "2000-9000 rw-p 0 00:00 0 \n"
				  "a000-b000 rw-p 0 00:00 0 \n";
	struct {
		uintptr_t lo, hi;
		bool whole;
	} cov[] = {
		{0x1000, 0x2000, true},  {0x1800, 0x1900, true},  {0x1800, 0x8000, true},
		{0x1000, 0x9000, true},  {0x1800, 0x9001, false}, {0x8000, 0xa800, false},
		{0xa000, 0xb000, true},  {0xa800, 0xb001, false}, {0x0800, 0x1800, false},
		{0x1800, 0x1800, false},
	};
	for (size_t i = 0; i < sizeof(cov) / sizeof(cov[0]); i++) {
		int fd = text_fd(DATA);
		bool r = ct_map_covers(fd, cov[i].lo, cov[i].hi);
		close(fd);
		CHECK(r == cov[i].whole, "covers %lx-%lx: %d", (unsigned long)cov[i].lo,
		      (unsigned long)cov[i].hi, r);
	}

	/* this process: a local variable is on the main thread's [stack] */
	int local = 0, fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0, "open /proc/self/maps");
	uintptr_t at = (uintptr_t)&local;
	CHECK(fd >= 0 && ct_map_find(fd, at, &lo, &hi, &k) && lo <= at && at < hi &&
		      k == CT_MAP_STACK,
	      "own stack: kind %d", (int)k);
	if (fd >= 0)
		close(fd);
	return check_done();
}
