// Number comparison and arithmetic (Add, Subtract, Negated). Expected results and errors come from
// live DynamoDB where a capture exists: Scylla's test_update_expression.py (plus precision,
// overflow, imprecise sums) and ExtendDB#94.
#include <gtest/gtest.h>

#include <compare>
#include <string>
#include <vector>

#include "partstore/number.h"
#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::kOverflow;
using ::partstore::testing::kUnderflow;
using ::partstore::testing::Zeros;
using ::partstore::testing::numbers::N;

// ---------------------------------------------------------------------------------------------
// Comparison.

TEST(NumberCompareTest, Table) {
  struct Case {
    const char* a;
    const char* b;
    int expected;  // sign of a - b
  };
  const std::vector<Case> cases = {
      {"1000", "1e3", 0},
      {"1000", "1E+3", 0},
      {"1000", "1000.0", 0},
      {"1000", "001000", 0},
      {"1000", "+1000", 0},
      {"123", "1.23e2", 0},
      {"0", "-0", 0},
      {"0", "0e5", 0},
      {"1", "2", -1},
      {"-1", "0", -1},
      {"-2", "-1", -1},
      {"0", "1e-130", -1},
      {"-1e-130", "0", -1},
      {"1.5", "1.4999999", 1},
      {"0.1", "1", -1},
      {"10", "9.9999", 1},
      {"9.99e125", "1e125", 1},
      {"-1e125", "-9e124", -1},
      {"1e125", "-1e125", 1},
      {"99999999999999999999999999999999999999", "1e38", -1},
      {"12345678901234567890123456789012345678", "12345678901234567890123456789012345679", -1},
      {"1.2345678901234567890123456789012345678", "1.2345678901234567890123456789012345677", 1},
      {"1.2", "1.19999999999999999999999999999999999", 1},
      {"-1.2", "-1.19999999999999999999999999999999999", -1},
      {"1e-130", "1.0000000000000000000000000000000000001e-130", -1},
      {"5", "49e-1", 1},
      {"5", "51e-1", -1},
  };
  for (const Case& c : cases) {
    const Number a = N(c.a);
    const Number b = N(c.b);
    const auto expected = c.expected < 0   ? std::strong_ordering::less
                          : c.expected > 0 ? std::strong_ordering::greater
                                           : std::strong_ordering::equal;
    const auto reversed = c.expected > 0   ? std::strong_ordering::less
                          : c.expected < 0 ? std::strong_ordering::greater
                                           : std::strong_ordering::equal;
    EXPECT_EQ(a <=> b, expected) << c.a << " vs " << c.b;
    EXPECT_EQ(b <=> a, reversed) << c.b << " vs " << c.a;
    EXPECT_EQ(a == b, c.expected == 0) << c.a << " vs " << c.b;
    EXPECT_EQ(a < b, c.expected < 0) << c.a << " vs " << c.b;
  }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic.

struct ArithmeticCase {
  std::string a;
  char op;  // '+' or '-'
  std::string b;
  std::string expected;  // canonical text, or an error message
  bool error = false;
};

TEST(NumberArithmeticTest, Table) {
  const std::vector<ArithmeticCase> cases = {
      // Scylla test_update_expression_plus_precision (live).
      {"1", '+', "10000000000000000000000", "10000000000000000000001"},
      {"10000000000000000000000", '-', "1", "9999999999999999999999"},
      // Scylla test_update_expression_plus_overflow (live).
      {"9e125", '+', "9e125", kOverflow, true},
      {"9e125", '-', "-9e125", kOverflow, true},
      {"9e125", '+', "9e124", "99" + Zeros(124)},
      {"-9e125", '-', "9e125", kOverflow, true},
      // Scylla test_update_expression_plus_imprecise: DynamoDB reports lost precision as an
      // overflow.
      {"1e50", '+', "1", kOverflow, true},
      {"1e50", '-', "1", kOverflow, true},
      {"1e125", '+', "1e-130", kOverflow, true},
      {"1", '+', "1e-37", "1." + Zeros(36) + "1"},
      {"1", '+', "1e-38", kOverflow, true},
      {std::string(38, '9'), '+', "1", "1" + Zeros(38)},
      {std::string(38, '9'), '+', "2", kOverflow, true},
      {"-" + std::string(38, '9'), '-', "1", "-1" + Zeros(38)},
      // ExtendDB#94 (live): max + 1E125 overflows.
      {"9.9999999999999999999999999999999999999E+125", '+', "1E+125", kOverflow, true},
      {"9.9999999999999999999999999999999999999E+125", '+', "1E+88", kOverflow, true},
      {"9.9999999999999999999999999999999999999E+125", '-', "1E+88",
       std::string(37, '9') + "8" + Zeros(88)},
      // Underflow (message inferred: the range error DynamoDB uses for |x| < 1E-130).
      {"1.1e-130", '-', "1e-130", kUnderflow, true},
      {"-1.1e-130", '+', "1e-130", kUnderflow, true},
      {"2e-130", '-', "1e-130", "0." + Zeros(129) + "1"},
      // Exact cancellation gives a non-negative zero.
      {"1.5", '-', "1.5", "0"},
      {"-1", '+', "1", "0"},
      {"1e125", '-', "1e125", "0"},
      {"1e-130", '-', "1e-130", "0"},
      // Ordinary sums and signs.
      {"0.1", '+', "0.2", "0.3"},
      {"-5", '+', "3", "-2"},
      {"3", '-', "5", "-2"},
      {"-3", '-', "-5", "2"},
      {"-3", '+', "-5", "-8"},
      {"99", '+', "1", "100"},
      {"0.99", '+', "0.01", "1"},
      {"1000", '-', "0.001", "999.999"},
      {"1e3", '+', "1e-3", "1000.001"},
      {"0", '+', "0", "0"},
      {"0", '-', "5", "-5"},
      {"5", '-', "0", "5"},
      {"0", '+', "-7.5", "-7.5"},
      {"-0", '-', "-0", "0"},
      // Aligned operands wider than 38 digits whose exact result fits (the wide path).
      {"1e40", '-', std::string(38, '9') + "00", "100"},
      {"1e125", '-', "9." + std::string(37, '9') + "E124", "1" + Zeros(87)},
      {"-1e125", '+', "9." + std::string(37, '9') + "E124", "-1" + Zeros(87)},
      {"1e100", '-', "1e100", "0"},
      {"1e100", '+', "1e-100", kOverflow, true},
      {"1e-100", '-', "1e100", kOverflow, true},
      {"1.2345678901234567890123456789012345678e125", '-',
       "1.2345678901234567890123456789012345677e125", "1" + Zeros(88)},
      {"1.2345678901234567890123456789012345678e-93", '-',
       "1.2345678901234567890123456789012345677e-93", "0." + Zeros(129) + "1"},
      {"1.2345678901234567890123456789012345678e-94", '-',
       "1.2345678901234567890123456789012345677e-94", kUnderflow, true},
  };
  for (const ArithmeticCase& c : cases) {
    const Number a = N(c.a);
    const Number b = N(c.b);
    Result<Number> r = c.op == '+' ? Number::Add(a, b) : Number::Subtract(a, b);
    const std::string what = c.a + " " + c.op + " " + c.b;
    if (c.error) {
      ASSERT_FALSE(r.ok()) << what << " = " << r->ToString();
      EXPECT_EQ(r.error().code(), Code::kValidation) << what;
      EXPECT_EQ(r.error().message(), c.expected) << what;
    } else {
      ASSERT_TRUE(r.ok()) << what << ": " << r.status().ToString();
      EXPECT_EQ(r->ToString(), c.expected) << what;
      EXPECT_EQ(*r, N(c.expected)) << what;
    }
  }
}

TEST(NumberArithmeticTest, Negated) {
  EXPECT_EQ(N("5").Negated(), N("-5"));
  EXPECT_EQ(N("-5").Negated(), N("5"));
  EXPECT_EQ(N("0").Negated(), Number());
  EXPECT_FALSE(N("0").Negated().is_negative());
  EXPECT_EQ(N("-1.5e-130").Negated().ToString(), "0." + Zeros(129) + "15");
}

}  // namespace
}  // namespace partstore
