// The control plane's client JSON tests' shared pieces (client_control_json_*_test.cc): the
// request and result round trips through the server's decoders and encoders, and fully
// populated descriptions (tables, indexes, backups, stream records) to fill results with.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/capacity_json.h"
#include "tools/protocol/client_control_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/table_settings_json.h"

namespace partstore::protocol::client_control_testing {

constexpr std::string_view kTableArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders";
constexpr std::string_view kBackupArn =
    "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/backup/01700000000000-0123abcd";
constexpr std::string_view kStreamArn =
    "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/2023-11-14T22:13:20.000";

// Encode -> golden text; then parse -> the server's decoder -> encode again: the same text.
template <typename Request>
inline void ExpectRequest(const Request& request, std::string (*encode)(const Request&),
                          Result<Request> (*decode)(const rapidjson::Value&),
                          std::string_view golden) {
  const std::string first = encode(request);
  EXPECT_EQ(first, golden);
  Result<Request> decoded = Decode(decode, first);
  ASSERT_TRUE(decoded.ok()) << ErrorOf(decoded) << "\n" << first;
  EXPECT_EQ(encode(*decoded), first);
}

// The server's encoding -> parse -> the client's decoder -> the server's encoder: the same text.
// Returns the decoded result for spot checks.
template <typename R, typename Encode>
inline R ExpectResult(const std::string& encoded, Result<R> (*decode)(const rapidjson::Value&),
                      Encode encode) {
  Result<R> decoded = Decode(decode, encoded);
  EXPECT_TRUE(decoded.ok()) << ErrorOf(decoded) << "\n" << encoded;
  if (!decoded.ok()) return R{};
  EXPECT_EQ(encode(*decoded), encoded);
  return std::move(decoded).value();
}

template <typename R>
inline std::string Malformed(Result<R> (*decode)(const rapidjson::Value&), std::string_view body) {
  return ErrorOf(Decode(decode, body));
}

inline Item ParsedItem(std::string_view json) {
  Result<Item> item = ParseItemJson(json);
  EXPECT_TRUE(item.ok()) << json;
  return item.ok() ? *item : Item{};
}

inline std::vector<KeySchemaElement> Keys(std::string hash, std::string range = "") {
  std::vector<KeySchemaElement> keys{{std::move(hash), KeyRoleName::kHash}};
  if (!range.empty()) keys.push_back({std::move(range), KeyRoleName::kRange});
  return keys;
}

// Every member of a TableDescription set, away from its default.
inline TableDescription FullTable() {
  TableDescription t;
  t.table_name = "Orders";
  t.table_arn = std::string(kTableArn);
  t.table_id = "0b5f7a3e-1111-2222-3333-444455556666";
  t.table_status = TableStatus::kUpdating;
  t.creation_date_time = 1700000000.5;
  t.attribute_definitions = {
      {"pk", KeyType::kString}, {"sk", KeyType::kNumber}, {"gpk", KeyType::kBinary}};
  t.key_schema = Keys("pk", "sk");
  t.provisioned_throughput = {.read_capacity_units = 5,
                              .write_capacity_units = 7,
                              .number_of_decreases_today = 2,
                              .last_increase_date_time = 1700000100.25,
                              .last_decrease_date_time = 1700000200.75};
  t.billing_mode = BillingMode::kPayPerRequest;
  t.last_update_to_pay_per_request_date_time = 1700000300;
  t.item_count = 42;
  t.table_size_bytes = 4096;
  t.local_secondary_indexes = {
      {.index_name = "ByDate",
       .index_arn = std::string(kTableArn) + "/index/ByDate",
       .key_schema = Keys("pk", "date"),
       .projection = {ProjectionType::kInclude, std::vector<std::string>{"a", "b"}},
       .index_size_bytes = 100,
       .item_count = 3}};
  t.global_secondary_indexes = {
      {.index_name = "ByCustomer",
       .index_arn = std::string(kTableArn) + "/index/ByCustomer",
       .index_status = IndexStatus::kCreating,
       .key_schema = Keys("gpk"),
       .projection = {ProjectionType::kKeysOnly, std::nullopt},
       .provisioned_throughput = {.read_capacity_units = 1,
                                  .write_capacity_units = 2,
                                  .number_of_decreases_today = 1,
                                  .last_increase_date_time = 1700000500.5,
                                  .last_decrease_date_time = 1700000600.5},
       .on_demand_throughput = OnDemandThroughput{10, 20},
       .warm_throughput = WarmThroughput{30, 40},
       .index_size_bytes = 200,
       .item_count = 5},
      {.index_name = "ByStatus",
       .index_arn = std::string(kTableArn) + "/index/ByStatus",
       .index_status = IndexStatus::kDeleting,
       .key_schema = Keys("status", "sk"),
       .projection = {ProjectionType::kAll, std::nullopt}}};
  t.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  t.latest_stream_arn = std::string(kStreamArn);
  t.latest_stream_label = "2023-11-14T22:13:20.000";
  t.deletion_protection_enabled = true;
  t.table_class = TableClass::kStandardInfrequentAccess;
  t.table_class_last_update_date_time = 1700000400.125;
  t.sse_description = SseDescription{"ENABLED", "KMS", "arn:aws:kms:us-east-1:0:key/k"};
  t.on_demand_throughput = OnDemandThroughput{100, 200};
  t.warm_throughput = WarmThroughput{1000, 2000};
  return t;
}

inline GlobalSecondaryIndex FullGlobalIndex() {
  return {.index_name = "ByCustomer",
          .key_schema = Keys("gpk"),
          .projection = {ProjectionType::kKeysOnly, std::nullopt},
          .provisioned_throughput = ProvisionedThroughput{1, 2},
          .on_demand_throughput = OnDemandThroughput{10, 20},
          .warm_throughput = WarmThroughput{30, 40}};
}
constexpr std::string_view kFullGlobalIndexJson =
    R"({"IndexName":"ByCustomer","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],)"
    R"("Projection":{"ProjectionType":"KEYS_ONLY"},)"
    R"("ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2},)"
    R"("OnDemandThroughput":{"MaxReadRequestUnits":10,"MaxWriteRequestUnits":20},)"
    R"("WarmThroughput":{"ReadUnitsPerSecond":30,"WriteUnitsPerSecond":40}})";

