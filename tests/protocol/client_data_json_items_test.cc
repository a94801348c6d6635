// Tests for the data plane's client side (client_data_json.h): every request encoder against a
// golden body written by hand from DynamoDB's API reference and through the server's own decoder
// and back; every result decoder through the server's own encoder and back; malformed and
// garbage response bodies.
//
// Golden bodies are compared after a parse and a compact rewrite (Canonical), so that they can be
// laid out for reading: member names, order and values still have to match exactly.
// This file: the single-item operations, Query and Scan, and the batches.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/client_data_json_testutil.h"
#include "tools/protocol/client_data_json.h"

namespace partstore::protocol {
namespace {

using namespace client_data_testing;  // NOLINT: the tests' shared helpers

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
            "is not an array of two numbers");
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
            "Internal: malformed Query or Scan response: Items is not an array");
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
            "Internal: malformed BatchGetItem response: Responses.T is not an array");
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
            "Internal: malformed BatchGetItem response: UnprocessedKeys.T.AttributesToGet is "
            "not an array of strings");
  EXPECT_EQ(MalformedError(DecodeBatchGetItemResult, R"({"ConsumedCapacity": {}})"),
            "Internal: malformed BatchGetItem response: ConsumedCapacity is not an array");
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
            "Internal: malformed BatchWriteItem response: UnprocessedItems.T is not an array");
  EXPECT_EQ(MalformedError(DecodeBatchWriteItemResult, R"({"ItemCollectionMetrics": {"T": {}}})"),
            "Internal: malformed BatchWriteItem response: ItemCollectionMetrics.T is not an array");
  EXPECT_EQ(
      MalformedError(DecodeBatchWriteItemResult,
                     R"({"ItemCollectionMetrics": {"T": [{"SizeEstimateRangeGB": [1, "2"]}]}})"),
      "Internal: malformed BatchWriteItem response: "
      "ItemCollectionMetrics.T[0].SizeEstimateRangeGB is not an array of two numbers");
}

}  // namespace
}  // namespace partstore::protocol
