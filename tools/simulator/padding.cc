// FillPadding (padding.h).
#include "tools/simulator/padding.h"

#include <algorithm>
#include <string_view>

namespace partstore::sim {
namespace {

// 4 KiB of lowercase letters from a fixed linear congruential sequence: deterministic, and its
// first two bytes differ, so no padding (a prefix, or copies of it) is one byte repeated.
std::string_view FullText() {
  static const std::string text = [] {
    std::string out(4096, 'a');
    uint32_t x = 12345;
    for (char& c : out) {
      x = x * 1103515245u + 12345u;
      c = static_cast<char>('a' + (x >> 16) % 26);
    }
    out[1] = out[0] == 'a' ? 'b' : 'a';  // the first two bytes differ
    return out;
  }();
  return text;
}

}  // namespace

void FillPadding(Padding padding, size_t n, std::string& out) {
  out.clear();
  if (padding == Padding::kRepeated) {
    out.assign(n, 'x');
    return;
  }
  const std::string_view text = FullText();
  out.reserve(n);
  while (out.size() < n) out.append(text.substr(0, std::min(text.size(), n - out.size())));
}

}  // namespace partstore::sim
