// Number conversions: to and from int64_t, and StorageSize (the bytes DynamoDB counts for an N
// value; live captures, and dynalite's rule where no capture decides).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "partstore/number.h"
#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::numbers::N;

// ---------------------------------------------------------------------------------------------
// Integers.

TEST(NumberIntegerTest, ToInt64) {
  struct Case {
    const char* text;
    std::optional<int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"0", 0},
      {"-0", 0},
      {"1", 1},
      {"-1", -1},
      {"1.0", 1},
      {"120", 120},
      {"1e18", 1'000'000'000'000'000'000},
      {"-1e18", -1'000'000'000'000'000'000},
      {"9e18", 9'000'000'000'000'000'000},
      {"9223372036854775807", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
      {"9223372036854775808", std::nullopt},
      {"-9223372036854775809", std::nullopt},
      {"1e19", std::nullopt},
      {"1e125", std::nullopt},
      {"1.5", std::nullopt},
      {"-0.5", std::nullopt},
      {"1e-130", std::nullopt},
      {"12345678901234567890", std::nullopt},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(N(c.text).ToInt64(), c.expected) << c.text;
  }
}

TEST(NumberIntegerTest, FromInt64) {
  const std::vector<int64_t> values = {0,
                                       1,
                                       -1,
                                       10,
                                       100,
                                       -1000,
                                       123456789,
                                       1'000'000'000'000'000'000,
                                       std::numeric_limits<int64_t>::max(),
                                       std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::min() + 1};
  for (int64_t v : values) {
    const Number n = Number::FromInt64(v);
    EXPECT_EQ(n.ToString(), std::to_string(v));
    EXPECT_EQ(n, N(std::to_string(v))) << v;
    EXPECT_EQ(n.ToInt64(), v);
  }
  EXPECT_EQ(Number::FromInt64(100).coefficient(), 1u);
  EXPECT_EQ(Number::FromInt64(100).exponent(), 2);
  EXPECT_EQ(Number::FromInt64(0), Number());
}

// ---------------------------------------------------------------------------------------------
// Size.

TEST(NumberStorageSizeTest, Table) {
  struct Case {
    std::string text;
    size_t bytes;
  };
  const std::vector<Case> cases = {
      // The brief / reference §1.1.
      {"12", 2},
      {"1.2", 3},
      {"123", 3},
      {"-12", 3},
      {"0", 1},
      // 23 literals captured against live DynamoDB by bisecting the 400 KB item gate (a public
      // conformance suite, eu-west-2, 2026-08-18); dynalite's rule reproduces all of them.
      {"1", 2},
      {"1234", 3},
      {"12345678901234567890123456789012345678", 20},
      {"0042", 2},
      {"100", 2},
      {"1010", 3},
      {"0.0000001", 2},
      {"1E125", 2},
      {"1E-100", 2},
      {"1.5", 3},
      {"15", 2},
      {"1.200", 3},
      {"1.234", 4},
      {"3.14159", 5},
      {"123456", 4},
      {"100.5", 4},
      {"0.15", 2},
      {"-42", 3},
      {"-0", 1},
      // Alignment to even powers of ten where no capture decides (dynalite's rule; see number.cc).
      {"1.5E20", 3},
      {"1.5E21", 2},
      {"0.015", 3},
      {"0.0015", 2},
      {"-1.2", 4},
      {"9.9999999999999999999999999999999999999E125", 20},
      {"1.2345678901234567890123456789012345678E-130", 21},
      {"-1.2345678901234567890123456789012345678E-130", 22},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(N(c.text).StorageSize(), c.bytes) << c.text;
  }
}

}  // namespace
}  // namespace partstore
