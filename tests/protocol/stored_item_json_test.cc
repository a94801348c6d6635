// DynamoDB JSON written straight from a stored item's encoding: the same bytes as from the tree,
// through both writers, for every type, every escaped byte and random items. And the other way:
// an item's JSON encoded straight into a StoredItem (EncodeItemJson), the bytes and size of
// Encode(DecodeItem(json)) whenever it takes an item, declining every item DecodeItem refuses.
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>

#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "core/attribute_name_table.h"
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

// ---- EncodeItemJson ----------------------------------------------------------------------------

enum class Outcome { kTaken, kLeftToTheTree, kRefused };

// EncodeItemJson against the tree path on `text`, an item's JSON: a taken item has the bytes and
// size of Encode(DecodeItem); an item DecodeItem refuses is declined.
Outcome EncodeAgainstTheTree(std::string_view text) {
  rapidjson::Document document;
  EXPECT_TRUE(ParseJson(text, &document).ok()) << text;
  const std::optional<StoredItem> direct = EncodeItemJson(document);
  const Result<Item> tree = DecodeItem(document);
  if (!tree.ok()) {
    EXPECT_FALSE(direct.has_value()) << text;
    return Outcome::kRefused;
  }
  if (!direct) return Outcome::kLeftToTheTree;
  const StoredItem want = StoredItem::Encode(*tree);
  EXPECT_EQ(direct->encoding(), want.encoding()) << text;
  EXPECT_EQ(direct->item_size(), want.item_size()) << text;
  EXPECT_EQ(direct->ToItem(), *tree) << text;
  return Outcome::kTaken;
}

std::string Nested(int levels, std::string_view kind) {
  std::string text = R"({"S":"leaf"})";
  for (int i = 0; i < levels; ++i) {
    text = kind == "M" ? R"({"M":{"a":)" + text + "}}" : R"({"L":[)" + text + "]}";
  }
  return R"({"top":)" + text + "}";
}

TEST(EncodeItemJsonTest, TakesEveryTypeAsTheTreeEncodesIt) {
  const std::string run(40, 'x');
  const std::string long_name(300, 'n');  // past the name table's 255 bytes: written out
  std::string wide;                       // ten 7,000-byte strings, none of them a run
  for (int i = 0; i < 10; ++i) {
    std::string text(7'000, 'a');
    for (size_t j = 0; j < text.size(); ++j) text[j] = static_cast<char>('a' + (i + j) % 26);
    wide += (i > 0 ? R"(,{"S":")" : R"({"S":")") + text + R"("})";
  }
  for (
      const std::string& text : std::vector<std::string>{
          R"({})",
          R"({"a":{"S":"x","N":null,"unknown":5}})",
          R"({"n":{"N":"-01.50E3"},"z":{"N":"-0"},"big":{"N":"9.9999999999999999999999999999999999999E+125"}})",
          R"({"b":{"B":"AP8Q"},"e":{"B":""},"s":{"S":""}})",
          R"({"t":{"BOOL":true},"f":{"BOOL":false},"z":{"NULL":true}})",
          R"({"ss":{"SS":["b","a","","\u00e9","\u0000"]},"ns":{"NS":["10","-2","3e2","0.5"]},"bs":{"BS":["AQ==","eHl6",""]}})",
          R"({"m":{"M":{"y":{"L":[]},"x":{"M":{}},"\u00e9":{"L":[{"S":"l"},{"NULL":true},{"L":[{"N":"1"}]}]}}}})",
          R"({"z":{"S":"1"},"a":{"S":"2"},"\u00e9":{"S":"3"},"A":{"S":"4"},"a\u0000":{"S":"5"}})",
          R"({"run":{"S":")" + run + R"("},"m":{"M":{"r":{"S":")" + run + R"("}}},"ss":{"SS":[")" +
              run + R"("]}})",
          R"({")" + long_name + R"(":{"M":{")" + long_name + R"(":{"S":"v"}}}})",
          Nested(30, "M"),
          Nested(30, "L"),
          Nested(31, "M"),  // at the nesting limit: 32 levels counting the top's value
          Nested(31, "L"),
          // Bodies past 65,535 bytes: four-byte offsets in the list and in the item.
          R"({"l":{"L":[)" + wide + R"(]},"after":{"S":"x"}})",
      }) {
    EXPECT_EQ(EncodeAgainstTheTree(text), Outcome::kTaken) << text;
  }
}

