// Number::Parse, DynamoDB's N type: accepted forms and their canonical text, rejected forms and
// their messages, boundaries, and the representation (coefficient, exponent, digits).
//
// Expected behaviour comes from live DynamoDB wherever a capture exists:
//  - Scylla's test/alternator/test_number.py (run against DynamoDB): accepted and rejected forms,
//    normalization table, arithmetic errors, the 0e126 / 0.0e126 quirk.
//  - dynalite's validations (checkNum) and db/index.js (valSize): messages, check order, size.
//  - A live conformance suite (four regions) for whitespace, hex, NaN/Infinity, "1e", and huge
//    exponents (1e99999999999 is an overflow, not "cannot be converted").
// Comparison and arithmetic are in number_arithmetic_test.cc, int64 and size conversions in
// number_conversion_test.cc, the randomized reference checks in number_random_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partstore/number.h"
#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::kNotNumeric;
using ::partstore::testing::kOverflow;
using ::partstore::testing::kTooManyDigits;
using ::partstore::testing::kUnderflow;
using ::partstore::testing::Zeros;
using ::partstore::testing::numbers::N;

// ---------------------------------------------------------------------------------------------
// Parse and canonical output.

struct CanonicalCase {
  std::string input;
  std::string expected;
};

TEST(NumberParseTest, CanonicalForms) {
  const std::vector<CanonicalCase> cases = {
      // From the brief and reference §1.4.
      {"42", "42"},
      {"-42", "-42"},
      {"00042", "42"},
      {"1.0", "1"},
      {".5", "0.5"},
      {"5.", "5"},
      {"1.5E2", "150"},
      {"1e-5", "0.00001"},
      {"1E-5", "0.00001"},
      {"-0", "0"},
      {"0.0e126", "0"},
      {"3.1400", "3.14"},
      {"1E125", "1" + Zeros(125)},
      // Scylla's _NORMALIZATION_CASES (captured from DynamoDB).
      {"1", "1"},
      {"123", "123"},
      {"-5", "-5"},
      {"0", "0"},
      {"10", "10"},
      {"100", "100"},
      {"1000", "1000"},
      {"007", "7"},
      {"001.23", "1.23"},
      {"00", "0"},
      {"+3", "3"},
      {"+0", "0"},
      {"+1.5", "1.5"},
      {"1.00", "1"},
      {"1.10", "1.1"},
      {"100.000", "100"},
      {"0.0", "0"},
      {"0.10", "0.1"},
      {"1e3", "1000"},
      {"1E3", "1000"},
      {"1e+3", "1000"},
      {"1E+3", "1000"},
      {"5e1", "50"},
      {"-3e2", "-300"},
      {"1.5e2", "150"},
      {"1.23e4", "12300"},
      {"1e-3", "0.001"},
      {"5e-1", "0.5"},
      {"123e-2", "1.23"},
      {"1.23e-1", "0.123"},
      {"1.0e3", "1000"},
      {"1.00e2", "100"},
      {"1.0e-1", "0.1"},
      {"-0.0", "0"},
      {"0e5", "0"},
      {"0.0e3", "0"},
      {"0e-5", "0"},
      {".123", "0.123"},
      {"-.5", "-0.5"},
      {"1e20", "100000000000000000000"},
      {"9.9e10", "99000000000"},
      {"1e-20", "0.00000000000000000001"},
      {"3.14159", "3.14159"},
      {"-273.15", "-273.15"},
      {"0.001", "0.001"},
      // Other forms live DynamoDB accepts (test_invalid_numbers' allowed list; dynoxide#109).
      {"-7.1234", "-7.1234"},
      {"-17e5", "-1700000"},
      {"-17.4E37", "-174" + Zeros(36)},
      {"0001.23", "1.23"},
      {"1e+5", "100000"},
      {"+5", "5"},
      {"+1e2", "100"},
      {"1e+2", "100"},
      {"1.5E+3", "1500"},
      {"+1000", "1000"},
      {"001000", "1000"},
      {"1000.0", "1000"},
      // Forms Java's BigDecimal grammar (and so DynamoDB's) also accepts.
      {"+.5", "0.5"},
      {"1.e5", "100000"},
      {"-5.", "-5"},
      {"0.", "0"},
      {".0", "0"},
      {"-.0", "0"},
      {"0000.0000", "0"},
      // Exponent digits are unbounded; leading zeros in them are fine.
      {"1e0000000000000000005", "100000"},
      {"1e-0000000000000000000000000005", "0.00001"},
      {"1e+000000000000000000000000000000000000000000125", "1" + Zeros(125)},
      // Leading and trailing zeros are not significant, however many.
      {"1" + Zeros(50), "1" + Zeros(50)},
      {"1" + Zeros(50) + "." + Zeros(80), "1" + Zeros(50)},
      {"0.00000000000000000000000000000000000000000000000000000000000001", "0." + Zeros(61) + "1"},
      {"000000000000000000000000000000000000000000000000000000000000012.500000000000000000000000000"
       "00000000000000000000000",
       "12.5"},
      // Boundaries of the range.
      {"0.1e126", "1" + Zeros(125)},
      {"0e125", "0"},
      {"1e-130", "0." + Zeros(129) + "1"},
      {"-1e-130", "-0." + Zeros(129) + "1"},
      {"10e-131", "0." + Zeros(129) + "1"},
      {"9.9999999999999999999999999999999999999E+125", std::string(38, '9') + Zeros(88)},
      {"-9.9999999999999999999999999999999999999E+125", "-" + std::string(38, '9') + Zeros(88)},
      {"9.99999999e125", "999999999" + Zeros(117)},
      {"1.2345678901234567890123456789012345678e-93",
       "0." + Zeros(92) + "12345678901234567890123456789012345678"},
      // 38 significant digits, wherever the point is (Scylla test_number_precision_allowed).
      {"3.1415926535897932384626433832795028841", "3.1415926535897932384626433832795028841"},
      {"314159265358979323846.26433832795028841", "314159265358979323846.26433832795028841"},
      {"31415926535897932384626433832795028841e30",
       "31415926535897932384626433832795028841" + Zeros(30)},
      {"12345678901234567890123456789012345678", "12345678901234567890123456789012345678"},
      {"99999999999999999999999999999999999999", "99999999999999999999999999999999999999"},
      {"-0.00099999999999999999999999999999999999999000",
       "-0.00099999999999999999999999999999999999999"},
      // 38 digits with many interior zeros.
      {"1000000000000000000000000000000000000.1", "1000000000000000000000000000000000000.1"},
  };
  for (const CanonicalCase& c : cases) {
    Result<Number> r = Number::Parse(c.input);
    ASSERT_TRUE(r.ok()) << "'" << c.input << "': " << r.status().ToString();
    EXPECT_EQ(r->ToString(), c.expected) << "input '" << c.input << "'";
    std::string appended = "x=";
    r->AppendTo(&appended);
    EXPECT_EQ(appended, "x=" + c.expected);
    // The canonical text parses back to the same value.
    EXPECT_EQ(N(c.expected), *r) << c.input;
  }
}

