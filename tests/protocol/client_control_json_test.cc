// The control plane's client direction (tools/protocol/client_control_json.h): every request
// encoder against a golden body written from DynamoDB's API reference and round-tripped through
// the server's decoder; every result decoder round-tripped through the server's encoder; and
// malformed response bodies answered with kInternal naming the member, never a crash.
#include "tools/protocol/client_control_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/decode_testutil.h"
#include "tools/protocol/capacity_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/table_settings_json.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kTableArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Orders";
constexpr std::string_view kBackupArn =
    "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/backup/01700000000000-0123abcd";
constexpr std::string_view kStreamArn =
    "arn:aws:dynamodb:us-east-1:000000000000:table/Orders/stream/2023-11-14T22:13:20.000";

// Encode -> golden text; then parse -> the server's decoder -> encode again: the same text.
template <typename Request>
void ExpectRequest(const Request& request, std::string (*encode)(const Request&),
                   Result<Request> (*decode)(const rapidjson::Value&), std::string_view golden) {
  const std::string first = encode(request);
  EXPECT_EQ(first, golden);
  Result<Request> decoded = Decode(decode, first);
  ASSERT_TRUE(decoded.ok()) << ErrorOf(decoded) << "\n" << first;
  EXPECT_EQ(encode(*decoded), first);
}

// The server's encoding -> parse -> the client's decoder -> the server's encoder: the same text.
// Returns the decoded result for spot checks.
template <typename R, typename Encode>
R ExpectResult(const std::string& encoded, Result<R> (*decode)(const rapidjson::Value&),
               Encode encode) {
  Result<R> decoded = Decode(decode, encoded);
  EXPECT_TRUE(decoded.ok()) << ErrorOf(decoded) << "\n" << encoded;
  if (!decoded.ok()) return R{};
  EXPECT_EQ(encode(*decoded), encoded);
  return std::move(decoded).value();
}

template <typename R>
std::string Malformed(Result<R> (*decode)(const rapidjson::Value&), std::string_view body) {
  return ErrorOf(Decode(decode, body));
}

Item ParsedItem(std::string_view json) {
  Result<Item> item = ParseItemJson(json);
  EXPECT_TRUE(item.ok()) << json;
  return item.ok() ? *item : Item{};
}

std::vector<KeySchemaElement> Keys(std::string hash, std::string range = "") {
  std::vector<KeySchemaElement> keys{{std::move(hash), KeyRoleName::kHash}};
  if (!range.empty()) keys.push_back({std::move(range), KeyRoleName::kRange});
  return keys;
}

// Every member of a TableDescription set, away from its default.
TableDescription FullTable() {
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

GlobalSecondaryIndex FullGlobalIndex() {
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

LocalSecondaryIndex FullLocalIndex() {
  return {.index_name = "ByDate",
          .key_schema = Keys("pk", "date"),
          .projection = {ProjectionType::kInclude, std::vector<std::string>{"a", "b"}}};
}
constexpr std::string_view kFullLocalIndexJson =
    R"({"IndexName":"ByDate","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
    R"({"AttributeName":"date","KeyType":"RANGE"}],)"
    R"("Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["a","b"]}})";

// ---- Tables ----

TEST(ClientControlJsonTables, CreateTableRequest) {
  CreateTableRequest full;
  full.table_name = "Orders";
  full.attribute_definitions = {
      {"pk", KeyType::kString}, {"sk", KeyType::kNumber}, {"gpk", KeyType::kBinary}};
  full.key_schema = Keys("pk", "sk");
  full.local_secondary_indexes = {FullLocalIndex()};
  full.global_secondary_indexes = {FullGlobalIndex()};
  full.billing_mode = BillingMode::kProvisioned;
  full.provisioned_throughput = ProvisionedThroughput{5, 7};
  full.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  full.tags = {{"team", "cart"}, {"env", ""}};
  full.table_class = TableClass::kStandardInfrequentAccess;
  full.deletion_protection_enabled = true;
  full.sse_specification = SseSpecification{true, "KMS", "alias/orders"};
  full.on_demand_throughput = OnDemandThroughput{100, 200};
  full.warm_throughput = WarmThroughput{1000, 2000};
  ExpectRequest(
      full, EncodeCreateTableRequest, DecodeCreateTableRequest,
      std::string(R"({"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},)"
                  R"({"AttributeName":"sk","AttributeType":"N"},)"
                  R"({"AttributeName":"gpk","AttributeType":"B"}],"TableName":"Orders",)"
                  R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},)"
                  R"({"AttributeName":"sk","KeyType":"RANGE"}],"LocalSecondaryIndexes":[)") +
          std::string(kFullLocalIndexJson) + R"(],"GlobalSecondaryIndexes":[)" +
          std::string(kFullGlobalIndexJson) +
          R"(],"BillingMode":"PROVISIONED",)"
          R"("ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":7},)"
          R"("StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"},)"
          R"("SSESpecification":{"Enabled":true,"SSEType":"KMS","KMSMasterKeyId":"alias/orders"},)"
          R"("Tags":[{"Key":"team","Value":"cart"},{"Key":"env","Value":""}],)"
          R"("TableClass":"STANDARD_INFREQUENT_ACCESS","DeletionProtectionEnabled":true,)"
          R"("WarmThroughput":{"ReadUnitsPerSecond":1000,"WriteUnitsPerSecond":2000},)"
          R"("OnDemandThroughput":{"MaxReadRequestUnits":100,"MaxWriteRequestUnits":200}})");

  CreateTableRequest minimal;
  minimal.table_name = "Orders";
  minimal.attribute_definitions = {{"pk", KeyType::kString}};
  minimal.key_schema = Keys("pk");
  ExpectRequest(minimal, EncodeCreateTableRequest, DecodeCreateTableRequest,
                R"({"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                R"("TableName":"Orders","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
}

