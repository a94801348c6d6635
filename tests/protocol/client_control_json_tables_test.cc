// The control plane's client direction (tools/protocol/client_control_json.h): every request
// encoder against a golden body written from DynamoDB's API reference and round-tripped through
// the server's decoder; every result decoder round-tripped through the server's encoder; and
// malformed response bodies answered with kInternal naming the member, never a crash.
// This file: tables, Time to Live, tags and on-demand backups.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/client_control_json_testutil.h"
#include "tools/protocol/client_control_json.h"

namespace partstore::protocol {
namespace {

using namespace client_control_testing;  // NOLINT: the tests' shared helpers

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
  EXPECT_EQ(EncodeTagResourceResult({}), "");  // (RemoteStore reads an empty body as {})
  EXPECT_TRUE(Decode(DecodeTagResourceResult, "{}").ok());
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

}  // namespace
}  // namespace partstore::protocol
