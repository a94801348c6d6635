// Tests for the data plane's client side (client_data_json.h): every request encoder against a
// golden body written by hand from DynamoDB's API reference and through the server's own decoder
// and back; every result decoder through the server's own encoder and back; malformed and
// garbage response bodies.
//
// Golden bodies are compared after a parse and a compact rewrite (Canonical), so that they can be
// laid out for reading: member names, order and values still have to match exactly.
// This file: transactions, PartiQL, and garbage bodies for every decoder.
#include "tools/protocol/client_data_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/client_data_json_testutil.h"

namespace partstore::protocol {
namespace {

using namespace client_data_testing;  // NOLINT: the tests' shared helpers

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
            "Internal: malformed TransactGetItems response: Responses is not an array");
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
            "Internal: malformed TransactWriteItems response: ConsumedCapacity is not an array");
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
            "Internal: malformed ExecuteTransaction response: Responses is not an array");
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
            // By index: C++20 finds RapidJSON's mutable member iterators' != ambiguous.
            for (rapidjson::SizeType i = 0; i < v.MemberCount(); ++i) {
              collect(v.MemberBegin()[i].value, out);
            }
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
