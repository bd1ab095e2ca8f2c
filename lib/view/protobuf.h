/* SPDX-License-Identifier: MIT */
/*
 * A small Protocol Buffers encoder (the wire format only, no schema): for
 * writing Perfetto traces and other protobuf streams.
 *
 * A message is built in a growable byte buffer (struct ct_pb), field after
 * field.  A nested (length-delimited) message is opened with ct_pb_begin,
 * which writes its tag and reserves one byte for its length, and closed
 * with ct_pb_end, which writes the length and, when it needs more than one
 * byte, moves the content up to make room.  So the encoding is the minimal
 * one and nesting needs no second pass.  A long stream of messages (say the
 * packets of a Perfetto trace, each a field of the top-level message) is
 * written by flushing the buffer to a file every so often (ct_pb_flush), so
 * that memory is bounded by the flush size, not by the stream.
 *
 * Wire format (https://protobuf.dev/programming-guides/encoding/): a field
 * is a varint tag (field number << 3 | wire type) then its value: a varint
 * (type 0), 8 little-endian bytes (type 1), a varint length and that many
 * bytes (type 2), or 4 little-endian bytes (type 5).
 */
#ifndef CT_PROTOBUF_H
#define CT_PROTOBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ct_pb_wire {
	CT_PB_VARINT = 0,
	CT_PB_FIXED64 = 1,
	CT_PB_LEN = 2,
	CT_PB_FIXED32 = 5,
};

#define CT_PB_VARINT_MAX 10 /* bytes of the longest varint (a 64-bit value) */

struct ct_pb {
	uint8_t *p;
	size_t len, cap;
};

void ct_pb_init(struct ct_pb *b);
void ct_pb_free(struct ct_pb *b);
/* empty the buffer, keeping its memory */
static inline void ct_pb_reset(struct ct_pb *b)
{
	b->len = 0;
}
/* make room for n more bytes (the slow path of ct_pb_room) */
void ct_pb_grow(struct ct_pb *b, size_t n);
/* room for n more bytes at b->p + b->len */
static inline uint8_t *ct_pb_room(struct ct_pb *b, size_t n)
{
	if (b->len + n > b->cap)
		ct_pb_grow(b, n);
	return b->p + b->len;
}

/* v as a varint into out (at least CT_PB_VARINT_MAX bytes); its length */
static inline size_t ct_pb_varint_encode(uint8_t *out, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}
/* the length of v as a varint (1..10) */
size_t ct_pb_varint_size(uint64_t v);

static inline void ct_pb_put_varint(struct ct_pb *b, uint64_t v)
{
	uint8_t *p = ct_pb_room(b, CT_PB_VARINT_MAX);
	b->len += ct_pb_varint_encode(p, v);
}

/* fields: uint32/uint64/bool/enum */
static inline void ct_pb_uint(struct ct_pb *b, uint32_t field, uint64_t v)
{
	uint8_t *p = ct_pb_room(b, 2 * CT_PB_VARINT_MAX);
	size_t n = ct_pb_varint_encode(p, (uint64_t)field << 3 | CT_PB_VARINT);
	b->len += n + ct_pb_varint_encode(p + n, v);
}
/* int32/int64: a negative value takes 10 bytes, as the format says */
void ct_pb_int(struct ct_pb *b, uint32_t field, int64_t v);
/* sint32/sint64 (zigzag) */
void ct_pb_sint(struct ct_pb *b, uint32_t field, int64_t v);
void ct_pb_fixed64(struct ct_pb *b, uint32_t field, uint64_t v);
void ct_pb_fixed32(struct ct_pb *b, uint32_t field, uint32_t v);
void ct_pb_bytes(struct ct_pb *b, uint32_t field, const void *data, size_t n);
void ct_pb_string(struct ct_pb *b, uint32_t field, const char *s);

/* a nested message: its fields are appended after ct_pb_begin, and
 * ct_pb_end(b, mark) with the returned mark closes it.  Nest freely, close
 * in reverse order.  A message of the top level of a stream (e.g. a
 * TracePacket in a Trace) is written the same way. */
static inline size_t ct_pb_begin(struct ct_pb *b, uint32_t field)
{
	uint8_t *p = ct_pb_room(b, CT_PB_VARINT_MAX + 1);
	size_t n = ct_pb_varint_encode(p, (uint64_t)field << 3 | CT_PB_LEN);
	p[n] = 0; /* the length, if it fits one byte */
	b->len += n + 1;
	return b->len;
}
/* the slow path of ct_pb_end: a length of more than one byte */
void ct_pb_end_long(struct ct_pb *b, size_t mark);
static inline void ct_pb_end(struct ct_pb *b, size_t mark)
{
	size_t n = b->len - mark;
	if (n < 0x80)
		b->p[mark - 1] = (uint8_t)n;
	else
		ct_pb_end_long(b, mark);
}

/* write what b holds to f and empty b; 0, or -1 on a write error */
int ct_pb_flush(struct ct_pb *b, FILE *f);

#endif
