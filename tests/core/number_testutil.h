// Shared helpers for the Number tests (number_*_test.cc): DynamoDB's validation messages for
// numbers, Zeros(n), and N(text) for a number that must parse.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "partstore/number.h"
#include "partstore/status.h"

namespace partstore::testing {

inline constexpr char kNotNumeric[] = "The parameter cannot be converted to a numeric value";
inline constexpr char kTooManyDigits[] =
    "Attempting to store more than 38 significant digits in a Number";
inline constexpr char kOverflow[] =
    "Number overflow. Attempting to store a number with magnitude larger than supported range";
inline constexpr char kUnderflow[] =
    "Number underflow. Attempting to store a number with magnitude smaller than supported range";

inline std::string Zeros(int n) { return std::string(static_cast<size_t>(n), '0'); }

// In a namespace of its own: shard/database_testutil.h's testing::N makes a Value, and a binary
// that links tests of both folders (the TSan tree's concurrent_tests) would otherwise hold two
// inline functions of one mangled name (the return type is not part of it), one of them wrong.
namespace numbers {

inline Number N(std::string_view text) {
  Result<Number> r = Number::Parse(text);
  EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
  return r.ok() ? *r : Number();
}

}  // namespace numbers
}  // namespace partstore::testing
