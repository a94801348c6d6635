// Randomized Number tests against independent references built on digit strings and
// boost::multiprecision::cpp_int: Parse/ToString round trips, range and digit-limit errors,
// comparison, Add/Subtract, and StorageSize. Fixed seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <compare>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

#include "partstore/number.h"
#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::kOverflow;
using ::partstore::testing::kTooManyDigits;
using ::partstore::testing::kUnderflow;
using ::partstore::testing::Zeros;
using ::partstore::testing::numbers::N;

using boost::multiprecision::cpp_int;

// The canonical text of sign * digits * 10^exponent, built without Number. REQUIRES: digits
// has no leading or trailing zeros and is not empty.
std::string ReferenceCanonical(bool negative, const std::string& digits, int64_t exponent) {
  std::string out = negative ? "-" : "";
  const int64_t n = static_cast<int64_t>(digits.size());
  if (exponent >= 0) return out + digits + Zeros(static_cast<int>(exponent));
  const int64_t point = n + exponent;  // Digits before the point.
  if (point > 0) return out + digits.substr(0, point) + "." + digits.substr(point);
  return out + "0." + Zeros(static_cast<int>(-point)) + digits;
}

// ---------------------------------------------------------------------------------------------
// Randomized tests against independent references. Fixed seeds.

// A random valid number as (sign, significant digits, exponent).
struct RandomDecimal {
  bool negative;
  std::string digits;  // no leading/trailing zeros, 1..38 long
  int exponent;
};

RandomDecimal RandomDecimalOf(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> length_dist(1, 38);
  std::uniform_int_distribution<int> digit(0, 9);
  std::uniform_int_distribution<int> nonzero(1, 9);
  RandomDecimal v;
  v.negative = rng() % 2;
  // Favour short coefficients (the common case) and sometimes the full 38 digits.
  const int pick = static_cast<int>(rng() % 4);
  const int n = pick == 0 ? 38 : pick == 1 ? length_dist(rng) : 1 + static_cast<int>(rng() % 6);
  v.digits.resize(n);
  for (int i = 0; i < n; ++i) v.digits[i] = static_cast<char>('0' + digit(rng));
  v.digits.front() = static_cast<char>('0' + nonzero(rng));
  v.digits.back() = static_cast<char>('0' + nonzero(rng));
  // Adjusted exponent: anywhere in range, or near zero.
  std::uniform_int_distribution<int> adjusted_dist(Number::kMinAdjustedExponent,
                                                   Number::kMaxAdjustedExponent);
  const int adjusted = rng() % 2 ? adjusted_dist(rng) : static_cast<int>(rng() % 41) - 20;
  v.exponent = adjusted - (n - 1);
  return v;
}

// A random text for v: the point anywhere (padding with zeros), redundant leading and trailing
// zeros, an exponent in 'e' or 'E' with optional '+' and leading zeros, an optional '+' sign.
std::string RandomText(const RandomDecimal& v, std::mt19937_64& rng) {
  const int n = static_cast<int>(v.digits.size());
  // The point goes after `k` digits of the mantissa; the mantissa is digits * 10^(k - n), so the
  // exponent written is v.exponent - (k - n).
  int k = n + v.exponent;  // Plain form when that gives exponent 0...
  if (rng() % 3 != 0) k = static_cast<int>(rng() % (n + 11)) - 5;  // ...or a random point.
  int64_t written_exponent = static_cast<int64_t>(v.exponent) + n - k;
  std::string mantissa;
  if (k <= 0) {
    mantissa = (rng() % 2 ? "0." : ".") + Zeros(-k) + v.digits;
  } else if (k >= n) {
    mantissa = v.digits + Zeros(k - n);
    if (rng() % 3 == 0) mantissa += ".";
  } else {
    mantissa = v.digits.substr(0, k) + "." + v.digits.substr(k);
  }
  if (rng() % 3 == 0) mantissa = Zeros(static_cast<int>(rng() % 4)) + mantissa;
  if (rng() % 3 == 0) {
    if (mantissa.find('.') == std::string::npos) mantissa += ".";
    mantissa += Zeros(static_cast<int>(rng() % 4));
  }
  std::string text = v.negative ? "-" : (rng() % 4 == 0 ? "+" : "");
  text += mantissa;
  if (written_exponent != 0 || rng() % 4 == 0) {
    text += rng() % 2 ? 'e' : 'E';
    if (written_exponent < 0) {
      text += '-';
    } else if (rng() % 2) {
      text += '+';
    }
    text += Zeros(static_cast<int>(rng() % 3));
    text += std::to_string(written_exponent < 0 ? -written_exponent : written_exponent);
  }
  return text;
}

// value = sign * magnitude * 10^exponent, exact.
struct Exact {
  bool negative = false;
  cpp_int magnitude;
  int64_t exponent = 0;
};

Exact ToExact(const RandomDecimal& v) { return Exact{v.negative, cpp_int(v.digits), v.exponent}; }

cpp_int Pow10(int64_t n) {
  return boost::multiprecision::pow(cpp_int(10), static_cast<unsigned>(n));
}

