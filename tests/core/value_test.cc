#include "partstore/value.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/core/number_testutil.h"

namespace partstore {
namespace {

using ::partstore::testing::numbers::N;

TEST(ValueTest, TypesOfConversions) {
  EXPECT_EQ(Value("x").type(), Type::kS);
  EXPECT_EQ(Value(std::string("x")).type(), Type::kS);
  EXPECT_EQ(Value(std::string_view("x")).type(), Type::kS);
  EXPECT_EQ(Value(42).type(), Type::kN);
  EXPECT_EQ(Value(int64_t{-7}).type(), Type::kN);
  EXPECT_EQ(Value(N("1.5")).type(), Type::kN);
  EXPECT_EQ(Value::Binary("\x01").type(), Type::kB);
  EXPECT_EQ(Value(true).type(), Type::kBool);
  EXPECT_EQ(Value().type(), Type::kNull);
  EXPECT_EQ(Value::Nil().type(), Type::kNull);
  EXPECT_EQ(Value::Map({{"a", 1}}).type(), Type::kM);
  EXPECT_EQ(Value::List({1, "a"}).type(), Type::kL);
  EXPECT_EQ(Value(StringSet{"a"}).type(), Type::kSS);
  EXPECT_EQ(Value(NumberSet{N("1")}).type(), Type::kNS);
  EXPECT_EQ(Value(BinarySet{Bytes{"x"}}).type(), Type::kBS);
  EXPECT_EQ(Value(42).as_number(), N("42"));
}

TEST(ValueTest, TypeNamesRoundTrip) {
  for (int i = 0; i < 10; ++i) {
    Type t = static_cast<Type>(i);
    EXPECT_EQ(TypeFromName(TypeName(t)), t);
  }
  EXPECT_EQ(TypeName(Type::kBool), "BOOL");
  EXPECT_EQ(TypeName(Type::kNS), "NS");
  EXPECT_FALSE(TypeFromName("s").has_value());
  EXPECT_FALSE(TypeFromName("").has_value());
}

TEST(ValueTest, EqualityIsDeepAndTyped) {
  EXPECT_EQ(Value("a"), Value("a"));
  EXPECT_NE(Value("a"), Value("b"));
  EXPECT_NE(Value("1"), Value(1));               // S vs N
  EXPECT_NE(Value("x"), Value::Binary("x"));     // S vs B
  EXPECT_EQ(Value(N("1000")), Value(N("1E3")));  // numbers by value
  EXPECT_EQ(Value::Map({{"a", Value::List({1, "x"})}}), Value::Map({{"a", Value::List({1, "x"})}}));
  EXPECT_NE(Value::Map({{"a", 1}}), Value::Map({{"a", 1}, {"b", 2}}));
  EXPECT_NE(Value::List({1, 2}), Value::List({2, 1}));  // lists keep order
  EXPECT_EQ(Value::Map({}), Value::Map({}));
  EXPECT_NE(Value::Map({}), Value::List({}));
}

TEST(ValueTest, SetEqualityIgnoresOrder) {
  EXPECT_EQ(Value(StringSet{"b", "a", "c"}), Value(StringSet{"c", "a", "b"}));
  EXPECT_EQ(Value(NumberSet{N("2"), N("1.0")}), Value(NumberSet{N("1"), N("2E0")}));
  EXPECT_NE(Value(StringSet{"a"}), Value(StringSet{"a", "b"}));
}

TEST(ValueTest, SortedSetKeepsOrderAndUniqueness) {
  StringSet s({"b", "a", "b"});
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.elements(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(s.insert("c"));
  EXPECT_FALSE(s.insert("a"));
  EXPECT_TRUE(s.contains("c"));
  EXPECT_TRUE(s.erase("a"));
  EXPECT_FALSE(s.erase("a"));
  EXPECT_EQ(s.elements(), (std::vector<std::string>{"b", "c"}));

  EXPECT_FALSE(StringSet::FromUnique({"a", "b", "a"}).has_value());
  ASSERT_TRUE(StringSet::FromUnique({"b", "a"}).has_value());
  // Numbers are duplicates by value, whatever their text.
  EXPECT_FALSE(NumberSet::FromUnique({N("1"), N("1.0")}).has_value());
  EXPECT_EQ(NumberSet({N("10"), N("9"), N("-1")}).elements(),
            (std::vector<Number>{N("-1"), N("9"), N("10")}));
  // Binary sets order by unsigned bytes.
  BinarySet b({Bytes{"\x80"}, Bytes{"\x7f"}});
  EXPECT_EQ(b.elements().front().data, "\x7f");
}

TEST(ValueTest, CompareOrdersScalarsOfOneType) {
  EXPECT_EQ(Compare(Value("a"), Value("b")), std::partial_ordering::less);
  EXPECT_EQ(Compare(Value("a"), Value("A")), std::partial_ordering::greater);         // 0x61 > 0x41
  EXPECT_EQ(Compare(Value("\xC2\xBF"), Value("z")), std::partial_ordering::greater);  // ¿ > z
  EXPECT_EQ(Compare(Value("ab"), Value("a")), std::partial_ordering::greater);  // prefix first
  EXPECT_EQ(Compare(Value(N("10")), Value(N("9"))), std::partial_ordering::greater);
  EXPECT_EQ(Compare(Value(N("-10")), Value(N("9"))), std::partial_ordering::less);
  EXPECT_EQ(Compare(Value(N("1E3")), Value(N("1000"))), std::partial_ordering::equivalent);
  EXPECT_EQ(Compare(Value::Binary("\x80"), Value::Binary("\x7f")), std::partial_ordering::greater);
}

TEST(ValueTest, CompareIsUnorderedAcrossTypesAndForNonScalars) {
  EXPECT_EQ(Compare(Value("1"), Value(1)), std::partial_ordering::unordered);
  EXPECT_EQ(Compare(Value("x"), Value::Binary("x")), std::partial_ordering::unordered);
  EXPECT_EQ(Compare(Value(true), Value(true)), std::partial_ordering::unordered);
  EXPECT_EQ(Compare(Value::List({}), Value::List({})), std::partial_ordering::unordered);
  EXPECT_EQ(Compare(Value(StringSet{"a"}), Value(StringSet{"a"})),
            std::partial_ordering::unordered);
}

TEST(ValueTest, DebugString) {
  EXPECT_EQ(DebugString(Value("a\"b")), R"({"S":"a\"b"})");
  EXPECT_EQ(DebugString(Value(N("1.50"))), R"({"N":"1.5"})");
  EXPECT_EQ(DebugString(Value::Binary("\x01\xff")), R"({"B":0x01ff})");
  EXPECT_EQ(DebugString(Value::Map({{"b", true}, {"a", Value()}})),
            R"({"M":{"a":{"NULL":true},"b":{"BOOL":true}}})");
  EXPECT_EQ(DebugString(Value(StringSet{"y", "x"})), R"({"SS":["x","y"]})");
  EXPECT_EQ(DebugString(Value(NumberSet{N("2"), N("1")})), R"({"NS":["1","2"]})");
}

TEST(ValueTest, MapLookupByStringView) {
  AttributeMap m{{"alpha", 1}, {"beta", 2}};
  std::string_view key = "beta";
  auto it = m.find(key);  // transparent: no std::string built
  ASSERT_NE(it, m.end());
  EXPECT_EQ(it->second, Value(2));
  EXPECT_EQ(m.begin()->first, "alpha");  // sorted by name
}

}  // namespace
}  // namespace partstore
