// Tests for the parse of request bodies (tools/protocol/attribute_value_json.h): the whole-text
// UTF-8 check (IsValidUtf8) against RapidJSON's own, ParseJson against RapidJSON's strict parse as
// it ran before that check, and the in-place parse (InsituJson) against ParseJson. The decoding of
// items and AttributeValues is in attribute_value_json_test.cc.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tests/testutil/strict_json_oracle.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {
namespace {

using namespace std::literals;

// Bodies malformed in each way a parse refuses (syntax, bytes that are not UTF-8, surrogate
// escapes, raw NULs, byte order marks, trailing content), and well-formed ones with escapes.
std::vector<std::string> MalformedAndEdgeTexts() {
  return {
      R"({"S":"x")",
      R"({"S":"x"} x)",
      R"({'S':'x'})",
      "{\"S\":\"\xFF\"}",
      "{\"S\":\"\xC0\xAF\"}",
      "{\"S\":\"\xED\xA0\x80\"}",
      "{\"S\xE2\x82\":1}",
      "\xC3\xA9",
      R"({"S":"\ud800"})",
      R"({"S":"\ude00"})",
      R"({"S":"a\ud53d\ude00"})",
      R"({"\udfff":{"S":"x"}})",
      R"({"S":"\ud83d\ude00"})",
      R"({"S":"\\udc00"})",
      "",
      std::string("{\"S\":\"x\"}\0junk"sv),
      "\xBB{\"S\":\"x\"}",
      "\xEF\xBB\xBF{\"S\":\"x\"}",
      R"({"a":{"S":"caf\u00e9 \u20ac"},"b":{"N":"1"}})",
      "{\"a\":{\"S\":\"caf\xC3\xA9 \xF0\x9F\x98\x80\"}}",
  };
}

using testing::RapidJsonTakesAsUtf8;
using testing::SameJson;
using testing::StrictRapidJsonParseAccepts;

TEST(Utf8CheckTest, AgreesWithRapidJsonsStringCheck) {
  // Every one- and two-byte string, and the edges of the three- and four-byte forms.
  for (int a = 0; a < 256; ++a) {
    const std::string one(1, static_cast<char>(a));
    ASSERT_EQ(IsValidUtf8(one), RapidJsonTakesAsUtf8(one)) << a;
    for (int b = 0; b < 256; ++b) {
      const std::string two = one + static_cast<char>(b);
      ASSERT_EQ(IsValidUtf8(two), RapidJsonTakesAsUtf8(two)) << a << " " << b;
    }
  }
  EXPECT_TRUE(IsValidUtf8("plain ASCII, longer than a word"));
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_TRUE(IsValidUtf8("\xF4\x8F\xBF\xBF"));   // U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xF4\x90\x80\x80"));  // past U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xED\xA0\x80"));      // a surrogate, written raw
  EXPECT_FALSE(IsValidUtf8("\xE0\x80\xAF"));      // overlong
  EXPECT_FALSE(IsValidUtf8("\xC0\xAF"));          // overlong
  EXPECT_FALSE(IsValidUtf8("abcdefgh\xE2\x82"));  // truncated at the end, after a word
  EXPECT_FALSE(
      IsValidUtf8("\xE2\x82"
                  "abcdefgh"));  // truncated before ASCII
  // Random strings of valid sequences, edge bytes and ASCII runs across word boundaries.
  const std::vector<std::string> pieces = {"a",
                                           "abcdefghijk",
                                           "\x7F",
                                           "\xC2\x80",
                                           "\xDF\xBF",
                                           "\xE0\xA0\x80",
                                           "\xED\x9F\xBF",
                                           "\xEE\x80\x80",
                                           "\xEF\xBF\xBF",
                                           "\xF0\x90\x80\x80",
                                           "\xF4\x8F\xBF\xBF",
                                           "\x80",
                                           "\xBF",
                                           "\xC0",
                                           "\xC1",
                                           "\xC2",
                                           "\xE0",
                                           "\xED",
                                           "\xF0",
                                           "\xF4",
                                           "\xF5",
                                           "\xFF",
                                           "\xED\xA0",
                                           "\xF4\x90",
                                           "\xE0\x9F"};
  std::mt19937 random(51);
  for (int n = 0; n < 20'000; ++n) {
    std::string text;
    const int count = static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) text += pieces[random() % pieces.size()];
    ASSERT_EQ(IsValidUtf8(text), RapidJsonTakesAsUtf8(text)) << ::testing::PrintToString(text);
  }
}

