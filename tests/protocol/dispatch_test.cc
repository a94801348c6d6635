// Tests for the response encoders (operations_json.h), ErrorResponse, and Dispatch end to end
// against a real Database: the wire shapes DynamoDB answers with, byte for byte where partstore
// fixes the member order.
#include "tools/protocol/dispatch.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "partstore/error_detail.h"
#include "tools/protocol/operations_json.h"

namespace partstore::protocol {
namespace {

Item OneItem() {
  Item item;
  item.emplace("pk", Value(std::string("a")));
  item.emplace("n", Value(*Number::Parse("1.5")));
  return item;
}

ConsumedCapacity Capacity(int64_t half_units) {
  ConsumedCapacity capacity;
  capacity.table_name = "T";
  capacity.total_half_units = half_units;
  return capacity;
}

// ---- Encoders ----

TEST(EncodeTest, GetItemMissingIsEmptyObject) {
  EXPECT_EQ(EncodeGetItemResult(GetItemResult{}), "{}");
  EXPECT_EQ(EncodeGetItemResult(GetItemViewResult{}), "{}");
}

TEST(EncodeTest, GetItemWithItemAndCapacity) {
  GetItemResult result{.item = OneItem(), .consumed_capacity = Capacity(1)};
  EXPECT_EQ(EncodeGetItemResult(result),
            R"({"Item":{"n":{"N":"1.5"},"pk":{"S":"a"}},)"
            R"("ConsumedCapacity":{"TableName":"T","CapacityUnits":0.5}})");
  // The same written straight from the stored encoding.
  GetItemViewResult view{.item = StoredItem::Encode(OneItem()), .consumed_capacity = Capacity(1)};
  EXPECT_EQ(EncodeGetItemResult(view), EncodeGetItemResult(result));
}

TEST(EncodeTest, WritesReportAttributesOnlyWhenPresent) {
  EXPECT_EQ(EncodePutItemResult({}), "{}");
  EXPECT_EQ(EncodeDeleteItemResult({.attributes = OneItem()}),
            R"({"Attributes":{"n":{"N":"1.5"},"pk":{"S":"a"}}})");
  EXPECT_EQ(EncodeUpdateItemResult({.consumed_capacity = Capacity(2)}),
            R"({"ConsumedCapacity":{"TableName":"T","CapacityUnits":1.0}})");
}

TEST(EncodeTest, ConsumedCapacityIndexes) {
  ConsumedCapacity capacity = Capacity(6);
  capacity.table_half_units = 2;
  capacity.global_secondary_indexes["g1"] = 4;
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteConsumedCapacity(capacity, writer);
  EXPECT_EQ(std::string(buffer.GetString()),
            R"({"TableName":"T","CapacityUnits":3.0,"Table":{"CapacityUnits":1.0},)"
            R"("GlobalSecondaryIndexes":{"g1":{"CapacityUnits":2.0}}})");
}

TEST(EncodeTest, ReadPage) {
  ReadPageResult page;
  page.items = {OneItem()};
  page.count = 1;
  page.scanned_count = 3;
  page.last_evaluated_key = Item{{"pk", Value(std::string("a"))}};
  EXPECT_EQ(EncodeReadPageResult(page),
            R"({"Items":[{"n":{"N":"1.5"},"pk":{"S":"a"}}],"Count":1,"ScannedCount":3,)"
            R"("LastEvaluatedKey":{"pk":{"S":"a"}}})");
  ReadPageViewResult view;
  view.items = {StoredItem::Encode(OneItem())};
  view.count = 1;
  view.scanned_count = 3;
  view.last_evaluated_key = page.last_evaluated_key;
  EXPECT_EQ(EncodeReadPageResult(view), EncodeReadPageResult(page));
  ReadPageResult count;
  count.count = 4;
  count.scanned_count = 4;
  count.items_omitted = true;
  EXPECT_EQ(EncodeReadPageResult(count), R"({"Count":4,"ScannedCount":4})");
  EXPECT_EQ(EncodeReadPageResult(ReadPageResult{}), R"({"Items":[],"Count":0,"ScannedCount":0})");
}

TEST(EncodeTest, BatchShapes) {
  EXPECT_EQ(EncodeBatchGetItemResult({}), R"({"Responses":{},"UnprocessedKeys":{}})");
  EXPECT_EQ(EncodeBatchWriteItemResult({}), R"({"UnprocessedItems":{}})");
  BatchGetItemResult get;
  get.responses.emplace_back("T", std::vector<Item>{OneItem()});
  KeysAndAttributes unprocessed;
  unprocessed.keys = {Item{{"pk", Value(std::string("b"))}}};
  unprocessed.consistent_read = true;
  get.unprocessed_keys.emplace_back("T", unprocessed);
  get.consumed_capacity = {Capacity(2)};
  EXPECT_EQ(EncodeBatchGetItemResult(get),
            R"({"Responses":{"T":[{"n":{"N":"1.5"},"pk":{"S":"a"}}]},)"
            R"("UnprocessedKeys":{"T":{"Keys":[{"pk":{"S":"b"}}],"ConsistentRead":true}},)"
            R"("ConsumedCapacity":[{"TableName":"T","CapacityUnits":1.0}]})");
  BatchWriteItemResult write;
  write.unprocessed_items.emplace_back(
      "T", std::vector<WriteRequest>{
               {WriteRequest::Kind::kDelete, Item{{"pk", Value(std::string("b"))}}}});
  EXPECT_EQ(EncodeBatchWriteItemResult(write),
            R"({"UnprocessedItems":{"T":[{"DeleteRequest":{"Key":{"pk":{"S":"b"}}}}]}})");
  // ItemCollectionMetrics once (it was written twice, a duplicate JSON member).
  BatchWriteItemResult metrics;
  metrics.item_collection_metrics.emplace_back(
      "T", std::vector<ItemCollectionMetrics>{{Item{{"pk", Value(std::string("a"))}}, {0, 1}}});
  EXPECT_EQ(EncodeBatchWriteItemResult(metrics),
            R"({"UnprocessedItems":{},"ItemCollectionMetrics":{"T":[{"ItemCollectionKey":)"
            R"({"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]}]}})");
}