TEST(ClientControlJsonTables, UpdateTableRequest) {
  UpdateTableRequest full;
  full.table_name = "Orders";
  full.attribute_definitions = {{"gpk2", KeyType::kString}};
  full.billing_mode = BillingMode::kPayPerRequest;
  full.provisioned_throughput = ProvisionedThroughput{3, 4};
  GlobalSecondaryIndexUpdate update;
  update.update = GlobalSecondaryIndexUpdate::Update{
      .index_name = "ByCustomer",
      .provisioned_throughput = ProvisionedThroughput{6, 8},
      .on_demand_throughput = OnDemandThroughput{11, 22},
      .warm_throughput = WarmThroughput{33, 44},
  };
  GlobalSecondaryIndexUpdate create;
  create.create = FullGlobalIndex();
  GlobalSecondaryIndexUpdate remove;
  remove.remove = GlobalSecondaryIndexUpdate::Delete{.index_name = "Old"};
  full.global_secondary_index_updates = {update, create, remove};
  full.stream_specification = StreamSpecification{false, std::nullopt};
  full.table_class = TableClass::kStandard;
  full.deletion_protection_enabled = false;
  full.sse_specification = SseSpecification{false, "KMS", "key"};
  full.on_demand_throughput = OnDemandThroughput{5, std::nullopt};
  full.warm_throughput = WarmThroughput{std::nullopt, 8};
  ExpectRequest(
      full, EncodeUpdateTableRequest, DecodeUpdateTableRequest,
      std::string(R"({"AttributeDefinitions":[{"AttributeName":"gpk2","AttributeType":"S"}],)"
                  R"("TableName":"Orders","BillingMode":"PAY_PER_REQUEST",)"
                  R"("ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4},)"
                  R"("GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"ByCustomer",)"
                  R"("ProvisionedThroughput":{"ReadCapacityUnits":6,"WriteCapacityUnits":8},)"
                  R"("OnDemandThroughput":{"MaxReadRequestUnits":11,"MaxWriteRequestUnits":22},)"
                  R"("WarmThroughput":{"ReadUnitsPerSecond":33,"WriteUnitsPerSecond":44}}},)"
                  R"({"Create":)") +
          std::string(kFullGlobalIndexJson) +
          R"(},{"Delete":{"IndexName":"Old"}}],"StreamSpecification":{"StreamEnabled":false},)"
          R"("SSESpecification":{"Enabled":false,"SSEType":"KMS","KMSMasterKeyId":"key"},)"
          R"("TableClass":"STANDARD","DeletionProtectionEnabled":false,)"
          R"("OnDemandThroughput":{"MaxReadRequestUnits":5},)"
          R"("WarmThroughput":{"WriteUnitsPerSecond":8}})");

  ExpectRequest(UpdateTableRequest{.table_name = "Orders"}, EncodeUpdateTableRequest,
                DecodeUpdateTableRequest, R"({"TableName":"Orders"})");
  // An empty list of index updates is still a list (the decoder keeps it apart from none).
  ExpectRequest(UpdateTableRequest{.table_name = "Orders",
                                   .global_secondary_index_updates =
                                       std::vector<GlobalSecondaryIndexUpdate>{}},
                EncodeUpdateTableRequest, DecodeUpdateTableRequest,
                R"({"TableName":"Orders","GlobalSecondaryIndexUpdates":[]})");
}

TEST(ClientControlJsonTables, NameOnlyAndListTablesRequests) {
  ExpectRequest(DeleteTableRequest{.table_name = "Orders"}, EncodeDeleteTableRequest,
                DecodeDeleteTableRequest, R"({"TableName":"Orders"})");
  ExpectRequest(DescribeTableRequest{.table_name = "Orders"}, EncodeDescribeTableRequest,
                DecodeDescribeTableRequest, R"({"TableName":"Orders"})");
  ExpectRequest(ListTablesRequest{.exclusive_start_table_name = "Orders", .limit = 10},
                EncodeListTablesRequest, DecodeListTablesRequest,
                R"({"ExclusiveStartTableName":"Orders","Limit":10})");
  ExpectRequest(ListTablesRequest{}, EncodeListTablesRequest, DecodeListTablesRequest, "{}");
}