struct ErrorCase {
  std::string input;
  std::string message;
};

TEST(NumberParseTest, Errors) {
  const std::string not_numeric = std::string(kNotNumeric) + ": ";
  const std::vector<ErrorCase> cases = {
      // Empty text: no suffix (dynalite checkNum; the "older" DynamoDB validation layer).
      {"", kNotNumeric},
      // Not numbers (Scylla test_invalid_numbers; live conformance captures).
      {"abc", not_numeric + "abc"},
      {"NaN", not_numeric + "NaN"},
      {"-NaN", not_numeric + "-NaN"},
      {"nan", not_numeric + "nan"},
      {"Infinity", not_numeric + "Infinity"},
      {"-Infinity", not_numeric + "-Infinity"},
      {"inf", not_numeric + "inf"},
      {"dog", not_numeric + "dog"},
      {"-dog", not_numeric + "-dog"},
      {" 1", not_numeric + " 1"},
      {"1 ", not_numeric + "1 "},
      {"\t1", not_numeric + "\t1"},
      {"1\n", not_numeric + "1\n"},
      {"0x10", not_numeric + "0x10"},
      {"0X1F", not_numeric + "0X1F"},
      {"1e", not_numeric + "1e"},
      {"1E", not_numeric + "1E"},
      {"1e+", not_numeric + "1e+"},
      {"1e-", not_numeric + "1e-"},
      {"1e+-5", not_numeric + "1e+-5"},
      {"1e5.5", not_numeric + "1e5.5"},
      {"1e5e5", not_numeric + "1e5e5"},
      {"1.2.3", not_numeric + "1.2.3"},
      {"1..2", not_numeric + "1..2"},
      {"+", not_numeric + "+"},
      {"-", not_numeric + "-"},
      {".", not_numeric + "."},
      {"-.", not_numeric + "-."},
      {"+.", not_numeric + "+."},
      {"e5", not_numeric + "e5"},
      {".e5", not_numeric + ".e5"},
      {"-e5", not_numeric + "-e5"},
      {"--1", not_numeric + "--1"},
      {"++1", not_numeric + "++1"},
      {"+-1", not_numeric + "+-1"},
      {"-+1", not_numeric + "-+1"},
      {"1-", not_numeric + "1-"},
      {"1+2", not_numeric + "1+2"},
      {"1,000", not_numeric + "1,000"},
      {"1_000", not_numeric + "1_000"},
      {"1e 5", not_numeric + "1e 5"},
      {"1 e5", not_numeric + "1 e5"},
      {"- 1", not_numeric + "- 1"},
      {"1d", not_numeric + "1d"},
      {"1f", not_numeric + "1f"},
      {"1L", not_numeric + "1L"},
      {"\xd9\xa1", not_numeric + "\xd9\xa1"},  // ARABIC-INDIC DIGIT ONE: ASCII digits only.
      {std::string("1\0", 2), not_numeric + std::string("1\0", 2)},
      {std::string("\0", 1), not_numeric + std::string("\0", 1)},
      // Overflow: |x| >= 1E126 (live: 1e126, -1e126, 11e125; huge exponents are range errors).
      {"1e126", kOverflow},
      {"-1e126", kOverflow},
      {"1E+126", kOverflow},
      {"11e125", kOverflow},
      {"10e125", kOverflow},
      {"1" + Zeros(126), kOverflow},
      {"0.00001e131", kOverflow},
      {"1e99999999999", kOverflow},
      {"-1e99999999999", kOverflow},
      {"1e2147483647", kOverflow},
      {"1e2147483648", kOverflow},
      {"1e4294967296", kOverflow},
      {"1e9223372036854775807", kOverflow},
      {"1e9223372036854775808", kOverflow},
      {"1e99999999999999999999999999999999999999999999999999", kOverflow},
      {"1e999999999999", kOverflow},
      {"1e0000000000000000000000000000126", kOverflow},
      {"1.0e100000000", kOverflow},  // Scylla test_number_magnitude_not_allowed_dos.
      // Underflow: 0 < |x| < 1E-130.
      {"1e-131", kUnderflow},
      {"-1e-131", kUnderflow},
      {"0.9e-130", kUnderflow},
      {"0." + Zeros(130) + "1", kUnderflow},
      {"1e-99999999999", kUnderflow},
      {"1e-2147483648", kUnderflow},
      {"1e-9223372036854775809", kUnderflow},
      {"1e-99999999999999999999999999999999999999999999999999", kUnderflow},
      // Zero with an out-of-range nominal exponent: the live-DynamoDB quirk (see number.cc).
      {"0e126", kOverflow},
      {"-0e126", kOverflow},
      {"00e126", kOverflow},
      {"0e1000", kOverflow},
      {"0e99999999999999999999999", kOverflow},
      {"0e-131", kUnderflow},
      {"0.0e-130", kUnderflow},  // Inferred from the BigDecimal model, not observed.
      // More than 38 significant digits (Scylla test_number_precision_not_allowed; dynalite).
      {"123456789012345678901234567890123456789", kTooManyDigits},
      {"-1.23456789012345678901234567890123456789", kTooManyDigits},
      {"3.14159265358979323846264338327950288419", kTooManyDigits},
      {"314159265358979323846.264338327950288419", kTooManyDigits},
      {"314159265358979323846264338327950288419e30", kTooManyDigits},
      {"1234567890123456789012345678901234567890", kTooManyDigits},
      {"1" + Zeros(37) + "1", kTooManyDigits},
      {"1." + Zeros(37) + "1", kTooManyDigits},
      {"1" + Zeros(60) + "1e-50", kTooManyDigits},
      {"0.000" + std::string(39, '7'), kTooManyDigits},
      {"10000000000000000000000000000000000000000000000001e-30", kTooManyDigits},
      // Range is checked before the digit limit (dynalite's order).
      {"123456789012345678901234567890123456789e100", kOverflow},
      {"123456789012345678901234567890123456789e-200", kUnderflow},
      // Syntax is checked before anything else.
      {"123456789012345678901234567890123456789x",
       not_numeric + "123456789012345678901234567890123456789x"},
      {"1e126x", not_numeric + "1e126x"},
  };
  for (const ErrorCase& c : cases) {
    Result<Number> r = Number::Parse(c.input);
    ASSERT_FALSE(r.ok()) << "'" << c.input << "' parsed as " << r->ToString();
    EXPECT_EQ(r.error().code(), Code::kValidation) << c.input;
    EXPECT_EQ(r.error().message(), c.message) << "input '" << c.input << "'";
  }
}