TEST(EncodeTest, TableDescription) {
  TableDescription table;
  table.table_name = "T";
  table.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/T";
  table.table_id = "id";
  table.table_status = TableStatus::kActive;
  table.creation_date_time = 1700000000.5;
  table.attribute_definitions = {{"pk", KeyType::kString}};
  table.key_schema = {{"pk", KeyRoleName::kHash}};
  table.billing_mode = BillingMode::kPayPerRequest;
  table.item_count = 2;
  table.table_size_bytes = 30;
  EXPECT_EQ(EncodeDescribeTableResult({.table = table}),
            R"({"Table":{"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
            R"("TableName":"T","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],)"
            R"("TableStatus":"ACTIVE","CreationDateTime":1700000000.5,)"
            R"("ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,)"
            R"("WriteCapacityUnits":0},"TableSizeBytes":30,"ItemCount":2,)"
            R"("TableArn":"arn:aws:dynamodb:us-east-1:000000000000:table/T","TableId":"id",)"
            R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST"},)"
            R"("DeletionProtectionEnabled":false}})");
  // The settings of partstore/table_settings.h, each reported once set.
  TableDescription set = table;
  set.deletion_protection_enabled = true;
  set.table_class = TableClass::kStandardInfrequentAccess;
  set.table_class_last_update_date_time = 1700000001;
  set.sse_description = SseDescription{.kms_master_key_arn = "arn:k"};
  set.on_demand_throughput = OnDemandThroughput{.max_write_request_units = 9};
  set.warm_throughput = WarmThroughput{.read_units_per_second = 13000};
  EXPECT_NE(EncodeDescribeTableResult({.table = set})
                .find(R"("DeletionProtectionEnabled":true,"TableClassSummary":)"
                      R"({"TableClass":"STANDARD_INFREQUENT_ACCESS","LastUpdateDateTime":)"
                      R"(1700000001.0},"SSEDescription":{"Status":"ENABLED","SSEType":"KMS",)"
                      R"("KMSMasterKeyArn":"arn:k"},"OnDemandThroughput":)"
                      R"({"MaxReadRequestUnits":-1,"MaxWriteRequestUnits":9},)"
                      R"("WarmThroughput":{"ReadUnitsPerSecond":13000,"Status":"ACTIVE"}}})"),
            std::string::npos)
      << EncodeDescribeTableResult({.table = set});
  table.billing_mode = BillingMode::kProvisioned;
  EXPECT_EQ(EncodeCreateTableResult({.table_description = table}).find("BillingModeSummary"),
            std::string::npos);
  EXPECT_EQ(EncodeListTablesResult({.table_names = {"a", "b"}, .last_evaluated_table_name = "b"}),
            R"({"TableNames":["a","b"],"LastEvaluatedTableName":"b"})");
  EXPECT_EQ(EncodeListTablesResult({}), R"({"TableNames":[]})");
}

