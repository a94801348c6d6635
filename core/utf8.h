// UTF-8 helpers for DynamoDB's Java-string measures.
//
// DynamoDB measures some strings as Java does, in UTF-16 code units: size() of an S value in
// expressions, the 4 KB expression limit, and the lengths quoted in some serialization errors.
//
// Thread safety: pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string_view>

namespace partstore {

// The length of `text` in UTF-16 code units: one per code point, two for a code point outside
// the Basic Multilingual Plane (a 4-byte UTF-8 sequence). For valid UTF-8 this is exactly Java's
// String.length(); for invalid input it counts every byte that is not a continuation byte.
inline size_t Utf16Length(std::string_view text) {
  size_t units = 0;
  for (char c : text) {
    const auto b = static_cast<unsigned char>(c);
    units += (b & 0xC0) != 0x80;  // not a continuation byte: a new code point
    units += b >= 0xF0;           // a 4-byte sequence: a surrogate pair
  }
  return units;
}

}  // namespace partstore
