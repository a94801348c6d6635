// The value pools of the index model tests (index_model_test.cc): table keys, index keys and
// ordinary attributes drawn from small sets, so that random items share keys (ties and
// collisions matter) and numbers spelled two ways ("1e3", "1000") meet.
#pragma once

#include <random>

#include "partstore/key.h"
#include "partstore/number.h"
#include "partstore/value.h"
#include "tests/testutil/random_values.h"

namespace partstore::testing {

inline Value NumberValue(const char* text) { return Value(Number::Parse(text).value()); }

// Table keys. N pools hold one value spelled two ways ("1e3", "1000") and values whose encoded
// bytes order differently from their text.
inline Value TablePartitionValue(std::mt19937_64& rng, KeyType type) {
  static const char* const kStrings[] = {"a", "b", "ab", "\xC3\xA9", "Z"};
  static const char* const kNumbers[] = {"1", "-2", "10", "1e3", "1000", "0.5"};
  return type == KeyType::kString ? Value(kStrings[RandomInt(rng, 0, 4)])
                                  : NumberValue(kNumbers[RandomInt(rng, 0, 5)]);
}
inline Value TableSortValue(std::mt19937_64& rng, KeyType type) {
  static const char* const kStrings[] = {"s1", "s10", "s2", "t"};
  static const char* const kNumbers[] = {"0", "-1", "2.5", "7", "-10"};
  return type == KeyType::kString ? Value(kStrings[RandomInt(rng, 0, 3)])
                                  : NumberValue(kNumbers[RandomInt(rng, 0, 4)]);
}
// Index keys: few values, so that items share them ("g" is a prefix of the others).
inline Value IndexKeyValue(std::mt19937_64& rng, KeyType type) {
  static const char* const kStrings[] = {"g1", "g2", "g", "h", "g10"};
  static const char* const kNumbers[] = {"1", "2", "-1", "0.5", "100", "1e2"};
  return type == KeyType::kString ? Value(kStrings[RandomInt(rng, 0, 4)])
                                  : NumberValue(kNumbers[RandomInt(rng, 0, 5)]);
}
inline Value SmallString(std::mt19937_64& rng) {
  static const char* const kStrings[] = {"x", "xy", "", "hello", "h"};
  return Value(kStrings[RandomInt(rng, 0, 4)]);
}
// A value an index key attribute of `type` refuses: another type, or an empty S / B.
inline Value BadIndexKeyValue(std::mt19937_64& rng, KeyType type) {
  switch (RandomInt(rng, 0, 3)) {
    case 0:
      return type == KeyType::kString ? Value("") : Value("7");
    case 1:
      return type == KeyType::kNumber ? Value::Binary("b") : NumberValue("3");
    case 2:
      return Value(true);
    default:
      return Value::Binary("");
  }
}

// Ordinary (non-key-capable) attributes, projected or not depending on the index.
inline constexpr const char* kPlain[] = {"x", "y", "z"};
// Attributes that may be index keys (the table's key attributes may be too).
inline constexpr const char* kKeyCandidates[] = {"ga", "gb", "gs", "ls", "lt"};

}  // namespace partstore::testing
