#include "core/key_encoding.h"

#include <array>
#include <cassert>
#include <cstdint>

namespace partstore {
namespace {

constexpr uint8_t kNegative = 0x40;
constexpr uint8_t kZero = 0x80;
constexpr uint8_t kPositive = 0xC0;
constexpr uint8_t kNegativeEnd = 0xFF;
constexpr int kExponentBias = -Number::kMinAdjustedExponent;  // 130

// The significant digits of `coefficient` (no leading zeros), most significant first.
int CoefficientDigits(unsigned __int128 coefficient, std::array<uint8_t, 40>* digits) {
  std::array<uint8_t, 40> reversed;
  int n = 0;
  while (coefficient != 0) {
    // Peel 19 digits at a time with 64-bit division: much cheaper than 128-bit division per digit.
    uint64_t chunk = static_cast<uint64_t>(coefficient % 10000000000000000000ull);
    coefficient /= 10000000000000000000ull;
    for (int i = 0; i < 19 && (chunk != 0 || coefficient != 0); ++i) {
      reversed[n++] = static_cast<uint8_t>(chunk % 10);
      chunk /= 10;
    }
  }
  for (int i = 0; i < n; ++i) (*digits)[i] = reversed[n - 1 - i];
  return n;
}

}  // namespace

void AppendNumberKeyEncoding(const Number& number, std::string* out) {
  if (number.is_zero()) {
    out->push_back(static_cast<char>(kZero));
    return;
  }
  const bool negative = number.is_negative();
  const uint8_t flip = negative ? 0xFF : 0x00;
  out->push_back(static_cast<char>(negative ? kNegative : kPositive));
  out->push_back(static_cast<char>(flip ^ static_cast<uint8_t>(number.adjusted_exponent() +
                                                                kExponentBias)));
  std::array<uint8_t, 40> digits;
  const int n = CoefficientDigits(number.coefficient(), &digits);
  for (int i = 0; i < n; i += 2) {
    const uint8_t low = i + 1 < n ? digits[i + 1] : 0;
    const uint8_t pair = static_cast<uint8_t>(digits[i] * 10 + low + 1);
    out->push_back(static_cast<char>(flip ^ pair));
  }
  if (negative) out->push_back(static_cast<char>(kNegativeEnd));
}

namespace {

// A tree value or an encoded one: the same accessors.
template <typename V>
void AppendKeyEncodingOf(const V& value, std::string* out) {
  switch (value.type()) {
    case Type::kS: out->append(value.as_string()); return;
    case Type::kB: out->append(value.as_binary()); return;
    case Type::kN: AppendNumberKeyEncoding(value.as_number(), out); return;
    default: assert(false && "AppendKeyEncoding: not a key type"); return;
  }
}

}  // namespace

void AppendKeyEncoding(const Value& value, std::string* out) { AppendKeyEncodingOf(value, out); }

void AppendKeyEncoding(const ValueView& value, std::string* out) {
  AppendKeyEncodingOf(value, out);
}

std::string EncodeKey(const Value& value) {
  std::string out;
  AppendKeyEncoding(value, &out);
  return out;
}

Result<Value> DecodeKey(KeyType type, std::string_view encoded) {
  switch (type) {
    case KeyType::kString: return Value(std::string(encoded));
    case KeyType::kBinary: return Value::Binary(std::string(encoded));
    case KeyType::kNumber: break;
  }
  const auto bad = [] { return Status::Internal("malformed number key encoding"); };
  if (encoded.empty()) return bad();
  const uint8_t sign = static_cast<uint8_t>(encoded[0]);
  if (sign == kZero) {
    if (encoded.size() != 1) return bad();
    return Value(Number());
  }
  if (sign != kPositive && sign != kNegative) return bad();
  const bool negative = sign == kNegative;
  const uint8_t flip = negative ? 0xFF : 0x00;
  std::string_view body = encoded.substr(1);
  if (negative) {
    if (body.empty() || static_cast<uint8_t>(body.back()) != kNegativeEnd) return bad();
    body.remove_suffix(1);
  }
  if (body.size() < 2) return bad();
  const int adjusted = (flip ^ static_cast<uint8_t>(body[0])) - kExponentBias;
  std::string text = negative ? "-0." : "0.";
  for (size_t i = 1; i < body.size(); ++i) {
    const int pair = (flip ^ static_cast<uint8_t>(body[i])) - 1;
    if (pair < 0 || pair > 99) return bad();
    text.push_back(static_cast<char>('0' + pair / 10));
    text.push_back(static_cast<char>('0' + pair % 10));
  }
  // 0.d1d2... x 10^(adjusted + 1) puts d1 at exponent `adjusted`.
  text.push_back('e');
  text.append(std::to_string(adjusted + 1));
  Result<Number> number = Number::Parse(text);
  if (!number.ok()) return bad();
  return Value(std::move(number).value());
}

}  // namespace partstore
