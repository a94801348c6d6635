// Random DynamoDB values for property tests (header-only; namespace partstore::testing).
//
// Everything is driven by a caller-owned std::mt19937_64, so a fixed seed reproduces a run.
// Generated values are always valid DynamoDB values: numbers in range with <= 38 significant
// digits, strings valid UTF-8 (multi-byte characters, controls, quotes and backslashes included),
// sets non-empty and duplicate-free, attribute and map key names non-empty, nesting bounded by
// the caller's max_depth (so RandomItem(..., max_depth <= 31) passes ValidateValue).
//
// Pieces meant for reuse elsewhere (key encoding, expressions, ...):
//   RandomNumberText / RandomNumber / NumberTextVariant   numbers and equivalent spellings
//   RandomUtf8 / RandomBytes / RandomAttributeName        strings and bytes
//   RandomScalar(rng, Type::kS / kN / kB, ...)             key-typed values
//   RandomValue / RandomItem                               whole values and items
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "partstore/item.h"
#include "partstore/number.h"
#include "partstore/value.h"

namespace partstore::testing {

struct RandomValueOptions {
  // Lengths are in code points for strings, bytes for binaries, elements for collections.
  int max_string_length = 12;
  int max_binary_length = 12;
  int max_collection_size = 4;
  int max_name_length = 8;
  // Chance that a string code point is outside ASCII (2-, 3- or 4-byte UTF-8).
  double non_ascii_fraction = 0.3;
  // Whether S and B values (and set elements) may be empty; key attributes may not.
  bool allow_empty = true;
};

// ---- Primitives ----------------------------------------------------------------------------

inline int RandomInt(std::mt19937_64& rng, int lo, int hi) {  // inclusive
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

inline bool RandomChance(std::mt19937_64& rng, double p) {
  return std::bernoulli_distribution(p)(rng);
}

inline void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// A Unicode scalar value (never a surrogate): mostly printable ASCII, sometimes controls, NUL,
// '"' and '\\', and with probability non_ascii_fraction a 2-, 3- or 4-byte character.
inline uint32_t RandomCodePoint(std::mt19937_64& rng, double non_ascii_fraction = 0.3) {
  if (RandomChance(rng, non_ascii_fraction)) {
    switch (RandomInt(rng, 0, 2)) {
      case 0:
        return static_cast<uint32_t>(RandomInt(rng, 0x80, 0x7FF));
      case 1: {
        uint32_t cp;
        do cp = static_cast<uint32_t>(RandomInt(rng, 0x800, 0xFFFF));
        while (cp >= 0xD800 && cp <= 0xDFFF);
        return cp;
      }
      default:
        return static_cast<uint32_t>(RandomInt(rng, 0x10000, 0x10FFFF));
    }
  }
  switch (RandomInt(rng, 0, 15)) {
    case 0:
      return static_cast<uint32_t>(RandomInt(rng, 0, 0x1F));  // Controls, NUL included.
    case 1:
      return '"';
    case 2:
      return '\\';
    default:
      return static_cast<uint32_t>(RandomInt(rng, 0x20, 0x7E));
  }
}

// Valid UTF-8 of min_length..max_length code points.
inline std::string RandomUtf8(std::mt19937_64& rng, int min_length, int max_length,
                              double non_ascii_fraction = 0.3) {
  std::string out;
  int n = RandomInt(rng, min_length, std::max(min_length, max_length));
  for (int i = 0; i < n; ++i) AppendUtf8(RandomCodePoint(rng, non_ascii_fraction), &out);
  return out;
}

inline std::string RandomBytes(std::mt19937_64& rng, int min_length, int max_length) {
  std::string out(static_cast<size_t>(RandomInt(rng, min_length, std::max(min_length, max_length))),
                  '\0');
  for (char& c : out) c = static_cast<char>(RandomInt(rng, 0, 255));
  return out;
}

// A non-empty attribute (or map key) name.
inline std::string RandomAttributeName(std::mt19937_64& rng,
                                       const RandomValueOptions& options = {}) {
  return RandomUtf8(rng, 1, std::max(1, options.max_name_length), options.non_ascii_fraction);
}

// ---- Numbers -------------------------------------------------------------------------------

// Text of a DynamoDB number in range (zero, or 1E-130 <= |x| < 1E126, 1..38 significant digits),
// spelled in one of several accepted forms: plain ("-12.5", "0.000123"), scientific ("1.25E+3",
// "125e-2"), with leading zeros ("007") or a few trailing fraction zeros ("1.50").
inline std::string RandomNumberText(std::mt19937_64& rng) {
  if (RandomChance(rng, 0.04)) {
    static const char* const kZeros[] = {"0", "-0", "0.0", "000", "0.000", "0E0", "0e-5"};
    return kZeros[RandomInt(rng, 0, 6)];
  }
  // Significant digits: mostly short, sometimes the full 38.
  int digits = RandomChance(rng, 0.1) ? 38 : RandomInt(rng, 1, RandomChance(rng, 0.7) ? 6 : 38);
  std::string d;
  d.push_back(static_cast<char>('1' + RandomInt(rng, 0, 8)));
  for (int i = 1; i < digits; ++i) d.push_back(static_cast<char>('0' + RandomInt(rng, 0, 9)));
  while (d.size() > 1 && d.back() == '0') d.pop_back();  // Keep the count honest.
  // Adjusted exponent (the leading digit's power of ten): mostly small, sometimes at the edges.
  int adjusted;
  switch (RandomInt(rng, 0, 9)) {
    case 0:
      adjusted = RandomInt(rng, Number::kMinAdjustedExponent, Number::kMaxAdjustedExponent);
      break;
    case 1:
      adjusted =
          RandomChance(rng, 0.5) ? Number::kMaxAdjustedExponent : Number::kMinAdjustedExponent;
      break;
    default:
      adjusted = RandomInt(rng, -6, 12);
      break;
  }
  std::string out;
  if (RandomChance(rng, 0.5)) out.push_back('-');
  const int n = static_cast<int>(d.size());
  const bool plain = adjusted >= -20 && adjusted <= 45 && RandomChance(rng, 0.6);
  if (plain) {
    if (RandomChance(rng, 0.15)) out.append(static_cast<size_t>(RandomInt(rng, 1, 3)), '0');
    std::string fraction;
    if (adjusted >= 0) {
      for (int i = 0; i <= adjusted; ++i) out.push_back(i < n ? d[i] : '0');
      if (n > adjusted + 1) fraction = d.substr(static_cast<size_t>(adjusted + 1));
    } else {
      out.push_back('0');
      fraction.assign(static_cast<size_t>(-adjusted - 1), '0');
      fraction += d;
    }
    if (!fraction.empty() && n < 36 && RandomChance(rng, 0.2)) fraction.append(2, '0');
    if (!fraction.empty()) out.append(".").append(fraction);
  } else {
    // Scientific: either d0.d1d2...E<adjusted> or all digits as an integer with a shifted exponent.
    int exponent;
    if (RandomChance(rng, 0.5) && n > 1) {
      out.push_back(d[0]);
      out.append(".").append(d.substr(1));
      exponent = adjusted;
    } else {
      out.append(d);
      exponent = adjusted - (n - 1);
    }
    out.push_back(RandomChance(rng, 0.5) ? 'E' : 'e');
    if (exponent >= 0 && RandomChance(rng, 0.3)) out.push_back('+');
    out.append(std::to_string(exponent));
  }
  return out;
}

inline Number RandomNumber(std::mt19937_64& rng) {
  // RandomNumberText only produces valid text; Parse is the single source of truth either way.
  for (;;) {
    Result<Number> n = Number::Parse(RandomNumberText(rng));
    if (n.ok()) return *n;
  }
}

// Another spelling of the same number (for "1" vs "1.0" vs "10E-1" style equivalence tests).
inline std::string NumberTextVariant(const Number& n, std::mt19937_64& rng) {
  if (n.is_zero()) {
    static const char* const kZeros[] = {"0", "-0", "0.0", "00", "0E3"};
    return kZeros[RandomInt(rng, 0, 4)];
  }
  // Coefficient digits and exponent from the representation.
  std::string coefficient;
  for (unsigned __int128 c = n.coefficient(); c > 0; c /= 10) {
    coefficient.insert(coefficient.begin(), static_cast<char>('0' + static_cast<int>(c % 10)));
  }
  int exponent = n.exponent();
  // Append up to (38 - digits) trailing zeros, compensating in the exponent.
  int room = Number::kMaxDigits - n.digits();
  int zeros = room > 0 ? RandomInt(rng, 0, std::min(room, 3)) : 0;
  coefficient.append(static_cast<size_t>(zeros), '0');
  exponent -= zeros;
  std::string out = n.is_negative() ? "-" : "";
  if (RandomChance(rng, 0.3)) out.append("00");
  out.append(coefficient);
  out.push_back(RandomChance(rng, 0.5) ? 'E' : 'e');
  out.append(std::to_string(exponent));
  return out;
}

// ---- Values --------------------------------------------------------------------------------

// A random S, N, B, BOOL or NULL value. For key-typed values pass options.allow_empty = false.
inline Value RandomScalar(std::mt19937_64& rng, Type type, const RandomValueOptions& options = {}) {
  const int min = options.allow_empty ? 0 : 1;
  switch (type) {
    case Type::kS:
      return Value(RandomUtf8(rng, min, options.max_string_length, options.non_ascii_fraction));
    case Type::kN:
      return Value(RandomNumber(rng));
    case Type::kB:
      return Value::Binary(RandomBytes(rng, min, options.max_binary_length));
    case Type::kBool:
      return Value(RandomChance(rng, 0.5));
    default:
      return Value::Nil();
  }
}

// A non-empty set of the given set type (kSS, kNS or kBS).
inline Value RandomSet(std::mt19937_64& rng, Type type, const RandomValueOptions& options = {}) {
  const int target = RandomInt(rng, 1, std::max(1, options.max_collection_size));
  const int min = options.allow_empty ? 0 : 1;
  // Bounded attempts: tiny alphabets (e.g. one-byte binaries) may not have `target` distinct
  // elements quickly; a smaller non-empty set is fine.
  const int attempts = target * 4 + 4;
  if (type == Type::kSS) {
    StringSet set;
    for (int i = 0; i < attempts && static_cast<int>(set.size()) < target; ++i) {
      set.insert(RandomUtf8(rng, min, options.max_string_length, options.non_ascii_fraction));
    }
    if (set.empty()) set.insert("x");
    return Value(std::move(set));
  }
  if (type == Type::kNS) {
    NumberSet set;
    for (int i = 0; i < attempts && static_cast<int>(set.size()) < target; ++i) {
      set.insert(RandomNumber(rng));
    }
    return Value(std::move(set));
  }
  BinarySet set;
  for (int i = 0; i < attempts && static_cast<int>(set.size()) < target; ++i) {
    set.insert(Bytes{RandomBytes(rng, min, options.max_binary_length)});
  }
  if (set.empty()) set.insert(Bytes{"x"});
  return Value(std::move(set));
}

// A random value of any type. max_depth bounds M/L nesting: 0 gives no M or L, 1 gives M/L of
// non-containers, and so on (NestingDepth(result) <= max_depth).
inline Value RandomValue(std::mt19937_64& rng, int max_depth,
                         const RandomValueOptions& options = {}) {
  // Weights: S N B BOOL NULL M L SS NS BS.
  static constexpr int kWeights[] = {20, 15, 8, 7, 5, 11, 11, 8, 8, 7};
  int total = 0;
  for (int i = 0; i < 10; ++i) {
    if (max_depth <= 0 && (i == 5 || i == 6)) continue;
    total += kWeights[i];
  }
  int pick = RandomInt(rng, 0, total - 1);
  int index = 0;
  for (; index < 10; ++index) {
    if (max_depth <= 0 && (index == 5 || index == 6)) continue;
    if (pick < kWeights[index]) break;
    pick -= kWeights[index];
  }
  switch (index) {
    case 0:
      return RandomScalar(rng, Type::kS, options);
    case 1:
      return RandomScalar(rng, Type::kN, options);
    case 2:
      return RandomScalar(rng, Type::kB, options);
    case 3:
      return RandomScalar(rng, Type::kBool, options);
    case 4:
      return Value::Nil();
    case 5: {
      AttributeMap map;
      int n = RandomInt(rng, 0, options.max_collection_size);
      for (int i = 0; i < n; ++i) {
        map.insert_or_assign(RandomAttributeName(rng, options),
                             RandomValue(rng, max_depth - 1, options));
      }
      return Value(std::move(map));
    }
    case 6: {
      ValueList list;
      int n = RandomInt(rng, 0, options.max_collection_size);
      for (int i = 0; i < n; ++i) list.push_back(RandomValue(rng, max_depth - 1, options));
      return Value(std::move(list));
    }
    case 7:
      return RandomSet(rng, Type::kSS, options);
    case 8:
      return RandomSet(rng, Type::kNS, options);
    default:
      return RandomSet(rng, Type::kBS, options);
  }
}

// An item of 0..max_attributes attributes with distinct non-empty names; values nest at most
// max_depth levels (<= 31 keeps the item within DynamoDB's 32-level limit).
inline Item RandomItem(std::mt19937_64& rng, int max_attributes = 8, int max_depth = 3,
                       const RandomValueOptions& options = {}) {
  Item item;
  int n = RandomInt(rng, 0, max_attributes);
  for (int i = 0; i < n; ++i) {
    item.insert_or_assign(RandomAttributeName(rng, options), RandomValue(rng, max_depth, options));
  }
  return item;
}

}  // namespace partstore::testing
