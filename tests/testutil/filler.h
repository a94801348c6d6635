// Text that takes memory. A stored item writes a string of one byte repeated 32 times or more by
// its length (core/stored_item.cc), so a test that fills a memory limit or a byte cap with
// std::string(n, 'x') would store a few bytes; Filler(n) is n bytes that never repeat one byte
// (the alphabet over and over).
#pragma once

#include <cstddef>
#include <string>

namespace partstore::testing {

inline std::string Filler(size_t n) {
  std::string text(n, 'a');
  for (size_t i = 0; i < n; ++i) text[i] = static_cast<char>('a' + i % 26);
  return text;
}

}  // namespace partstore::testing