TEST(ClientControlJsonTables, TableDescriptionResultsRoundTrip) {
  const TableDescription table = FullTable();
  CreateTableResult decoded = ExpectResult(EncodeCreateTableResult(CreateTableResult{table}),
                                           DecodeCreateTableResult, EncodeCreateTableResult);
  // Spot checks that the decoder, not only the encoder, holds the values.
  const TableDescription& t = decoded.table_description;
  EXPECT_EQ(t.table_name, "Orders");
  EXPECT_EQ(t.table_status, TableStatus::kUpdating);
  EXPECT_EQ(t.creation_date_time, 1700000000.5);
  EXPECT_EQ(t.provisioned_throughput.last_decrease_date_time, 1700000200.75);
  EXPECT_EQ(t.billing_mode, BillingMode::kPayPerRequest);
  ASSERT_EQ(t.global_secondary_indexes.size(), 2u);
  EXPECT_EQ(t.global_secondary_indexes[0].warm_throughput, (WarmThroughput{30, 40}));
  EXPECT_EQ(t.global_secondary_indexes[1].index_status, IndexStatus::kDeleting);
  ASSERT_EQ(t.local_secondary_indexes.size(), 1u);
  EXPECT_EQ(t.local_secondary_indexes[0].projection.non_key_attributes,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(t.stream_specification, (StreamSpecification{true, StreamViewType::kNewAndOldImages}));
  EXPECT_EQ(t.table_class, TableClass::kStandardInfrequentAccess);
  EXPECT_EQ(t.sse_description->kms_master_key_arn, "arn:aws:kms:us-east-1:0:key/k");

  ExpectResult(EncodeDeleteTableResult(DeleteTableResult{table}), DecodeDeleteTableResult,
               EncodeDeleteTableResult);
  ExpectResult(EncodeDescribeTableResult(DescribeTableResult{table}), DecodeDescribeTableResult,
               EncodeDescribeTableResult);
  ExpectResult(EncodeUpdateTableResult(UpdateTableResult{table}), DecodeUpdateTableResult,
               EncodeUpdateTableResult);
  // The other shape: provisioned, no summary, indexes, stream or settings.
  ExpectResult(EncodeDescribeTableResult(DescribeTableResult{}), DecodeDescribeTableResult,
               EncodeDescribeTableResult);
  // An on-demand maximum reported as -1 (none) comes back as -1.
  TableDescription unlimited;
  unlimited.on_demand_throughput = OnDemandThroughput{};
  ExpectResult(EncodeDescribeTableResult(DescribeTableResult{unlimited}), DecodeDescribeTableResult,
               EncodeDescribeTableResult);
}

TEST(ClientControlJsonTables, ListTablesResultRoundTrips) {
  ListTablesResult decoded =
      ExpectResult(EncodeListTablesResult(
                       {.table_names = {"Carts", "Orders"}, .last_evaluated_table_name = "Orders"}),
                   DecodeListTablesResult, EncodeListTablesResult);
  EXPECT_EQ(decoded.table_names, (std::vector<std::string>{"Carts", "Orders"}));
  ExpectResult(EncodeListTablesResult({}), DecodeListTablesResult, EncodeListTablesResult);
}

TEST(ClientControlJsonTables, NullAndUnknownMembersAreAbsent) {
  Result<DescribeTableResult> r = Decode(
      DecodeDescribeTableResult,
      R"({"Table":{"TableName":"Orders","TableArn":null,"Replicas":[{"RegionName":"x"}],)"
      R"("ArchivalSummary":{"ArchivalReason":"r"},"StreamSpecification":null},"Extra":[1,2]})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table.table_name, "Orders");
  EXPECT_EQ(r->table.table_arn, "");
  EXPECT_FALSE(r->table.stream_specification.has_value());
  // A repeated member counts by its last occurrence, as the server's decoders read requests.
  r = Decode(DecodeDescribeTableResult, R"({"Table":{"TableName":"A","TableName":"B"}})");
  ASSERT_TRUE(r.ok()) << ErrorOf(r);
  EXPECT_EQ(r->table.table_name, "B");
}

// ---- Time to Live ----

TEST(ClientControlJsonTimeToLive, Requests) {
  ExpectRequest(UpdateTimeToLiveRequest{.table_name = "Sessions",
                                        .time_to_live_specification = {"expires_at", true}},
                EncodeUpdateTimeToLiveRequest, DecodeUpdateTimeToLiveRequest,
                R"({"TableName":"Sessions","TimeToLiveSpecification":)"
                R"({"Enabled":true,"AttributeName":"expires_at"}})");
  ExpectRequest(UpdateTimeToLiveRequest{.table_name = "Sessions",
                                        .time_to_live_specification = {"ttl", false}},
                EncodeUpdateTimeToLiveRequest, DecodeUpdateTimeToLiveRequest,
                R"({"TableName":"Sessions","TimeToLiveSpecification":)"
                R"({"Enabled":false,"AttributeName":"ttl"}})");
  ExpectRequest(DescribeTimeToLiveRequest{.table_name = "Sessions"},
                EncodeDescribeTimeToLiveRequest, DecodeDescribeTimeToLiveRequest,
                R"({"TableName":"Sessions"})");
}

TEST(ClientControlJsonTimeToLive, Results) {
  UpdateTimeToLiveResult update = ExpectResult(
      EncodeUpdateTimeToLiveResult({.time_to_live_specification = {"expires_at", true}}),
      DecodeUpdateTimeToLiveResult, EncodeUpdateTimeToLiveResult);
  EXPECT_TRUE(update.time_to_live_specification.enabled);
  for (TimeToLiveStatus status : {TimeToLiveStatus::kEnabling, TimeToLiveStatus::kDisabling,
                                  TimeToLiveStatus::kEnabled, TimeToLiveStatus::kDisabled}) {
    DescribeTimeToLiveResult describe = ExpectResult(
        EncodeDescribeTimeToLiveResult({.time_to_live_description = {status, "expires_at"}}),
        DecodeDescribeTimeToLiveResult, EncodeDescribeTimeToLiveResult);
    EXPECT_EQ(describe.time_to_live_description.time_to_live_status, status);
  }
  ExpectResult(EncodeDescribeTimeToLiveResult({}), DecodeDescribeTimeToLiveResult,
               EncodeDescribeTimeToLiveResult);
}

// ---- Tags ----

TEST(ClientControlJsonTags, Requests) {
  const std::string arn(kTableArn);
  ExpectRequest(TagResourceRequest{.resource_arn = arn, .tags = {{"team", "cart"}, {"env", ""}}},
                EncodeTagResourceRequest, DecodeTagResourceRequest,
                R"({"ResourceArn":")" + arn +
                    R"(","Tags":[{"Key":"team","Value":"cart"},{"Key":"env","Value":""}]})");
  ExpectRequest(TagResourceRequest{.resource_arn = arn, .tags = {{"team", "cart"}}},
                EncodeTagResourceRequest, DecodeTagResourceRequest,
                R"({"ResourceArn":")" + arn + R"(","Tags":[{"Key":"team","Value":"cart"}]})");
  ExpectRequest(UntagResourceRequest{.resource_arn = arn, .tag_keys = {"team", "env"}},
                EncodeUntagResourceRequest, DecodeUntagResourceRequest,
                R"({"ResourceArn":")" + arn + R"(","TagKeys":["team","env"]})");
  ExpectRequest(UntagResourceRequest{.resource_arn = arn, .tag_keys = {"team"}},
                EncodeUntagResourceRequest, DecodeUntagResourceRequest,
                R"({"ResourceArn":")" + arn + R"(","TagKeys":["team"]})");
  ExpectRequest(ListTagsOfResourceRequest{.resource_arn = arn, .next_token = "env"},
                EncodeListTagsOfResourceRequest, DecodeListTagsOfResourceRequest,
                R"({"ResourceArn":")" + arn + R"(","NextToken":"env"})");
  ExpectRequest(ListTagsOfResourceRequest{.resource_arn = arn}, EncodeListTagsOfResourceRequest,
                DecodeListTagsOfResourceRequest, R"({"ResourceArn":")" + arn + R"("})");
}

TEST(ClientControlJsonTags, Results) {
  EXPECT_TRUE(Decode(DecodeTagResourceResult, EncodeTagResourceResult({})).ok());
  EXPECT_TRUE(Decode(DecodeUntagResourceResult, "{}").ok());
  ListTagsOfResourceResult decoded =
      ExpectResult(EncodeListTagsOfResourceResult(
                       {.tags = {{"env", "prod"}, {"team", "cart"}}, .next_token = "team"}),
                   DecodeListTagsOfResourceResult, EncodeListTagsOfResourceResult);
  EXPECT_EQ(decoded.tags, (std::vector<Tag>{{"env", "prod"}, {"team", "cart"}}));
  ExpectResult(EncodeListTagsOfResourceResult({}), DecodeListTagsOfResourceResult,
               EncodeListTagsOfResourceResult);
}

// ---- On-demand backups ----

