/* SPDX-License-Identifier: MIT */
/* The runtime's async-signal-safe formatter (runtime/log.c): every
 * conversion it knows, the bound of the buffer, and what it does with what
 * it does not know.  Linked with the runtime's own log.o. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

/* declared without the format attribute: the tests also give it what
 * printf would refuse */
size_t ct_fmt(char *buf, size_t len, const char *fmt, ...);

static void expect(const char *want, size_t len, const char *got, size_t n)
{
	CHECK(!strcmp(got, want) && n == strlen(want), "'%s' (%zu), want '%s' (buffer %zu)", got, n,
	      want, len);
}

int main(void)
{
	char b[128];
	size_t n;
	n = ct_fmt(b, sizeof(b), "%s=%d %u %x %c %%", "k", -42, 42u, 0xbeefu, 'z');
	expect("k=-42 42 beef z %", sizeof(b), b, n);
	n = ct_fmt(b, sizeof(b), "%ld %lu %lld %llu %zu %zx", LONG_MIN, ULONG_MAX, LLONG_MIN,
		   ULLONG_MAX, (size_t)7, (size_t)255);
	expect("-9223372036854775808 18446744073709551615 -9223372036854775808 "
	       "18446744073709551615 7 ff",
	       sizeof(b), b, n);
	n = ct_fmt(b, sizeof(b), "%d %i %u", INT_MIN, 0, 0u);
	expect("-2147483648 0 0", sizeof(b), b, n);
	n = ct_fmt(b, sizeof(b), "%p", (void *)0x1234);
	expect("1234", sizeof(b), b, n);
	const char *volatile none = NULL;
	n = ct_fmt(b, sizeof(b), "[%s]", none);
	expect("[(null)]", sizeof(b), b, n);

	/* the buffer bounds the text, NUL included, in every conversion */
	n = ct_fmt(b, 6, "%s", "abcdefgh");
	expect("abcde", 6, b, n);
	n = ct_fmt(b, 4, "%d", 123456);
	expect("123", 4, b, n);
	n = ct_fmt(b, 1, "%s", "x");
	expect("", 1, b, n);
	b[0] = 'q';
	n = ct_fmt(b, 0, "%s", "x");
	CHECK(n == 0 && b[0] == 'q', "a buffer of 0 bytes is not written");

	/* an unknown conversion prints nothing of itself; a trailing % ends */
	n = ct_fmt(b, sizeof(b), "a%qb");
	expect("ab", sizeof(b), b, n);
	n = ct_fmt(b, sizeof(b), "a%");
	expect("a", sizeof(b), b, n);
	return check_done();
}