TEST(EncodeTest, TableDescriptionIndexes) {
  TableDescription table;
  table.table_name = "T";
  table.table_arn = "arn:t";
  table.table_id = "id";
  table.creation_date_time = 1;
  table.attribute_definitions = {{"pk", KeyType::kString}};
  table.key_schema = {{"pk", KeyRoleName::kHash}, {"sk", KeyRoleName::kRange}};
  table.provisioned_throughput.read_capacity_units = 5;
  table.provisioned_throughput.write_capacity_units = 5;
  LocalSecondaryIndexDescription lsi;
  lsi.index_name = "L";
  lsi.index_arn = "arn:t/index/L";
  lsi.key_schema = {{"pk", KeyRoleName::kHash}, {"ls", KeyRoleName::kRange}};
  // NonKeyAttributes are written for INCLUDE only.
  lsi.projection = {ProjectionType::kAll, std::vector<std::string>{"ignored"}};
  lsi.index_size_bytes = 12;
  lsi.item_count = 2;
  table.local_secondary_indexes = {lsi};
  GlobalSecondaryIndexDescription gsi;
  gsi.index_name = "G";
  gsi.index_arn = "arn:t/index/G";
  gsi.index_status = IndexStatus::kCreating;
  gsi.key_schema = {{"g", KeyRoleName::kHash}};
  gsi.projection = {ProjectionType::kInclude, std::vector<std::string>{"a", "b"}};
  gsi.provisioned_throughput.read_capacity_units = 1;
  gsi.provisioned_throughput.write_capacity_units = 2;
  gsi.provisioned_throughput.last_increase_date_time = 3.5;
  gsi.index_size_bytes = 40;
  gsi.item_count = 1;
  table.global_secondary_indexes = {gsi};
  const std::string expected_indexes =
      R"("LocalSecondaryIndexes":[{"IndexName":"L",)"
      R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
      R"({"AttributeName":"ls","KeyType":"RANGE"}],"Projection":{"ProjectionType":"ALL"},)"
      R"("IndexSizeBytes":12,"ItemCount":2,"IndexArn":"arn:t/index/L"}],)"
      R"("GlobalSecondaryIndexes":[{"IndexName":"G",)"
      R"("KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],)"
      R"("Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]},)"
      R"("IndexStatus":"CREATING","ProvisionedThroughput":{"LastIncreaseDateTime":3.5,)"
      R"("NumberOfDecreasesToday":0,"ReadCapacityUnits":1,"WriteCapacityUnits":2},)"
      R"("IndexSizeBytes":40,"ItemCount":1,"IndexArn":"arn:t/index/G"}],)"
      R"("DeletionProtectionEnabled":false}})";
  for (const std::string& body : {EncodeCreateTableResult({.table_description = table}),
                                  EncodeUpdateTableResult({.table_description = table}),
                                  EncodeDescribeTableResult({.table = table})}) {
    EXPECT_NE(body.find(R"("TableId":"id",)" + expected_indexes), std::string::npos) << body;
  }
  // DeleteTable's leaves the indexes out, as DynamoDB's does (table_json.cc).
  EXPECT_EQ(EncodeDeleteTableResult({.table_description = table}).find("Indexes"),
            std::string::npos);
  // No index of a kind: no member.
  table.local_secondary_indexes.clear();
  std::string body = EncodeDescribeTableResult({.table = table});
  EXPECT_EQ(body.find("LocalSecondaryIndexes"), std::string::npos) << body;
  EXPECT_NE(body.find(R"("TableId":"id","GlobalSecondaryIndexes":[{"IndexName":"G",)"),
            std::string::npos)
      << body;
  table.global_secondary_indexes.clear();
  body = EncodeDescribeTableResult({.table = table});
  EXPECT_EQ(body.find("SecondaryIndexes"), std::string::npos) << body;
  // A projection without a type (never from the engine) is written as it is: {}.
  table.global_secondary_indexes = {gsi};
  table.global_secondary_indexes[0].projection = {};
  body = EncodeDescribeTableResult({.table = table});
  EXPECT_NE(body.find(R"("Projection":{},"IndexStatus")"), std::string::npos) << body;
}