TEST(ClientControlJsonBackups, Requests) {
  const std::string arn(kBackupArn);
  ExpectRequest(CreateBackupRequest{.table_name = "Orders", .backup_name = "nightly"},
                EncodeCreateBackupRequest, DecodeCreateBackupRequest,
                R"({"TableName":"Orders","BackupName":"nightly"})");
  ExpectRequest(DescribeBackupRequest{.backup_arn = arn}, EncodeDescribeBackupRequest,
                DecodeDescribeBackupRequest, R"({"BackupArn":")" + arn + R"("})");
  ExpectRequest(DeleteBackupRequest{.backup_arn = arn}, EncodeDeleteBackupRequest,
                DecodeDeleteBackupRequest, R"({"BackupArn":")" + arn + R"("})");
  ExpectRequest(ListBackupsRequest{.table_name = "Orders",
                                   .limit = 5,
                                   .time_range_lower_bound = 1700000000,
                                   .time_range_upper_bound = 1700003600.5,
                                   .exclusive_start_backup_arn = arn,
                                   .backup_type = "ALL"},
                EncodeListBackupsRequest, DecodeListBackupsRequest,
                R"({"TableName":"Orders","Limit":5,"TimeRangeLowerBound":1700000000.0,)"
                R"("TimeRangeUpperBound":1700003600.5,"ExclusiveStartBackupArn":")" +
                    arn + R"(","BackupType":"ALL"})");
  ExpectRequest(ListBackupsRequest{}, EncodeListBackupsRequest, DecodeListBackupsRequest, "{}");

  RestoreTableFromBackupRequest full;
  full.target_table_name = "Restored";
  full.backup_arn = arn;
  full.billing_mode_override = BillingMode::kProvisioned;
  full.provisioned_throughput_override = ProvisionedThroughput{5, 6};
  full.global_secondary_index_override = std::vector<GlobalSecondaryIndex>{FullGlobalIndex()};
  full.local_secondary_index_override = std::vector<LocalSecondaryIndex>{FullLocalIndex()};
  full.sse_specification_override = true;
  full.on_demand_throughput_override = true;
  ExpectRequest(full, EncodeRestoreTableFromBackupRequest, DecodeRestoreTableFromBackupRequest,
                R"({"TargetTableName":"Restored","BackupArn":")" + arn +
                    R"(","BillingModeOverride":"PROVISIONED","GlobalSecondaryIndexOverride":[)" +
                    std::string(kFullGlobalIndexJson) + R"(],"LocalSecondaryIndexOverride":[)" +
                    std::string(kFullLocalIndexJson) +
                    R"(],"ProvisionedThroughputOverride":{"ReadCapacityUnits":5,)"
                    R"("WriteCapacityUnits":6},"OnDemandThroughputOverride":{},)"
                    R"("SSESpecificationOverride":{}})");
  ExpectRequest(RestoreTableFromBackupRequest{.target_table_name = "Restored", .backup_arn = arn},
                EncodeRestoreTableFromBackupRequest, DecodeRestoreTableFromBackupRequest,
                R"({"TargetTableName":"Restored","BackupArn":")" + arn + R"("})");
}

BackupDetails FullDetails() {
  return {.backup_arn = std::string(kBackupArn),
          .backup_name = "nightly",
          .backup_size_bytes = 4096,
          .backup_status = BackupStatus::kCreating,
          .backup_type = "SYSTEM",
          .backup_creation_date_time = 1700000000.25};
}

BackupDescription FullBackupDescription() {
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
  GlobalSecondaryIndex global = FullGlobalIndex();  // the backup keeps the definition only
  global.provisioned_throughput.reset();
  global.on_demand_throughput.reset();
  global.warm_throughput.reset();
  d.global_secondary_indexes = {global};
  return d;
}

TEST(ClientControlJsonBackups, Results) {
  CreateBackupResult created = ExpectResult(EncodeCreateBackupResult({FullDetails()}),
                                            DecodeCreateBackupResult, EncodeCreateBackupResult);
  EXPECT_EQ(created.backup_details.backup_status, BackupStatus::kCreating);
  EXPECT_EQ(created.backup_details.backup_creation_date_time, 1700000000.25);

  DescribeBackupResult described =
      ExpectResult(EncodeDescribeBackupResult({FullBackupDescription()}),
                   DecodeDescribeBackupResult, EncodeDescribeBackupResult);
  EXPECT_EQ(described.backup_description.source_table_details.billing_mode,
            BillingMode::kPayPerRequest);
  ASSERT_EQ(described.backup_description.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(described.backup_description.global_secondary_indexes[0].key_schema, Keys("gpk"));
  ExpectResult(EncodeDeleteBackupResult({FullBackupDescription()}), DecodeDeleteBackupResult,
               EncodeDeleteBackupResult);

  ListBackupsResult list;
  list.backup_summaries = {{"Orders", "id-1", std::string(kTableArn), FullDetails()},
                           {"Carts", "id-2", "arn:aws:dynamodb:us-east-1:0:table/Carts", {}}};
  list.last_evaluated_backup_arn = std::string(kBackupArn);
  ListBackupsResult listed =
      ExpectResult(EncodeListBackupsResult(list), DecodeListBackupsResult, EncodeListBackupsResult);
  ASSERT_EQ(listed.backup_summaries.size(), 2u);
  EXPECT_EQ(listed.backup_summaries[0].details.backup_name, "nightly");
  ExpectResult(EncodeListBackupsResult({}), DecodeListBackupsResult, EncodeListBackupsResult);

  ExpectResult(EncodeRestoreTableFromBackupResult({FullTable()}),
               DecodeRestoreTableFromBackupResult, EncodeRestoreTableFromBackupResult);
}

// ---- Continuous backups ----

TEST(ClientControlJsonContinuousBackups, Requests) {
  ExpectRequest(UpdateContinuousBackupsRequest{.table_name = "Orders",
                                               .point_in_time_recovery_enabled = true,
                                               .recovery_period_in_days = 7},
                EncodeUpdateContinuousBackupsRequest, DecodeUpdateContinuousBackupsRequest,
                R"({"TableName":"Orders","PointInTimeRecoverySpecification":)"
                R"({"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}})");
  ExpectRequest(UpdateContinuousBackupsRequest{.table_name = "Orders"},
                EncodeUpdateContinuousBackupsRequest, DecodeUpdateContinuousBackupsRequest,
                R"({"TableName":"Orders","PointInTimeRecoverySpecification":)"
                R"({"PointInTimeRecoveryEnabled":false}})");
  ExpectRequest(DescribeContinuousBackupsRequest{.table_name = "Orders"},
                EncodeDescribeContinuousBackupsRequest, DecodeDescribeContinuousBackupsRequest,
                R"({"TableName":"Orders"})");

  RestoreTableToPointInTimeRequest full;
  full.source_table_arn = std::string(kTableArn);
  full.source_table_name = "Orders";  // (DynamoDB wants one of the two; the decoder takes both)
  full.target_table_name = "Restored";
  full.use_latest_restorable_time = true;
  full.restore_date_time = 1700000000.5;
  full.billing_mode_override = BillingMode::kPayPerRequest;
  full.provisioned_throughput_override = ProvisionedThroughput{5, 6};
  full.global_secondary_index_override = std::vector<GlobalSecondaryIndex>{};  // none
  full.local_secondary_index_override = std::vector<LocalSecondaryIndex>{FullLocalIndex()};
  full.sse_specification_override = true;
  full.on_demand_throughput_override = true;
  ExpectRequest(full, EncodeRestoreTableToPointInTimeRequest,
                DecodeRestoreTableToPointInTimeRequest,
                R"({"SourceTableArn":")" + std::string(kTableArn) +
                    R"(","SourceTableName":"Orders","TargetTableName":"Restored",)"
                    R"("UseLatestRestorableTime":true,"RestoreDateTime":1700000000.5,)"
                    R"("BillingModeOverride":"PAY_PER_REQUEST","GlobalSecondaryIndexOverride":[],)"
                    R"("LocalSecondaryIndexOverride":[)" +
                    std::string(kFullLocalIndexJson) +
                    R"(],"ProvisionedThroughputOverride":{"ReadCapacityUnits":5,)"
                    R"("WriteCapacityUnits":6},"OnDemandThroughputOverride":{},)"
                    R"("SSESpecificationOverride":{}})");
  ExpectRequest(RestoreTableToPointInTimeRequest{.target_table_name = "Restored"},
                EncodeRestoreTableToPointInTimeRequest, DecodeRestoreTableToPointInTimeRequest,
                R"({"TargetTableName":"Restored"})");
}

