/*
 * Not a case, not traced: a test tool.
 *   tool_corrupt FILE OFFSET LEN SEED
 * overwrites LEN bytes of FILE from OFFSET (extending it if needed) with
 * pseudo-random bytes from SEED (xorshift64), the same on every machine.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: tool_corrupt FILE OFFSET LEN SEED\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "r+b");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	long off = atol(argv[2]), len = atol(argv[3]);
	uint64_t x = strtoull(argv[4], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	if (fseek(f, off, SEEK_SET) != 0) {
		perror("fseek");
		return 1;
	}
	for (long i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		fputc((int)(x >> 32) & 0xff, f);
	}
	return fclose(f) ? 1 : 0;
}
