/*
 * Not a case, not traced: a test tool.  Reads replay output on stdin and
 * prints "lines N", "max_depth N" (the depth of the deepest line: the
 * number of spaces between "|" and the function name, less one, halved) and
 * "deepest LINE" (that line, from its function name on).  It exists because
 * a 100,000-deep tree is gigabytes of spaces, too much for awk.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	static char buf[1 << 20], best[256];
	unsigned long lines = 0, max = 0, cur = 0;
	int state = 0; /* 0: before "|", 1: counting spaces, 2: rest of line */
	int have = 0, capture = 0;
	size_t blen = 0, n;
	while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
		for (size_t i = 0; i < n; i++) {
			char c = buf[i];
			if (state == 1 && c == ' ') {
				/* the hot loop: skip a run of spaces at once */
				size_t j = i;
				while (j < n && buf[j] == ' ')
					j++;
				cur += j - i;
				i = j - 1;
				continue;
			}
			if (c == '\n') {
				lines++;
				state = 0, cur = 0, capture = 0;
				continue;
			}
			if (state == 0) {
				if (c == '|')
					state = 1;
				continue;
			}
			if (state == 1) {
				state = 2;
				if (!have || cur > max) {
					max = cur, have = 1, capture = 1, blen = 0;
				}
			}
			if (capture && blen < sizeof best - 1) {
				best[blen++] = c;
				best[blen] = 0;
			}
		}
	}
	printf("lines %lu\nmax_depth %lu\ndeepest %s\n", lines, max ? (max - 1) / 2 : 0, best);
	return 0;
}
