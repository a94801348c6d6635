// StoredItem's encoding: the byte layout, and what the encoder (core/stored_item.cc), the checking
// decoder (core/stored_item_decode.cc) and the views (partstore/stored_item.h) share.
//
// Byte layout (all integers little-endian; varint = LEB128, 7 bits per byte, at most 5 bytes):
//
//   buffer  := header item
//   header  := refs:u32 (atomic) | item_size:u32 (DynamoDB's ItemSize, partstore/item.h)
//              (8 bytes: the item's length is its map-body's own, read from its first bytes)
//   item    := map-body            (the top-level attributes; a map without its tag)
//   value   := tag:u8 payload      (tag = the Type enumerator, partstore/value.h: S=0 .. BS=9,
//                                   kRunTag, or a short scalar's tag)
//     short     (tag 0x40-0xFF) n bytes: an S of up to kMaxShortS bytes (tag 0x40 + n), an N of up
//               to kMaxShortN (0xC0 + n), a B of up to kMaxShortB (0xE0 + n). Every S, N and B
//               value that short is written so (but an S that is a run), and no other: the tag
//               saves the length's byte, about one byte an attribute (bench/README.md, "Short
//               scalars and small maps"). Decode also takes one written out with its varint (as
//               versions before short tags wrote it) and encodes the item again.
//     S, B      varint(n) n bytes
//     run       (tag kRunTag = 10) varint(n) byte: an S value of kMinRun..kMaxRun copies of one
//               byte. Every such S value is written so, and no other: the encoding stays
//               canonical. Its view reads the bytes from a shared buffer of that byte (FillOf,
//               core/stored_item.cc),
//               so a simulator's padding ("data": 400 x 'x') costs 4 bytes, not 400. Decode
//               also takes such a value written out (as versions before runs wrote it: older
//               snapshots and logs) and encodes the item again.
//     N         varint(n) n bytes: the canonical decimal text (Number::ToString(), exact)
//     BOOL      u8 (0 or 1)
//     NULL      (nothing)
//     SS, NS, BS  varint(count) varint(n) n bytes of elements, each varint(len) bytes, in the
//               set's order (S and B by unsigned bytes, N numerically; N as canonical text)
//     L         list-body
//     M         map-body
//   list-body := varint(count) varint(n) width:u8 offsets (count x width bytes) n bytes of
//                elements, each a value
//   map-body  := varint(count) varint(n) width:u8 offsets (count x width bytes) n bytes of
//                entries, each name value, sorted by name (unsigned bytes), unique
//   name      := varint(2 x id + 1)     a top-level name (one of the item's own attributes) of
//                                       the attribute-name table, by its number
//                                       (core/attribute_name_table.h), or
//              | varint(2 x len) bytes  a nested map's entry name (always), or a top-level name
//                                       the table does not hold (too long, or met after the
//                                       table was full). Which of the two a name takes depends
//                                       on its place and the name alone, the same for every
//                                       encoding in the process, so the encoding stays
//                                       canonical.
//
// The portable encoding (StoredItem::PortableEncoding, what snapshots, logs, backups and stream
// images write and StoredItem::Decode reads) is the same layout with every name written out as
// varint(len) bytes, numbers being the process's own (core/stored_item_portable.cc translates).
//   offsets:     where each element or entry starts, from the start of the n bytes; width is
//                1, 2 or 4, the smallest that holds n. They give O(1) list indexing and binary
//                search of names; a reader that walks in order does not need them. A map of up
//                to kMaxUnindexedMap entries has none (width 0): its reader walks the entries
//                (bench/README.md, "Short scalars and small maps"). Decode also takes such a map
//                with offsets (as versions before wrote it) and encodes the item again.
//
// Every composite carries its byte length, so any value can be skipped without reading it. An
// item of 6 short attributes costs 8 header bytes plus about 1 per attribute (its value's tag)
// over its DynamoDB size, less its names' bytes when the table holds them (a name's number takes
// one byte below 64, two below 8,192).

