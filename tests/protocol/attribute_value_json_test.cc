// Tests for the AttributeValue JSON codec. The expected messages are written out literally (not
// taken from the constants) so that a change of wording has to change a test too; the evidence
// for each is in tools/protocol/attribute_value_json.cc.
#include "tools/protocol/attribute_value_json.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "tests/testutil/random_values.h"

namespace partstore {
// Readable failures for Status comparisons.
void PrintTo(const Status& status, std::ostream* os) { *os << status.ToString(); }
}  // namespace partstore

namespace partstore::protocol {
namespace {

using namespace std::literals;

Number N(std::string_view text) { return Number::Parse(text).value(); }

Result<Value> DecodeText(std::string_view text, int depth = kAttributeValueDepth) {
  rapidjson::Document document;
  Status status = ParseJson(text, &document);
  if (!status.ok()) return status;
  return DecodeAttributeValue(document, depth);
}

// ---- Every type, both directions ------------------------------------------------------------

struct TypeCase {
  const char* json;       // Input.
  Value expected;         // Decoded value.
  const char* canonical;  // Encoding of `expected`.
};

std::vector<TypeCase> TypeCases() {
  return {
      {R"({"S":"hello"})", Value("hello"), R"({"S":"hello"})"},
      {R"({"S":""})", Value(""), R"({"S":""})"},
      {R"({"S":"caf\u00e9 \ud83d\ude00 \"q\" \\ \n \u0000"})",
       Value(std::string("caf\xC3\xA9 \xF0\x9F\x98\x80 \"q\" \\ \n \0"sv)),
       R"({"S":"café 😀 \"q\" \\ \n \u0000"})"},
      {R"({"N":"42"})", Value(N("42")), R"({"N":"42"})"},
      {R"({"N":"-0012.500"})", Value(N("-12.5")), R"({"N":"-12.5"})"},
      {R"({"N":"1.5E2"})", Value(N("150")), R"({"N":"150"})"},
      {R"({"N":"1e-5"})", Value(N("0.00001")), R"({"N":"0.00001"})"},
      {R"({"N":"-0"})", Value(N("0")), R"({"N":"0"})"},
      {R"({"B":"AAEC/w=="})", Value::Binary(std::string("\x00\x01\x02\xFF", 4)),
       R"({"B":"AAEC/w=="})"},
      {R"({"B":""})", Value::Binary(""), R"({"B":""})"},
      {R"({"BOOL":true})", Value(true), R"({"BOOL":true})"},
      {R"({"BOOL":false})", Value(false), R"({"BOOL":false})"},
      {R"({"NULL":true})", Value::Nil(), R"({"NULL":true})"},
      {R"({"M":{}})", Value::Map({}), R"({"M":{}})"},
      {R"({"M":{"b":{"N":"2"},"a":{"S":"x"}}})", Value::Map({{"a", "x"}, {"b", N("2")}}),
       R"({"M":{"a":{"S":"x"},"b":{"N":"2"}}})"},
      {R"({"L":[]})", Value::List({}), R"({"L":[]})"},
      {R"({"L":[{"S":"x"},{"N":"1"},{"L":[{"NULL":true}]}]})",
       Value::List({"x", N("1"), Value::List({Value::Nil()})}),
       R"({"L":[{"S":"x"},{"N":"1"},{"L":[{"NULL":true}]}]})"},
      {R"({"SS":["b","a",""]})", Value(StringSet{"a", "b", ""}), R"({"SS":["","a","b"]})"},
      {R"({"NS":["10","-1","2.50"]})", Value(NumberSet{N("-1"), N("2.5"), N("10")}),
       R"({"NS":["-1","2.5","10"]})"},
      {R"({"BS":["Yw==","YQ==",""]})", Value(BinarySet{Bytes{"c"}, Bytes{"a"}, Bytes{""}}),
       R"({"BS":["","YQ==","Yw=="]})"},
  };
}

TEST(AttributeValueJsonTest, DecodesEveryType) {
  for (const TypeCase& c : TypeCases()) {
    Result<Value> decoded = DecodeText(c.json);
    ASSERT_TRUE(decoded.ok()) << c.json << ": " << decoded.status().ToString();
    EXPECT_EQ(*decoded, c.expected) << c.json;
  }
}

TEST(AttributeValueJsonTest, EncodesEveryTypeCanonically) {
  for (const TypeCase& c : TypeCases()) {
    EXPECT_EQ(ValueToJson(c.expected), c.canonical) << c.json;
    Result<Value> again = DecodeText(c.canonical);
    ASSERT_TRUE(again.ok()) << c.canonical;
    EXPECT_EQ(*again, c.expected);
  }
}