TEST(ClientControlJsonContinuousBackups, Results) {
  ContinuousBackupsResult full;
  full.continuous_backups_description.continuous_backups_enabled = false;
  full.continuous_backups_description.point_in_time_recovery_description = {
      .point_in_time_recovery_status = PointInTimeRecoveryStatus::kEnabled,
      .earliest_restorable_date_time = 1700000000.5,
      .latest_restorable_date_time = 1700000001.5,
      .recovery_period_in_days = 7};
  ContinuousBackupsResult decoded =
      ExpectResult(EncodeContinuousBackupsResult(full), DecodeUpdateContinuousBackupsResult,
                   EncodeContinuousBackupsResult);
  EXPECT_FALSE(decoded.continuous_backups_description.continuous_backups_enabled);
  EXPECT_EQ(decoded.continuous_backups_description.point_in_time_recovery_description
                .point_in_time_recovery_status,
            PointInTimeRecoveryStatus::kEnabled);
  ExpectResult(EncodeContinuousBackupsResult({}), DecodeDescribeContinuousBackupsResult,
               EncodeContinuousBackupsResult);
  ExpectResult(EncodeRestoreTableToPointInTimeResult({FullTable()}),
               DecodeRestoreTableToPointInTimeResult, EncodeRestoreTableToPointInTimeResult);
}

// ---- Streams ----

TEST(ClientControlJsonStreams, Requests) {
  const std::string arn(kStreamArn);
  ExpectRequest(
      ListStreamsRequest{.table_name = "Orders", .limit = 10, .exclusive_start_stream_arn = arn},
      EncodeListStreamsRequest, DecodeListStreamsRequest,
      R"({"TableName":"Orders","Limit":10,"ExclusiveStartStreamArn":")" + arn + R"("})");
  ExpectRequest(ListStreamsRequest{}, EncodeListStreamsRequest, DecodeListStreamsRequest, "{}");
  ExpectRequest(DescribeStreamRequest{.stream_arn = arn,
                                      .limit = 5,
                                      .exclusive_start_shard_id = "shardId-00000001700000000000-1"},
                EncodeDescribeStreamRequest, DecodeDescribeStreamRequest,
                R"({"StreamArn":")" + arn +
                    R"(","Limit":5,"ExclusiveStartShardId":"shardId-00000001700000000000-1"})");
  ExpectRequest(DescribeStreamRequest{.stream_arn = arn}, EncodeDescribeStreamRequest,
                DecodeDescribeStreamRequest, R"({"StreamArn":")" + arn + R"("})");
  ExpectRequest(
      GetShardIteratorRequest{.stream_arn = arn,
                              .shard_id = "shardId-1",
                              .shard_iterator_type = ShardIteratorType::kAfterSequenceNumber,
                              .sequence_number = "000000000000000000042"},
      EncodeGetShardIteratorRequest, DecodeGetShardIteratorRequest,
      R"({"StreamArn":")" + arn +
          R"(","ShardId":"shardId-1","ShardIteratorType":"AFTER_SEQUENCE_NUMBER",)"
          R"("SequenceNumber":"000000000000000000042"})");
  ExpectRequest(
      GetShardIteratorRequest{.stream_arn = arn, .shard_id = "shardId-1"},
      EncodeGetShardIteratorRequest, DecodeGetShardIteratorRequest,
      R"({"StreamArn":")" + arn + R"(","ShardId":"shardId-1","ShardIteratorType":"TRIM_HORIZON"})");
  ExpectRequest(GetRecordsRequest{.shard_iterator = "iterator-1", .limit = 100},
                EncodeGetRecordsRequest, DecodeGetRecordsRequest,
                R"({"ShardIterator":"iterator-1","Limit":100})");
  ExpectRequest(GetRecordsRequest{.shard_iterator = "iterator-1"}, EncodeGetRecordsRequest,
                DecodeGetRecordsRequest, R"({"ShardIterator":"iterator-1"})");
}

