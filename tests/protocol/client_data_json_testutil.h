// The data plane's client JSON tests' shared pieces (client_data_json_*_test.cc): golden bodies
// compared after a compact rewrite (Canonical), the round trips through the server's decoders and
// encoders, and the sample items, conditions and capacities the tests fill requests with.
#pragma once

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/partiql_json.h"
#include "tools/protocol/transaction_json.h"

namespace partstore::protocol::client_data_testing {

inline Value N(std::string_view text) { return Value(*Number::Parse(text)); }

// `json` without its layout. REQUIRES: valid JSON.
inline std::string Canonical(std::string_view json) {
  rapidjson::Document document;
  Status parsed = ParseJson(json, &document);
  EXPECT_TRUE(parsed.ok()) << json;
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  document.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

// Encodes `request`, decodes the text with the server's decoder, encodes that again: the two
// texts must be equal. Returns the first.
template <typename Request, typename DecodeRequest>
inline std::string RoundTrip(const Request& request, std::string (*encode)(const Request&),
                             DecodeRequest decode) {
  const std::string first = encode(request);
  auto decoded = Decode(decode, first);
  EXPECT_TRUE(decoded.ok()) << ErrorOf(decoded) << "\n" << first;
  if (!decoded.ok()) return first;
  EXPECT_EQ(encode(*decoded), first);
  return first;
}

// Encodes `result` with the server's encoder, decodes it, encodes the decoded result: the texts
// must be equal. Returns the decoded result.
template <typename ResultT, typename Encode>
ResultT ResultRoundTrip(const ResultT& result, Encode encode,
                        Result<ResultT> (*decode)(const rapidjson::Value&)) {
  const std::string first = encode(result);
  auto decoded = Decode(decode, first);
  EXPECT_TRUE(decoded.ok()) << ErrorOf(decoded) << "\n" << first;
  if (!decoded.ok()) return ResultT{};
  EXPECT_EQ(encode(*decoded), first);
  return std::move(*decoded);
}

// The error of decoding `body` with `decode`: "Internal: <message>", or "OK".
template <typename ResultT>
inline std::string MalformedError(Result<ResultT> (*decode)(const rapidjson::Value&),
                                  std::string_view body) {
  return ErrorOf(Decode(decode, body));
}

inline const Item kKey = {{"pk", S("a")}, {"sk", Value(2)}};
constexpr std::string_view kKeyJson = R"({"pk":{"S":"a"},"sk":{"N":"2"}})";

// Every AttributeValue type, written in name order.
inline Item RichItem() {
  return Item{{"pk", S("a")},
              {"n", N("1.5")},
              {"b", Value::Binary("hi")},
              {"m", Value::Map(AttributeMap{{"x", Value(true)}})},
              {"l", Value::List({Value::Nil(), S("s")})},
              {"ss", Value(StringSet({"y", "x"}))},
              {"ns", Value(NumberSet({Number::FromInt64(3), Number::FromInt64(-1)}))},
              {"bs", Value(BinarySet({Bytes{"a"}}))}};
}
constexpr std::string_view kRichItemJson = R"({
  "b": {"B": "aGk="}, "bs": {"BS": ["YQ=="]}, "l": {"L": [{"NULL": true}, {"S": "s"}]},
  "m": {"M": {"x": {"BOOL": true}}}, "n": {"N": "1.5"}, "ns": {"NS": ["-1", "3"]},
  "pk": {"S": "a"}, "ss": {"SS": ["x", "y"]}})";

inline std::vector<expr::ExpectedAttribute> SomeExpected() {
  std::vector<expr::ExpectedAttribute> expected(3);
  expected[0].name = "a";
  expected[0].value = S("x");
  expected[0].exists = true;
  expected[1].name = "b";
  expected[1].exists = false;
  expected[2].name = "c";
  expected[2].comparison_operator = expr::ComparisonOperator::kBetween;
  expected[2].attribute_value_list = std::vector<Value>{Value(1), Value(2)};
  return expected;
}
constexpr std::string_view kExpectedJson = R"({
  "a": {"Value": {"S": "x"}, "Exists": true},
  "b": {"Exists": false},
  "c": {"ComparisonOperator": "BETWEEN", "AttributeValueList": [{"N": "1"}, {"N": "2"}]}})";

// A fully populated ConsumedCapacity (the INDEXES form) and its JSON.
inline ConsumedCapacity FullCapacity(std::string table) {
  ConsumedCapacity capacity;
  capacity.table_name = std::move(table);
  capacity.total_half_units = 9;
  capacity.table_half_units = 3;
  capacity.global_secondary_indexes = {{"g1", 2}, {"g2", 1}};
  capacity.local_secondary_indexes = {{"l1", 3}};
  return capacity;
}

inline ItemCollectionMetrics SomeMetrics() {
  ItemCollectionMetrics metrics;
  metrics.item_collection_key = {{"pk", S("a")}};
  metrics.size_estimate_range_gb[0] = 0.25;
  metrics.size_estimate_range_gb[1] = 1.5;
  return metrics;
}

inline ::testing::AssertionResult HasPrefix(const std::string& text, std::string_view prefix) {
  if (std::string_view(text).starts_with(prefix)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\"" << text << "\" does not start with \"" << prefix << "\"";
}

}  // namespace partstore::protocol::client_data_testing
