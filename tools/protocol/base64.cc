#include "tools/protocol/base64.h"

#include <array>
#include <cstdint>

namespace partstore::protocol::base64 {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Character -> 6-bit value, or -1 outside the alphabet ('=' included: padding is handled apart).
constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> table{};
  for (auto& entry : table) entry = -1;
  for (int i = 0; i < 64; ++i)
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
  return table;
}
constexpr std::array<int8_t, 256> kDecode = MakeDecodeTable();

int8_t Sextet(char c) { return kDecode[static_cast<unsigned char>(c)]; }

// Number of trailing '=' that form the padding (0, 1 or 2). REQUIRES: text.size() % 4 == 0.
size_t PaddingLength(std::string_view text) {
  size_t n = text.size();
  if (n == 0 || text[n - 1] != '=') return 0;
  return text[n - 2] == '=' ? 2 : 1;
}

}  // namespace

void Encode(std::string_view bytes, std::string* out) {
  const size_t start = out->size();
  out->resize(start + EncodedSize(bytes.size()));
  EncodeTo(bytes, out->data() + start);
}

void EncodeTo(std::string_view bytes, char* dst) {
  const auto* src = reinterpret_cast<const unsigned char*>(bytes.data());
  size_t n = bytes.size();
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t{src[i]} << 16) | (uint32_t{src[i + 1]} << 8) | src[i + 2];
    dst[0] = kAlphabet[v >> 18];
    dst[1] = kAlphabet[(v >> 12) & 63];
    dst[2] = kAlphabet[(v >> 6) & 63];
    dst[3] = kAlphabet[v & 63];
    dst += 4;
  }
  if (n - i == 1) {
    uint32_t v = uint32_t{src[i]} << 16;
    dst[0] = kAlphabet[v >> 18];
    dst[1] = kAlphabet[(v >> 12) & 63];
    dst[2] = '=';
    dst[3] = '=';
  } else if (n - i == 2) {
    uint32_t v = (uint32_t{src[i]} << 16) | (uint32_t{src[i + 1]} << 8);
    dst[0] = kAlphabet[v >> 18];
    dst[1] = kAlphabet[(v >> 12) & 63];
    dst[2] = kAlphabet[(v >> 6) & 63];
    dst[3] = '=';
  }
}

DecodeError Validate(std::string_view text) {
  if (text.size() % 4 != 0) return {DecodeError::Kind::kLength, 0};
  const size_t padding = PaddingLength(text);
  const size_t data = text.size() - padding;
  if (padding > 0) {
    // With one '=' the last data character holds 4 data bits (2 unused); with two, 2 (4 unused).
    int8_t last = Sextet(text[data - 1]);
    int unused_mask = padding == 1 ? 0x3 : 0xF;
    if (last >= 0 && (last & unused_mask) != 0) {
      return {DecodeError::Kind::kNonZeroTrailingBits, data - 1};
    }
  }
  for (size_t i = 0; i < data; ++i) {
    if (Sextet(text[i]) < 0) return {DecodeError::Kind::kBadCharacter, i};
  }
  return {};
}

bool Decode(std::string_view text, std::string* out, DecodeError* error) {
  DecodeError check = Validate(text);
  if (check.kind != DecodeError::Kind::kNone) {
    *error = check;
    return false;
  }
  const size_t padding = PaddingLength(text);
  const size_t data = text.size() - padding;
  const size_t start = out->size();
  out->resize(start + data / 4 * 3 + (data % 4 == 0 ? 0 : data % 4 - 1));
  auto* dst = reinterpret_cast<unsigned char*>(out->data() + start);
  const char* src = text.data();
  size_t i = 0;
  for (; i + 4 <= data; i += 4) {
    uint32_t v = (uint32_t(Sextet(src[i])) << 18) | (uint32_t(Sextet(src[i + 1])) << 12) |
                 (uint32_t(Sextet(src[i + 2])) << 6) | uint32_t(Sextet(src[i + 3]));
    dst[0] = static_cast<unsigned char>(v >> 16);
    dst[1] = static_cast<unsigned char>(v >> 8);
    dst[2] = static_cast<unsigned char>(v);
    dst += 3;
  }
  if (data - i == 2) {
    uint32_t v = (uint32_t(Sextet(src[i])) << 18) | (uint32_t(Sextet(src[i + 1])) << 12);
    dst[0] = static_cast<unsigned char>(v >> 16);
  } else if (data - i == 3) {
    uint32_t v = (uint32_t(Sextet(src[i])) << 18) | (uint32_t(Sextet(src[i + 1])) << 12) |
                 (uint32_t(Sextet(src[i + 2])) << 6);
    dst[0] = static_cast<unsigned char>(v >> 16);
    dst[1] = static_cast<unsigned char>(v >> 8);
  }
  return true;
}

}  // namespace partstore::protocol::base64