// ParseJson takes exactly the texts RapidJSON's strict parse took before the whole-text UTF-8
// check: the error cases, and 20,000 random edits of a request body (bytes that are not UTF-8,
// escapes of surrogates and of pairs, quotes, NULs, brackets) inside and outside its strings.
TEST(InsituJsonTest, TakesWhatRapidJsonsStrictParseTook) {
  std::vector<std::string> texts = MalformedAndEdgeTexts();
  const std::string body =
      R"({"TableName":"Orders","Item":{"PK":{"S":"caf\u00e9 ok"},"n":{"N":"1.5"},)"
      R"("l":{"L":[{"BOOL":true},{"NULL":true},{"SS":["a","b"]}]}}})";
  const std::vector<std::string> edits = {"\x80",
                                          "\xBF",
                                          "\xC0\xAF",
                                          "\xC3\xA9",
                                          "\xE2\x82\xAC",
                                          "\xED\xA0\x80",
                                          "\xED\x9F\xBF",
                                          "\xF0\x9F\x98\x80",
                                          "\xF4\x90\x80\x80",
                                          "\xFF",
                                          "\\ud800",
                                          "\\udc00",
                                          "\\ud83d\\ude00",
                                          "\\ud83d",
                                          "\\u00e9",
                                          "\\\\u",
                                          "\"",
                                          "\\",
                                          std::string(1, '\0'),
                                          "[",
                                          "]",
                                          "{",
                                          "}",
                                          ",",
                                          " "};
  std::mt19937 random(5151);
  for (int n = 0; n < 20'000; ++n) {
    std::string text = body;
    const int count = 1 + static_cast<int>(random() % 3);
    for (int i = 0; i < count; ++i) {
      const size_t at = random() % (text.size() + 1);
      const std::string& edit = edits[random() % edits.size()];
      if (random() % 2 == 0 || at == text.size()) {
        text.insert(at, edit);
      } else {
        text.replace(at, 1, edit);
      }
    }
    texts.push_back(std::move(text));
  }
  int accepted = 0;
  for (const std::string& text : texts) {
    rapidjson::Document document;
    const bool ok = ParseJson(text, &document).ok();
    ASSERT_EQ(ok, StrictRapidJsonParseAccepts(text)) << ::testing::PrintToString(text);
    accepted += ok;
  }
  // Both sides of the question are asked: a good share of the edits keep the body valid JSON.
  EXPECT_GT(accepted, 2'000);
  EXPECT_LT(accepted, 18'000);
}

// The server's in-place parse (InsituJson) and ParseJson agree: the same documents, the same
// errors, for bodies inline and past the 4 KB kept inline.
TEST(InsituJsonTest, ParsesAsParseJsonDoes) {
  std::vector<std::string> texts = MalformedAndEdgeTexts();
  texts.push_back(R"({"TableName":"T","Item":{"a":{"S":"caf\u00e9 \ud83d\ude00"},"b":{"N":"1"}}})");
  texts.push_back(R"({"a":"\u0000 inside","b":[1,2.5,-3,true,false,null,{}]})");
  // Repeated names (found by the fuzzer: RapidJSON's == cannot compare them, SameJson can).
  texts.push_back(R"({"nil":{"S":"a"},"n":{"N":"-12.50"},"nil":{"NULL+":true}})");
  texts.push_back("{\"a\":\"" + std::string(5000, 'x') + "\"}");
  texts.push_back("{\"a\":\"" + std::string(5000, 'x') + "\xFF\"}");
  texts.push_back("{\"a\":\"" + std::string(5000, 'x') + "\\udc00\"}");
  texts.push_back(std::string(1001, '[') + std::string(1001, ']'));  // past the depth limit
  texts.push_back(std::string(1000, '[') + std::string(1000, ']'));
  for (const std::string& text : texts) {
    rapidjson::Document expected;
    const Status copied = ParseJson(text, &expected);
    InsituJson in_place;
    const Status parsed = in_place.Parse(text);
    ASSERT_EQ(parsed, copied) << text.substr(0, 80);
    if (parsed.ok()) EXPECT_TRUE(SameJson(in_place.root(), expected)) << text.substr(0, 80);
  }
}

// A second Parse on one object discards the first document (its text past 4 KB on the heap, or
// inline) and gives what ParseJson gives.
TEST(InsituJsonTest, ParsesAgainDiscardingTheLastDocument) {
  const std::vector<std::string> texts = {"{\"a\":\"" + std::string(6000, 'x') + "\"}",
                                          R"({"b":[1,2,{"c":"d"}]})", R"({"b":)", R"(["e"])",
                                          "{\"f\":\"" + std::string(5000, 'y') + "\"}"};
  InsituJson json;
  for (const std::string& text : texts) {
    rapidjson::Document expected;
    const Status copied = ParseJson(text, &expected);
    ASSERT_EQ(json.Parse(text), copied) << text.substr(0, 40);
    if (copied.ok()) {
      EXPECT_TRUE(SameJson(json.root(), expected)) << text.substr(0, 40);
    } else {
      EXPECT_TRUE(json.root().IsNull());
    }
  }
}

}  // namespace
}  // namespace partstore::protocol