TEST(EncodeTest, ConsumedCapacityIndexReadsAndWrites) {
  // An index read: the engine reports the index alone (no Table member).
  ConsumedCapacity read = Capacity(1);
  read.local_secondary_indexes["l1"] = 1;
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  WriteConsumedCapacity(read, writer);
  EXPECT_EQ(std::string(buffer.GetString()),
            R"({"TableName":"T","CapacityUnits":0.5,)"
            R"("LocalSecondaryIndexes":{"l1":{"CapacityUnits":0.5}}})");
  // A write charged to the table and to indexes of both kinds.
  ConsumedCapacity write = Capacity(10);
  write.table_half_units = 2;
  write.global_secondary_indexes["g2"] = 2;
  write.global_secondary_indexes["g1"] = 4;
  write.local_secondary_indexes["l1"] = 2;
  EXPECT_EQ(EncodePutItemResult({.consumed_capacity = write}),
            R"({"ConsumedCapacity":{"TableName":"T","CapacityUnits":5.0,)"
            R"("Table":{"CapacityUnits":1.0},)"
            R"("GlobalSecondaryIndexes":{"g1":{"CapacityUnits":2.0},"g2":{"CapacityUnits":1.0}},)"
            R"("LocalSecondaryIndexes":{"l1":{"CapacityUnits":1.0}}}})");
}

// ---- ErrorResponse ----

TEST(ErrorResponseTest, Shapes) {
  Response r = ErrorResponse(Status::ResourceNotFound());
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                    R"("message":"Requested resource not found"})");
  r = ErrorResponse(Status::Serialization("Unexpected field type"));
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"Unexpected field type"})");
  r = ErrorResponse(Status::Internal("boom"));
  EXPECT_EQ(r.http_status, 500);
  auto detail = std::make_shared<ErrorDetail>();
  detail->item = OneItem();
  r = ErrorResponse(
      Status(Code::kConditionalCheckFailed, "The conditional request failed").WithDetail(detail));
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
            R"("message":"The conditional request failed",)"
            R"("Item":{"n":{"N":"1.5"},"pk":{"S":"a"}}})");
}

// ---- Dispatch ----

class DispatchTest : public ::testing::Test {
 protected:
  Response Call(std::string_view operation, std::string_view body) {
    return Dispatch(db_, operation, body);
  }
  void Ok(std::string_view operation, std::string_view body) {
    Response r = Call(operation, body);
    ASSERT_EQ(r.http_status, 200) << operation << " " << body << " -> " << r.body;
  }
  void CreateOrders() {
    Ok("CreateTable", R"({"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}]})");
  }
  Database db_;
};

constexpr std::string_view kNoSuchOperation =
    R"({"__type":"com.amazon.coral.service#UnknownOperationException",)"
    R"("message":"Unknown operation exception: NoSuchOperation"})";

TEST_F(DispatchTest, UnknownOperationsAreNamed) {
  // A DynamoDB operation partstore does not serve says so (GUI tools show the message).
  Response r = Call("DescribeGlobalTable", R"({"GlobalTableName": "abc"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException","message":)"
                    R"("Unknown operation exception: DescribeGlobalTable is a DynamoDB operation )"
                    R"x(partstore does not serve (the README lists the operations it serves)"})x");
  // A target that is no name is not echoed (the body stays valid UTF-8 JSON).
  r = Call("ion: AWS4\xac", "{}");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException",)"
                    R"("message":"Unknown operation exception"})");
  // No operation at all: no message (what DynamoDB answers a request without a target).
  r = Call("", "{}");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
}

TEST_F(DispatchTest, FirstChecks) {
  Response r = Call("NoSuchOperation", "{}");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, kNoSuchOperation);
  r = Call("GetItem", "{not json");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
  r = Call("NoSuchOperation", "{not json");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
  r = Call("NoSuchOperation", "");
  EXPECT_EQ(r.body, kNoSuchOperation);
  r = Call("GetItem", "");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
  r = Call("GetItem", R"({"TableName": 5})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException",)"
                    R"("Message":"NUMBER_VALUE cannot be converted to String"})");
  r = Call("GetItem", R"({"Key": {}})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.validate#ValidationException","message":)"
                    R"("1 validation error detected: Value null at 'tableName' failed to satisfy )"
                    R"(constraint: Member must not be null"})");
}

