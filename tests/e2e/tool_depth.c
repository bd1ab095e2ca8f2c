/*
 * Not a case, not traced: a test tool.  Reads replay output on stdin and
 * prints "lines N", "max_depth N" (the depth of the deepest line: the
 * number of spaces between "|" and the function name, less one, halved; or,
 * on a line deeper than replay indents, the N of its "[+N] " mark) and
 * "deepest LINE" (that line, from its function name on).  It exists because a
 * 100,000-deep tree was gigabytes of spaces before replay capped its
 * indentation, too much for awk.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *line = NULL, best[256] = "";
	size_t cap = 0;
	ssize_t len;
	unsigned long lines = 0, max = 0;
	int have = 0;
	while ((len = getline(&line, &cap, stdin)) >= 0) {
		lines++;
		if (len && line[len - 1] == '\n')
			line[--len] = 0;
		char *bar = strchr(line, '|');
		if (!bar)
			continue;
		char *p = bar + 1;
		unsigned long sp = strspn(p, " ");
		p += sp;
		unsigned long d = sp ? (sp - 1) / 2 : 0;
		if (strstr(p, "for the trace writer */")) {
			/* a wait noted by replay: when it comes depends on the
			 * drainer's scheduling, not on the recording's calls */
			lines--;
			continue;
		}
		if (p[0] == '[' && p[1] == '+') {
			char *end;
			d = strtoul(p + 2, &end, 10);
			if (*end == ']')
				p = end + 1 + (end[1] == ' ');
		}
		if (!have || d > max) {
			max = d;
			have = 1;
			snprintf(best, sizeof(best), "%s", p);
		}
	}
	free(line);
	printf("lines %lu\nmax_depth %lu\ndeepest %s\n", lines, max, best);
	return 0;
}