GetRecordsResult FullRecords() {
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

TEST(ClientControlJsonStreams, Results) {
  ListStreamsResult list;
  list.streams = {{std::string(kStreamArn), "Orders", "2023-11-14T22:13:20.000"},
                  {"arn:2", "Carts", "label-2"}};
  list.last_evaluated_stream_arn = "arn:2";
  ListStreamsResult listed =
      ExpectResult(EncodeListStreamsResult(list), DecodeListStreamsResult, EncodeListStreamsResult);
  ASSERT_EQ(listed.streams.size(), 2u);
  EXPECT_EQ(listed.streams[1].table_name, "Carts");
  ExpectResult(EncodeListStreamsResult({}), DecodeListStreamsResult, EncodeListStreamsResult);

  DescribeStreamResult describe;
  StreamDescription& d = describe.stream_description;
  d.stream_arn = std::string(kStreamArn);
  d.stream_label = "2023-11-14T22:13:20.000";
  d.stream_status = StreamStatus::kDisabling;
  d.stream_view_type = StreamViewType::kNewAndOldImages;
  d.creation_request_date_time = 1700000000.5;
  d.table_name = "Orders";
  d.key_schema = Keys("pk", "sk");
  d.shards = {{"shardId-1", std::nullopt, {"000000000000000000001", "000000000000000000009"}},
              {"shardId-2", "shardId-1", {"000000000000000000010", std::nullopt}}};
  d.last_evaluated_shard_id = "shardId-2";
  DescribeStreamResult described = ExpectResult(
      EncodeDescribeStreamResult(describe), DecodeDescribeStreamResult, EncodeDescribeStreamResult);
  EXPECT_EQ(described.stream_description.stream_status, StreamStatus::kDisabling);
  ASSERT_EQ(described.stream_description.shards.size(), 2u);
  EXPECT_EQ(described.stream_description.shards[1].parent_shard_id, "shardId-1");
  ExpectResult(EncodeDescribeStreamResult({}), DecodeDescribeStreamResult,
               EncodeDescribeStreamResult);

  ExpectResult(EncodeGetShardIteratorResult({"iterator-1"}), DecodeGetShardIteratorResult,
               EncodeGetShardIteratorResult);

  const auto encode_records = [](const GetRecordsResult& r) {
    return EncodeGetRecordsResult(r, "eu-west-1");
  };
  GetRecordsResult records =
      ExpectResult(encode_records(FullRecords()), DecodeGetRecordsResult, encode_records);
  ASSERT_EQ(records.records.size(), 4u);
  EXPECT_EQ(records.records[2].remover, StreamRemover::kTimeToLive);
  EXPECT_EQ(records.records[3].remover, StreamRemover::kEviction);
  EXPECT_EQ(ItemToJson(*records.records[1].old_image),
            R"({"n":{"N":"5"},"pk":{"S":"a"},"sk":{"N":"1"}})");
  ExpectResult(encode_records({}), DecodeGetRecordsResult, encode_records);
}

// ---- Contributor Insights ----

TEST(ClientControlJsonContributorInsights, Requests) {
  ExpectRequest(UpdateContributorInsightsRequest{.table_name = "Orders",
                                                 .index_name = "ByCustomer",
                                                 .action = ContributorInsightsAction::kDisable},
                EncodeUpdateContributorInsightsRequest, DecodeUpdateContributorInsightsRequest,
                R"({"TableName":"Orders","IndexName":"ByCustomer",)"
                R"("ContributorInsightsAction":"DISABLE"})");
  ExpectRequest(UpdateContributorInsightsRequest{.table_name = "Orders",
                                                 .action = ContributorInsightsAction::kEnable},
                EncodeUpdateContributorInsightsRequest, DecodeUpdateContributorInsightsRequest,
                R"({"TableName":"Orders","ContributorInsightsAction":"ENABLE"})");
  ExpectRequest(
      DescribeContributorInsightsRequest{.table_name = "Orders", .index_name = "ByCustomer"},
      EncodeDescribeContributorInsightsRequest, DecodeDescribeContributorInsightsRequest,
      R"({"TableName":"Orders","IndexName":"ByCustomer"})");
  ExpectRequest(DescribeContributorInsightsRequest{.table_name = "Orders"},
                EncodeDescribeContributorInsightsRequest, DecodeDescribeContributorInsightsRequest,
                R"({"TableName":"Orders"})");
  ExpectRequest(
      ListContributorInsightsRequest{
          .table_name = "Orders", .next_token = "token", .max_results = 50},
      EncodeListContributorInsightsRequest, DecodeListContributorInsightsRequest,
      R"({"TableName":"Orders","NextToken":"token","MaxResults":50})");
  ExpectRequest(ListContributorInsightsRequest{}, EncodeListContributorInsightsRequest,
                DecodeListContributorInsightsRequest, "{}");
}

TEST(ClientControlJsonContributorInsights, Results) {
  UpdateContributorInsightsResult update =
      ExpectResult(EncodeUpdateContributorInsightsResult({"Orders", "ByCustomer", "ENABLING"}),
                   DecodeUpdateContributorInsightsResult, EncodeUpdateContributorInsightsResult);
  EXPECT_EQ(update.index_name, "ByCustomer");
  ExpectResult(EncodeUpdateContributorInsightsResult({"Orders", std::nullopt, "DISABLING"}),
               DecodeUpdateContributorInsightsResult, EncodeUpdateContributorInsightsResult);

  DescribeContributorInsightsResult describe{
      "Orders",
      "ByCustomer",
      {"DynamoDBContributorInsights-PKC-Orders-1", "DynamoDBContributorInsights-PKT-Orders-1"},
      "ENABLED",
      1700000000.25};
  DescribeContributorInsightsResult described = ExpectResult(
      EncodeDescribeContributorInsightsResult(describe), DecodeDescribeContributorInsightsResult,
      EncodeDescribeContributorInsightsResult);
  EXPECT_EQ(described.rule_list.size(), 2u);
  EXPECT_EQ(described.last_update_date_time, 1700000000.25);
  describe.last_update_date_time = 1700000000;  // written as a JSON integer
  ExpectResult(EncodeDescribeContributorInsightsResult(describe),
               DecodeDescribeContributorInsightsResult, EncodeDescribeContributorInsightsResult);
  ExpectResult(EncodeDescribeContributorInsightsResult({}), DecodeDescribeContributorInsightsResult,
               EncodeDescribeContributorInsightsResult);

  ListContributorInsightsResult list;
  list.summaries = {{"Orders", std::nullopt, "ENABLED"}, {"Orders", "ByCustomer", "DISABLED"}};
  list.next_token = "token";
  ListContributorInsightsResult listed =
      ExpectResult(EncodeListContributorInsightsResult(list), DecodeListContributorInsightsResult,
                   EncodeListContributorInsightsResult);
  ASSERT_EQ(listed.summaries.size(), 2u);
  EXPECT_FALSE(listed.summaries[0].index_name.has_value());
  ExpectResult(EncodeListContributorInsightsResult({}), DecodeListContributorInsightsResult,
               EncodeListContributorInsightsResult);
}

// ---- Malformed responses ----

TEST(ClientControlJsonMalformed, WrongTypesNameTheMember) {
  EXPECT_EQ(Malformed(DecodeCreateTableResult, R"({"TableDescription":{"TableStatus":5}})"),
            "Internal: malformed CreateTable response: TableDescription.TableStatus is not a "
            "string");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult, R"({"Table":{"TableStatus":"ARCHIVED"}})"),
            "Internal: malformed DescribeTable response: Table.TableStatus is not a known value "
            "(\"ARCHIVED\")");
  EXPECT_EQ(Malformed(DecodeUpdateTableResult,
                      R"({"TableDescription":{"GlobalSecondaryIndexes":[{"IndexName":"a"},)"
                      R"({"ProvisionedThroughput":{"ReadCapacityUnits":"5"}}]}})"),
            "Internal: malformed UpdateTable response: "
            "TableDescription.GlobalSecondaryIndexes[1].ProvisionedThroughput.ReadCapacityUnits "
            "is not an integer");
  EXPECT_EQ(Malformed(DecodeDeleteTableResult,
                      R"({"TableDescription":{"KeySchema":[{"KeyType":"SORT"}]}})"),
            "Internal: malformed DeleteTable response: TableDescription.KeySchema[0].KeyType is "
            "not a known value (\"SORT\")");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult, R"({"Table":[]})"),
            "Internal: malformed DescribeTable response: Table is not an object");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult, R"({"Table":{"LocalSecondaryIndexes":[7]}})"),
            "Internal: malformed DescribeTable response: Table.LocalSecondaryIndexes[0] is not an "
            "object");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult, R"({"Table":{"CreationDateTime":"now"}})"),
            "Internal: malformed DescribeTable response: Table.CreationDateTime is not a number");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult, R"({"Table":{"DeletionProtectionEnabled":1}})"),
            "Internal: malformed DescribeTable response: Table.DeletionProtectionEnabled is not a "
            "boolean");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult,
                      R"({"Table":{"WarmThroughput":{"ReadUnitsPerSecond":1.5}}})"),
            "Internal: malformed DescribeTable response: Table.WarmThroughput.ReadUnitsPerSecond "
            "is not an integer");
  EXPECT_EQ(Malformed(DecodeDescribeTableResult,
                      R"({"Table":{"TableClassSummary":{"TableClass":"GLACIER"}}})"),
            "Internal: malformed DescribeTable response: Table.TableClassSummary.TableClass is "
            "not a known value (\"GLACIER\")");
  EXPECT_EQ(Malformed(DecodeListTablesResult, R"({"TableNames":["a",1]})"),
            "Internal: malformed ListTables response: TableNames is not an array of strings");

  EXPECT_EQ(Malformed(DecodeDescribeTimeToLiveResult,
                      R"({"TimeToLiveDescription":{"TimeToLiveStatus":"PAUSED"}})"),
            "Internal: malformed DescribeTimeToLive response: "
            "TimeToLiveDescription.TimeToLiveStatus is not a known value (\"PAUSED\")");
  EXPECT_EQ(
      Malformed(DecodeUpdateTimeToLiveResult, R"({"TimeToLiveSpecification":{"Enabled":"true"}})"),
      "Internal: malformed UpdateTimeToLive response: TimeToLiveSpecification.Enabled is "
      "not a boolean");

  EXPECT_EQ(Malformed(DecodeListTagsOfResourceResult, R"({"Tags":[{"Key":1}]})"),
            "Internal: malformed ListTagsOfResource response: Tags[0].Key is not a string");
  EXPECT_EQ(Malformed(DecodeListTagsOfResourceResult, R"({"NextToken":{}})"),
            "Internal: malformed ListTagsOfResource response: NextToken is not a string");

  EXPECT_EQ(Malformed(DecodeCreateBackupResult, R"({"BackupDetails":{"BackupSizeBytes":1.5}})"),
            "Internal: malformed CreateBackup response: BackupDetails.BackupSizeBytes is not an "
            "integer");
  EXPECT_EQ(Malformed(DecodeDescribeBackupResult,
                      R"({"BackupDescription":{"SourceTableDetails":{"BillingMode":"FREE"}}})"),
            "Internal: malformed DescribeBackup response: "
            "BackupDescription.SourceTableDetails.BillingMode is not a known value (\"FREE\")");
  EXPECT_EQ(Malformed(DecodeListBackupsResult, R"({"BackupSummaries":[{"BackupStatus":true}]})"),
            "Internal: malformed ListBackups response: BackupSummaries[0].BackupStatus is not a "
            "string");

  EXPECT_EQ(Malformed(DecodeDescribeContinuousBackupsResult,
                      R"({"ContinuousBackupsDescription":{"ContinuousBackupsStatus":"MAYBE"}})"),
            "Internal: malformed DescribeContinuousBackups response: "
            "ContinuousBackupsDescription.ContinuousBackupsStatus is not ENABLED or DISABLED");
  EXPECT_EQ(Malformed(DecodeUpdateContinuousBackupsResult,
                      R"({"ContinuousBackupsDescription":{"PointInTimeRecoveryDescription":)"
                      R"({"RecoveryPeriodInDays":"7"}}})"),
            "Internal: malformed UpdateContinuousBackups response: "
            "ContinuousBackupsDescription.PointInTimeRecoveryDescription.RecoveryPeriodInDays is "
            "not an integer");

  EXPECT_EQ(Malformed(DecodeGetRecordsResult, R"({"Records":{}})"),
            "Internal: malformed GetRecords response: Records is not an array");
  const std::string bad_image = Malformed(
      DecodeGetRecordsResult, R"({"Records":[{"dynamodb":{"NewImage":{"a":{"Q":"1"}}}}]})");
  EXPECT_EQ(bad_image.rfind("Internal: malformed GetRecords response: "
                            "Records[0].dynamodb.NewImage is not an item: ",
                            0),
            0u)
      << bad_image;
  EXPECT_EQ(Malformed(DecodeGetRecordsResult,
                      R"({"Records":[{},{"userIdentity":{"PrincipalId":"someone"}}]})"),
            "Internal: malformed GetRecords response: Records[1].userIdentity.PrincipalId is not "
            "dynamodb.amazonaws.com or partstore.eviction");
  EXPECT_EQ(Malformed(DecodeGetRecordsResult, R"({"Records":[{"eventName":"UPSERT"}]})"),
            "Internal: malformed GetRecords response: Records[0].eventName is not a known value "
            "(\"UPSERT\")");
  EXPECT_EQ(Malformed(DecodeDescribeStreamResult,
                      R"({"StreamDescription":{"Shards":[{"SequenceNumberRange":[]}]}})"),
            "Internal: malformed DescribeStream response: "
            "StreamDescription.Shards[0].SequenceNumberRange is not an object");
  EXPECT_EQ(Malformed(DecodeGetShardIteratorResult, R"({"ShardIterator":false})"),
            "Internal: malformed GetShardIterator response: ShardIterator is not a string");

  EXPECT_EQ(Malformed(DecodeDescribeContributorInsightsResult,
                      R"({"ContributorInsightsRuleList":"rule"})"),
            "Internal: malformed DescribeContributorInsights response: "
            "ContributorInsightsRuleList is not an array of strings");
  EXPECT_EQ(
      Malformed(DecodeDescribeContributorInsightsResult, R"({"LastUpdateDateTime":"yesterday"})"),
      "Internal: malformed DescribeContributorInsights response: LastUpdateDateTime is not "
      "a number");
  EXPECT_EQ(Malformed(DecodeListContributorInsightsResult,
                      R"({"ContributorInsightsSummaries":[{"IndexName":3}]})"),
            "Internal: malformed ListContributorInsights response: "
            "ContributorInsightsSummaries[0].IndexName is not a string");
  EXPECT_EQ(Malformed(DecodeUpdateContributorInsightsResult, R"({"TableName":["Orders"]})"),
            "Internal: malformed UpdateContributorInsights response: TableName is not a string");
}