TEST(EncodeItemJsonTest, DeclinesWhatTheTreeRefuses) {
  for (const std::string& text : std::vector<std::string>{R"([])",
                                                          R"(null)",
                                                          R"({"a":null})",
                                                          R"({"a":{}})",
                                                          R"({"a":{"S":null}})",
                                                          R"({"a":{"S":5}})",
                                                          R"({"a":{"S":true}})",
                                                          R"({"a":{"N":"abc"}})",
                                                          R"({"a":{"N":"1e126"}})",
                                                          R"({"a":{"N":""}})",
                                                          R"({"a":{"B":"AQ="}})",
                                                          R"({"a":{"B":5}})",
                                                          R"({"a":{"BOOL":3}})",
                                                          R"({"a":{"NULL":false}})",
                                                          R"({"a":{"SS":[]}})",
                                                          R"({"a":{"SS":["x","x"]}})",
                                                          R"({"a":{"SS":["x",null]}})",
                                                          R"({"a":{"SS":"x"}})",
                                                          R"({"a":{"NS":["1","1.0"]}})",
                                                          R"({"a":{"NS":["1",null]}})",
                                                          R"({"a":{"NS":[]}})",
                                                          R"({"a":{"BS":["AQ==","AQ=="]}})",
                                                          R"({"a":{"BS":[]}})",
                                                          R"({"":{"S":"x"}})",
                                                          R"({"a":{"M":{"":{"S":"x"}}}})",
                                                          R"({"a":{"L":[null]}})",
                                                          R"({"a":{"L":[{}]}})",
                                                          R"({"a":{"M":[]}})",
                                                          R"({"a":{"L":{}}})",
                                                          R"({"a":{"M":{"b":null}}})",
                                                          R"({"a":{"S":"x","N":"1"}})",
                                                          Nested(32, "M"),
                                                          Nested(32, "L"),
                                                          Nested(40, "M")}) {
    EXPECT_EQ(EncodeAgainstTheTree(text), Outcome::kRefused) << text;
  }
}

TEST(EncodeItemJsonTest, LeavesRepeatedMembersAndBooleanTextsToTheTree) {
  for (const std::string& text :
       std::vector<std::string>{R"({"a":{"S":"x","S":"y"}})", R"({"a":{"S":"x"},"a":{"N":"1"}})",
                                R"({"m":{"M":{"b":{"S":"x"},"b":{"S":"y"}}}})",
                                R"({"a":{"BOOL":"true"}})", R"({"a":{"NULL":"true"}})"}) {
    EXPECT_EQ(EncodeAgainstTheTree(text), Outcome::kLeftToTheTree) << text;
  }
}

// DynamoDB's limit, 400 KB, is taken; a byte more is left to the tree path (whose table refuses
// it, tests/protocol/put_item_dispatch_test.cc).
TEST(EncodeItemJsonTest, TakesAnItemOfExactly400KB) {
  const auto item = [](size_t size) {  // "a" and a string: 1 + the string's bytes
    std::string text(size - 1, 'x');
    for (size_t i = 0; i < text.size(); i += 7) text[i] = 'y';  // not a run
    return R"({"a":{"S":")" + text + R"("}})";
  };
  EXPECT_EQ(EncodeAgainstTheTree(item(kMaxItemSize)), Outcome::kTaken);
  EXPECT_EQ(EncodeAgainstTheTree(item(kMaxItemSize + 1)), Outcome::kLeftToTheTree);
}

TEST(EncodeItemJsonTest, RandomItemsAreTaken) {
  std::mt19937_64 rng(29);
  for (int i = 0; i < 2000; ++i) {
    const std::string text = ItemToJson(testing::RandomItem(rng, 8, 5));
    ASSERT_EQ(EncodeAgainstTheTree(text), Outcome::kTaken) << text;
  }
}

// A random item's JSON with, at random places, the forms the encoder declines or the tree
// refuses: nulls, empty values, two type members, bad numbers and base64, empty names, repeated
// names, duplicate set elements, booleans as text.
std::string RandomValueJson(std::mt19937_64& rng, int depth);

std::string RandomMembersJson(std::mt19937_64& rng, int depth) {
  static const char* const kNames[] = {"a", "b", "c", "", "\\u00e9", "a\\u0000", "PK"};
  std::string out = "{";
  const int count = testing::RandomInt(rng, 0, 4);
  for (int i = 0; i < count; ++i) {
    if (i > 0) out += ",";
    out += std::string("\"") + kNames[testing::RandomInt(rng, 0, 6)] + "\":";
    out += RandomValueJson(rng, depth);
  }
  return out + "}";
}

