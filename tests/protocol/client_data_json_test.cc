// Tests for the data plane's client side (client_data_json.h): every request encoder against a
// golden body written by hand from DynamoDB's API reference and through the server's own decoder
// and back; every result decoder through the server's own encoder and back; malformed and
// garbage response bodies.
//
// Golden bodies are compared after a parse and a compact rewrite (Canonical), so that they can be
// laid out for reading: member names, order and values still have to match exactly.
#include "tools/protocol/client_data_json.h"

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/partiql_json.h"
#include "tools/protocol/transaction_json.h"

namespace partstore::protocol {
namespace {

Value N(std::string_view text) { return Value(*Number::Parse(text)); }

// `json` without its layout. REQUIRES: valid JSON.
std::string Canonical(std::string_view json) {
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
std::string RoundTrip(const Request& request, std::string (*encode)(const Request&),
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
std::string MalformedError(Result<ResultT> (*decode)(const rapidjson::Value&),
                           std::string_view body) {
  return ErrorOf(Decode(decode, body));
}

const Item kKey = {{"pk", S("a")}, {"sk", Value(2)}};
constexpr std::string_view kKeyJson = R"({"pk":{"S":"a"},"sk":{"N":"2"}})";

// Every AttributeValue type, written in name order.
Item RichItem() {
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

std::vector<expr::ExpectedAttribute> SomeExpected() {
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
ConsumedCapacity FullCapacity(std::string table) {
  ConsumedCapacity capacity;
  capacity.table_name = std::move(table);
  capacity.total_half_units = 9;
  capacity.table_half_units = 3;
  capacity.global_secondary_indexes = {{"g1", 2}, {"g2", 1}};
  capacity.local_secondary_indexes = {{"l1", 3}};
  return capacity;
}

ItemCollectionMetrics SomeMetrics() {
  ItemCollectionMetrics metrics;
  metrics.item_collection_key = {{"pk", S("a")}};
  metrics.size_estimate_range_gb[0] = 0.25;
  metrics.size_estimate_range_gb[1] = 1.5;
  return metrics;
}

::testing::AssertionResult HasPrefix(const std::string& text, std::string_view prefix) {
  if (std::string_view(text).starts_with(prefix)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "\"" << text << "\" does not start with \"" << prefix << "\"";
}

// ---- PutItem ----

TEST(ClientDataJsonPutItemTest, FullRequest) {
  PutItemRequest request;
  request.table_name = "Orders";
  request.item = RichItem();
  request.condition_expression = "attribute_not_exists(#p) OR n < :max";
  request.expression_attribute_names = expr::NameMap{{"#p", "pk"}, {"#q", "q"}};
  request.expression_attribute_values = AttributeMap{{":max", Value(10)}};
  request.return_values = ReturnValue::kAllOld;
  request.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  request.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  EXPECT_EQ(RoundTrip(request, EncodePutItemRequest, DecodePutItemRequest),
            Canonical(R"({"TableName": "Orders", "Item": )" + std::string(kRichItemJson) + R"(,
              "ConditionExpression": "attribute_not_exists(#p) OR n < :max",
              "ExpressionAttributeNames": {"#p": "pk", "#q": "q"},
              "ExpressionAttributeValues": {":max": {"N": "10"}},
              "ReturnValues": "ALL_OLD", "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
              "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE"})"));
}

TEST(ClientDataJsonPutItemTest, LegacyRequest) {
  PutItemRequest request;
  request.table_name = "Orders";
  request.item = kKey;
  request.expected = SomeExpected();
  request.conditional_operator = expr::ConditionalOperator::kOr;
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(RoundTrip(request, EncodePutItemRequest, DecodePutItemRequest),
            Canonical(R"({"TableName": "Orders", "Item": )" + std::string(kKeyJson) +
                      R"(, "Expected": )" + std::string(kExpectedJson) + R"(,
              "ConditionalOperator": "OR", "ReturnConsumedCapacity": "TOTAL"})"));
}

TEST(ClientDataJsonPutItemTest, MinimalRequest) {
  PutItemRequest request;
  request.table_name = "Tbl";
  request.item = {{"pk", S("a")}};
  EXPECT_EQ(RoundTrip(request, EncodePutItemRequest, DecodePutItemRequest),
            Canonical(R"({"TableName": "Tbl", "Item": {"pk": {"S": "a"}}})"));
}

TEST(ClientDataJsonPutItemTest, FullResult) {
  PutItemResult result;
  result.attributes = RichItem();
  result.consumed_capacity = FullCapacity("Orders");
  result.item_collection_metrics = SomeMetrics();
  const PutItemResult decoded = ResultRoundTrip(
      result, [](const PutItemResult& r) { return EncodePutItemResult(r); }, DecodePutItemResult);
  EXPECT_EQ(decoded.attributes, result.attributes);
  EXPECT_EQ(decoded.consumed_capacity, result.consumed_capacity);
  ASSERT_TRUE(decoded.item_collection_metrics);
  EXPECT_EQ(decoded.item_collection_metrics->item_collection_key, (Item{{"pk", S("a")}}));
  EXPECT_EQ(decoded.item_collection_metrics->size_estimate_range_gb[1], 1.5);
}

// ---- GetItem ----

TEST(ClientDataJsonGetItemTest, FullRequest) {
  GetItemRequest request;
  request.table_name = "Orders";
  request.key = kKey;
  request.projection_expression = "#p, n";
  request.expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  request.consistent_read = true;
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(RoundTrip(request, EncodeGetItemRequest, DecodeGetItemRequest),
            Canonical(R"({"TableName": "Orders", "Key": )" + std::string(kKeyJson) + R"(,
              "ProjectionExpression": "#p, n", "ExpressionAttributeNames": {"#p": "pk"},
              "ConsistentRead": true, "ReturnConsumedCapacity": "TOTAL"})"));
}

TEST(ClientDataJsonGetItemTest, LegacyRequest) {
  GetItemRequest request;
  request.table_name = "Orders";
  request.key = kKey;
  request.attributes_to_get = std::vector<std::string>{"n", "pk"};
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  EXPECT_EQ(RoundTrip(request, EncodeGetItemRequest, DecodeGetItemRequest),
            Canonical(R"({"TableName": "Orders", "Key": )" + std::string(kKeyJson) + R"(,
              "AttributesToGet": ["n", "pk"], "ReturnConsumedCapacity": "INDEXES"})"));
}

TEST(ClientDataJsonGetItemTest, MinimalRequest) {
  GetItemRequest request;
  request.table_name = "Tbl";
  request.key = {{"pk", S("a")}};
  EXPECT_EQ(RoundTrip(request, EncodeGetItemRequest, DecodeGetItemRequest),
            Canonical(R"({"TableName": "Tbl", "Key": {"pk": {"S": "a"}}})"));
}

TEST(ClientDataJsonGetItemTest, FullResult) {
  GetItemResult result;
  result.item = RichItem();
  result.consumed_capacity = FullCapacity("Orders");
  const GetItemResult decoded = ResultRoundTrip(
      result, [](const GetItemResult& r) { return EncodeGetItemResult(r); }, DecodeGetItemResult);
  EXPECT_EQ(decoded.item, result.item);
  EXPECT_EQ(decoded.consumed_capacity, result.consumed_capacity);
}

TEST(ClientDataJsonGetItemTest, NoItem) {
  auto r = Decode(DecodeGetItemResult, "{}");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->item);
  EXPECT_FALSE(r->consumed_capacity);
  r = Decode(DecodeGetItemResult, R"({"Item": null, "Unknown": [1, {"x": 2}]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_FALSE(r->item);
}

// ---- UpdateItem ----

TEST(ClientDataJsonUpdateItemTest, FullRequest) {
  UpdateItemRequest request;
  request.table_name = "Orders";
  request.key = kKey;
  request.update_expression = "SET #n = #n + :one";
  request.condition_expression = "#n < :max";
  request.expression_attribute_names = expr::NameMap{{"#n", "n"}};
  request.expression_attribute_values = AttributeMap{{":max", Value(9)}, {":one", Value(1)}};
  request.return_values = ReturnValue::kUpdatedNew;
  request.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  request.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  EXPECT_EQ(RoundTrip(request, EncodeUpdateItemRequest, DecodeUpdateItemRequest),
            Canonical(R"({"TableName": "Orders", "Key": )" + std::string(kKeyJson) + R"(,
              "UpdateExpression": "SET #n = #n + :one", "ConditionExpression": "#n < :max",
              "ExpressionAttributeNames": {"#n": "n"},
              "ExpressionAttributeValues": {":max": {"N": "9"}, ":one": {"N": "1"}},
              "ReturnValues": "UPDATED_NEW", "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
              "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE"})"));
}

TEST(ClientDataJsonUpdateItemTest, LegacyRequest) {
  UpdateItemRequest request;
  request.table_name = "Orders";
  request.key = kKey;
  request.attribute_updates = std::vector<expr::AttributeUpdate>{
      {.name = "a", .action = expr::AttributeAction::kPut, .value = S("x")},
      {.name = "b", .action = expr::AttributeAction::kDelete, .value = std::nullopt},
      {.name = "c", .action = std::nullopt, .value = Value(1)},
      {.name = "d", .action = expr::AttributeAction::kAdd, .value = Value(2)}};
  request.expected = SomeExpected();
  request.conditional_operator = expr::ConditionalOperator::kAnd;
  request.return_values = ReturnValue::kUpdatedOld;
  EXPECT_EQ(RoundTrip(request, EncodeUpdateItemRequest, DecodeUpdateItemRequest),
            Canonical(R"({"TableName": "Orders", "Key": )" + std::string(kKeyJson) + R"(,
              "AttributeUpdates": {"a": {"Value": {"S": "x"}, "Action": "PUT"},
                                   "b": {"Action": "DELETE"}, "c": {"Value": {"N": "1"}},
                                   "d": {"Value": {"N": "2"}, "Action": "ADD"}},
              "Expected": )" +
                      std::string(kExpectedJson) + R"(,
              "ConditionalOperator": "AND", "ReturnValues": "UPDATED_OLD"})"));
}

TEST(ClientDataJsonUpdateItemTest, MinimalRequest) {
  UpdateItemRequest request;
  request.table_name = "Tbl";
  request.key = {{"pk", S("a")}};
  EXPECT_EQ(RoundTrip(request, EncodeUpdateItemRequest, DecodeUpdateItemRequest),
            Canonical(R"({"TableName": "Tbl", "Key": {"pk": {"S": "a"}}})"));
}

TEST(ClientDataJsonUpdateItemTest, FullResult) {
  UpdateItemResult result;
  result.attributes = RichItem();
  result.consumed_capacity = FullCapacity("Orders");
  result.item_collection_metrics = SomeMetrics();
  const UpdateItemResult decoded = ResultRoundTrip(
      result, [](const UpdateItemResult& r) { return EncodeUpdateItemResult(r); },
      DecodeUpdateItemResult);
  EXPECT_EQ(decoded.attributes, result.attributes);
  EXPECT_TRUE(decoded.item_collection_metrics);
}

// ---- DeleteItem ----

TEST(ClientDataJsonDeleteItemTest, FullRequest) {
  DeleteItemRequest request;
  request.table_name = "Orders";
  request.key = kKey;
  request.condition_expression = "#n = :v";
  request.expression_attribute_names = expr::NameMap{{"#n", "n"}};
  request.expression_attribute_values = AttributeMap{{":v", S("x")}};
  request.return_values = ReturnValue::kAllOld;
  request.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  request.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  EXPECT_EQ(RoundTrip(request, EncodeDeleteItemRequest, DecodeDeleteItemRequest),
            Canonical(R"({"TableName": "Orders", "Key": )" + std::string(kKeyJson) + R"(,
              "ConditionExpression": "#n = :v", "ExpressionAttributeNames": {"#n": "n"},
              "ExpressionAttributeValues": {":v": {"S": "x"}}, "ReturnValues": "ALL_OLD",
              "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
              "ReturnConsumedCapacity": "TOTAL", "ReturnItemCollectionMetrics": "SIZE"})"));
}

TEST(ClientDataJsonDeleteItemTest, LegacyRequest) {
  DeleteItemRequest request;
  request.table_name = "Orders";
  request.key = kKey;
  request.expected = SomeExpected();
  request.conditional_operator = expr::ConditionalOperator::kOr;
  request.return_values = ReturnValue::kAllNew;  // refused by the engine, sent as asked
  EXPECT_EQ(RoundTrip(request, EncodeDeleteItemRequest, DecodeDeleteItemRequest),
            Canonical(R"({"TableName": "Orders", "Key": )" + std::string(kKeyJson) +
                      R"(, "Expected": )" + std::string(kExpectedJson) + R"(,
              "ConditionalOperator": "OR", "ReturnValues": "ALL_NEW"})"));
}

TEST(ClientDataJsonDeleteItemTest, MinimalRequest) {
  DeleteItemRequest request;
  request.table_name = "Tbl";
  request.key = {{"pk", S("a")}};
  EXPECT_EQ(RoundTrip(request, EncodeDeleteItemRequest, DecodeDeleteItemRequest),
            Canonical(R"({"TableName": "Tbl", "Key": {"pk": {"S": "a"}}})"));
}

TEST(ClientDataJsonDeleteItemTest, FullResult) {
  DeleteItemResult result;
  result.attributes = kKey;
  result.consumed_capacity = FullCapacity("Orders");
  result.item_collection_metrics = SomeMetrics();
  const DeleteItemResult decoded = ResultRoundTrip(
      result, [](const DeleteItemResult& r) { return EncodeDeleteItemResult(r); },
      DecodeDeleteItemResult);
  EXPECT_EQ(decoded.attributes, result.attributes);
}

// ---- Malformed single-item results ----

TEST(ClientDataJsonItemResultTest, MalformedMembers) {
  EXPECT_EQ(MalformedError(DecodeGetItemResult, R"({"Item": "x"})"),
            "Internal: malformed GetItem response: Item is not an item");
  EXPECT_TRUE(HasPrefix(MalformedError(DecodeGetItemResult, R"({"Item": {"a": {"S": 1}}})"),
                        "Internal: malformed GetItem response: Item is not a valid item: "));
  EXPECT_TRUE(HasPrefix(MalformedError(DecodeGetItemResult, R"({"Item": {"a": {}}})"),
                        "Internal: malformed GetItem response: Item is not a valid item: "));
  EXPECT_EQ(MalformedError(DecodePutItemResult, R"({"Attributes": [1]})"),
            "Internal: malformed PutItem response: Attributes is not an item");
  EXPECT_EQ(MalformedError(DecodePutItemResult,
                           R"({"ConsumedCapacity": {"TableName": "T", "CapacityUnits": "1.0"}})"),
            "Internal: malformed PutItem response: ConsumedCapacity.CapacityUnits is not a "
            "non-negative number");
  EXPECT_EQ(MalformedError(DecodePutItemResult, R"({"ConsumedCapacity": {"CapacityUnits": -1}})"),
            "Internal: malformed PutItem response: ConsumedCapacity.CapacityUnits is not a "
            "non-negative number");
  EXPECT_EQ(MalformedError(DecodePutItemResult, R"({"ConsumedCapacity": {"TableName": 3}})"),
            "Internal: malformed PutItem response: ConsumedCapacity.TableName is not a string");
  EXPECT_EQ(MalformedError(DecodePutItemResult, R"({"ConsumedCapacity": []})"),
            "Internal: malformed PutItem response: ConsumedCapacity is not an object");
  EXPECT_EQ(MalformedError(DecodeUpdateItemResult,
                           R"({"ItemCollectionMetrics": {"SizeEstimateRangeGB": [1]}})"),
            "Internal: malformed UpdateItem response: ItemCollectionMetrics.SizeEstimateRangeGB "
            "is not a list of two numbers");
  EXPECT_EQ(MalformedError(DecodeUpdateItemResult,
                           R"({"ItemCollectionMetrics": {"ItemCollectionKey": "k"}})"),
            "Internal: malformed UpdateItem response: ItemCollectionMetrics.ItemCollectionKey is "
            "not an item");
  EXPECT_EQ(MalformedError(DecodeDeleteItemResult,
                           R"({"ConsumedCapacity": {"GlobalSecondaryIndexes": {"g1": 3}}})"),
            "Internal: malformed DeleteItem response: ConsumedCapacity.GlobalSecondaryIndexes.g1 "
            "is not an object");
  EXPECT_EQ(
      MalformedError(DecodeDeleteItemResult,
                     R"({"ConsumedCapacity": {"Table": {"CapacityUnits": true}}})"),
      "Internal: malformed DeleteItem response: ConsumedCapacity.Table.CapacityUnits is not a "
      "non-negative number");
  EXPECT_EQ(MalformedError(DecodeDeleteItemResult,
                           R"({"ConsumedCapacity": {"LocalSecondaryIndexes": []}})"),
            "Internal: malformed DeleteItem response: ConsumedCapacity.LocalSecondaryIndexes is "
            "not an object");
}

TEST(ClientDataJsonItemResultTest, CapacityUnitsBetweenHalvesRoundUp) {
  auto r = Decode(DecodeGetItemResult,
                  R"({"ConsumedCapacity": {"TableName": "T", "CapacityUnits": 0.3,
                                           "ReadCapacityUnits": 0.3, "Table": null}})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  ASSERT_TRUE(r->consumed_capacity);
  EXPECT_EQ(r->consumed_capacity->table_name, "T");
  EXPECT_EQ(r->consumed_capacity->total_half_units, 1);
  EXPECT_FALSE(r->consumed_capacity->table_half_units);
}

TEST(ClientDataJsonItemResultTest, RepeatedMemberKeepsTheLast) {
  auto r = Decode(DecodeGetItemResult, R"({"Item": {"a": {"S": "x"}}, "Item": {"b": {"S": "y"}}})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->item, (Item{{"b", S("y")}}));
}

// ---- Query and Scan ----

TEST(ClientDataJsonQueryTest, FullRequest) {
  QueryRequest request;
  request.table_name = "Orders";
  request.index_name = "ByDate";
  request.key_condition_expression = "#p = :p AND sk > :s";
  request.filter_expression = "n > :n";
  request.projection_expression = "#p, sk, n";
  request.expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  request.expression_attribute_values =
      AttributeMap{{":n", Value(1)}, {":p", S("a")}, {":s", Value(0)}};
  request.select = Select::kSpecificAttributes;
  request.limit = 10;
  request.scan_index_forward = false;
  request.consistent_read = true;
  request.exclusive_start_key = kKey;
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  EXPECT_EQ(RoundTrip(request, EncodeQueryRequest, DecodeQueryRequest),
            Canonical(R"({"TableName": "Orders", "IndexName": "ByDate",
              "KeyConditionExpression": "#p = :p AND sk > :s", "FilterExpression": "n > :n",
              "ProjectionExpression": "#p, sk, n", "ExpressionAttributeNames": {"#p": "pk"},
              "ExpressionAttributeValues": {":n": {"N": "1"}, ":p": {"S": "a"},
                                            ":s": {"N": "0"}},
              "Select": "SPECIFIC_ATTRIBUTES", "Limit": 10, "ScanIndexForward": false,
              "ConsistentRead": true, "ExclusiveStartKey": )" +
                      std::string(kKeyJson) + R"(, "ReturnConsumedCapacity": "INDEXES"})"));
}

TEST(ClientDataJsonQueryTest, LegacyRequest) {
  QueryRequest request;
  request.table_name = "Orders";
  request.key_conditions = std::vector<expr::AttributeCondition>{
      {.name = "pk",
       .comparison_operator = expr::ComparisonOperator::kEq,
       .attribute_value_list = {S("a")}},
      {.name = "sk",
       .comparison_operator = expr::ComparisonOperator::kBetween,
       .attribute_value_list = {Value(1), Value(5)}}};
  request.query_filter = std::vector<expr::AttributeCondition>{
      {.name = "n",
       .comparison_operator = expr::ComparisonOperator::kNotNull,
       .attribute_value_list = {}},
      {.name = "t",
       .comparison_operator = expr::ComparisonOperator::kBeginsWith,
       .attribute_value_list = {S("x")}}};
  request.conditional_operator = expr::ConditionalOperator::kOr;
  request.attributes_to_get = std::vector<std::string>{"pk", "n"};
  request.select = Select::kAllProjectedAttributes;
  request.scan_index_forward = true;
  EXPECT_EQ(RoundTrip(request, EncodeQueryRequest, DecodeQueryRequest),
            Canonical(R"({"TableName": "Orders",
              "KeyConditions": {
                "pk": {"AttributeValueList": [{"S": "a"}], "ComparisonOperator": "EQ"},
                "sk": {"AttributeValueList": [{"N": "1"}, {"N": "5"}],
                       "ComparisonOperator": "BETWEEN"}},
              "QueryFilter": {
                "n": {"ComparisonOperator": "NOT_NULL"},
                "t": {"AttributeValueList": [{"S": "x"}], "ComparisonOperator": "BEGINS_WITH"}},
              "ConditionalOperator": "OR", "AttributesToGet": ["pk", "n"],
              "Select": "ALL_PROJECTED_ATTRIBUTES", "ScanIndexForward": true})"));
}

TEST(ClientDataJsonQueryTest, MinimalRequest) {
  QueryRequest request;
  request.table_name = "Tbl";
  EXPECT_EQ(RoundTrip(request, EncodeQueryRequest, DecodeQueryRequest),
            Canonical(R"({"TableName": "Tbl"})"));
}

TEST(ClientDataJsonScanTest, FullRequest) {
  ScanRequest request;
  request.table_name = "Orders";
  request.index_name = "ByDate";
  request.filter_expression = "#n > :n";
  request.projection_expression = "pk";
  request.expression_attribute_names = expr::NameMap{{"#n", "n"}};
  request.expression_attribute_values = AttributeMap{{":n", Value(1)}};
  request.select = Select::kCount;
  request.limit = 7;
  request.segment = 1;
  request.total_segments = 4;
  request.consistent_read = true;
  request.exclusive_start_key = kKey;
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(RoundTrip(request, EncodeScanRequest, DecodeScanRequest),
            Canonical(R"({"TableName": "Orders", "IndexName": "ByDate",
              "FilterExpression": "#n > :n", "ProjectionExpression": "pk",
              "ExpressionAttributeNames": {"#n": "n"},
              "ExpressionAttributeValues": {":n": {"N": "1"}}, "Select": "COUNT", "Limit": 7,
              "ConsistentRead": true, "ExclusiveStartKey": )" +
                      std::string(kKeyJson) + R"(, "ReturnConsumedCapacity": "TOTAL",
              "Segment": 1, "TotalSegments": 4})"));
}

TEST(ClientDataJsonScanTest, LegacyRequest) {
  ScanRequest request;
  request.table_name = "Orders";
  request.scan_filter =
      std::vector<expr::AttributeCondition>{{.name = "n",
                                             .comparison_operator = expr::ComparisonOperator::kIn,
                                             .attribute_value_list = {Value(1), Value(2)}},
                                            {.name = "s",
                                             .comparison_operator = expr::ComparisonOperator::kNull,
                                             .attribute_value_list = {}}};
  request.conditional_operator = expr::ConditionalOperator::kAnd;
  request.attributes_to_get = std::vector<std::string>{"n"};
  request.select = Select::kAllAttributes;
  EXPECT_EQ(RoundTrip(request, EncodeScanRequest, DecodeScanRequest),
            Canonical(R"({"TableName": "Orders",
              "ScanFilter": {
                "n": {"AttributeValueList": [{"N": "1"}, {"N": "2"}], "ComparisonOperator": "IN"},
                "s": {"ComparisonOperator": "NULL"}},
              "ConditionalOperator": "AND", "AttributesToGet": ["n"],
              "Select": "ALL_ATTRIBUTES"})"));
}

TEST(ClientDataJsonScanTest, MinimalRequest) {
  ScanRequest request;
  request.table_name = "Tbl";
  EXPECT_EQ(RoundTrip(request, EncodeScanRequest, DecodeScanRequest),
            Canonical(R"({"TableName": "Tbl"})"));
}

std::string EncodePage(const ReadPageResult& result) { return EncodeReadPageResult(result); }

TEST(ClientDataJsonReadPageTest, FullResult) {
  ReadPageResult result;
  result.items = {RichItem(), kKey};
  result.count = 2;
  result.scanned_count = 5;
  result.last_evaluated_key = kKey;
  result.consumed_capacity = FullCapacity("Orders");
  const ReadPageResult decoded = ResultRoundTrip(result, EncodePage, DecodeReadPageResult);
  EXPECT_EQ(decoded.items, result.items);
  EXPECT_EQ(decoded.count, 2);
  EXPECT_EQ(decoded.scanned_count, 5);
  EXPECT_FALSE(decoded.items_omitted);
}

TEST(ClientDataJsonReadPageTest, CountPage) {
  ReadPageResult result;
  result.items_omitted = true;
  result.count = 3;
  result.scanned_count = 4;
  const ReadPageResult decoded = ResultRoundTrip(result, EncodePage, DecodeReadPageResult);
  EXPECT_TRUE(decoded.items_omitted);
  EXPECT_EQ(decoded.count, 3);
}

TEST(ClientDataJsonReadPageTest, MalformedMembers) {
  EXPECT_EQ(MalformedError(DecodeReadPageResult, R"({"Items": {}})"),
            "Internal: malformed Query or Scan response: Items is not a list");
  EXPECT_EQ(MalformedError(DecodeReadPageResult, R"({"Items": [{}, 3]})"),
            "Internal: malformed Query or Scan response: Items[1] is not an item");
  EXPECT_TRUE(HasPrefix(MalformedError(DecodeReadPageResult, R"({"Items": [{"a": {"N": "x"}}]})"),
                        "Internal: malformed Query or Scan response: Items[0] is not a valid "
                        "item: "));
  EXPECT_EQ(MalformedError(DecodeReadPageResult, R"({"Items": [], "Count": "3"})"),
            "Internal: malformed Query or Scan response: Count is not a 32-bit integer");
  EXPECT_EQ(MalformedError(DecodeReadPageResult, R"({"Count": 3000000000})"),
            "Internal: malformed Query or Scan response: Count is not a 32-bit integer");
  EXPECT_EQ(MalformedError(DecodeReadPageResult, R"({"ScannedCount": 1.5})"),
            "Internal: malformed Query or Scan response: ScannedCount is not a 32-bit integer");
  EXPECT_EQ(MalformedError(DecodeReadPageResult, R"({"LastEvaluatedKey": []})"),
            "Internal: malformed Query or Scan response: LastEvaluatedKey is not an item");
  EXPECT_EQ(
      MalformedError(DecodeReadPageResult, R"({"ConsumedCapacity": {"CapacityUnits": 1e300}})"),
      "Internal: malformed Query or Scan response: ConsumedCapacity.CapacityUnits is not a "
      "non-negative number");
}

// ---- BatchGetItem ----

TEST(ClientDataJsonBatchGetItemTest, FullRequest) {
  BatchGetItemRequest request;
  KeysAndAttributes orders;
  orders.keys = {kKey, {{"pk", S("b")}, {"sk", Value(3)}}};
  orders.projection_expression = "#p, n";
  orders.expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  orders.consistent_read = true;
  KeysAndAttributes users;
  users.keys = {{{"id", S("u")}}};
  users.attributes_to_get = std::vector<std::string>{"id", "name"};
  request.request_items = {{"Orders", orders}, {"Users", users}};
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(RoundTrip(request, EncodeBatchGetItemRequest, DecodeBatchGetItemRequest),
            Canonical(R"({"RequestItems": {
              "Orders": {"Keys": [)" +
                      std::string(kKeyJson) +
                      R"(, {"pk": {"S": "b"}, "sk": {"N": "3"}}],
                         "ProjectionExpression": "#p, n",
                         "ExpressionAttributeNames": {"#p": "pk"}, "ConsistentRead": true},
              "Users": {"Keys": [{"id": {"S": "u"}}], "AttributesToGet": ["id", "name"]}},
              "ReturnConsumedCapacity": "TOTAL"})"));
}

TEST(ClientDataJsonBatchGetItemTest, MinimalRequest) {
  BatchGetItemRequest request;
  KeysAndAttributes keys;
  keys.keys = {{{"pk", S("a")}}};
  request.request_items = {{"Tbl", keys}};
  EXPECT_EQ(RoundTrip(request, EncodeBatchGetItemRequest, DecodeBatchGetItemRequest),
            Canonical(R"({"RequestItems": {"Tbl": {"Keys": [{"pk": {"S": "a"}}]}}})"));
}

TEST(ClientDataJsonBatchGetItemTest, FullResult) {
  BatchGetItemResult result;
  result.responses = {{"Users", {{{"id", S("u")}}}}, {"Orders", {RichItem(), kKey}}};
  KeysAndAttributes keys;
  keys.keys = {kKey};
  keys.projection_expression = "#p";
  keys.expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  keys.attributes_to_get = std::vector<std::string>{"a"};  // not with a projection on the wire
  keys.consistent_read = true;
  result.unprocessed_keys = {{"Orders", keys}, {"Users", KeysAndAttributes{.keys = {kKey}}}};
  result.consumed_capacity = {FullCapacity("Users"), FullCapacity("Orders")};
  const BatchGetItemResult decoded = ResultRoundTrip(
      result, [](const BatchGetItemResult& r) { return EncodeBatchGetItemResult(r); },
      DecodeBatchGetItemResult);
  ASSERT_EQ(decoded.responses.size(), 2u);
  EXPECT_EQ(decoded.responses[0].first, "Users");  // the body's order
  EXPECT_EQ(decoded.responses[1].second, result.responses[1].second);
  ASSERT_EQ(decoded.unprocessed_keys.size(), 2u);
  EXPECT_TRUE(decoded.unprocessed_keys[0].second.consistent_read);
  EXPECT_EQ(decoded.consumed_capacity, result.consumed_capacity);
}

TEST(ClientDataJsonBatchGetItemTest, MalformedMembers) {
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"Responses": []})"),
            "Internal: malformed BatchGetItem response: Responses is not an object");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"Responses": {"T": {}}})"),
            "Internal: malformed BatchGetItem response: Responses.T is not a list");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"Responses": {"T": [{}, "x"]}})"),
            "Internal: malformed BatchGetItem response: Responses.T[1] is not an item");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"UnprocessedKeys": {"T": []}})"),
            "Internal: malformed BatchGetItem response: UnprocessedKeys.T is not an object");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult,
                           R"({"UnprocessedKeys": {"T": {"Keys": [], "ConsistentRead": "yes"}}})"),
            "Internal: malformed BatchGetItem response: UnprocessedKeys.T.ConsistentRead is not "
            "a boolean");
  EXPECT_EQ(
      MalformedError(DecodeBatchGetItemResult,
                     R"({"UnprocessedKeys": {"T": {"ExpressionAttributeNames": {"#a": 1}}}})"),
      "Internal: malformed BatchGetItem response: "
      "UnprocessedKeys.T.ExpressionAttributeNames.#a is not a string");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult,
                           R"({"UnprocessedKeys": {"T": {"AttributesToGet": ["a", 2]}}})"),
            "Internal: malformed BatchGetItem response: UnprocessedKeys.T.AttributesToGet[1] is "
            "not a string");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"ConsumedCapacity": {}})"),
            "Internal: malformed BatchGetItem response: ConsumedCapacity is not a list");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"ConsumedCapacity": [{}, 1]})"),
            "Internal: malformed BatchGetItem response: ConsumedCapacity[1] is not an object");
}