TEST_F(DispatchTest, TableLifecycle) {
  CreateOrders();
  Response r = Call("DescribeTable", R"({"TableName": "Orders"})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("TableStatus":"ACTIVE")"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(R"("BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST")"),
            std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find(R"("TableArn":")"), std::string::npos) << r.body;
  r = Call("ListTables", "{}");
  EXPECT_EQ(r.body, R"({"TableNames":["Orders"]})");
  r = Call("DescribeTable", R"({"TableName": "Missing"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("ResourceNotFoundException"), std::string::npos) << r.body;
  Ok("DeleteTable", R"({"TableName": "Orders"})");
  r = Call("ListTables", "{}");
  EXPECT_EQ(r.body, R"({"TableNames":[]})");
}

// A table with an LSI (KEYS_ONLY) and a GSI (INCLUDE status), its indexes maintained as items are
// written, read through Query and Scan with IndexName, and described with per-index counts.
TEST_F(DispatchTest, SecondaryIndexesRoundTrip) {
  Ok("CreateTable", R"({"TableName": "Orders", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "sk", "AttributeType": "N"},
                               {"AttributeName": "status", "AttributeType": "S"},
                               {"AttributeName": "customer", "AttributeType": "S"},
                               {"AttributeName": "total", "AttributeType": "N"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                    {"AttributeName": "sk", "KeyType": "RANGE"}],
      "LocalSecondaryIndexes": [{"IndexName": "ByStatus",
          "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                        {"AttributeName": "status", "KeyType": "RANGE"}],
          "Projection": {"ProjectionType": "KEYS_ONLY"}}],
      "GlobalSecondaryIndexes": [{"IndexName": "ByCustomer",
          "KeySchema": [{"AttributeName": "customer", "KeyType": "HASH"},
                        {"AttributeName": "total", "KeyType": "RANGE"}],
          "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["status"]}}]})");
  // An item in both indexes, charged for each (reference §2.4: 1 write unit per index put).
  Response r = Call("PutItem", R"({"TableName": "Orders", "ReturnConsumedCapacity": "INDEXES",
      "Item": {"pk": {"S": "u1"}, "sk": {"N": "1"}, "customer": {"S": "c1"},
               "total": {"N": "30"}, "status": {"S": "open"}, "note": {"S": "x"}}})");
  EXPECT_EQ(r.body, R"({"ConsumedCapacity":{"TableName":"Orders","CapacityUnits":3.0,)"
                    R"("Table":{"CapacityUnits":1.0},)"
                    R"("GlobalSecondaryIndexes":{"ByCustomer":{"CapacityUnits":1.0}},)"
                    R"("LocalSecondaryIndexes":{"ByStatus":{"CapacityUnits":1.0}}}})");
  Ok("PutItem", R"({"TableName": "Orders", "Item": {"pk": {"S": "u1"}, "sk": {"N": "2"},
      "customer": {"S": "c1"}, "total": {"N": "10"}, "status": {"S": "shipped"}}})");
  Ok("PutItem", R"({"TableName": "Orders", "Item": {"pk": {"S": "u2"}, "sk": {"N": "1"},
      "customer": {"S": "c2"}, "total": {"N": "5"}}})");  // not in the LSI
  Ok("PutItem", R"({"TableName": "Orders", "Item": {"pk": {"S": "u3"}, "sk": {"N": "1"},
      "status": {"S": "open"}}})");                       // not in the GSI

  // The GSI, in index sort key order, with its projection (keys + status, no note).
  r = Call("Query", R"({"TableName": "Orders", "IndexName": "ByCustomer",
      "KeyConditionExpression": "customer = :c", "ExpressionAttributeValues": {":c": {"S": "c1"}},
      "ReturnConsumedCapacity": "INDEXES"})");
  EXPECT_EQ(r.body,
            R"({"Items":[)"
            R"({"customer":{"S":"c1"},"pk":{"S":"u1"},"sk":{"N":"2"},"status":{"S":"shipped"},)"
            R"("total":{"N":"10"}},)"
            R"({"customer":{"S":"c1"},"pk":{"S":"u1"},"sk":{"N":"1"},"status":{"S":"open"},)"
            R"("total":{"N":"30"}}],"Count":2,"ScannedCount":2,)"
            R"("ConsumedCapacity":{"TableName":"Orders","CapacityUnits":0.5,)"
            R"("GlobalSecondaryIndexes":{"ByCustomer":{"CapacityUnits":0.5}}}})");
  // The LSI: KEYS_ONLY.
  r = Call("Query", R"({"TableName": "Orders", "IndexName": "ByStatus",
      "KeyConditionExpression": "pk = :p AND #s = :o", "ExpressionAttributeNames": {"#s": "status"},
      "ExpressionAttributeValues": {":p": {"S": "u1"}, ":o": {"S": "open"}}})");
  EXPECT_EQ(r.body, R"({"Items":[{"pk":{"S":"u1"},"sk":{"N":"1"},"status":{"S":"open"}}],)"
                    R"("Count":1,"ScannedCount":1})");
  r = Call("Scan", R"({"TableName": "Orders", "IndexName": "ByCustomer", "Select": "COUNT"})");
  EXPECT_EQ(r.body, R"({"Count":3,"ScannedCount":3})");
  r = Call("Scan", R"({"TableName": "Orders", "IndexName": "ByStatus",
      "ProjectionExpression": "pk, sk"})");
  EXPECT_NE(r.body.find(R"("Count":3,"ScannedCount":3)"), std::string::npos) << r.body;
  r = Call("Query", R"({"TableName": "Orders", "IndexName": "Missing",
      "KeyConditionExpression": "customer = :c", "ExpressionAttributeValues": {":c": {"S": "c1"}}})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("ValidationException"), std::string::npos) << r.body;

  // DescribeTable: both lists, per-index ItemCount, on-demand GSI throughput as zeros, the
  // projection's NonKeyAttributes only for INCLUDE.
  r = Call("DescribeTable", R"({"TableName": "Orders"})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  const std::string arn = "arn:aws:dynamodb:";
  EXPECT_NE(r.body.find(R"("LocalSecondaryIndexes":[{"IndexName":"ByStatus",)"
                        R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
                        R"({"AttributeName":"status","KeyType":"RANGE"}],)"
                        R"("Projection":{"ProjectionType":"KEYS_ONLY"},"IndexSizeBytes":)"),
            std::string::npos)
      << r.body;
  EXPECT_NE(
      r.body.find(R"("GlobalSecondaryIndexes":[{"IndexName":"ByCustomer",)"
                  R"("KeySchema":[{"AttributeName":"customer","KeyType":"HASH"},)"
                  R"({"AttributeName":"total","KeyType":"RANGE"}],)"
                  R"("Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["status"]},)"
                  R"("IndexStatus":"ACTIVE","ProvisionedThroughput":{"NumberOfDecreasesToday":0,)"
                  R"("ReadCapacityUnits":0,"WriteCapacityUnits":0},"IndexSizeBytes":)"),
      std::string::npos)
      << r.body;
  rapidjson::Document described;
  ASSERT_TRUE(ParseJson(r.body, &described).ok());
  const auto& table = described["Table"];
  EXPECT_EQ(table["ItemCount"].GetInt64(), 4);
  ASSERT_TRUE(table.HasMember("LocalSecondaryIndexes") && table.HasMember("GlobalSecondaryIndexes"))
      << r.body;
  const auto& lsi = table["LocalSecondaryIndexes"][0];
  EXPECT_EQ(lsi["ItemCount"].GetInt64(), 3);
  EXPECT_GT(lsi["IndexSizeBytes"].GetInt64(), 0);
  EXPECT_EQ(std::string(lsi["IndexArn"].GetString()),
            std::string(table["TableArn"].GetString()) + "/index/ByStatus");
  const auto& gsi = table["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(gsi["ItemCount"].GetInt64(), 3);
  EXPECT_GT(gsi["IndexSizeBytes"].GetInt64(), 0);
  EXPECT_EQ(std::string(gsi["IndexArn"].GetString()),
            std::string(table["TableArn"].GetString()) + "/index/ByCustomer");

  // Writes keep the indexes in step: the item leaves the GSI when it loses its key.
  Ok("UpdateItem", R"({"TableName": "Orders", "Key": {"pk": {"S": "u2"}, "sk": {"N": "1"}},
      "UpdateExpression": "REMOVE customer"})");
  r = Call("Scan", R"({"TableName": "Orders", "IndexName": "ByCustomer", "Select": "COUNT"})");
  EXPECT_EQ(r.body, R"({"Count":2,"ScannedCount":2})");

  // The engine's semantic checks come back through the protocol.
  r = Call("CreateTable", R"({"TableName": "Other", "BillingMode": "PAY_PER_REQUEST",
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                               {"AttributeName": "g", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
      "GlobalSecondaryIndexes": [{"IndexName": "G12", "Projection": {},
          "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}]}]})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.validate#ValidationException",)"
                    R"("message":"One or more parameter values were invalid: Unknown )"
                    R"(ProjectionType: null"})");
  EXPECT_EQ(Call("ListTables", "{}").body, R"({"TableNames":["Orders"]})");

  // DeleteTable's description leaves out the indexes, the key schema, the attribute definitions
  // and the creation time, as DynamoDB's does.
  r = Call("DeleteTable", R"({"TableName": "Orders"})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  for (const char* absent : {"LocalSecondaryIndexes", "GlobalSecondaryIndexes", "KeySchema",
                             "AttributeDefinitions", "CreationDateTime"}) {
    EXPECT_EQ(r.body.find(absent), std::string::npos) << absent << ": " << r.body;
  }
  EXPECT_NE(r.body.find(R"("TableStatus":"DELETING")"), std::string::npos) << r.body;
}

