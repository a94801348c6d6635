// Order-preserving encoding of key values.
//
// Item collections, index entries and scan cursors store keys as byte strings that compare with
// memcmp (unsigned bytes, shorter prefix first) in exactly DynamoDB's order for the key's type:
//
//   S  the UTF-8 bytes, unchanged (DynamoDB orders S by UTF-8 bytes).
//   B  the raw bytes, unchanged.
//   N  a sign byte, then the leading digit's exponent, then the significant digits in base-100
//      pairs:
//        zero      0x80
//        positive  0xC0, (E + 130), p1 .. pk
//        negative  0x40, 255 - (E + 130), 255 - p1 .. 255 - pk, 0xFF
//      E is the adjusted exponent (-130..125, so E + 130 fits a byte). The significant digits,
//      from the leading one, are grouped in pairs (the last padded with a 0) and each pair "ab"
//      is written as the byte 10a + b + 1 (1..100). Digits have no trailing zeros, so the form is
//      unique; a shorter digit string is a prefix of a longer one that extends it, so for
//      positives "shorter prefix first" is numeric order. Negatives invert every byte and end
//      with 0xFF, which sorts after any inverted pair, so -1 > -1.01 as it must.
//      At most 22 bytes.
//
// The encoding carries no type tag: the key schema fixes the type. Decoding is exact.
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"
#include "partstore/value.h"

namespace partstore {

// Appends the encoding of `value`. REQUIRES: value is S, N or B.
void AppendKeyEncoding(const Value& value, std::string* out);
// The same for an encoded value (the same bytes as for its Value).
void AppendKeyEncoding(const ValueView& value, std::string* out);
// The encoding of `value`. REQUIRES: value is S, N or B.
std::string EncodeKey(const Value& value);

// Appends the encoding of a number.
void AppendNumberKeyEncoding(const Number& number, std::string* out);

// Decodes an encoding produced for a key of type `type`. Returns an Internal error for bytes that
// no encoder produces.
Result<Value> DecodeKey(KeyType type, std::string_view encoded);

}  // namespace partstore