// Each decoder with a body of its operation's name: the body (every JSON value but an object is
// malformed, {} is an empty result), and the full body whose every member is in turn replaced by
// every other JSON type: a value or kInternal, never a crash.
struct Case {
  std::string_view operation;
  std::function<Status(const rapidjson::Value&)> decode;
  std::string full_body;
};

template <typename R>
std::function<Status(const rapidjson::Value&)> StatusOf(
    Result<R> (*decode)(const rapidjson::Value&)) {
  return [decode](const rapidjson::Value& body) { return decode(body).status(); };
}

std::vector<Case> AllCases() {
  const TableDescription table = FullTable();
  ContinuousBackupsResult backups;
  backups.continuous_backups_description.point_in_time_recovery_description = {
      PointInTimeRecoveryStatus::kEnabled, 1.5, 2.5, 7};
  ListBackupsResult list_backups;
  list_backups.backup_summaries = {{"Orders", "id", "arn", FullDetails()}};
  DescribeStreamResult stream;
  stream.stream_description.key_schema = Keys("pk", "sk");
  stream.stream_description.shards = {{"s1", "s0", {"1", "2"}}};
  return {
      {"CreateTable", StatusOf(DecodeCreateTableResult), EncodeCreateTableResult({table})},
      {"DeleteTable", StatusOf(DecodeDeleteTableResult), EncodeDeleteTableResult({table})},
      {"DescribeTable", StatusOf(DecodeDescribeTableResult), EncodeDescribeTableResult({table})},
      {"UpdateTable", StatusOf(DecodeUpdateTableResult), EncodeUpdateTableResult({table})},
      {"ListTables", StatusOf(DecodeListTablesResult), EncodeListTablesResult({{"a", "b"}, "b"})},
      {"UpdateTimeToLive", StatusOf(DecodeUpdateTimeToLiveResult),
       EncodeUpdateTimeToLiveResult({{"ttl", true}})},
      {"DescribeTimeToLive", StatusOf(DecodeDescribeTimeToLiveResult),
       EncodeDescribeTimeToLiveResult({{TimeToLiveStatus::kEnabled, "ttl"}})},
      {"TagResource", StatusOf(DecodeTagResourceResult), "{}"},
      {"UntagResource", StatusOf(DecodeUntagResourceResult), "{}"},
      {"ListTagsOfResource", StatusOf(DecodeListTagsOfResourceResult),
       EncodeListTagsOfResourceResult({{{"k", "v"}}, "k"})},
      {"CreateBackup", StatusOf(DecodeCreateBackupResult),
       EncodeCreateBackupResult({FullDetails()})},
      {"DescribeBackup", StatusOf(DecodeDescribeBackupResult),
       EncodeDescribeBackupResult({FullBackupDescription()})},
      {"ListBackups", StatusOf(DecodeListBackupsResult), EncodeListBackupsResult(list_backups)},
      {"DeleteBackup", StatusOf(DecodeDeleteBackupResult),
       EncodeDeleteBackupResult({FullBackupDescription()})},
      {"RestoreTableFromBackup", StatusOf(DecodeRestoreTableFromBackupResult),
       EncodeRestoreTableFromBackupResult({table})},
      {"UpdateContinuousBackups", StatusOf(DecodeUpdateContinuousBackupsResult),
       EncodeContinuousBackupsResult(backups)},
      {"DescribeContinuousBackups", StatusOf(DecodeDescribeContinuousBackupsResult),
       EncodeContinuousBackupsResult(backups)},
      {"RestoreTableToPointInTime", StatusOf(DecodeRestoreTableToPointInTimeResult),
       EncodeRestoreTableToPointInTimeResult({table})},
      {"ListStreams", StatusOf(DecodeListStreamsResult),
       EncodeListStreamsResult({{{"arn", "t", "l"}}, "arn"})},
      {"DescribeStream", StatusOf(DecodeDescribeStreamResult), EncodeDescribeStreamResult(stream)},
      {"GetShardIterator", StatusOf(DecodeGetShardIteratorResult),
       EncodeGetShardIteratorResult({"it"})},
      {"GetRecords", StatusOf(DecodeGetRecordsResult),
       EncodeGetRecordsResult(FullRecords(), "eu-west-1")},
      {"UpdateContributorInsights", StatusOf(DecodeUpdateContributorInsightsResult),
       EncodeUpdateContributorInsightsResult({"t", "i", "ENABLING"})},
      {"DescribeContributorInsights", StatusOf(DecodeDescribeContributorInsightsResult),
       EncodeDescribeContributorInsightsResult({"t", "i", {"r"}, "ENABLED", 1.5})},
      {"ListContributorInsights", StatusOf(DecodeListContributorInsightsResult),
       EncodeListContributorInsightsResult({{{"t", "i", "ENABLED"}}, "n"})},
  };
}