#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "partstore/stored_item.h"
#include "partstore/value.h"

namespace partstore::stored_item_format {

// A run: an S value of kMinRun..kMaxRun copies of one byte, encoded as its length and the byte.
// The upper bound bounds the fill buffers: 64 KiB for each byte value a process uses (16 MiB if
// it used all 256).
inline constexpr uint8_t kRunTag = 10;
inline constexpr size_t kMinRun = 32;
inline constexpr size_t kMaxRun = 64 * 1024;

// Short scalars (see above). The tags and their reading are partstore/stored_item.h's
// (stored_item_internal::kShortScalarTag, ReadValueInto).
inline constexpr uint8_t kShortS = 0x40;
inline constexpr uint8_t kShortN = 0xC0;
inline constexpr uint8_t kShortB = 0xE0;
inline constexpr size_t kMaxShortS = kShortN - kShortS - 1;  // 127
inline constexpr size_t kMaxShortN = kShortB - kShortN - 1;  // 31
inline constexpr size_t kMaxShortB = 0xFF - kShortB;         // 31
// The reader's tables and its S branch (partstore/stored_item.h) say the same.
static_assert(kShortS == stored_item_internal::kShortScalarTag);
static_assert(stored_item_internal::kShortTagBase[kShortS >> 5] == kShortS &&
              stored_item_internal::kShortTagBase[(kShortN - 1) >> 5] == kShortS &&
              stored_item_internal::kShortTagBase[kShortN >> 5] == kShortN &&
              stored_item_internal::kShortTagBase[kShortB >> 5] == kShortB);
static_assert(stored_item_internal::kShortTagType[kShortS >> 5] == Type::kS &&
              stored_item_internal::kShortTagType[(kShortN - 1) >> 5] == Type::kS &&
              stored_item_internal::kShortTagType[kShortN >> 5] == Type::kN &&
              stored_item_internal::kShortTagType[kShortB >> 5] == Type::kB);
static_assert(kShortN == 0xC0, "ReadValueInto's S branch tests tag < 0xC0");

// The short tag of an S, N or B value of n bytes, or 0 when it has none (too long, or another
// type). REQUIRES for S: not a run (runs are written as runs).
inline uint8_t ShortTag(Type type, size_t n) {
  static_assert(static_cast<int>(Type::kS) == 0 && static_cast<int>(Type::kN) == 1 &&
                static_cast<int>(Type::kB) == 2);
  static constexpr uint8_t kFirst[3] = {kShortS, kShortN, kShortB};
  static constexpr size_t kMax[3] = {kMaxShortS, kMaxShortN, kMaxShortB};
  const auto t = static_cast<size_t>(type);
  return t < 3 && n <= kMax[t] ? static_cast<uint8_t>(kFirst[t] + n) : 0;
}

// Whether `text` is a run (see above).
inline bool IsRun(std::string_view text) {
  return text.size() >= kMinRun && text.size() <= kMaxRun &&
         std::memcmp(text.data(), text.data() + 1, text.size() - 1) == 0;
}

// The offset width of a composite whose body is n bytes: the smallest of 1, 2, 4 that holds n.
inline uint8_t WidthFor(size_t n) { return n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : 4; }

// A map of up to kMaxUnindexedMap entries has no offsets (width 0): a reader walks its entries,
// as fast as a binary search at that size, and the item saves a byte an attribute.
inline constexpr size_t kMaxUnindexedMap = 8;
// The offset width of a map (is_map) or list of `count` elements whose body is n bytes.
inline uint8_t WidthOf(bool is_map, size_t count, size_t n) {
  return is_map && count <= kMaxUnindexedMap ? 0 : WidthFor(n);
}

// A little-endian integer of `width` bytes at p (an offset).
inline uint32_t GetFixed(const char* p, uint8_t width) {
  uint32_t v = 0;
  for (uint8_t i = 0; i < width; ++i)
    v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

}  // namespace partstore::stored_item_format
