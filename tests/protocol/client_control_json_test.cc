// The control plane's client direction (tools/protocol/client_control_json.h): every request
// encoder against a golden body written from DynamoDB's API reference and round-tripped through
// the server's decoder; every result decoder round-tripped through the server's encoder; and
// malformed response bodies answered with kInternal naming the member, never a crash.
// This file: continuous backups, Streams, Contributor Insights and malformed bodies.
#include "tools/protocol/client_control_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/protocol/client_control_json_testutil.h"

namespace partstore::protocol {
namespace {

using namespace client_control_testing;  // NOLINT: the tests' shared helpers

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
      DescribeStreamRequest{
          .stream_arn = arn,
          .shard_filter = ShardFilter{.shard_id = "shardId-00000001700000000000-1"}},
      EncodeDescribeStreamRequest, DecodeDescribeStreamRequest,
      R"({"StreamArn":")" + arn +
          R"(","ShardFilter":{"Type":"CHILD_SHARDS","ShardId":"shardId-00000001700000000000-1"}})");
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
                            "Records[0].dynamodb.NewImage is not a valid item: ",
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
    // By index: C++20 finds RapidJSON's mutable member iterators' != ambiguous.
    for (rapidjson::SizeType i = 0; i < value.MemberCount(); ++i) {
      rapidjson::Value& member = value.MemberBegin()[i].value;
      out->push_back(&member);
      CollectValues(member, out);
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
