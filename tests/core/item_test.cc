#include "partstore/item.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::numbers::N;

Value NestedMaps(int levels) {
  Value v = Value::Map({});
  for (int i = 1; i < levels; ++i) v = Value::Map({{"a", std::move(v)}});
  return v;
}

TEST(ItemSizeTest, WorkedExampleFromTheQuotasPage) {
  // {"shirt-color":"R","shirt-size":"M"}: 11 + 1 + 10 + 1 = 23 bytes.
  EXPECT_EQ(ItemSize({{"shirt-color", "R"}, {"shirt-size", "M"}}), 23u);
}

TEST(ItemSizeTest, StringsAndNamesCountUtf8Bytes) {
  EXPECT_EQ(ValueSize(Value("")), 0u);
  EXPECT_EQ(ValueSize(Value("abc")), 3u);
  EXPECT_EQ(ValueSize(Value("\xC3\xA9")), 2u);          // é
  EXPECT_EQ(ValueSize(Value("\xE2\x82\xAC")), 3u);      // €
  EXPECT_EQ(ValueSize(Value("\xF0\x9F\x98\x80")), 4u);  // 😀
  EXPECT_EQ(AttributeSize("\xC3\xA9t\xC3\xA9", Value("x")), 6u);
}

TEST(ItemSizeTest, ScalarRules) {
  EXPECT_EQ(ValueSize(Value::Binary(std::string("\x00\x01\x02", 3))), 3u);
  EXPECT_EQ(ValueSize(Value(true)), 1u);
  EXPECT_EQ(ValueSize(Value()), 1u);
  // Numbers: 1 byte + base-100 digit pairs (+1 if negative); see number_test for the full rule.
  EXPECT_EQ(ValueSize(Value(N("0"))), 1u);
  EXPECT_EQ(ValueSize(Value(N("12"))), 2u);
  EXPECT_EQ(ValueSize(Value(N("1.2"))), 3u);
  EXPECT_EQ(ValueSize(Value(N("123"))), 3u);
  EXPECT_EQ(ValueSize(Value(N("-12"))), 3u);
}

TEST(ItemSizeTest, MapsAndListsHaveOverheads) {
  EXPECT_EQ(ValueSize(Value::Map({})), 3u);
  EXPECT_EQ(ValueSize(Value::List({})), 3u);
  // 3 + (1 + name "a" + "xy") = 7.
  EXPECT_EQ(ValueSize(Value::Map({{"a", "xy"}})), 7u);
  // 3 + (1 + "a") + (1 + BOOL) = 7.
  EXPECT_EQ(ValueSize(Value::List({"a", true})), 7u);
  // Nested: outer 3 + (1 + "m" + inner(3 + 1 + "k" + 1)) = 3 + 1 + 1 + 6 = 11.
  EXPECT_EQ(ValueSize(Value::Map({{"m", Value::Map({{"k", "v"}})}})), 11u);
}

TEST(ItemSizeTest, SetsSumTheirElements) {
  EXPECT_EQ(ValueSize(Value(StringSet{"ab", "c"})), 3u);
  EXPECT_EQ(ValueSize(Value(NumberSet{N("12"), N("1.2")})), 5u);
  EXPECT_EQ(ValueSize(Value(BinarySet{Bytes{"\x01\x02"}, Bytes{"\x03"}})), 3u);
}

TEST(ItemValidationTest, FourHundredKilobyteLimitIncludesNames) {
  // Name "a" (1 byte) + value: exactly 409,600 bytes passes, one more fails.
  EXPECT_TRUE(ValidateItem({{"a", std::string(kMaxItemSize - 1, 'x')}}).ok());
  Status too_big = ValidateItem({{"a", std::string(kMaxItemSize, 'x')}});
  EXPECT_EQ(too_big.code(), Code::kValidation);
  EXPECT_EQ(too_big.message(), "Item size has exceeded the maximum allowed size");
  EXPECT_FALSE(ValidateItem({{"a", std::string(410'000, 'x')}}).ok());
  // A long name counts too.
  EXPECT_FALSE(ValidateItem({{std::string(1000, 'n'), std::string(kMaxItemSize - 999, 'x')}}).ok());
}

TEST(ItemValidationTest, NestingLimitIs32LevelsCountingTheItem) {
  // The item is level 1; a top-level map plus 30 further nested maps reach level 32.
  EXPECT_EQ(NestingDepth(NestedMaps(31)), 31);
  EXPECT_TRUE(ValidateItem({{"nested", NestedMaps(31)}}).ok());
  Status too_deep = ValidateItem({{"nested", NestedMaps(32)}});
  EXPECT_EQ(too_deep.code(), Code::kValidation);
  EXPECT_EQ(too_deep.message(),
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested "
            "levels beyond supported limit");
  EXPECT_FALSE(ValidateItem({{"nested", NestedMaps(50)}}).ok());
  // Lists count as levels too.
  Value lists = Value::List({});
  for (int i = 1; i < 32; ++i) lists = Value::List({std::move(lists)});
  EXPECT_FALSE(ValidateItem({{"l", lists}}).ok());
}

TEST(ItemValidationTest, EmptySetsAreRejectedAtAnyDepth) {
  // DynamoDB's texts, odd grammar and double space included.
  EXPECT_EQ(ValidateItem({{"s", StringSet{}}}).message(),
            "One or more parameter values were invalid: An string set  may not be empty");
  EXPECT_EQ(ValidateItem({{"s", NumberSet{}}}).message(),
            "One or more parameter values were invalid: An number set  may not be empty");
  EXPECT_EQ(ValidateItem({{"s", BinarySet{}}}).message(),
            "One or more parameter values were invalid: Binary sets should not be empty");
  EXPECT_EQ(ValidateItem({{"m", Value::Map({{"s", StringSet{}}})}}).code(), Code::kValidation);
  EXPECT_EQ(ValidateItem({{"l", Value::List({Value::List({StringSet{}})})}}).code(),
            Code::kValidation);
}

TEST(ItemValidationTest, EmptyValuesAllowedForNonKeyAttributes) {
  EXPECT_TRUE(ValidateItem({{"s", ""},
                            {"b", Value::Binary("")},
                            {"m", Value::Map({})},
                            {"l", Value::List({})},
                            {"ss", StringSet{""}}})
                  .ok());
}

TEST(ItemValidationTest, AttributeNamesAreOneTo65535Bytes) {
  EXPECT_EQ(ValidateItem({{"", "x"}}).message(), "Empty attribute name");
  EXPECT_EQ(ValidateItem({{"m", Value::Map({{"", 1}})}}).message(), "Empty attribute name");
  EXPECT_TRUE(ValidateItem({{std::string(65535, 'n'), 1}}).ok());
  EXPECT_EQ(ValidateItem({{std::string(65536, 'n'), 1}}).message(),
            "Attribute name is too large, must be less than 65536 bytes");
  EXPECT_FALSE(ValidateItem({{"m", Value::Map({{std::string(65536, 'k'), 1}})}}).ok());
}

}  // namespace
}  // namespace partstore
