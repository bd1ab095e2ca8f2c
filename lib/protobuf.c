/* SPDX-License-Identifier: MIT */
#include "protobuf.h"

#include <stdlib.h>
#include <string.h>

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

/* room for n more bytes */
static inline uint8_t *room(struct ct_pb *b, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	return b->p + b->len;
}

size_t ct_pb_varint_encode(uint8_t *out, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
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

static inline void put_varint(struct ct_pb *b, uint64_t v)
{
	uint8_t *p = room(b, CT_PB_VARINT_MAX);
	b->len += ct_pb_varint_encode(p, v);
}

static inline void put_tag(struct ct_pb *b, uint32_t field, enum ct_pb_wire wire)
{
	put_varint(b, (uint64_t)field << 3 | wire);
}

void ct_pb_uint(struct ct_pb *b, uint32_t field, uint64_t v)
{
	put_tag(b, field, CT_PB_VARINT);
	put_varint(b, v);
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
	uint8_t *p = room(b, n);
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
	put_varint(b, n);
	if (n) {
		memcpy(room(b, n), data, n);
		b->len += n;
	}
}

void ct_pb_string(struct ct_pb *b, uint32_t field, const char *s)
{
	ct_pb_bytes(b, field, s, strlen(s));
}

size_t ct_pb_begin(struct ct_pb *b, uint32_t field)
{
	put_tag(b, field, CT_PB_LEN);
	room(b, 1);
	b->p[b->len++] = 0; /* the length, if it fits one byte */
	return b->len;
}

void ct_pb_end(struct ct_pb *b, size_t mark)
{
	size_t n = b->len - mark;
	uint8_t len[CT_PB_VARINT_MAX];
	size_t k = ct_pb_varint_encode(len, n);
	if (k > 1) {
		room(b, k - 1);
		memmove(b->p + mark + k - 1, b->p + mark, n);
		b->len += k - 1;
	}
	memcpy(b->p + mark - 1, len, k);
}

int ct_pb_write_field(FILE *f, uint32_t field, const struct ct_pb *b)
{
	uint8_t head[2 * CT_PB_VARINT_MAX];
	size_t n = ct_pb_varint_encode(head, (uint64_t)field << 3 | CT_PB_LEN);
	n += ct_pb_varint_encode(head + n, b->len);
	if (fwrite_unlocked(head, 1, n, f) != n)
		return -1;
	if (b->len && fwrite_unlocked(b->p, 1, b->len, f) != b->len)
		return -1;
	return 0;
}