TEST(NumberParseTest, Boundaries) {
  // 38 vs 39 significant digits.
  EXPECT_TRUE(Number::Parse(std::string(38, '9')).ok());
  EXPECT_EQ(Number::Parse(std::string(39, '9')).error().message(), kTooManyDigits);
  EXPECT_TRUE(Number::Parse("1" + Zeros(36) + "1").ok());
  EXPECT_EQ(Number::Parse("1" + Zeros(37) + "1").error().message(), kTooManyDigits);
  // Trailing zeros do not count, even 200 of them, as long as the value is in range.
  EXPECT_TRUE(Number::Parse("1." + Zeros(200)).ok());
  EXPECT_TRUE(Number::Parse(Zeros(200) + "1").ok());
  EXPECT_TRUE(Number::Parse("1" + Zeros(125)).ok());
  EXPECT_EQ(Number::Parse("1" + Zeros(126)).error().message(), kOverflow);
  // 1E125 vs 1E126.
  EXPECT_EQ(N("1E125").adjusted_exponent(), 125);
  EXPECT_EQ(Number::Parse("1E126").error().message(), kOverflow);
  EXPECT_EQ(Number::Parse("-1E126").error().message(), kOverflow);
  // 1E-130 vs 1E-131.
  EXPECT_EQ(N("1E-130").adjusted_exponent(), -130);
  EXPECT_EQ(N("-1E-130").adjusted_exponent(), -130);
  EXPECT_EQ(Number::Parse("1E-131").error().message(), kUnderflow);
  EXPECT_EQ(Number::Parse("-1E-131").error().message(), kUnderflow);
  // The largest and the smallest-exponent values.
  const Number max = N("9.9999999999999999999999999999999999999E125");
  EXPECT_EQ(max.digits(), 38);
  EXPECT_EQ(max.exponent(), 88);
  EXPECT_EQ(Number::Parse("9.99999999999999999999999999999999999999E125").error().message(),
            kTooManyDigits);
  const Number tiny = N("1.2345678901234567890123456789012345678E-130");
  EXPECT_EQ(tiny.exponent(), -167);
  EXPECT_EQ(tiny.adjusted_exponent(), -130);
  EXPECT_EQ(N(tiny.ToString()), tiny);
  // Zero's nominal exponent: 0e125 and 0.0e126 are fine, 0e126 is not (DynamoDB quirk).
  EXPECT_TRUE(Number::Parse("0e125").ok());
  EXPECT_TRUE(Number::Parse("0.0e126").ok());
  EXPECT_TRUE(Number::Parse("0.0000e129").ok());
  EXPECT_EQ(Number::Parse("0.0000e130").error().message(), kOverflow);
  EXPECT_TRUE(Number::Parse("0e-130").ok());
  EXPECT_TRUE(Number::Parse("00000e-130").ok());
  EXPECT_EQ(Number::Parse("0e-131").error().message(), kUnderflow);
}

