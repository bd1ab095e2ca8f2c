/*
 * Not a case, not traced: a test tool.  tool_entries FILE.ev... prints the
 * distinct function addresses of the ENTER and NENTER records of the given
 * event streams, one per line in hex, sorted.  (The analysis side resolves
 * an address by the symbol containing it, so it cannot show whether the
 * runtime recorded the function's entry address itself; this can.)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t addrs[1 << 16];
static size_t naddrs;

static void add(uint64_t a)
{
	for (size_t i = 0; i < naddrs; i++)
		if (addrs[i] == a)
			return;
	if (naddrs < sizeof addrs / sizeof addrs[0])
		addrs[naddrs++] = a;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	for (int f = 1; f < argc; f++) {
		FILE *fp = fopen(argv[f], "rb");
		if (!fp) {
			perror(argv[f]);
			return 1;
		}
		static unsigned char buf[64 << 20];
		size_t n = fread(buf, 1, sizeof buf, fp);
		fclose(fp);
		uint64_t hi = 0;
		for (size_t i = 32; i + 4 <= n;) {
			uint32_t w;
			memcpy(&w, buf + i, 4);
			switch (w & 3) {
			case 0:
			case 1:
				i += 4;
				break;
			case 2: {
				uint64_t q;
				if (i + 8 > n)
					goto next;
				memcpy(&q, buf + i, 8);
				add(hi << 40 | q >> 24);
				i += 8;
				break;
			}
			default: {
				unsigned sub = w >> 2 & 63, len = w >> 8 & 255;
				if (i + 4 + 4 * len > n)
					goto next;
				if (sub == 2)
					memcpy(&hi, buf + i + 4, 4), hi &= 0xffffff;
				if (sub == 4) {
					uint64_t a;
					memcpy(&a, buf + i + 12, 8);
					add(a);
				}
				i += 4 + 4 * len;
			}
			}
		}
	next:;
	}
	qsort(addrs, naddrs, sizeof addrs[0], cmp);
	for (size_t i = 0; i < naddrs; i++)
		printf("%llx\n", (unsigned long long)addrs[i]);
	return 0;
}
