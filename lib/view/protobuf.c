/* SPDX-License-Identifier: MIT */
#include "protobuf.h"

#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util.h"

void ct_pb_init(struct ct_pb *b)
{
	b->p = NULL;
	b->len = b->cap = 0;
}

void ct_pb_free(struct ct_pb *b)
{
	free(b->p);
	ct_pb_init(b);
}

void ct_pb_grow(struct ct_pb *b, size_t n)
{
	size_t cap = b->cap ? 2 * b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

size_t ct_pb_varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline void put_tag(struct ct_pb *b, uint32_t field, enum ct_pb_wire wire)
{
	ct_pb_put_varint(b, (uint64_t)field << 3 | wire);
}

void ct_pb_int(struct ct_pb *b, uint32_t field, int64_t v)
{
	/* two's complement, sign-extended to 64 bits */
	ct_pb_uint(b, field, (uint64_t)v);
}

void ct_pb_sint(struct ct_pb *b, uint32_t field, int64_t v)
{
	ct_pb_uint(b, field, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void put_le(struct ct_pb *b, uint64_t v, size_t n)
{
	uint8_t *p = ct_pb_room(b, n);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	b->len += n;
}

void ct_pb_fixed64(struct ct_pb *b, uint32_t field, uint64_t v)
{
	put_tag(b, field, CT_PB_FIXED64);
	put_le(b, v, 8);
}

void ct_pb_fixed32(struct ct_pb *b, uint32_t field, uint32_t v)
{
	put_tag(b, field, CT_PB_FIXED32);
	put_le(b, v, 4);
}

void ct_pb_bytes(struct ct_pb *b, uint32_t field, const void *data, size_t n)
{
	put_tag(b, field, CT_PB_LEN);
	ct_pb_put_varint(b, n);
	if (n) {
		memcpy(ct_pb_room(b, n), data, n);
		b->len += n;
	}
}

void ct_pb_string(struct ct_pb *b, uint32_t field, const char *s)
{
	/* a string field is UTF-8; names from a recording may be anything:
	 * they go as the text views show them (output.h) */
	size_t n = strlen(s);
	if (ct_text_clean(s, n)) {
		ct_pb_bytes(b, field, s, n);
		return;
	}
	char *e = xmalloc(4 * n);
	ct_pb_bytes(b, field, e, ct_text_escape(e, s, n));
	free(e);
}

void ct_pb_end_long(struct ct_pb *b, size_t mark)
{
	size_t n = b->len - mark;
	uint8_t len[CT_PB_VARINT_MAX];
	size_t k = ct_pb_varint_encode(len, n);
	ct_pb_room(b, k - 1);
	memmove(b->p + mark + k - 1, b->p + mark, n);
	b->len += k - 1;
	memcpy(b->p + mark - 1, len, k);
}

int ct_pb_flush(struct ct_pb *b, FILE *f)
{
	size_t n = b->len;
	b->len = 0;
	return n && fwrite_unlocked(b->p, 1, n, f) != n ? -1 : 0;
}