// Signed integer values of a and b at a common exponent.
std::pair<cpp_int, cpp_int> Align(const Exact& a, const Exact& b, int64_t* exponent) {
  *exponent = std::min(a.exponent, b.exponent);
  cpp_int x = a.magnitude * Pow10(a.exponent - *exponent);
  cpp_int y = b.magnitude * Pow10(b.exponent - *exponent);
  if (a.negative) x = -x;
  if (b.negative) y = -y;
  return {x, y};
}

// The expected outcome of a + b under DynamoDB's rules: canonical text or an error message.
std::string ReferenceSum(const Exact& a, const Exact& b, bool* ok) {
  int64_t exponent;
  auto [x, y] = Align(a, b, &exponent);
  cpp_int sum = x + y;
  *ok = true;
  if (sum == 0) return "0";
  const bool negative = sum < 0;
  if (negative) sum = -sum;
  std::string digits = sum.str();
  while (digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  const int64_t adjusted = exponent + static_cast<int64_t>(digits.size()) - 1;
  *ok = false;
  if (adjusted > 125) return kOverflow;
  if (adjusted < -130) return kUnderflow;
  if (digits.size() > 38) return kOverflow;
  *ok = true;
  return ReferenceCanonical(negative, digits, exponent);
}

TEST(NumberRandomTest, TextRoundTrip) {
  std::mt19937_64 rng(20240601);
  for (int i = 0; i < 200000; ++i) {
    const RandomDecimal v = RandomDecimalOf(rng);
    const std::string canonical = ReferenceCanonical(v.negative, v.digits, v.exponent);
    const std::string text = RandomText(v, rng);
    Result<Number> r = Number::Parse(text);
    ASSERT_TRUE(r.ok()) << text << ": " << r.status().ToString();
    ASSERT_EQ(r->ToString(), canonical) << "text " << text;
    ASSERT_EQ(r->digits(), static_cast<int>(v.digits.size())) << text;
    ASSERT_EQ(r->exponent(), v.exponent) << text;
    ASSERT_EQ(r->is_negative(), v.negative) << text;
    // Canonical text parses to the same representation.
    Result<Number> again = Number::Parse(canonical);
    ASSERT_TRUE(again.ok()) << canonical;
    ASSERT_EQ(*again, *r) << canonical;
  }
}

TEST(NumberRandomTest, OutOfRangeAndTooLong) {
  std::mt19937_64 rng(777);
  for (int i = 0; i < 20000; ++i) {
    RandomDecimal v = RandomDecimalOf(rng);
    const int n = static_cast<int>(v.digits.size());
    const int kind = static_cast<int>(rng() % 3);
    std::string expected;
    if (kind == 0) {  // Overflow: adjusted exponent 126..300.
      v.exponent = 126 + static_cast<int>(rng() % 175) - (n - 1);
      expected = kOverflow;
    } else if (kind == 1) {  // Underflow: adjusted exponent -131..-300.
      v.exponent = -131 - static_cast<int>(rng() % 170) - (n - 1);
      expected = kUnderflow;
    } else {  // 39..80 significant digits, in range.
      const int extra = 39 - n + static_cast<int>(rng() % 42);
      for (int j = 0; j < extra; ++j) {
        v.digits.insert(v.digits.begin() + 1, static_cast<char>('0' + rng() % 10));
      }
      v.digits.back() = static_cast<char>('1' + rng() % 9);
      v.exponent = static_cast<int>(rng() % 41) - 20 - static_cast<int>(v.digits.size());
      expected = kTooManyDigits;
    }
    const std::string text = RandomText(v, rng);
    Result<Number> r = Number::Parse(text);
    ASSERT_FALSE(r.ok()) << text << " parsed as " << r->ToString();
    ASSERT_EQ(r.error().message(), expected) << text;
  }
}

// Pairs that exercise every path: independent values, shared exponents, near-equal values of
// either sign (cancellation), and wildly different magnitudes.
std::pair<RandomDecimal, RandomDecimal> RandomPair(std::mt19937_64& rng) {
  RandomDecimal a = RandomDecimalOf(rng);
  RandomDecimal b = RandomDecimalOf(rng);
  switch (rng() % 6) {
    case 0:
      break;
    case 1:  // Same exponent.
      b.exponent = a.exponent;
      if (b.exponent + static_cast<int>(b.digits.size()) - 1 > 125 ||
          b.exponent + static_cast<int>(b.digits.size()) - 1 < -130) {
        b = a;
      }
      break;
    case 2: {  // Same digits with one changed: near-equal, sometimes equal.
      b = a;
      if (rng() % 4 != 0) {
        const size_t j = rng() % b.digits.size();
        b.digits[j] = static_cast<char>(
            '0' + (j == 0 || j + 1 == b.digits.size() ? 1 + rng() % 9 : rng() % 10));
      }
      if (rng() % 2) b.negative = !b.negative;
      break;
    }
    case 3:  // Close adjusted exponents.
      b.exponent = a.exponent + static_cast<int>(a.digits.size()) -
                   static_cast<int>(b.digits.size()) + static_cast<int>(rng() % 7) - 3;
      if (b.exponent + static_cast<int>(b.digits.size()) - 1 > 125 ||
          b.exponent + static_cast<int>(b.digits.size()) - 1 < -130) {
        b = a;
      }
      break;
    case 4:  // Same value, opposite sign.
      b = a;
      b.negative = !a.negative;
      break;
    case 5: {
      // a = 10^p and b = 10^p - d, where d's last digit is at 10^(p-38): aligned, the operands
      // span 39 digits, yet a - b = d fits (the wide path with cancellation).
      const int p = -129 + static_cast<int>(rng() % 255);
      const int m = 1 + static_cast<int>(rng() % 37);
      std::string d(static_cast<size_t>(m), '0');
      for (char& c : d) c = static_cast<char>('0' + rng() % 10);
      d.front() = static_cast<char>('1' + rng() % 9);
      d.back() = static_cast<char>('1' + rng() % 9);
      const cpp_int difference = Pow10(38) - cpp_int(d);  // (a - d) / 10^(p-38)
      a = RandomDecimal{rng() % 2 == 0, "1", p};
      b = RandomDecimal{a.negative, difference.str(), p - 38};
      while (b.digits.back() == '0') {
        b.digits.pop_back();
        ++b.exponent;
      }
      break;
    }
  }
  return {a, b};
}

Number FromValue(const RandomDecimal& v) {
  return N(ReferenceCanonical(v.negative, v.digits, v.exponent));
}

TEST(NumberRandomTest, CompareAgainstReference) {
  std::mt19937_64 rng(4242);
  for (int i = 0; i < 100000; ++i) {
    auto [va, vb] = RandomPair(rng);
    const Number a = FromValue(va);
    const Number b = FromValue(vb);
    int64_t exponent;
    auto [x, y] = Align(ToExact(va), ToExact(vb), &exponent);
    const auto expected = x < y   ? std::strong_ordering::less
                          : x > y ? std::strong_ordering::greater
                                  : std::strong_ordering::equal;
    ASSERT_EQ(a <=> b, expected) << a.ToString() << " vs " << b.ToString();
    ASSERT_EQ(a == b, x == y) << a.ToString() << " vs " << b.ToString();
  }
}

TEST(NumberRandomTest, AddSubtractAgainstReference) {
  std::mt19937_64 rng(99);
  int successes = 0;
  int errors = 0;
  int wide_successes = 0;  // Exact results from operands spanning more than 38 digits.
  for (int i = 0; i < 100000; ++i) {
    auto [va, vb] = RandomPair(rng);
    const Number a = FromValue(va);
    const Number b = FromValue(vb);
    const Exact ea = ToExact(va);
    Exact eb = ToExact(vb);
    for (char op : {'+', '-'}) {
      if (op == '-') eb.negative = !eb.negative;
      bool ok;
      const std::string expected = ReferenceSum(ea, eb, &ok);
      Result<Number> r = op == '+' ? Number::Add(a, b) : Number::Subtract(a, b);
      const std::string what = a.ToString() + " " + op + " " + b.ToString();
      if (ok) {
        const int span = std::max(a.adjusted_exponent(), b.adjusted_exponent()) -
                         std::min(a.exponent(), b.exponent()) + 1;
        if (!a.is_zero() && !b.is_zero() && span > 38) ++wide_successes;
        ASSERT_TRUE(r.ok()) << what << ": " << r.status().ToString();
        ASSERT_EQ(r->ToString(), expected) << what;
        ASSERT_EQ(*r, N(expected)) << what;
        ++successes;
      } else {
        ASSERT_FALSE(r.ok()) << what << " = " << r->ToString();
        ASSERT_EQ(r.error().message(), expected) << what;
        ++errors;
      }
    }
  }
  // Both outcomes are well represented.
  EXPECT_GT(successes, 50000);
  EXPECT_GT(errors, 10000);
  EXPECT_GT(wide_successes, 5000);
  std::printf("successes %d, errors %d, wide-path successes %d\n", successes, errors,
              wide_successes);
}

TEST(NumberRandomTest, StorageSizeAgainstPairCount) {
  // Independent statement of the rule: count the base-100 pairs, aligned to even powers of ten,
  // that the significant digits touch.
  std::mt19937_64 rng(31337);
  for (int i = 0; i < 20000; ++i) {
    const RandomDecimal v = RandomDecimalOf(rng);
    const int64_t n = static_cast<int64_t>(v.digits.size());
    const int64_t high = v.exponent + n - 1;  // power of the leading digit
    const int64_t low = v.exponent;           // power of the last digit
    auto pair_of = [](int64_t power) { return power >= 0 ? power / 2 : -((-power + 1) / 2); };
    const size_t pairs = static_cast<size_t>(pair_of(high) - pair_of(low) + 1);
    const Number x = FromValue(v);
    ASSERT_EQ(x.StorageSize(), 1 + pairs + (v.negative ? 1 : 0)) << x.ToString();
  }
}

}  // namespace
}  // namespace partstore