inline LocalSecondaryIndex FullLocalIndex() {
  return {.index_name = "ByDate",
          .key_schema = Keys("pk", "date"),
          .projection = {ProjectionType::kInclude, std::vector<std::string>{"a", "b"}}};
}
constexpr std::string_view kFullLocalIndexJson =
    R"({"IndexName":"ByDate","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
    R"({"AttributeName":"date","KeyType":"RANGE"}],)"
    R"("Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]}})";

inline BackupDetails FullDetails() {
  return {.backup_arn = std::string(kBackupArn),
          .backup_name = "nightly",
          .backup_size_bytes = 4096,
          .backup_status = BackupStatus::kCreating,
          .backup_type = "SYSTEM",
          .backup_creation_date_time = 1700000000.25};
}

inline BackupDescription FullBackupDescription() {
  BackupDescription d;
  d.backup_details = FullDetails();
  d.backup_details.backup_status = BackupStatus::kDeleted;
  d.source_table_details = {
      .table_name = "Orders",
      .table_id = "0b5f7a3e-1111-2222-3333-444455556666",
      .table_arn = std::string(kTableArn),
      .table_size_bytes = 4096,
      .key_schema = Keys("pk", "sk"),
      .table_creation_date_time = 1690000000.5,
      .provisioned_throughput = {.read_capacity_units = 5, .write_capacity_units = 7},
      .item_count = 42,
      .billing_mode = BillingMode::kPayPerRequest};
  d.local_secondary_indexes = {FullLocalIndex()};
  // GlobalSecondaryIndexInfo: the definition and its throughput settings, no WarmThroughput.
  GlobalSecondaryIndex global = FullGlobalIndex();
  global.warm_throughput.reset();
  d.global_secondary_indexes = {global};
  return d;
}

inline GetRecordsResult FullRecords() {
  const Item keys = ParsedItem(R"({"pk":{"S":"a"},"sk":{"N":"1"}})");
  const Item old_image = ParsedItem(R"({"pk":{"S":"a"},"sk":{"N":"1"},"n":{"N":"5"}})");
  const Item new_image = ParsedItem(
      R"({"pk":{"S":"a"},"sk":{"N":"1"},"n":{"N":"6"},"b":{"B":"AAE="},"m":{"M":{"l":{"L":[)"
      R"({"SS":["x","y"]},{"NULL":true},{"BOOL":false}]}}}})");
  GetRecordsResult result;
  StreamRecord insert{.event_id = "e1",
                      .event_name = StreamEventName::kInsert,
                      .sequence_number = "000000000000000000001",
                      .approximate_creation_date_time = 1700000000,
                      .keys = keys,
                      .new_image = StoredItem::Encode(old_image),
                      .size_bytes = 30,
                      .stream_view_type = StreamViewType::kNewAndOldImages};
  StreamRecord modify = insert;
  modify.event_id = "e2";
  modify.event_name = StreamEventName::kModify;
  modify.sequence_number = "000000000000000000002";
  modify.new_image = StoredItem::Encode(new_image);
  modify.old_image = StoredItem::Encode(old_image);
  StreamRecord expire = insert;
  expire.event_id = "e3";
  expire.event_name = StreamEventName::kRemove;
  expire.remover = StreamRemover::kTimeToLive;
  expire.new_image.reset();
  expire.old_image = StoredItem::Encode(new_image);
  expire.stream_view_type = StreamViewType::kOldImage;
  StreamRecord evict = expire;
  evict.event_id = "e4";
  evict.remover = StreamRemover::kEviction;
  evict.old_image.reset();
  evict.stream_view_type = StreamViewType::kKeysOnly;
  result.records = {insert, modify, expire, evict};
  result.next_shard_iterator = "iterator-2";
  return result;
}

}  // namespace partstore::protocol::client_control_testing