// UpdateTable's GlobalSecondaryIndexUpdates reach the engine: Create (with backfill), Update of a
// provisioned index's throughput, Delete, and the engine's texts for a missing index.
TEST_F(DispatchTest, GlobalSecondaryIndexUpdates) {
  Ok("CreateTable", R"({"TableName": "Orders",
      "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
      "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
      "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})");
  Ok("PutItem", R"({"TableName": "Orders", "Item": {"pk": {"S": "a"}, "g": {"S": "x"}}})");
  Response r = Call("UpdateTable", R"({"TableName": "Orders",
      "AttributeDefinitions": [{"AttributeName": "g", "AttributeType": "S"}],
      "GlobalSecondaryIndexUpdates": [{"Create": {"IndexName": "ByG",
          "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
          "Projection": {"ProjectionType": "ALL"},
          "ProvisionedThroughput": {"ReadCapacityUnits": 1, "WriteCapacityUnits": 2}}}]})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("GlobalSecondaryIndexes":[{"IndexName":"ByG")"), std::string::npos)
      << r.body;
  r = Call("Query", R"({"TableName": "Orders", "IndexName": "ByG",
      "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "x"}}})");
  EXPECT_EQ(r.body, R"({"Items":[{"g":{"S":"x"},"pk":{"S":"a"}}],"Count":1,"ScannedCount":1})");

  r = Call("UpdateTable", R"({"TableName": "Orders", "GlobalSecondaryIndexUpdates": [
      {"Update": {"IndexName": "ByG",
                  "ProvisionedThroughput": {"ReadCapacityUnits": 3, "WriteCapacityUnits": 4}}}]})");
  ASSERT_EQ(r.http_status, 200) << r.body;
  EXPECT_NE(r.body.find(R"("ProvisionedThroughput":{"NumberOfDecreasesToday":0,)"
                        R"("ReadCapacityUnits":3,"WriteCapacityUnits":4})"),
            std::string::npos)
      << r.body;

  r = Call("UpdateTable", R"({"TableName": "Orders", "GlobalSecondaryIndexUpdates": [
      {"Delete": {"IndexName": "Ghost"}}]})");
  EXPECT_EQ(r.body, R"({"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",)"
                    R"("message":"Requested resource not found: Index Ghost for table Orders"})");
  Ok("UpdateTable", R"({"TableName": "Orders", "GlobalSecondaryIndexUpdates": [
      {"Delete": {"IndexName": "ByG"}}]})");
  r = Call("DescribeTable", R"({"TableName": "Orders"})");
  EXPECT_EQ(r.body.find("SecondaryIndexes"), std::string::npos) << r.body;
}