TEST(AttributeValueJsonTest, ItemsDecodeAndEncodeInNameOrder) {
  Result<Item> item = ParseItemJson(R"({"sk":{"S":"B"}, "pk":{"S":"A"}, "n":{"N":"1.0"}})");
  ASSERT_TRUE(item.ok()) << item.status().ToString();
  EXPECT_EQ(*item, (Item{{"pk", "A"}, {"sk", "B"}, {"n", N("1")}}));
  EXPECT_EQ(ItemToJson(*item), R"({"n":{"N":"1"},"pk":{"S":"A"},"sk":{"S":"B"}})");
  Result<Item> empty = ParseItemJson(" {} ");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
  EXPECT_EQ(ItemToJson(Item{}), "{}");
}

TEST(AttributeValueJsonTest, WritersComposeInsideALargerDocument) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  writer.Key("Item");
  WriteItem(Item{{"a", Value(NumberSet{N("1"), N("2")})}}, writer);
  writer.Key("Value");
  WriteAttributeValue(Value::Binary("hi"), writer);
  writer.EndObject();
  EXPECT_EQ(std::string(buffer.GetString(), buffer.GetSize()),
            R"({"Item":{"a":{"NS":["1","2"]}},"Value":{"B":"aGk="}})");
}

// The writers encode without RapidJSON's Writer, escaping as it does: the same document written
// back by the Writer (parsed from the writers' output) must give the same bytes.
std::string ViaRapidJson(const std::string& json) {
  rapidjson::Document document;
  document.Parse(json.data(), json.size());
  EXPECT_FALSE(document.HasParseError()) << json;
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  document.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}
std::string ViaRapidJson(const Item& item) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteItem(item, writer);
  const std::string written(buffer.GetString(), buffer.GetSize());
  EXPECT_EQ(written, ItemToJson(item));
  return ViaRapidJson(written);
}

TEST(AttributeValueJsonTest, DirectAndRapidJsonWritersAgree) {
  std::string every_byte;
  for (int c = 1; c < 0x80; ++c) every_byte.push_back(static_cast<char>(c));
  every_byte.push_back('\0');
  every_byte += "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80";
  Item item{{every_byte, Value(every_byte)},
            {"ss", Value(StringSet{every_byte, "", "\x1F"})},
            {"m", Value::Map({{"\n", Value::List({Value(every_byte), Value(true)})}})}};
  EXPECT_EQ(ItemToJson(item), ViaRapidJson(item));
  Result<Item> again = ParseItemJson(ItemToJson(item));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, item);

  std::mt19937_64 rng(17);
  for (int i = 0; i < 500; ++i) {
    Item random = testing::RandomItem(rng, 8, 4);
    ASSERT_EQ(ItemToJson(random), ViaRapidJson(random));
    Value value = testing::RandomValue(rng, 3);
    rapidjson::StringBuffer buffer;
    JsonWriter writer(buffer);
    WriteAttributeValue(value, writer);
    ASSERT_EQ(ValueToJson(value), std::string(buffer.GetString(), buffer.GetSize()));
    ASSERT_EQ(ValueToJson(value), ViaRapidJson(ValueToJson(value)));
  }
}

TEST(AttributeValueJsonTest, LongStringsAndBinariesEncode) {
  std::string text(300000, 'x');
  text[1000] = '"';
  text[200000] = '\x01';
  Item item{{"s", Value(text)}, {"b", Value::Binary(text)}};
  EXPECT_EQ(ItemToJson(item), ViaRapidJson(item));
  EXPECT_EQ(ParseItemJson(ItemToJson(item)).value(), item);
}

TEST(AttributeValueJsonTest, EmptyStringAndBinaryAreAcceptedEverywhere) {
  Result<Item> item = ParseItemJson(
      R"({"s":{"S":""},"b":{"B":""},"l":{"L":[{"S":""},{"B":""}]},"m":{"M":{"k":{"S":""}}},)"
      R"("ss":{"SS":[""]},"bs":{"BS":[""]}})");
  ASSERT_TRUE(item.ok()) << item.status().ToString();
  EXPECT_EQ(item->at("s"), Value(""));
  EXPECT_EQ(item->at("b"), Value::Binary(""));
  EXPECT_EQ(item->at("ss"), Value(StringSet{""}));
  EXPECT_EQ(item->at("bs"), Value(BinarySet{Bytes{""}}));
}

TEST(AttributeValueJsonTest, UnknownMembersAndNullMembersAreIgnored) {
  EXPECT_EQ(*DecodeText(R"({"S":"x","X":[[[{}]]],"s":1})"), Value("x"));
  EXPECT_EQ(*DecodeText(R"({"S":"x","N":null,"BOOL":null})"), Value("x"));
}