// ---- BatchWriteItem ----

TEST(ClientDataJsonBatchWriteItemTest, FullRequest) {
  BatchWriteItemRequest request;
  request.request_items = {
      {"Orders",
       {{.kind = WriteRequest::Kind::kPut, .item = RichItem()},
        {.kind = WriteRequest::Kind::kDelete, .item = kKey}}},
      {"Users", {{.kind = WriteRequest::Kind::kPut, .item = {{"id", S("u")}}}}}};
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  request.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  EXPECT_EQ(RoundTrip(request, EncodeBatchWriteItemRequest, DecodeBatchWriteItemRequest),
            Canonical(R"({"RequestItems": {
              "Orders": [{"PutRequest": {"Item": )" +
                      std::string(kRichItemJson) + R"(}},
                         {"DeleteRequest": {"Key": )" +
                      std::string(kKeyJson) + R"(}}],
              "Users": [{"PutRequest": {"Item": {"id": {"S": "u"}}}}]},
              "ReturnConsumedCapacity": "INDEXES", "ReturnItemCollectionMetrics": "SIZE"})"));
}

TEST(ClientDataJsonBatchWriteItemTest, MinimalRequest) {
  BatchWriteItemRequest request;
  request.request_items = {
      {"Tbl", {{.kind = WriteRequest::Kind::kDelete, .item = {{"pk", S("a")}}}}}};
  EXPECT_EQ(
      RoundTrip(request, EncodeBatchWriteItemRequest, DecodeBatchWriteItemRequest),
      Canonical(R"({"RequestItems": {"Tbl": [{"DeleteRequest": {"Key": {"pk": {"S": "a"}}}}]}})"));
}

TEST(ClientDataJsonBatchWriteItemTest, FullResult) {
  BatchWriteItemResult result;
  result.unprocessed_items = {
      {"Orders",
       {{.kind = WriteRequest::Kind::kDelete, .item = kKey},
        {.kind = WriteRequest::Kind::kPut, .item = RichItem()}}},
      {"Users", {{.kind = WriteRequest::Kind::kPut, .item = {{"id", S("u")}}}}}};
  result.item_collection_metrics = {{"Orders", {SomeMetrics(), SomeMetrics()}}};
  result.consumed_capacity = {FullCapacity("Orders"), FullCapacity("Users")};
  const BatchWriteItemResult decoded = ResultRoundTrip(
      result, [](const BatchWriteItemResult& r) { return EncodeBatchWriteItemResult(r); },
      DecodeBatchWriteItemResult);
  ASSERT_EQ(decoded.unprocessed_items.size(), 2u);
  ASSERT_EQ(decoded.unprocessed_items[0].second.size(), 2u);
  EXPECT_EQ(decoded.unprocessed_items[0].second[0].kind, WriteRequest::Kind::kDelete);
  EXPECT_EQ(decoded.unprocessed_items[0].second[1].item, RichItem());
  ASSERT_EQ(decoded.item_collection_metrics.size(), 1u);
  EXPECT_EQ(decoded.item_collection_metrics[0].second.size(), 2u);
}

TEST(ClientDataJsonBatchWriteItemTest, MalformedMembers) {
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult, R"({"UnprocessedItems": {"T": [{}]}})"),
            "Internal: malformed BatchWriteItem response: UnprocessedItems.T[0] is not one "
            "PutRequest or one DeleteRequest");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult,
                           R"({"UnprocessedItems": {"T": [{"PutRequest": {"Item": {}},
                                                            "DeleteRequest": {"Key": {}}}]}})"),
            "Internal: malformed BatchWriteItem response: UnprocessedItems.T[0] is not one "
            "PutRequest or one DeleteRequest");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult,
                           R"({"UnprocessedItems": {"T": [{"PutRequest": {}}]}})"),
            "Internal: malformed BatchWriteItem response: UnprocessedItems.T[0].PutRequest.Item "
            "is not present");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult,
                           R"({"UnprocessedItems": {"T": [{"DeleteRequest": "k"}]}})"),
            "Internal: malformed BatchWriteItem response: UnprocessedItems.T[0].DeleteRequest "
            "is not an object");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult,
                           R"({"UnprocessedItems": {"T": [{"DeleteRequest": {"Key": 1}}]}})"),
            "Internal: malformed BatchWriteItem response: "
            "UnprocessedItems.T[0].DeleteRequest.Key is not an item");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult, R"({"UnprocessedItems": {"T": {}}})"),
            "Internal: malformed BatchWriteItem response: UnprocessedItems.T is not a list");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult, R"({"ItemCollectionMetrics": {"T": {}}})"),
            "Internal: malformed BatchWriteItem response: ItemCollectionMetrics.T is not a list");
  EXPECT_EQ(
      MalformedError(DecodeBatchWriteItemResult,
                     R"({"ItemCollectionMetrics": {"T": [{"SizeEstimateRangeGB": [1, "2"]}]}})"),
      "Internal: malformed BatchWriteItem response: "
      "ItemCollectionMetrics.T[0].SizeEstimateRangeGB is not a list of two numbers");
}