TEST(ClientControlJsonMalformed, BodiesThatAreNotObjects) {
  for (const Case& c : AllCases()) {
    for (std::string_view body : {"[]", R"("text")", "5", "true", "null", R"([{"a":1}])"}) {
      rapidjson::Document document;
      ASSERT_TRUE(ParseJson(body, &document).ok()) << body;
      Status status = c.decode(document);
      EXPECT_EQ(status.ToString(), "Internal: malformed " + std::string(c.operation) +
                                       " response: the body is not an object")
          << body;
    }
    rapidjson::Document empty;
    ASSERT_TRUE(ParseJson("{}", &empty).ok());
    EXPECT_TRUE(c.decode(empty).ok()) << c.operation;
  }
}

// The values of `value`'s members and elements, depth first in document order.
void CollectValues(rapidjson::Value& value, std::vector<rapidjson::Value*>* out) {
  if (value.IsObject()) {
    for (auto& member : value.GetObject()) {
      out->push_back(&member.value);
      CollectValues(member.value, out);
    }
  } else if (value.IsArray()) {
    for (rapidjson::Value& element : value.GetArray()) {
      out->push_back(&element);
      CollectValues(element, out);
    }
  }
}

TEST(ClientControlJsonMalformed, EveryMemberOfEveryTypeIsAValueOrAnError) {
  const std::string_view replacements[] = {"null", "1",  "-1.5", R"("s")",
                                           "true", "[]", "{}",   R"([{"S":"x"}])"};
  for (const Case& c : AllCases()) {
    rapidjson::Document original;
    ASSERT_TRUE(ParseJson(c.full_body, &original).ok()) << c.full_body;
    ASSERT_TRUE(c.decode(original).ok()) << c.operation << ": " << c.decode(original).ToString();
    std::vector<rapidjson::Value*> values;
    CollectValues(original, &values);
    size_t errors = 0;
    for (size_t i = 0; i < values.size(); ++i) {
      for (std::string_view replacement : replacements) {
        rapidjson::Document mutated;
        mutated.CopyFrom(original, mutated.GetAllocator());
        std::vector<rapidjson::Value*> targets;
        CollectValues(mutated, &targets);
        ASSERT_EQ(targets.size(), values.size());
        rapidjson::Document replacement_value;
        ASSERT_TRUE(ParseJson(replacement, &replacement_value).ok());
        targets[i]->CopyFrom(replacement_value, mutated.GetAllocator());
        const Status status = c.decode(mutated);
        if (!status.ok()) {
          ++errors;
          EXPECT_EQ(status.code(), Code::kInternal) << status.ToString();
          EXPECT_EQ(
              status.message().rfind("malformed " + std::string(c.operation) + " response: ", 0),
              0u)
              << status.ToString();
        }
      }
    }
    // (A decoder that accepted everything would pass the loop; most replacements are errors.)
    if (c.operation != "TagResource" && c.operation != "UntagResource") {
      EXPECT_GT(errors, values.size()) << c.operation;
    }
  }
}

}  // namespace
}  // namespace partstore::protocol