TEST(AttributeValueJsonTest, BooleanWordsAreReadAsBooleans) {
  EXPECT_EQ(*DecodeText(R"({"BOOL":"true"})"), Value(true));
  EXPECT_EQ(*DecodeText(R"({"BOOL":"No"})"), Value(false));
  EXPECT_EQ(*DecodeText(R"({"BOOL":"1"})"), Value(true));
  EXPECT_EQ(*DecodeText(R"({"NULL":"yes"})"), Value::Nil());
}

TEST(AttributeValueJsonTest, DuplicateMembersKeepTheLastOccurrence) {
  EXPECT_EQ(*DecodeText(R"({"S":"first","S":"second"})"), Value("second"));
  // The earlier value is never validated (a Java map keeps only the last put)...
  Result<Item> item = ParseItemJson(R"({"a":{"SS":[]},"b":{"N":"1"},"a":{"S":"x"}})");
  ASSERT_TRUE(item.ok()) << item.status().ToString();
  EXPECT_EQ(*item, (Item{{"a", "x"}, {"b", N("1")}}));
  // ...but it is still deserialized, so its type errors count.
  Result<Item> bad = ParseItemJson(R"({"a":{"S":1},"a":{"S":"x"}})");
  EXPECT_EQ(bad.status(), Status::Serialization("NUMBER_VALUE cannot be converted to String"));
}

TEST(AttributeValueJsonTest, NumberSetDuplicatesCompareNumerically) {
  const char* kDuplicates[] = {
      R"({"NS":["1","1.0"]})",           R"({"NS":["100","1E2"]})",     R"({"NS":["0","-0"]})",
      R"({"NS":["0.5","5e-1"]})",        R"({"NS":["-7","-007.000"]})", R"({"NS":["2","3","2"]})",
      R"({"NS":["1E-130","0.1e-129"]})",
  };
  for (const char* json : kDuplicates) {
    EXPECT_EQ(DecodeText(json).status(), Status::Validation("Input collection contains duplicates"))
        << json;
  }
  EXPECT_TRUE(DecodeText(R"({"NS":["1","1.0000000001"]})").ok());
  EXPECT_TRUE(DecodeText(R"({"NS":["1","-1"]})").ok());
}

TEST(AttributeValueJsonTest, NumberSetDuplicatesAcrossRandomSpellings) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 300; ++i) {
    Number n = testing::RandomNumber(rng);
    std::string json =
        R"({"NS":[")" + n.ToString() + R"(",")" + testing::NumberTextVariant(n, rng) + R"("]})";
    EXPECT_EQ(DecodeText(json).status(), Status::Validation("Input collection contains duplicates"))
        << json;
  }
}

// ---- Errors: exact code and message ---------------------------------------------------------

struct ErrorCase {
  std::string json;  // An AttributeValue unless it starts with "item:", then an item.
  Code code;
  std::string message;
};

Status DecodeCase(std::string_view json) {
  if (json.substr(0, 5) == "item:") return ParseItemJson(json.substr(5)).status();
  return DecodeText(json).status();
}

constexpr Code kV = Code::kValidation;
constexpr Code kS = Code::kSerialization;