std::string RandomValueJson(std::mt19937_64& rng, int depth) {
  static const char* const kStrings[] = {"\"\"", "\"x\"", "\"y\"", "\"\\u00e9\"", "\"a\\nb\""};
  static const char* const kNumbers[] = {"\"1\"",   "\"01\"", "\"1.0\"",  "\"-2\"",
                                         "\"3e2\"", "\"x\"",  "\"1e200\""};
  static const char* const kBlobs[] = {"\"AQ==\"", "\"Ag==\"", "\"\"", "\"A\"", "\"AQ=\""};
  auto pick = [&](const char* const* pool, int n) {
    return pool[testing::RandomInt(rng, 0, n - 1)];
  };
  auto set = [&](const char* const* pool, int n) {
    std::string out = "[";
    const int count = testing::RandomInt(rng, 0, 3);
    for (int i = 0; i < count; ++i) out += std::string(i > 0 ? "," : "") + pick(pool, n);
    return out + "]";
  };
  const int kind = testing::RandomInt(rng, 0, depth >= 4 ? 13 : 17);
  switch (kind) {
    case 0:
      return std::string(R"({"S":)") + pick(kStrings, 5) + "}";
    case 1:
      return std::string(R"({"N":)") + pick(kNumbers, 7) + "}";
    case 2:
      return std::string(R"({"N":")") + testing::RandomNumberText(rng) + "\"}";
    case 3:
      return std::string(R"({"B":)") + pick(kBlobs, 5) + "}";
    case 4:
      return testing::RandomChance(rng, 0.8) ? R"({"BOOL":true})" : R"({"BOOL":"no"})";
    case 5:
      return testing::RandomChance(rng, 0.8) ? R"({"NULL":true})" : R"({"NULL":false})";
    case 6:
      return R"({"SS":)" + set(kStrings, 5) + "}";
    case 7:
      return R"({"NS":)" + set(kNumbers, 5) + "}";
    case 8:
      return R"({"BS":)" + set(kBlobs, 3) + "}";
    case 9:
      return "null";
    case 10:
      return "{}";
    case 11:
      return R"({"S":"x","N":"1"})";
    case 12:
      return testing::RandomChance(rng, 0.5) ? R"({"S":"x","N":null,"other":[1]})"
                                             : R"({"S":"x","S":"y"})";  // left to the tree
    case 13:
      return R"({"SS":["x",null]})";
    case 14:
    case 15:
      return R"({"M":)" + RandomMembersJson(rng, depth + 1) + "}";
    default: {
      std::string out = R"({"L":[)";
      const int count = testing::RandomInt(rng, 0, 3);
      for (int i = 0; i < count; ++i) {
        out += (i > 0 ? "," : "") + RandomValueJson(rng, depth + 1);
      }
      return out + "]}";
    }
  }
}

TEST(EncodeItemJsonTest, RandomTextsEncodeAsTheTreeOrAreDeclined) {
  std::mt19937_64 rng(31);
  int taken = 0;
  int refused = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = RandomMembersJson(rng, 0);
    switch (EncodeAgainstTheTree(text)) {
      case Outcome::kTaken:
        ++taken;
        break;
      case Outcome::kRefused:
        ++refused;
        break;
      case Outcome::kLeftToTheTree:
        break;
    }
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "first failing text: " << text;
      break;
    }
  }
  EXPECT_GT(taken, 4000);
  EXPECT_GT(refused, 4000);
}

TEST(EncodeItemJsonTest, NumbersTheItemsNamesOnlyOnceItIsTaken) {
  const std::string name = "encode-item-json-test-name";
  const uint32_t before = attribute_name_table::size();
  if (before >= attribute_name_table::kMaxNames - 1) {
    // ctest runs each test in a process of its own; a run of the whole binary fills the table
    // with the random tests' names first.
    GTEST_SKIP() << "the attribute-name table is full: run this test alone";
  }
  rapidjson::Document declined;
  ASSERT_TRUE(ParseJson(R"({")" + name + R"(":{"S":"x"},"z":{"N":"bad"}})", &declined).ok());
  EXPECT_FALSE(EncodeItemJson(declined).has_value());
  EXPECT_EQ(attribute_name_table::size(), before);

  // Over 400 KB, an item is declined before its names are numbered (the table refuses it).
  rapidjson::Document oversized;
  ASSERT_TRUE(ParseJson(R"({")" + name + R"(":{"S":")" + std::string(kMaxItemSize, 'x') + R"("}})",
                        &oversized)
                  .ok());
  EXPECT_FALSE(EncodeItemJson(oversized).has_value());
  EXPECT_EQ(attribute_name_table::size(), before);

  rapidjson::Document taken;
  ASSERT_TRUE(ParseJson(R"({")" + name + R"(":{"S":"x"}})", &taken).ok());
  const std::optional<StoredItem> item = EncodeItemJson(taken);
  ASSERT_TRUE(item.has_value());
  EXPECT_EQ(attribute_name_table::size(), before + 1);
  EXPECT_EQ(item->encoding(), StoredItem::Encode({{name, Value("x")}}).encoding());
}

}  // namespace
}  // namespace partstore::protocol