TEST_F(DispatchTest, ItemRoundTrip) {
  CreateOrders();
  Ok("PutItem", R"({"TableName": "Orders",
      "Item": {"pk": {"S": "u1"}, "sk": {"N": "1"}, "name": {"S": "John"}}})");
  Response r = Call("GetItem", R"({"TableName": "Orders",
      "Key": {"pk": {"S": "u1"}, "sk": {"N": "1"}}})");
  EXPECT_EQ(r.body, R"({"Item":{"name":{"S":"John"},"pk":{"S":"u1"},"sk":{"N":"1"}}})");
  r = Call("GetItem", R"({"TableName": "Orders", "Key": {"pk": {"S": "u1"}, "sk": {"N": "2"}}})");
  EXPECT_EQ(r.body, "{}");
  r = Call("UpdateItem", R"({"TableName": "Orders", "Key": {"pk": {"S": "u1"}, "sk": {"N": "1"}},
      "UpdateExpression": "SET age = :a", "ExpressionAttributeValues": {":a": {"N": "42"}},
      "ReturnValues": "UPDATED_NEW"})");
  EXPECT_EQ(r.body, R"({"Attributes":{"age":{"N":"42"}}})");
  r = Call("PutItem", R"json({"TableName": "Orders",
      "Item": {"pk": {"S": "u1"}, "sk": {"N": "1"}},
      "ConditionExpression": "attribute_not_exists(pk)",
      "ReturnValuesOnConditionCheckFailure": "ALL_OLD"})json");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",)"
            R"("message":"The conditional request failed","Item":{"age":{"N":"42"},)"
            R"("name":{"S":"John"},"pk":{"S":"u1"},"sk":{"N":"1"}}})");
  r = Call("DeleteItem", R"({"TableName": "Orders", "Key": {"pk": {"S": "u1"}, "sk": {"N": "1"}},
      "ReturnValues": "ALL_OLD", "ReturnConsumedCapacity": "TOTAL"})");
  EXPECT_EQ(r.body,
            R"({"Attributes":{"age":{"N":"42"},"name":{"S":"John"},"pk":{"S":"u1"},)"
            R"("sk":{"N":"1"}},"ConsumedCapacity":{"TableName":"Orders","CapacityUnits":1.0}})");
}