std::vector<ErrorCase> ErrorCases() {
  const std::string kMapType =
      "Unrecognized collection type java.util.Map<java.lang.String, "
      "com.amazonaws.dynamodb.v20120810.AttributeValue>";
  return {
      // Empty and multiple types.
      {R"({})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"X":"a"})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"s":"a"})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"S":null})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"M":{"a":{}}})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"L":[{}]})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"L":[{"a":{}}]})", kV,
       "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"},
      {R"({"S":"a","N":"1"})", kV,
       "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
       "supported datatypes"},
      {R"({"NULL":true,"BOOL":false})", kV,
       "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
       "supported datatypes"},
      // Contents are checked before the type count.
      {R"({"S":"a","N":"b"})", kV, "The parameter cannot be converted to a numeric value: b"},
      {R"({"S":"","N":""})", kV, "The parameter cannot be converted to a numeric value"},
      // Numbers (Number::Parse's messages).
      {R"({"N":"abc"})", kV, "The parameter cannot be converted to a numeric value: abc"},
      {R"({"N":""})", kV, "The parameter cannot be converted to a numeric value"},
      {R"({"N":"123456789012345678901234567890123456789"})", kV,
       "Attempting to store more than 38 significant digits in a Number"},
      {R"({"N":"1e126"})", kV,
       "Number overflow. Attempting to store a number with magnitude larger than supported range"},
      {R"({"N":"-1e-131"})", kV,
       "Number underflow. Attempting to store a number with magnitude smaller than supported "
       "range"},
      {R"({"NS":["1","b","a"]})", kV, "The parameter cannot be converted to a numeric value: b"},
      {R"({"NS":["1",""]})", kV, "The parameter cannot be converted to a numeric value"},
      {R"({"NS":["1",null]})", kV, "The parameter cannot be converted to a numeric value"},
      // NULL.
      {R"({"NULL":false})", kV,
       "One or more parameter values were invalid: Null attribute value types must have the value "
       "of true"},
      {R"({"NULL":"no"})", kV,
       "One or more parameter values were invalid: Null attribute value types must have the value "
       "of true"},
      // Empty sets, at any depth.
      {R"({"SS":[]})", kV,
       "One or more parameter values were invalid: An string set  may not be empty"},
      {R"({"NS":[]})", kV,
       "One or more parameter values were invalid: An number set  may not be empty"},
      {R"({"BS":[]})", kV,
       "One or more parameter values were invalid: Binary sets should not be empty"},
      {R"({"M":{"a":{"L":[{"SS":[]}]}}})", kV,
       "One or more parameter values were invalid: An string set  may not be empty"},
      // Set duplicates and null members.
      {R"({"SS":["a","a"]})", kV,
       "One or more parameter values were invalid: Input collection [a, a] contains duplicates."},
      {R"({"SS":["b","a","b"]})", kV,
       "One or more parameter values were invalid: Input collection [b, a, b] contains "
       "duplicates."},
      {R"({"SS":["",""]})", kV,
       "One or more parameter values were invalid: Input collection [, ] contains duplicates."},
      {R"({"SS":["a",null,null]})", kV,
       "One or more parameter values were invalid: Input collection [a, null, null] contains "
       "duplicates."},
      {R"({"SS":["a",null]})", kV,
       "One or more parameter values were invalid: An string set may not have a null string as a "
       "member"},
      {R"({"BS":["Yg==","Yg=="]})", kV,
       "One or more parameter values were invalid: Input collection [Yg==, Yg==]of type BS "
       "contains duplicates."},
      {R"({"BS":["",""]})", kV,
       "One or more parameter values were invalid: Input collection [, ]of type BS contains "
       "duplicates."},
      {R"({"BS":["Yg==",null]})", kV, "The supplied Item contains a null AttributeValue"},
      // Nulls where a value is required.
      {R"({"L":[null]})", kV, "The supplied Item contains a null AttributeValue"},
      {R"({"M":{"k":null}})", kV, "The supplied Item contains a null AttributeValue: k is null"},
      {R"(item:{"a":null})", kV, "The supplied Item contains a null AttributeValue: a is null"},
      {R"(item:null)", kV, "The supplied Item contains a null AttributeValue"},
      {R"(null)", kV, "The supplied Item contains a null AttributeValue"},
      // Attribute names, top level and nested.
      {R"(item:{"":{"S":"x"}})", kV, "Empty attribute name"},
      {R"({"M":{"":{"S":"x"}}})", kV, "Empty attribute name"},
      // The value is checked before its name.
      {R"(item:{"":{"SS":[]}})", kV,
       "One or more parameter values were invalid: An string set  may not be empty"},
      // Serialization: the AttributeValue itself.
      {R"("x")", kS, "Unexpected value type in payload"},
      {R"(1)", kS, "Unexpected value type in payload"},
      {R"(true)", kS, "Unexpected value type in payload"},
      {R"([])", kS,
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
      {R"({"L":["x"]})", kS, "Unexpected value type in payload"},
      {R"({"L":[[]]})", kS,
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
      {R"({"M":{"a":2147483648}})", kS, "Unexpected value type in payload"},
      {R"(item:{"a":"x"})", kS, "Unexpected value type in payload"},
      // Items and M.
      {R"(item:"x")", kS, "Unexpected field type"},
      {R"(item:[])", kS, kMapType},
      {R"({"M":"x"})", kS, "Unexpected field type"},
      {R"({"M":1})", kS, "Unexpected field type"},
      {R"({"M":[]})", kS, kMapType},
      // S and N (and SS / NS elements).
      {R"({"S":true})", kS, "TRUE_VALUE cannot be converted to String"},
      {R"({"S":false})", kS, "FALSE_VALUE cannot be converted to String"},
      {R"({"S":23})", kS, "NUMBER_VALUE cannot be converted to String"},
      {R"({"S":-2147483648})", kS, "NUMBER_VALUE cannot be converted to String"},
      {R"({"N":2147483648})", kS, "NUMBER_VALUE cannot be converted to String"},
      {R"({"N":34.56})", kS, "DECIMAL_VALUE cannot be converted to String"},
      {R"({"N":1e3})", kS, "DECIMAL_VALUE cannot be converted to String"},
      {R"({"S":[]})", kS, "Unrecognized collection type class java.lang.String"},
      {R"({"S":{}})", kS, "Start of structure or map found where not expected"},
      {R"({"SS":[1]})", kS, "NUMBER_VALUE cannot be converted to String"},
      {R"({"NS":["1",2.5]})", kS, "DECIMAL_VALUE cannot be converted to String"},
      {R"({"SS":[{}]})", kS, "Start of structure or map found where not expected"},
      // B and BS elements.
      {R"({"B":true})", kS, "only base-64-encoded strings are convertible to bytes"},
      {R"({"B":23})", kS, "only base-64-encoded strings are convertible to bytes"},
      {R"({"B":34.56})", kS, "only base-64-encoded strings are convertible to bytes"},
      {R"({"B":[]})", kS, "Unrecognized collection type class java.nio.ByteBuffer"},
      {R"({"B":{}})", kS, "Start of structure or map found where not expected"},
      {R"({"B":"23456"})", kS,
       "Base64 encoded length is expected a multiple of 4 bytes but found: 5"},
      {R"({"B":"abc"})", kS,
       "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
      {R"({"B":"\u00e9\ud83d\ude00"})", kS,
       "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
      {R"({"B":"=+/="})", kS, "Invalid last non-pad Base64 character dectected"},
      {R"({"B":"+/+="})", kS, "Invalid last non-pad Base64 character dectected"},
      {R"({"B":"AB=="})", kS, "Invalid last non-pad Base64 character dectected"},
      {R"({"B":"ab!d"})", kS, "Invalid Base64 character: '!'"},
      {R"({"B":"a\u00e9c"})", kS, "Invalid Base64 character: '\xC3\xA9'"},
      {R"({"B":"A=AA"})", kS, "Invalid Base64 character: '='"},
      {R"({"BS":["Yg==","Yg="]})", kS,
       "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
      {R"({"BS":[[]]})", kS, "Unrecognized collection type class java.nio.ByteBuffer"},
      // BOOL and NULL.
      {R"({"BOOL":"23"})", kS, "Unexpected token received from parser"},
      {R"({"NULL":"nope"})", kS, "Unexpected token received from parser"},
      {R"({"BOOL":23})", kS, "NUMBER_VALUE cannot be converted to Boolean"},
      {R"({"NULL":34.56})", kS, "DECIMAL_VALUE cannot be converted to Boolean"},
      {R"({"BOOL":[]})", kS, "Unrecognized collection type class java.lang.Boolean"},
      {R"({"NULL":{}})", kS, "Start of structure or map found where not expected"},
      // Lists and sets.
      {R"({"L":"x"})", kS, "Unexpected field type"},
      {R"({"L":true})", kS, "Unexpected field type"},
      {R"({"SS":"a"})", kS, "Unexpected field type"},
      {R"({"NS":23})", kS, "Unexpected field type"},
      {R"({"BS":"Yg=="})", kS, "Unexpected field type"},
      {R"({"L":{}})", kS, "Start of structure or map found where not expected"},
      {R"({"SS":{}})", kS, "Start of structure or map found where not expected"},
      // Serialization errors anywhere win over validation errors anywhere.
      {R"(item:{"a":{"SS":[]},"b":{"S":1}})", kS, "NUMBER_VALUE cannot be converted to String"},
      {R"({"NULL":false,"S":[]})", kS, "Unrecognized collection type class java.lang.String"},
      {R"({"L":[{"N":"x"},{"L":[{"M":{"k":{"B":"x"}}}]}]})", kS,
       "Base64 encoded length is expected a multiple of 4 bytes but found: 1"},
      // Type members are validated in DynamoDB's fixed order S, SS, N, NS, B, BS, M, L, BOOL, NULL.
      {R"({"NULL":false,"NS":[]})", kV,
       "One or more parameter values were invalid: An number set  may not be empty"},
      {R"({"N":"x","SS":[]})", kV,
       "One or more parameter values were invalid: An string set  may not be empty"},
      // Malformed JSON: SerializationException without a message.
      {R"({"S":"x")", kS, ""},
      {R"({"S":"x"} x)", kS, ""},
      {R"({'S':'x'})", kS, ""},
      {"{\"S\":\"\xFF\"}", kS, ""},
      {R"({"S":"\ud800"})", kS, ""},
      {R"({"S":"\ude00"})", kS, ""},         // A lone trail surrogate.
      {R"({"S":"a\ud53d\ude00"})", kS, ""},  // Found by the fuzzer.
      {R"({"\udfff":{"S":"x"}})", kS, ""},   // In a member name.
      {R"(item:{"\udbff":{"S":"x"}})", kS, ""},
      {"", kS, ""},
      {std::string("{\"S\":\"x\"}\0junk"sv), kS, ""},  // A raw NUL is no end of input.
      {std::string("item:{\"a\":{\"S\":\"x\"}}\0"sv), kS, ""},
      {"\xBB{\"S\":\"x\"}", kS, ""},  // Found by the fuzzer: a stray byte before the document.
      {"\xEF\xBB\xBF{\"S\":\"x\"}", kS, ""},  // Byte order marks are not accepted either.
  };
}

TEST(AttributeValueJsonTest, ErrorsCarryDynamoDbCodesAndMessages) {
  for (const ErrorCase& c : ErrorCases()) {
    Status status = DecodeCase(c.json);
    EXPECT_EQ(status.code(), c.code) << c.json << " -> " << status.ToString();
    EXPECT_EQ(status.message(), c.message) << c.json;
  }
}

TEST(AttributeValueJsonTest, ValidationErrorsFollowDocumentOrderAcrossAttributes) {
  EXPECT_EQ(ParseItemJson(R"({"b":{"NS":[]},"a":{"SS":[]}})").status().message(),
            "One or more parameter values were invalid: An number set  may not be empty");
  EXPECT_EQ(ParseItemJson(R"({"a":{"SS":[]},"b":{"NS":[]}})").status().message(),
            "One or more parameter values were invalid: An string set  may not be empty");
}

TEST(AttributeValueJsonTest, AttributeNameLengthLimit) {
  std::string longest(kMaxAttributeNameSize, 'n');
  EXPECT_TRUE(ParseItemJson(R"({")" + longest + R"(":{"S":"x"}})").ok());
  EXPECT_EQ(ParseItemJson(R"({")" + longest + R"(n":{"S":"x"}})").status(),
            Status::Validation("Attribute name is too large, must be less than 65536 bytes"));
}

// ---- Nesting --------------------------------------------------------------------------------

// An item with one attribute that is `levels` nested maps (levels >= 1).
std::string NestedMapsItem(int levels) {
  std::string json = R"({"a":)";
  for (int i = 0; i < levels; ++i) json += R"({"M":{"a":)";
  json += R"({"S":"x"})";
  for (int i = 0; i < levels; ++i) json += "}}";
  return json + "}";
}

std::string NestedListsValue(int levels) {
  std::string json;
  for (int i = 0; i < levels; ++i) json += R"({"L":[)";
  json += R"({"N":"1"})";
  for (int i = 0; i < levels; ++i) json += "]}";
  return json;
}

const Status kTooDeep = Status::Validation(
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
    "beyond supported limit");

TEST(AttributeValueJsonTest, NestingOf32LevelsIsAcceptedAnd33Rejected) {
  // The item is level 1, a top-level map level 2, and 30 more nested maps reach level 32.
  Result<Item> ok = ParseItemJson(NestedMapsItem(31));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(NestingDepth(ok->at("a")), 31);
  EXPECT_TRUE(ValidateItem(*ok).ok());
  EXPECT_EQ(ParseItemJson(NestedMapsItem(32)).status(), kTooDeep);
  EXPECT_EQ(ParseItemJson(NestedMapsItem(400)).status(), kTooDeep);

  EXPECT_TRUE(DecodeText(NestedListsValue(31)).ok());
  EXPECT_EQ(DecodeText(NestedListsValue(32)).status(), kTooDeep);
  // A value standing deeper (e.g. inside an update path) has less room.
  EXPECT_TRUE(DecodeText(NestedListsValue(21), 12).ok());
  EXPECT_EQ(DecodeText(NestedListsValue(22), 12).status(), kTooDeep);
}

TEST(AttributeValueJsonTest, EncodedNestedItemsRoundTripAtTheLimit) {
  Value v = Value::Map({{"leaf", "x"}});
  for (int i = 1; i < 31; ++i)
    v = (i % 2) ? Value::List({std::move(v)}) : Value::Map({{"k", std::move(v)}});
  Item item{{"a", v}};
  Result<Item> again = ParseItemJson(ItemToJson(item));
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(*again, item);
  Item deeper{{"a", Value::List({v})}};
  EXPECT_EQ(ParseItemJson(ItemToJson(deeper)).status(), kTooDeep);
}

// ---- Robustness -----------------------------------------------------------------------------

TEST(AttributeValueJsonTest, SixteenMegabyteDocumentsDoNotExhaustTheStack) {
  const size_t kSize = 16 << 20;
  // Bare brackets, balanced or not: the parse stops at 1000 JSON levels.
  std::string brackets(kSize / 2, '[');
  brackets.append(kSize / 2, ']');
  EXPECT_EQ(ParseItemJson(brackets).status(), Status::Serialization(""));
  EXPECT_EQ(ParseItemJson(std::string(kSize, '{')).status(), Status::Serialization(""));

  // Millions of L levels.
  std::string open = R"({"L":[)";
  size_t levels = kSize / (open.size() + 2);
  std::string deep = R"({"a":)";
  deep.reserve(kSize + 64);
  for (size_t i = 0; i < levels; ++i) deep += open;
  deep += R"({"S":"x"})";
  for (size_t i = 0; i < levels; ++i) deep += "]}";
  deep += "}";
  EXPECT_EQ(ParseItemJson(deep).status(), Status::Serialization(""));

  // 16 MB of flat content is fine.
  std::string wide = R"({"a":{"L":[)";
  while (wide.size() < kSize) wide += R"({"N":"1"},)";
  wide += R"({"N":"2"}]}})";
  Result<Item> item = ParseItemJson(wide);
  ASSERT_TRUE(item.ok());
  EXPECT_EQ(item->at("a").as_list().back(), Value(N("2")));
}

TEST(AttributeValueJsonTest, JsonDepthLimitSitsFarBeyondTheNestingLimit) {
  // 490 map levels are 981 JSON levels: parsed, then rejected by DynamoDB's nesting rule.
  EXPECT_EQ(ParseItemJson(NestedMapsItem(490)).status(), kTooDeep);
  // 500 map levels exceed 1000 JSON levels: rejected by the parser.
  EXPECT_EQ(ParseItemJson(NestedMapsItem(500)).status(), Status::Serialization(""));
}

// A DOM built directly (not parsed) can be arbitrarily deep: the shape check walks it without
// recursion and the builder stops at the nesting limit.
TEST(AttributeValueJsonTest, ArbitrarilyDeepDomsAreCheckedWithoutRecursion) {
  for (bool type_error : {false, true}) {
    rapidjson::Document document;
    auto& allocator = document.GetAllocator();
    rapidjson::Value inner(rapidjson::kObjectType);
    if (type_error) {
      inner.AddMember("S", 1, allocator);
    } else {
      inner.AddMember("S", "x", allocator);
    }
    // 100k levels: a recursive walk would need several MB of stack.
    for (int i = 0; i < 100'000; ++i) {
      rapidjson::Value list(rapidjson::kArrayType);
      list.Reserve(1, allocator);
      list.PushBack(inner, allocator);
      rapidjson::Value value(rapidjson::kObjectType);
      value.AddMember("L", list, allocator);
      inner = value;
    }
    document.SetObject();
    document.AddMember("a", inner, allocator);
    EXPECT_EQ(DecodeItem(document).status(),
              type_error ? Status::Serialization("NUMBER_VALUE cannot be converted to String")
                         : kTooDeep);
  }
}

TEST(AttributeValueJsonTest, LargeFlatItemsDecode) {
  std::string json = "{";
  for (int i = 0; i < 20000; ++i) {
    if (i) json += ",";
    json += R"("attr)" + std::to_string(19999 - i) + R"(":{"N":")" + std::to_string(i) + R"("})";
  }
  json += "}";
  Result<Item> item = ParseItemJson(json);
  ASSERT_TRUE(item.ok());
  EXPECT_EQ(item->size(), 20000u);
  EXPECT_EQ(item->at("attr0"), Value(N("19999")));
  EXPECT_EQ(ParseItemJson(ItemToJson(*item)).value(), *item);
}

// ---- Randomized round trips -----------------------------------------------------------------

TEST(AttributeValueJsonRandomTest, RandomNumberTextAlwaysParses) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    std::string text = testing::RandomNumberText(rng);
    Result<Number> n = Number::Parse(text);
    ASSERT_TRUE(n.ok()) << text << ": " << n.status().ToString();
    std::string variant = testing::NumberTextVariant(*n, rng);
    Result<Number> same = Number::Parse(variant);
    ASSERT_TRUE(same.ok()) << variant;
    EXPECT_EQ(*same, *n) << text << " vs " << variant;
  }
}

TEST(AttributeValueJsonRandomTest, ValuesSurviveJsonRoundTrips) {
  for (uint64_t seed : {1u, 2u, 3u, 42u, 2024u}) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 600; ++i) {
      Value value = testing::RandomValue(rng, 4);
      std::string json = ValueToJson(value);
      Result<Value> decoded = DecodeText(json);
      ASSERT_TRUE(decoded.ok()) << "seed " << seed << " #" << i << ": " << json << " -> "
                                << decoded.status().ToString();
      ASSERT_EQ(*decoded, value) << json;
      ASSERT_EQ(ValueToJson(*decoded), json);  // Canonical and stable.
    }
  }
}

TEST(AttributeValueJsonRandomTest, ItemsSurviveJsonRoundTrips) {
  testing::RandomValueOptions options;
  options.max_collection_size = 3;
  for (uint64_t seed : {5u, 6u, 7u}) {
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 300; ++i) {
      Item item = testing::RandomItem(rng, 10, 6, options);
      ASSERT_TRUE(ValidateItem(item).ok() || ItemSize(item) > kMaxItemSize);
      std::string json = ItemToJson(item);
      Result<Item> decoded = ParseItemJson(json);
      ASSERT_TRUE(decoded.ok()) << json << " -> " << decoded.status().ToString();
      ASSERT_EQ(*decoded, item);
      ASSERT_EQ(ItemToJson(*decoded), json);
    }
  }
}

