/* SPDX-License-Identifier: MIT */
/* lib/view/protobuf.c: varints (with 64-bit edge values), the other wire types,
 * nested messages whose length needs 1, 2 or 3 bytes, and flushing to a
 * stream; each checked against bytes worked out by hand from the wire
 * format, and read back by a decoder written here. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protobuf.h"

/* a reference decoder, independent of the encoder */
static int get_varint(const uint8_t *p, size_t n, size_t *pos, uint64_t *v)
{
	uint64_t r = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (*pos >= n)
			return -1;
		uint8_t c = p[(*pos)++];
		r |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80)) {
			*v = r;
			return 0;
		}
	}
	return -1;
}

static int same(const struct ct_pb *b, const uint8_t *want, size_t n)
{
	return b->len == n && !memcmp(b->p, want, n);
}

static void hex(const struct ct_pb *b, char *out, size_t cap)
{
	size_t o = 0;
	for (size_t i = 0; i < b->len && o + 4 < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%02x ", b->p[i]);
	out[o] = '\0';
}

static void test_varint(void)
{
	static const struct {
		uint64_t v;
		size_t n;
		uint8_t b[10];
	} cases[] = {
		{0, 1, {0x00}},
		{1, 1, {0x01}},
		{127, 1, {0x7f}},
		{128, 2, {0x80, 0x01}},
		{150, 2, {0x96, 0x01}},
		{300, 2, {0xac, 0x02}},
		{16383, 2, {0xff, 0x7f}},
		{16384, 3, {0x80, 0x80, 0x01}},
		{UINT32_MAX, 5, {0xff, 0xff, 0xff, 0xff, 0x0f}},
		{(uint64_t)1 << 32, 5, {0x80, 0x80, 0x80, 0x80, 0x10}},
		{((uint64_t)1 << 56) - 1, 8, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
		{(uint64_t)1 << 56, 9, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{INT64_MAX, 9, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
		{(uint64_t)1 << 63,
		 10,
		 {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
		{UINT64_MAX, 10, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t out[CT_PB_VARINT_MAX + 1];
		memset(out, 0xaa, sizeof(out));
		size_t n = ct_pb_varint_encode(out, cases[i].v);
		CHECK(n == cases[i].n && !memcmp(out, cases[i].b, n),
		      "varint %" PRIu64 ": %zu bytes, want %zu", cases[i].v, n, cases[i].n);
		CHECK(out[n] == 0xaa, "varint %" PRIu64 " wrote past its end", cases[i].v);
		CHECK(ct_pb_varint_size(cases[i].v) == cases[i].n, "varint_size %" PRIu64,
		      cases[i].v);
		size_t pos = 0;
		uint64_t back = 0;
		CHECK(get_varint(out, n, &pos, &back) == 0 && back == cases[i].v && pos == n,
		      "varint %" PRIu64 " read back as %" PRIu64, cases[i].v, back);
	}
}

static void test_fields(void)
{
	struct ct_pb b;
	char h[256];
	ct_pb_init(&b);

	/* the example of the protobuf docs: field 1 = 150 -> 08 96 01 */
	ct_pb_uint(&b, 1, 150);
	static const uint8_t f1[] = {0x08, 0x96, 0x01};
	hex(&b, h, sizeof(h));
	CHECK(same(&b, f1, sizeof(f1)), "uint field 1 = 150: %s", h);

	/* field 2 = "testing" -> 12 07 74 65 73 74 69 6e 67 */
	ct_pb_reset(&b);
	ct_pb_string(&b, 2, "testing");
	static const uint8_t f2[] = {0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'};
	hex(&b, h, sizeof(h));
	CHECK(same(&b, f2, sizeof(f2)), "string field: %s", h);

	/* a large field number: 16 -> tag 0x80 0x01; 2047 -> 0xf8 0x7f */
	ct_pb_reset(&b);
	ct_pb_uint(&b, 16, 1);
	ct_pb_uint(&b, 2047, 0);
	static const uint8_t f3[] = {0x80, 0x01, 0x01, 0xf8, 0x7f, 0x00};
	hex(&b, h, sizeof(h));
	CHECK(same(&b, f3, sizeof(f3)), "field numbers 16, 2047: %s", h);

	/* int32 -1: ten bytes (sign-extended); sint -1: zigzag 1; sint
	 * INT64_MIN: zigzag UINT64_MAX */
	ct_pb_reset(&b);
	ct_pb_int(&b, 1, -1);
	static const uint8_t f4[] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
				     0xff, 0xff, 0xff, 0xff, 0x01};
	hex(&b, h, sizeof(h));
	CHECK(same(&b, f4, sizeof(f4)), "int -1: %s", h);
	ct_pb_reset(&b);
	ct_pb_sint(&b, 1, -1);
	ct_pb_sint(&b, 1, 1);
	ct_pb_sint(&b, 1, -64);
	static const uint8_t f5[] = {0x08, 0x01, 0x08, 0x02, 0x08, 0x7f};
	hex(&b, h, sizeof(h));
	CHECK(same(&b, f5, sizeof(f5)), "sint -1, 1, -64: %s", h);
	ct_pb_reset(&b);
	ct_pb_sint(&b, 1, INT64_MIN);
	CHECK(b.len == 11 && b.p[1] == 0xff && b.p[10] == 0x01, "sint INT64_MIN");

	/* fixed64 / fixed32: little-endian */
	ct_pb_reset(&b);
	ct_pb_fixed64(&b, 1, 0x0102030405060708ULL);
	ct_pb_fixed32(&b, 2, 0xdeadbeef);
	static const uint8_t f6[] = {0x09, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03,
				     0x02, 0x01, 0x15, 0xef, 0xbe, 0xad, 0xde};
	hex(&b, h, sizeof(h));
	CHECK(same(&b, f6, sizeof(f6)), "fixed64, fixed32: %s", h);

	/* empty bytes */
	ct_pb_reset(&b);
	ct_pb_bytes(&b, 3, "", 0);
	static const uint8_t f7[] = {0x1a, 0x00};
	CHECK(same(&b, f7, sizeof(f7)), "empty bytes");
	ct_pb_free(&b);
}

/* a nested message of n bytes of content (one bytes field inside) */
static void test_nested_len(size_t content)
{
	struct ct_pb b;
	ct_pb_init(&b);
	ct_pb_uint(&b, 1, 7); /* something before */
	size_t m = ct_pb_begin(&b, 5);
	/* the inner field: tag (1) + length varint + data = content bytes */
	size_t lenlen = 1;
	while (ct_pb_varint_size(content - 1 - lenlen) != lenlen)
		lenlen++;
	size_t data = content - 1 - lenlen;
	char *buf = malloc(data + 1);
	memset(buf, 'x', data);
	ct_pb_bytes(&b, 2, buf, data);
	ct_pb_end(&b, m);
	ct_pb_uint(&b, 3, 9); /* something after */

	size_t pos = 0;
	uint64_t v;
	int ok = get_varint(b.p, b.len, &pos, &v) == 0 && v == 0x08;
	ok = ok && get_varint(b.p, b.len, &pos, &v) == 0 && v == 7;
	ok = ok && get_varint(b.p, b.len, &pos, &v) == 0 && v == (5 << 3 | 2);
	size_t lpos = pos;
	ok = ok && get_varint(b.p, b.len, &pos, &v) == 0 && v == content;
	CHECK(ok, "nested %zu: header", content);
	CHECK(pos - lpos == ct_pb_varint_size(content), "nested %zu: length in %zu bytes", content,
	      pos - lpos);
	size_t inner = pos;
	ok = get_varint(b.p, b.len, &pos, &v) == 0 && v == (2 << 3 | 2);
	ok = ok && get_varint(b.p, b.len, &pos, &v) == 0 && v == data;
	ok = ok && pos + data <= b.len && !memcmp(b.p + pos, buf, data);
	pos += data;
	CHECK(ok && pos - inner == content, "nested %zu: content", content);
	ok = get_varint(b.p, b.len, &pos, &v) == 0 && v == 0x18;
	ok = ok && get_varint(b.p, b.len, &pos, &v) == 0 && v == 9 && pos == b.len;
	CHECK(ok, "nested %zu: the field after it", content);
	free(buf);
	ct_pb_free(&b);
}

static void test_nested(void)
{
	size_t sizes[] = {2, 127, 128, 129, 300, 16383, 16384, 100000};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		test_nested_len(sizes[i]);

	/* empty nested message, then three levels, the middle one > 127 */
	struct ct_pb b;
	char h[1024];
	ct_pb_init(&b);
	size_t m = ct_pb_begin(&b, 1);
	ct_pb_end(&b, m);
	static const uint8_t e[] = {0x0a, 0x00};
	CHECK(same(&b, e, sizeof(e)), "empty nested");

	ct_pb_reset(&b);
	size_t a = ct_pb_begin(&b, 1);
	size_t c = ct_pb_begin(&b, 2);
	size_t d = ct_pb_begin(&b, 3);
	ct_pb_uint(&b, 4, 1);
	ct_pb_end(&b, d);
	char pad[200];
	memset(pad, 'p', sizeof(pad));
	ct_pb_bytes(&b, 5, pad, sizeof(pad));
	ct_pb_end(&b, c);
	ct_pb_end(&b, a);
	/* 0a LEN(a) 12 LEN(c) 1a 02 20 01 2a c8 01 p*200:
	 * c = 4 + 3 + 200 = 207 (2-byte length), a = 1 + 2 + 207 = 210 */
	hex(&b, h, sizeof(h));
	static const uint8_t head[] = {0x0a, 0xd2, 0x01, 0x12, 0xcf, 0x01, 0x1a,
				       0x02, 0x20, 0x01, 0x2a, 0xc8, 0x01};
	CHECK(b.len == sizeof(head) + 200 && !memcmp(b.p, head, sizeof(head)) &&
		      b.p[b.len - 1] == 'p',
	      "three levels: %.60s", h);
	ct_pb_free(&b);
}

static void test_flush(void)
{
	char *mem = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&mem, &n);
	struct ct_pb b;
	ct_pb_init(&b);
	/* two top-level messages (field 1), flushed one after the other */
	size_t m = ct_pb_begin(&b, 1);
	ct_pb_uint(&b, 8, 1000);
	ct_pb_end(&b, m);
	CHECK(ct_pb_flush(&b, f) == 0 && b.len == 0, "flush");
	m = ct_pb_begin(&b, 1);
	ct_pb_end(&b, m);
	CHECK(ct_pb_flush(&b, f) == 0, "flush empty message");
	CHECK(ct_pb_flush(&b, f) == 0, "flush nothing");
	fclose(f);
	static const uint8_t want[] = {0x0a, 0x03, 0x40, 0xe8, 0x07, 0x0a, 0x00};
	CHECK(n == sizeof(want) && !memcmp(mem, want, n), "streamed bytes (%zu)", n);
	free(mem);
	ct_pb_free(&b);
}

int main(void)
{
	test_varint();
	test_fields();
	test_nested();
	test_flush();
	return check_done();
}