// ---- TransactWriteItems ----

TEST(ClientDataJsonTransactWriteItemsTest, FullRequest) {
  TransactWriteItemsRequest request;
  TransactWriteItem check;
  check.condition_check = ConditionCheckRequest{
      .table_name = "Accounts",
      .key = {{"pk", S("a")}},
      .condition_expression = "#b >= :min",
      .expression_attribute_names = expr::NameMap{{"#b", "balance"}},
      .expression_attribute_values = AttributeMap{{":min", Value(10)}},
      .return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld};
  TransactWriteItem put;
  put.put.emplace();
  put.put->table_name = "Accounts";
  put.put->item = {{"pk", S("b")}};
  put.put->condition_expression = "attribute_not_exists(#p)";
  put.put->expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  put.put->expression_attribute_values = AttributeMap{{":x", S("x")}};
  put.put->return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  TransactWriteItem del;
  del.del.emplace();
  del.del->table_name = "Accounts";
  del.del->key = {{"pk", S("c")}};
  del.del->condition_expression = "attribute_exists(#p)";
  del.del->expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  del.del->expression_attribute_values = AttributeMap{{":v", Value(true)}};
  del.del->return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  TransactWriteItem update;
  update.update.emplace();
  update.update->table_name = "Other";
  update.update->key = kKey;
  update.update->update_expression = "SET #n = #n + :one";
  update.update->condition_expression = "#n < :max";
  update.update->expression_attribute_names = expr::NameMap{{"#n", "n"}};
  update.update->expression_attribute_values = AttributeMap{{":max", Value(9)}, {":one", Value(1)}};
  update.update->return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kAllOld;
  request.transact_items = {check, put, del, update};
  request.client_request_token = "token-1";
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  request.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  EXPECT_EQ(RoundTrip(request, EncodeTransactWriteItemsRequest, DecodeTransactWriteItemsRequest),
            Canonical(R"j({"TransactItems": [
        {"ConditionCheck": {"TableName": "Accounts", "Key": {"pk": {"S": "a"}},
                            "ConditionExpression": "#b >= :min",
                            "ExpressionAttributeNames": {"#b": "balance"},
                            "ExpressionAttributeValues": {":min": {"N": "10"}},
                            "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        {"Put": {"TableName": "Accounts", "Item": {"pk": {"S": "b"}},
                 "ConditionExpression": "attribute_not_exists(#p)",
                 "ExpressionAttributeNames": {"#p": "pk"},
                 "ExpressionAttributeValues": {":x": {"S": "x"}},
                 "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        {"Delete": {"TableName": "Accounts", "Key": {"pk": {"S": "c"}},
                    "ConditionExpression": "attribute_exists(#p)",
                    "ExpressionAttributeNames": {"#p": "pk"},
                    "ExpressionAttributeValues": {":v": {"BOOL": true}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        {"Update": {"TableName": "Other", "Key": )j" +
                      std::string(kKeyJson) + R"j(,
                    "UpdateExpression": "SET #n = #n + :one", "ConditionExpression": "#n < :max",
                    "ExpressionAttributeNames": {"#n": "n"},
                    "ExpressionAttributeValues": {":max": {"N": "9"}, ":one": {"N": "1"}},
                    "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}],
        "ClientRequestToken": "token-1", "ReturnConsumedCapacity": "INDEXES",
        "ReturnItemCollectionMetrics": "SIZE"})j"));
}

TEST(ClientDataJsonTransactWriteItemsTest, MinimalRequest) {
  TransactWriteItemsRequest request;
  TransactWriteItem put;
  put.put.emplace();
  put.put->table_name = "Tbl";
  put.put->item = {{"pk", S("a")}};
  request.transact_items = {put};
  EXPECT_EQ(
      RoundTrip(request, EncodeTransactWriteItemsRequest, DecodeTransactWriteItemsRequest),
      Canonical(
          R"({"TransactItems": [{"Put": {"TableName": "Tbl", "Item": {"pk": {"S": "a"}}}}]})"));
}

// The members DynamoDB's transaction actions do not have are not sent (client_data_json.h).
TEST(ClientDataJsonTransactWriteItemsTest, MembersWithoutAPlaceAreNotWritten) {
  TransactWriteItemsRequest request;
  TransactWriteItem put;
  put.put.emplace();
  put.put->table_name = "T";
  put.put->item = {{"pk", S("a")}};
  put.put->return_values = ReturnValue::kAllOld;
  put.put->return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  put.put->conditional_operator = expr::ConditionalOperator::kOr;
  request.transact_items = {put};
  EXPECT_EQ(
      EncodeTransactWriteItemsRequest(request),
      Canonical(R"({"TransactItems": [{"Put": {"TableName": "T", "Item": {"pk": {"S": "a"}}}}]})"));
}

TEST(ClientDataJsonTransactWriteItemsTest, FullResult) {
  TransactWriteItemsResult result;
  result.consumed_capacity = {FullCapacity("A"), FullCapacity("B")};
  result.item_collection_metrics = {{"A", {SomeMetrics()}}, {"B", {SomeMetrics()}}};
  const TransactWriteItemsResult decoded = ResultRoundTrip(
      result, [](const TransactWriteItemsResult& r) { return EncodeTransactWriteItemsResult(r); },
      DecodeTransactWriteItemsResult);
  EXPECT_EQ(decoded.consumed_capacity, result.consumed_capacity);
  EXPECT_EQ(decoded.item_collection_metrics.size(), 2u);
}

// ---- TransactGetItems ----

TEST(ClientDataJsonTransactGetItemsTest, FullRequest) {
  TransactGetItemsRequest request;
  TransactGetItem first;
  first.get.table_name = "Orders";
  first.get.key = kKey;
  first.get.projection_expression = "#p, n";
  first.get.expression_attribute_names = expr::NameMap{{"#p", "pk"}};
  TransactGetItem second;
  second.get.table_name = "Users";
  second.get.key = {{"id", S("u")}};
  request.transact_items = {first, second};
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(RoundTrip(request, EncodeTransactGetItemsRequest, DecodeTransactGetItemsRequest),
            Canonical(R"({"TransactItems": [
              {"Get": {"TableName": "Orders", "Key": )" +
                      std::string(kKeyJson) + R"(, "ProjectionExpression": "#p, n",
                       "ExpressionAttributeNames": {"#p": "pk"}}},
              {"Get": {"TableName": "Users", "Key": {"id": {"S": "u"}}}}],
              "ReturnConsumedCapacity": "TOTAL"})"));
}

TEST(ClientDataJsonTransactGetItemsTest, MinimalRequest) {
  TransactGetItemsRequest request;
  TransactGetItem get;
  get.get.table_name = "Tbl";
  get.get.key = {{"pk", S("a")}};
  request.transact_items = {get};
  EXPECT_EQ(
      RoundTrip(request, EncodeTransactGetItemsRequest, DecodeTransactGetItemsRequest),
      Canonical(
          R"({"TransactItems": [{"Get": {"TableName": "Tbl", "Key": {"pk": {"S": "a"}}}}]})"));
}

TEST(ClientDataJsonTransactGetItemsTest, FullResult) {
  TransactGetItemsResult result;
  result.responses = {RichItem(), std::nullopt, kKey};
  result.consumed_capacity = {FullCapacity("Orders")};
  const TransactGetItemsResult decoded = ResultRoundTrip(
      result, [](const TransactGetItemsResult& r) { return EncodeTransactGetItemsResult(r); },
      DecodeTransactGetItemsResult);
  EXPECT_EQ(decoded.responses, result.responses);
}

TEST(ClientDataJsonTransactionResultTest, MalformedMembers) {
  EXPECT_EQ(MalformedError(DecodeTransactGetItemsResult, R"({"Responses": {}})"),
            "Internal: malformed TransactGetItems response: Responses is not a list");
  EXPECT_EQ(MalformedError(DecodeTransactGetItemsResult, R"({"Responses": [{}, 1]})"),
            "Internal: malformed TransactGetItems response: Responses[1] is not an object");
  EXPECT_EQ(MalformedError(DecodeTransactGetItemsResult, R"({"Responses": [{"Item": "x"}]})"),
            "Internal: malformed TransactGetItems response: Responses[0].Item is not an item");
  EXPECT_EQ(MalformedError(DecodeTransactGetItemsResult,
                           R"({"Responses": [], "ConsumedCapacity": [{"TableName": 5}]})"),
            "Internal: malformed TransactGetItems response: ConsumedCapacity[0].TableName is not "
            "a string");
  EXPECT_EQ(MalformedError(DecodeTransactWriteItemsResult, R"({"ItemCollectionMetrics": []})"),
            "Internal: malformed TransactWriteItems response: ItemCollectionMetrics is not an "
            "object");
  EXPECT_EQ(MalformedError(DecodeTransactWriteItemsResult, R"({"ConsumedCapacity": "x"})"),
            "Internal: malformed TransactWriteItems response: ConsumedCapacity is not a list");
  auto r = Decode(DecodeTransactGetItemsResult, R"({"Responses": [null, {}]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->responses, (std::vector<std::optional<Item>>{std::nullopt, std::nullopt}));
}

// ---- ExecuteStatement ----

TEST(ClientDataJsonExecuteStatementTest, FullRequest) {
  ExecuteStatementRequest request;
  request.statement = R"(SELECT * FROM "Orders" WHERE pk = ? AND n > ?)";
  request.parameters = std::vector<Value>{S("a"), Value(3)};
  request.consistent_read = true;
  request.next_token = "page-2";
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  request.limit = 25;
  request.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  EXPECT_EQ(RoundTrip(request, EncodeExecuteStatementRequest, DecodeExecuteStatementRequest),
            Canonical(R"j({"Statement": "SELECT * FROM \"Orders\" WHERE pk = ? AND n > ?",
              "Parameters": [{"S": "a"}, {"N": "3"}], "ConsistentRead": true,
              "NextToken": "page-2", "ReturnConsumedCapacity": "TOTAL", "Limit": 25,
              "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})j"));
}

TEST(ClientDataJsonExecuteStatementTest, MinimalRequest) {
  ExecuteStatementRequest request;
  request.statement = "SELECT * FROM T";
  EXPECT_EQ(RoundTrip(request, EncodeExecuteStatementRequest, DecodeExecuteStatementRequest),
            Canonical(R"({"Statement": "SELECT * FROM T"})"));
}

TEST(ClientDataJsonExecuteStatementTest, FullResult) {
  ExecuteStatementResult result;
  result.items = {RichItem(), kKey};
  result.next_token = "next";
  result.consumed_capacity = FullCapacity("Orders");
  result.last_evaluated_key = kKey;
  const ExecuteStatementResult decoded = ResultRoundTrip(
      result, [](const ExecuteStatementResult& r) { return EncodeExecuteStatementResult(r); },
      DecodeExecuteStatementResult);
  EXPECT_EQ(decoded.items, result.items);
  EXPECT_EQ(decoded.next_token, "next");
}

// ---- BatchExecuteStatement ----

TEST(ClientDataJsonBatchExecuteStatementTest, FullRequest) {
  BatchExecuteStatementRequest request;
  request.statements = {
      {.statement = "UPDATE T SET n = ? WHERE pk = ?",
       .parameters = std::vector<Value>{Value(1), S("a")},
       .consistent_read = true,
       .return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld},
      {.statement = "SELECT * FROM T WHERE pk = 'b'"}};
  request.return_consumed_capacity = ReturnConsumedCapacity::kIndexes;
  EXPECT_EQ(
      RoundTrip(request, EncodeBatchExecuteStatementRequest, DecodeBatchExecuteStatementRequest),
      Canonical(R"({"Statements": [
        {"Statement": "UPDATE T SET n = ? WHERE pk = ?", "Parameters": [{"N": "1"}, {"S": "a"}],
         "ConsistentRead": true, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
        {"Statement": "SELECT * FROM T WHERE pk = 'b'"}],
        "ReturnConsumedCapacity": "INDEXES"})"));
}

TEST(ClientDataJsonBatchExecuteStatementTest, MinimalRequest) {
  BatchExecuteStatementRequest request;
  request.statements = {{.statement = "SELECT * FROM T"}};
  EXPECT_EQ(
      RoundTrip(request, EncodeBatchExecuteStatementRequest, DecodeBatchExecuteStatementRequest),
      Canonical(R"({"Statements": [{"Statement": "SELECT * FROM T"}]})"));
}

TEST(ClientDataJsonBatchExecuteStatementTest, FullResult) {
  BatchExecuteStatementResult result;
  result.responses = {
      {.error = BatchStatementError{.code = "ConditionalCheckFailed",
                                    .message = "The conditional request failed",
                                    .item = kKey},
       .table_name = std::nullopt,
       .item = std::nullopt},
      {.error = std::nullopt, .table_name = "T", .item = RichItem()},
      {.error = BatchStatementError{.code = "SomeFutureCode", .message = "m", .item = std::nullopt},
       .table_name = "T",
       .item = std::nullopt},
      {}};
  result.consumed_capacity = {FullCapacity("T")};
  const BatchExecuteStatementResult decoded = ResultRoundTrip(
      result,
      [](const BatchExecuteStatementResult& r) { return EncodeBatchExecuteStatementResult(r); },
      DecodeBatchExecuteStatementResult);
  ASSERT_EQ(decoded.responses.size(), 4u);
  ASSERT_TRUE(decoded.responses[0].error);
  EXPECT_EQ(decoded.responses[0].error->code, "ConditionalCheckFailed");
  EXPECT_EQ(decoded.responses[0].error->item, kKey);
  EXPECT_EQ(decoded.responses[2].error->code, "SomeFutureCode");
  EXPECT_FALSE(decoded.responses[3].error || decoded.responses[3].table_name);
}

// ---- ExecuteTransaction ----

TEST(ClientDataJsonExecuteTransactionTest, FullRequest) {
  ExecuteTransactionRequest request;
  request.transact_statements = {
      {.statement = "INSERT INTO T VALUE {'pk': ?}",
       .parameters = std::vector<Value>{S("a")},
       .return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld},
      {.statement = "DELETE FROM T WHERE pk = 'b'"}};
  request.client_request_token = "token-2";
  request.return_consumed_capacity = ReturnConsumedCapacity::kTotal;
  EXPECT_EQ(RoundTrip(request, EncodeExecuteTransactionRequest, DecodeExecuteTransactionRequest),
            Canonical(R"({"TransactStatements": [
              {"Statement": "INSERT INTO T VALUE {'pk': ?}", "Parameters": [{"S": "a"}],
               "ReturnValuesOnConditionCheckFailure": "ALL_OLD"},
              {"Statement": "DELETE FROM T WHERE pk = 'b'"}],
              "ClientRequestToken": "token-2", "ReturnConsumedCapacity": "TOTAL"})"));
}

TEST(ClientDataJsonExecuteTransactionTest, MinimalRequest) {
  ExecuteTransactionRequest request;
  request.transact_statements = {{.statement = "DELETE FROM T WHERE pk = 'a'"}};
  EXPECT_EQ(
      RoundTrip(request, EncodeExecuteTransactionRequest, DecodeExecuteTransactionRequest),
      Canonical(R"({"TransactStatements": [{"Statement": "DELETE FROM T WHERE pk = 'a'"}]})"));
}

TEST(ClientDataJsonExecuteTransactionTest, FullResult) {
  ExecuteTransactionResult result;
  result.responses = std::vector<std::optional<Item>>{RichItem(), std::nullopt};
  result.consumed_capacity = {FullCapacity("T"), FullCapacity("U")};
  const auto encode = [](const ExecuteTransactionResult& r) {
    return EncodeExecuteTransactionResult(r);
  };
  const ExecuteTransactionResult decoded =
      ResultRoundTrip(result, encode, DecodeExecuteTransactionResult);
  EXPECT_EQ(decoded.responses, result.responses);

  // A write transaction: no Responses member.
  ExecuteTransactionResult write;
  write.consumed_capacity = {FullCapacity("T")};
  EXPECT_FALSE(ResultRoundTrip(write, encode, DecodeExecuteTransactionResult).responses);
}

TEST(ClientDataJsonPartiqlResultTest, MalformedMembers) {
  EXPECT_EQ(MalformedError(DecodeExecuteStatementResult, R"({"NextToken": 5})"),
            "Internal: malformed ExecuteStatement response: NextToken is not a string");
  EXPECT_EQ(MalformedError(DecodeExecuteStatementResult, R"({"Items": [[]]})"),
            "Internal: malformed ExecuteStatement response: Items[0] is not an item");
  EXPECT_EQ(MalformedError(DecodeBatchExecuteStatementResult,
                           R"({"Responses": [{}, {"Error": {"Code": 5}}]})"),
            "Internal: malformed BatchExecuteStatement response: Responses[1].Error.Code is not "
            "a string");
  EXPECT_EQ(MalformedError(DecodeBatchExecuteStatementResult, R"({"Responses": [{"Error": 1}]})"),
            "Internal: malformed BatchExecuteStatement response: Responses[0].Error is not an "
            "object");
  EXPECT_EQ(
      MalformedError(DecodeBatchExecuteStatementResult, R"({"Responses": [{"TableName": ["T"]}]})"),
      "Internal: malformed BatchExecuteStatement response: Responses[0].TableName is not a "
      "string");
  EXPECT_EQ(MalformedError(DecodeExecuteTransactionResult, R"({"Responses": "x"})"),
            "Internal: malformed ExecuteTransaction response: Responses is not a list");
  EXPECT_EQ(MalformedError(DecodeExecuteTransactionResult, R"({"Responses": [{"Item": true}]})"),
            "Internal: malformed ExecuteTransaction response: Responses[0].Item is not an item");
}

// ---- Garbage bodies, for every decoder ----

struct NamedDecoder {
  std::string_view operation;
  std::function<Status(const rapidjson::Value&)> decode;
};

template <typename ResultT>
NamedDecoder Named(std::string_view operation, Result<ResultT> (*decode)(const rapidjson::Value&)) {
  return {operation, [decode](const rapidjson::Value& body) {
            Result<ResultT> r = decode(body);
            return r.ok() ? Status::Ok() : r.error();
          }};
}

std::vector<NamedDecoder> AllDecoders() {
  return {Named("PutItem", DecodePutItemResult),
          Named("GetItem", DecodeGetItemResult),
          Named("UpdateItem", DecodeUpdateItemResult),
          Named("DeleteItem", DecodeDeleteItemResult),
          Named("Query or Scan", DecodeReadPageResult),
          Named("BatchGetItem", DecodeBatchGetItemResult),
          Named("BatchWriteItem", DecodeBatchWriteItemResult),
          Named("TransactWriteItems", DecodeTransactWriteItemsResult),
          Named("TransactGetItems", DecodeTransactGetItemsResult),
          Named("ExecuteStatement", DecodeExecuteStatementResult),
          Named("BatchExecuteStatement", DecodeBatchExecuteStatementResult),
          Named("ExecuteTransaction", DecodeExecuteTransactionResult)};
}

TEST(ClientDataJsonGarbageTest, BodiesThatAreNotObjects) {
  for (const NamedDecoder& d : AllDecoders()) {
    for (std::string_view body : {"[]", R"("text")", "1", "-2.5", "true", "null", "[{}]"}) {
      rapidjson::Document document;
      ASSERT_TRUE(ParseJson(body, &document).ok());
      const Status status = d.decode(document);
      EXPECT_EQ(status.code(), Code::kInternal) << d.operation << " " << body;
      EXPECT_EQ(status.message(),
                "malformed " + std::string(d.operation) + " response: the body is not an object")
          << body;
    }
    rapidjson::Document empty;
    ASSERT_TRUE(ParseJson("{}", &empty).ok());
    EXPECT_TRUE(d.decode(empty).ok()) << d.operation;
  }
}

// Every value of a full response body replaced, one at a time, by each JSON type: no decoder
// crashes, and each answers OK or a kInternal error.
TEST(ClientDataJsonGarbageTest, EveryValueReplacedByEveryType) {
  ExecuteTransactionResult transaction;
  transaction.responses = std::vector<std::optional<Item>>{kKey, std::nullopt};
  transaction.consumed_capacity = {FullCapacity("T")};
  BatchExecuteStatementResult batch_statement;
  batch_statement.responses = {
      {.error = BatchStatementError{.code = "C", .message = "m", .item = kKey},
       .table_name = "T",
       .item = kKey}};
  batch_statement.consumed_capacity = {FullCapacity("T")};
  BatchGetItemResult batch_get;
  batch_get.responses = {{"T", {kKey}}};
  batch_get.unprocessed_keys = {
      {"T", KeysAndAttributes{.keys = {kKey},
                              .projection_expression = "p",
                              .expression_attribute_names = expr::NameMap{{"#a", "a"}},
                              .attributes_to_get = std::vector<std::string>{"a"},
                              .consistent_read = true}}};
  batch_get.consumed_capacity = {FullCapacity("T")};
  BatchWriteItemResult batch_write;
  batch_write.unprocessed_items = {{"T",
                                    {{.kind = WriteRequest::Kind::kPut, .item = kKey},
                                     {.kind = WriteRequest::Kind::kDelete, .item = kKey}}}};
  batch_write.item_collection_metrics = {{"T", {SomeMetrics()}}};
  ReadPageResult page;
  page.items = {RichItem()};
  page.last_evaluated_key = kKey;
  page.consumed_capacity = FullCapacity("T");
  PutItemResult put;
  put.attributes = kKey;
  put.consumed_capacity = FullCapacity("T");
  put.item_collection_metrics = SomeMetrics();

  const std::vector<std::string> bodies = {EncodeExecuteTransactionResult(transaction),
                                           EncodeBatchExecuteStatementResult(batch_statement),
                                           EncodeBatchGetItemResult(batch_get),
                                           EncodeBatchWriteItemResult(batch_write),
                                           EncodeReadPageResult(page),
                                           EncodePutItemResult(put)};
  const std::vector<std::string_view> replacements = {"null",
                                                      "1",
                                                      "-1.5",
                                                      "3000000000",
                                                      R"("x")",
                                                      "true",
                                                      "[]",
                                                      "{}",
                                                      "[1]",
                                                      R"({"S": 1})",
                                                      R"([{"a": {"S": "x"}}])"};

  size_t decoded = 0;
  for (const std::string& body : bodies) {
    rapidjson::Document original;
    ASSERT_TRUE(ParseJson(body, &original).ok());
    // The values in document order, counted by a walk.
    std::function<void(rapidjson::Value&, std::vector<rapidjson::Value*>&)> collect =
        [&collect](rapidjson::Value& v, std::vector<rapidjson::Value*>& out) {
          out.push_back(&v);
          if (v.IsObject()) {
            for (auto& member : v.GetObject()) collect(member.value, out);
          } else if (v.IsArray()) {
            for (auto& element : v.GetArray()) collect(element, out);
          }
        };
    std::vector<rapidjson::Value*> nodes;
    collect(original, nodes);
    for (size_t i = 0; i < nodes.size(); ++i) {
      for (std::string_view replacement : replacements) {
        rapidjson::Document copy;
        copy.CopyFrom(original, copy.GetAllocator());
        std::vector<rapidjson::Value*> copy_nodes;
        collect(copy, copy_nodes);
        rapidjson::Document value;
        ASSERT_TRUE(ParseJson(replacement, &value).ok());
        copy_nodes[i]->CopyFrom(value, copy.GetAllocator());
        for (const NamedDecoder& d : AllDecoders()) {
          const Status status = d.decode(copy);
          EXPECT_TRUE(status.ok() || status.code() == Code::kInternal) << status.ToString();
          ++decoded;
        }
      }
    }
  }
  EXPECT_GT(decoded, 1000u);
}

}  // namespace
}  // namespace partstore::protocol