TEST(AttributeValueJsonRandomTest, DeepRandomItemsAtTheLimitRoundTrip) {
  testing::RandomValueOptions options;
  options.max_collection_size = 1;
  std::mt19937_64 rng(31);
  for (int i = 0; i < 100; ++i) {
    Item item = testing::RandomItem(rng, 3, 31, options);
    Result<Item> decoded = ParseItemJson(ItemToJson(item));
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    ASSERT_EQ(*decoded, item);
  }
}

// Re-spells a canonical encoding: numbers in other forms, set elements and map members
// reversed, and whitespace; decoding must give the same value and re-encoding the canonical text.
void Respell(const Value& value, std::mt19937_64& rng, std::string* out);

void RespellMap(const AttributeMap& map, std::mt19937_64& rng, std::string* out) {
  out->append("{ ");
  bool first = true;
  for (auto it = map.rbegin(); it != map.rend(); ++it) {
    if (!first) out->append(" , ");
    first = false;
    rapidjson::StringBuffer key;
    rapidjson::Writer<rapidjson::StringBuffer> writer(key);
    writer.String(it->first.data(), static_cast<rapidjson::SizeType>(it->first.size()));
    out->append(key.GetString(), key.GetSize()).append(" :\n");
    Respell(it->second, rng, out);
  }
  out->append("}");
}

