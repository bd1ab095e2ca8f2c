/* SPDX-License-Identifier: MIT */
/*
 * replay's line writer (builtin/replay_out.h): the output buffer, the
 * indentation, and the durations' text without snprintf.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "builtin/replay_out.h"
#include "util.h"

const char rob_spaces[129] = "                                                                "
			     "                                                                ";

/* output: lines are put together in a large buffer, written when full */
struct replay_ob rob;

bool rob_failed;

void rob_flush(void)
{
	if (rob.len && fwrite_unlocked(rob.buf, 1, rob.len, rob.f) != rob.len)
		rob_failed = true;
	rob.len = 0;
}

void rob_put_slow(const char *s, size_t n)
{
	rob_flush();
	if (n > rob.cap)
		fwrite_unlocked(s, 1, n, rob.f);
	else {
		memcpy(rob.buf, s, n);
		rob.len = n;
	}
}

size_t depth_mark(uint32_t depth, char *buf)
{
	if (depth <= MAX_INDENT)
		return 0;
	char d[16];
	size_t n = 0;
	do
		d[n++] = (char)('0' + depth % 10);
	while ((depth /= 10));
	size_t k = 0;
	buf[k++] = '[';
	buf[k++] = '+';
	while (n)
		buf[k++] = d[--n];
	buf[k++] = ']';
	buf[k++] = ' ';
	return k;
}

void put_indent(size_t n)
{
	while (n) {
		size_t k = n < sizeof(rob_spaces) - 1 ? n : sizeof(rob_spaces) - 1;
		put(rob_spaces, k);
		n -= k;
	}
}

/*
 * Durations: ct_format_duration() is the reference, but snprintf costs more
 * than the rest of a line.  fast_duration() writes the same text for the
 * common case (fewer than 1000 of the unit); replay checks once at start that
 * the two agree, and uses ct_format_duration() alone if they do not.
 */
static bool fast_ok;

static size_t fast_text(uint64_t ns, char *b)
{
	static const uint64_t divs[] = {1, 1000, 1000000, 1000000000ULL};
	static const char units[][3] = {"ns", "us", "ms", " s"};
	unsigned u = 0;
	while (u < 3 && ns >= divs[u + 1])
		u++;
	uint64_t whole = ns / divs[u];
	unsigned frac = u ? (unsigned)((ns % divs[u]) / (divs[u] / 1000)) : 0;
	if (whole >= 1000)
		return 0;
	unsigned w = (unsigned)whole;
	b[0] = w >= 100 ? (char)('0' + w / 100) : ' ';
	b[1] = w >= 10 ? (char)('0' + w / 10 % 10) : ' ';
	b[2] = (char)('0' + w % 10);
	b[3] = '.';
	b[4] = (char)('0' + frac / 100);
	b[5] = (char)('0' + frac / 10 % 10);
	b[6] = (char)('0' + frac % 10);
	b[7] = ' ';
	b[8] = units[u][0];
	b[9] = units[u][1];
	return 10;
}

void check_fast_duration(void)
{
	static const uint64_t samples[] = {0,
					   1,
					   9,
					   10,
					   99,
					   100,
					   999,
					   1000,
					   1001,
					   1009,
					   1010,
					   1234,
					   9999,
					   10000,
					   99999,
					   100000,
					   999999,
					   1000000,
					   1000999,
					   1234567,
					   999999999,
					   1000000000ULL,
					   1234567890ULL,
					   999999999999ULL,
					   12345ULL * 1000000000ULL};
	fast_ok = true;
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		char ref[64], mine[16];
		ct_format_duration(samples[i], ref, sizeof(ref));
		size_t n = fast_text(samples[i], mine);
		if (n && (strlen(ref) != n || memcmp(ref, mine, n))) {
			fast_ok = false;
			return;
		}
	}
}

size_t fast_duration(uint64_t ns, char *b)
{
	return fast_ok ? fast_text(ns, b) : 0;
}

void put_time10(uint64_t ns)
{
	char buf[64];
	size_t n = fast_duration(ns, buf);
	if (n)
		put(buf, n);
	else
		puts_(ct_format_duration(ns, buf, sizeof(buf)));
}
