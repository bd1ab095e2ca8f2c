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
 * one and nesting needs no second pass.  A stream of top-level messages is
 * written one message at a time (ct_pb_write_field), so memory is bounded
 * by the largest message, not by the stream.
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

/* v as a varint into out (at least CT_PB_VARINT_MAX bytes); its length */
size_t ct_pb_varint_encode(uint8_t *out, uint64_t v);
/* the length of v as a varint (1..10) */
size_t ct_pb_varint_size(uint64_t v);

/* fields: uint32/uint64/bool/enum */
void ct_pb_uint(struct ct_pb *b, uint32_t field, uint64_t v);
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
 * in reverse order. */
size_t ct_pb_begin(struct ct_pb *b, uint32_t field);
void ct_pb_end(struct ct_pb *b, size_t mark);

/* write b's content to f as one length-delimited field (e.g. one
 * TracePacket of a Trace); 0, or -1 when the stream has an error */
int ct_pb_write_field(FILE *f, uint32_t field, const struct ct_pb *b);

#endif