void Respell(const Value& value, std::mt19937_64& rng, std::string* out) {
  switch (value.type()) {
    case Type::kN:
      out->append(R"({"N":")").append(testing::NumberTextVariant(value.as_number(), rng));
      out->append("\"}");
      return;
    case Type::kNS: {
      out->append(R"({"NS":[)");
      const auto& elements = value.as_number_set().elements();
      for (size_t i = elements.size(); i-- > 0;) {
        out->append("\"").append(testing::NumberTextVariant(elements[i], rng)).append("\"");
        if (i) out->append(",");
      }
      out->append("]}");
      return;
    }
    case Type::kSS: {
      std::string canonical = ValueToJson(value);
      rapidjson::Document d;
      d.Parse(canonical.data(), canonical.size());
      auto& array = d["SS"];
      std::reverse(array.Begin(), array.End());
      rapidjson::StringBuffer buffer;
      rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
      d.Accept(writer);
      out->append(buffer.GetString(), buffer.GetSize());
      return;
    }
    case Type::kM:
      out->append(R"({ "M" : )");
      RespellMap(value.as_map(), rng, out);
      out->append(" }");
      return;
    case Type::kL:
      out->append(R"({"L":[)");
      for (size_t i = 0; i < value.as_list().size(); ++i) {
        if (i) out->append(",");
        Respell(value.as_list()[i], rng, out);
      }
      out->append("]}");
      return;
    default:
      out->append(ValueToJson(value));
  }
}