TEST_F(DispatchTest, QueryAndScan) {
  CreateOrders();
  for (int i = 1; i <= 3; ++i) {
    Ok("PutItem", R"({"TableName": "Orders", "Item": {"pk": {"S": "u1"}, "sk": {"N": ")" +
                      std::to_string(i) + R"("}}})");
  }
  Response r = Call("Query", R"({"TableName": "Orders", "KeyConditionExpression": "pk = :p",
      "ExpressionAttributeValues": {":p": {"S": "u1"}}, "ScanIndexForward": false, "Limit": 2})");
  EXPECT_EQ(r.body,
            R"({"Items":[{"pk":{"S":"u1"},"sk":{"N":"3"}},{"pk":{"S":"u1"},"sk":{"N":"2"}}],)"
            R"("Count":2,"ScannedCount":2,"LastEvaluatedKey":{"pk":{"S":"u1"},"sk":{"N":"2"}}})");
  r = Call("Query", R"({"TableName": "Orders", "KeyConditionExpression": "pk = :p",
      "ExpressionAttributeValues": {":p": {"S": "u1"}}, "Select": "COUNT"})");
  EXPECT_EQ(r.body, R"({"Count":3,"ScannedCount":3})");
  r = Call("Scan", R"({"TableName": "Orders", "FilterExpression": "sk > :one",
      "ExpressionAttributeValues": {":one": {"N": "1"}}})");
  EXPECT_NE(r.body.find(R"("Count":2,"ScannedCount":3)"), std::string::npos) << r.body;
  r = Call("Query", R"({"TableName": "Orders", "KeyConditionExpression": "pk = :p",
      "ExpressionAttributeValues": {":p": {"S": "u1"}}, "Limit": 0})");
  EXPECT_EQ(r.body,
            R"({"__type":"com.amazon.coral.validate#ValidationException","message":)"
            R"("1 validation error detected: Value at 'Limit' failed to satisfy constraint: )"
            R"(Member must have value greater than or equal to 1"})");
}

TEST_F(DispatchTest, Batches) {
  CreateOrders();
  Response r = Call("BatchWriteItem", R"({"RequestItems": {"Orders": [
      {"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}}}},
      {"PutRequest": {"Item": {"pk": {"S": "b"}, "sk": {"N": "1"}}}}]}})");
  EXPECT_EQ(r.body, R"({"UnprocessedItems":{}})");
  r = Call("BatchGetItem", R"({"RequestItems": {"Orders": {"Keys": [
      {"pk": {"S": "a"}, "sk": {"N": "1"}}, {"pk": {"S": "zz"}, "sk": {"N": "1"}}]}}})");
  EXPECT_EQ(r.body,
            R"({"Responses":{"Orders":[{"pk":{"S":"a"},"sk":{"N":"1"}}]},"UnprocessedKeys":{}})");
  r = Call("BatchGetItem", R"({"RequestItems": {"Orders": {"Keys": [
      {"pk": {"S": "a"}, "sk": {"N": "1"}}]}}, "ReturnConsumedCapacity": "TOTAL"})");
  EXPECT_NE(r.body.find(R"("ConsumedCapacity":[{"TableName":"Orders","CapacityUnits":0.5}])"),
            std::string::npos)
      << r.body;
}

}  // namespace
}  // namespace partstore::protocol
