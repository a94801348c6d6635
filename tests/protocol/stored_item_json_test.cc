// DynamoDB JSON written straight from a stored item's encoding: the same bytes as from the tree,
// through both writers, for every type, every escaped byte and random items.
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>

#include <random>
#include <string>

#include "partstore/item.h"
#include "partstore/stored_item.h"
#include "tests/testutil/random_values.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {
namespace {

std::string ViaRapidJson(const StoredItem& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteItem(item, writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string ViaRapidJson(const ValueView& value) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteAttributeValue(value, writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

void ExpectSameJson(const Item& item) {
  const StoredItem stored = StoredItem::Encode(item);
  const std::string want = ItemToJson(item);
  EXPECT_EQ(ItemToJson(stored), want);
  EXPECT_EQ(ViaRapidJson(stored), want);
  for (const auto& [name, value] : item) {
    const ValueView view = *stored.Find(name);
    EXPECT_EQ(ValueToJson(view), ValueToJson(value)) << name;
    EXPECT_EQ(ViaRapidJson(view), ValueToJson(value)) << name;
  }
  Result<Item> again = ParseItemJson(ItemToJson(stored));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, item);
}

TEST(StoredItemJsonTest, EveryTypeAsTheTreeWritesIt) {
  ExpectSameJson({});
  ExpectSameJson({{"PK", "USER#1"},
                  {"n", Number::Parse("-1.50E3").value()},
                  {"b", Value::Binary(std::string("\x00\xFF\x10", 3))},
                  {"t", true},
                  {"f", false},
                  {"z", Value::Nil()},
                  {"m", Value::Map({{"x", Value::Map({})}, {"y", Value::List({})}})},
                  {"l", Value::List({1, "a", Value::List({Value::Nil()})})},
                  {"ss", Value(StringSet{"b", "a"})},
                  {"ns", Value(NumberSet{Number::FromInt64(10), Number::FromInt64(-2)})},
                  {"bs", Value(BinarySet{Bytes{"\x01"}, Bytes{"xyz"}})}});
}

TEST(StoredItemJsonTest, EscapesEveryByteAsTheTreeWriterDoes) {
  std::string every_byte;
  for (int c = 1; c < 0x80; ++c) every_byte.push_back(static_cast<char>(c));
  every_byte.push_back('\0');
  every_byte += "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  ExpectSameJson({{every_byte, Value(every_byte)},
                  {"ss", Value(StringSet{every_byte, "", "\x1F"})},
                  {"m", Value::Map({{"\n", Value::List({Value(every_byte), Value(true)})}})}});
}

TEST(StoredItemJsonTest, RandomItems) {
  std::mt19937_64 rng(23);
  for (int i = 0; i < 300; ++i) {
    SCOPED_TRACE(i);
    ExpectSameJson(testing::RandomItem(rng, 8, 4));
  }
}

}  // namespace
}  // namespace partstore::protocol