TEST(NumberParseTest, Representation) {
  const Number hundred = N("100");
  EXPECT_EQ(hundred.coefficient(), 1u);
  EXPECT_EQ(hundred.exponent(), 2);
  EXPECT_EQ(hundred.digits(), 1);
  EXPECT_FALSE(hundred.is_negative());
  EXPECT_EQ(hundred.adjusted_exponent(), 2);

  const Number pi = N("-3.1400");
  EXPECT_EQ(pi.coefficient(), 314u);
  EXPECT_EQ(pi.exponent(), -2);
  EXPECT_EQ(pi.digits(), 3);
  EXPECT_TRUE(pi.is_negative());
  EXPECT_EQ(pi.adjusted_exponent(), 0);

  for (const char* zero : {"0", "-0", "+0", "0.000", "-0.0e5", "0.0e126", "00e-130"}) {
    const Number z = N(zero);
    EXPECT_TRUE(z.is_zero()) << zero;
    EXPECT_FALSE(z.is_negative()) << zero;
    EXPECT_EQ(z.exponent(), 0) << zero;
    EXPECT_EQ(z.digits(), 0) << zero;
    EXPECT_EQ(z.adjusted_exponent(), 0) << zero;
    EXPECT_EQ(z, Number()) << zero;
  }
  // Equal values have equal representations, whatever the text.
  EXPECT_EQ(N("1000"), N("1e3"));
  EXPECT_EQ(N("1000"), N("0.001e6"));
  EXPECT_EQ(N("1000"), N("+001000.000"));
  EXPECT_NE(N("1000"), N("-1000"));
}

}  // namespace
}  // namespace partstore
