#include "core/key_encoding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::numbers::N;

int SignOf(int c) { return (c > 0) - (c < 0); }
int SignOf(std::partial_ordering o) { return o < 0 ? -1 : o > 0 ? 1 : 0; }

// memcmp order of two encodings, as -1 / 0 / 1.
int EncodedOrder(const Value& a, const Value& b) {
  return SignOf(EncodeKey(a).compare(EncodeKey(b)));
}

// A random number in DynamoDB's range: 1..38 random digits, a random exponent, a random sign,
// written in a random one of several text forms.
Number RandomNumber(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> len(1, 38), digit(0, 9), coin(0, 1);
  if (std::uniform_int_distribution<int>(0, 30)(rng) == 0) return Number();
  const int n = len(rng);
  std::string digits;
  for (int i = 0; i < n; ++i) digits.push_back(static_cast<char>('0' + digit(rng)));
  digits[0] = static_cast<char>('1' + std::uniform_int_distribution<int>(0, 8)(rng));
  // Keep the leading digit's exponent in [-130, 125], sometimes near the edges.
  std::uniform_int_distribution<int> adjusted(-130, 125);
  int e = adjusted(rng);
  if (coin(rng)) e = std::uniform_int_distribution<int>(-3, 3)(rng);  // many collisions nearby
  std::string text = (coin(rng) ? "-" : "") + digits.substr(0, 1) + "." + digits.substr(1) + "e" +
                     std::to_string(e);
  return Number::Parse(text).value();
}

TEST(KeyEncodingTest, ZeroAndSigns) {
  EXPECT_EQ(EncodeKey(Value(N("0"))), "\x80");
  EXPECT_EQ(EncodeKey(Value(N("-0"))), "\x80");
  EXPECT_LT(EncodeKey(Value(N("-1E-130"))), EncodeKey(Value(N("0"))));
  EXPECT_GT(EncodeKey(Value(N("1E-130"))), EncodeKey(Value(N("0"))));
}

TEST(KeyEncodingTest, EqualNumbersEncodeEqually) {
  EXPECT_EQ(EncodeKey(Value(N("1000"))), EncodeKey(Value(N("1e3"))));
  EXPECT_EQ(EncodeKey(Value(N("0.50"))), EncodeKey(Value(N(".5"))));
  EXPECT_EQ(EncodeKey(Value(N("-00042.000"))), EncodeKey(Value(N("-4.2E1"))));
}

TEST(KeyEncodingTest, KnownNumberOrder) {
  const std::vector<std::string_view> ascending = {"-9.9999999999999999999999999999999999999E125",
                                                   "-1E10",
                                                   "-101",
                                                   "-100",
                                                   "-99",
                                                   "-1.01",
                                                   "-1",
                                                   "-0.5",
                                                   "-1E-130",
                                                   "0",
                                                   "1E-130",
                                                   "0.001",
                                                   "0.5",
                                                   "1",
                                                   "1.01",
                                                   "1.1",
                                                   "2",
                                                   "9.99",
                                                   "10",
                                                   "99",
                                                   "100",
                                                   "101",
                                                   "1E10",
                                                   "9.9999999999999999999999999999999999999E125"};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(EncodeKey(Value(N(ascending[i]))), EncodeKey(Value(N(ascending[i + 1]))))
        << ascending[i] << " < " << ascending[i + 1];
  }
}

TEST(KeyEncodingTest, StringsAndBinaryKeepByteOrder) {
  EXPECT_EQ(EncodeKey(Value("USER#1")), "USER#1");
  EXPECT_LT(EncodeKey(Value("A")), EncodeKey(Value("a")));
  EXPECT_LT(EncodeKey(Value("z")), EncodeKey(Value("\xC2\xBF")));  // ¿ sorts after z
  EXPECT_LT(EncodeKey(Value("ab")), EncodeKey(Value("abc")));
  EXPECT_LT(EncodeKey(Value::Binary("\x7f")), EncodeKey(Value::Binary("\x80")));
  EXPECT_EQ(EncodeKey(Value::Binary(std::string("\x00\x01", 2))), std::string("\x00\x01", 2));
}

TEST(KeyEncodingTest, LengthIsBounded) {
  const Number longest = N("-1.2345678901234567890123456789012345678E-120");
  EXPECT_EQ(longest.digits(), 38);
  EXPECT_EQ(EncodeKey(Value(longest)).size(), 22u);
}

// Property: for random values of one key type, memcmp order of encodings == value order, and
// decoding gives the value back.
TEST(KeyEncodingTest, RandomNumbersOrderAndRoundTrip) {
  std::mt19937_64 rng(20261121);
  std::vector<Number> numbers;
  for (int i = 0; i < 4000; ++i) numbers.push_back(RandomNumber(rng));
  for (size_t i = 0; i < numbers.size(); ++i) {
    const Value a(numbers[i]);
    const Value b(numbers[(i * 7919 + 13) % numbers.size()]);
    ASSERT_EQ(EncodedOrder(a, b), SignOf(Compare(a, b)))
        << DebugString(a) << " vs " << DebugString(b);
    Result<Value> decoded = DecodeKey(KeyType::kNumber, EncodeKey(a));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    ASSERT_EQ(*decoded, a) << DebugString(a);
  }
  // Sorting by encoding sorts by value.
  std::vector<std::pair<std::string, Number>> encoded;
  for (const Number& n : numbers) encoded.emplace_back(EncodeKey(Value(n)), n);
  std::sort(encoded.begin(), encoded.end());
  for (size_t i = 0; i + 1 < encoded.size(); ++i)
    ASSERT_LE(encoded[i].second, encoded[i + 1].second);
}

TEST(KeyEncodingTest, RandomStringsAndBytesOrderAndRoundTrip) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> len(1, 12), byte(0, 255), small(0x40, 0x43);
  auto random_bytes = [&] {
    std::string s;
    const int n = len(rng);
    // Few distinct byte values so that shared prefixes are common.
    for (int i = 0; i < n; ++i) s.push_back(static_cast<char>(i % 3 ? small(rng) : byte(rng)));
    return s;
  };
  for (int i = 0; i < 3000; ++i) {
    const std::string x = random_bytes(), y = random_bytes();
    const Value bx = Value::Binary(x), by = Value::Binary(y);
    ASSERT_EQ(EncodedOrder(bx, by), SignOf(Compare(bx, by)));
    ASSERT_EQ(*DecodeKey(KeyType::kBinary, EncodeKey(bx)), bx);
    ASSERT_EQ(*DecodeKey(KeyType::kString, EncodeKey(Value(x))), Value(x));
  }
}

TEST(KeyEncodingTest, DecodeRejectsForeignBytes) {
  EXPECT_FALSE(DecodeKey(KeyType::kNumber, "").ok());
  EXPECT_FALSE(DecodeKey(KeyType::kNumber, "\x81").ok());
  EXPECT_FALSE(DecodeKey(KeyType::kNumber, "\x80\x01").ok());
  EXPECT_FALSE(DecodeKey(KeyType::kNumber, "\xC0").ok());
  EXPECT_FALSE(DecodeKey(KeyType::kNumber, "\xC0\x82\xFF").ok());  // pair byte out of range
  EXPECT_FALSE(DecodeKey(KeyType::kNumber, "\x40\x7d\xf4").ok());  // negative without end byte
}

}  // namespace
}  // namespace partstore