TEST(AttributeValueJsonRandomTest, NonCanonicalSpellingsDecodeToTheSameValue) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 500; ++i) {
    Item item = testing::RandomItem(rng, 6, 3);
    std::string json;
    RespellMap(item, rng, &json);
    Result<Item> decoded = ParseItemJson(json);
    ASSERT_TRUE(decoded.ok()) << json << " -> " << decoded.status().ToString();
    ASSERT_EQ(*decoded, item) << json;
    ASSERT_EQ(ItemToJson(*decoded), ItemToJson(item));
  }
}

TEST(AttributeValueJsonRandomTest, RandomBytesNeverCrashTheDecoder) {
  std::mt19937_64 rng(1234);
  const std::string kAlphabet = R"({}[]:,"SNBLMBOOLNULSSNBS0123456789.eE-+ \truefalsn=/)";
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    int n = testing::RandomInt(rng, 0, 40);
    for (int j = 0; j < n; ++j)
      text.push_back(kAlphabet[testing::RandomInt(rng, 0, static_cast<int>(kAlphabet.size()) - 1)]);
    Result<Item> item = ParseItemJson(text);
    if (item.ok()) {
      EXPECT_EQ(ParseItemJson(ItemToJson(*item)).value(), *item);
    } else {
      EXPECT_TRUE(item.status().code() == Code::kValidation ||
                  item.status().code() == Code::kSerialization);
    }
  }
}

}  // namespace
}  // namespace partstore::protocol
