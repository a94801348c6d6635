// Tags and the table settings of partstore/table_settings.h: stored, reported, checked with
// DynamoDB's texts, enforced (deletion protection) and kept by snapshots and the log.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "partstore/database.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::StringKeys;

constexpr std::string_view kArn = "arn:aws:dynamodb:us-east-1:000000000000:table/Tagged";

template <typename T>
std::string Error(const Result<T>& result) {
  return result.ok() ? "OK" : std::string(result.status().message());
}

CreateTableRequest Tagged() {
  CreateTableRequest request = SimpleTable("Tagged", StringKeys());
  request.tags = {{"team", "cart"}, {"env", "test"}};
  return request;
}

// A database in a fresh data directory `dir` with the write-ahead log (16 stripes: a snapshot
// holds them all, and ThreadSanitizer follows at most 64 held locks).
DatabaseOptions Logged(const std::string& dir) {
  std::filesystem::remove_all(dir);
  DatabaseOptions options;
  options.stripes_per_table = 16;
  options.persistence = {.data_dir = dir, .wal = WalSync::kAlways};
  return options;
}

TEST(TagsTest, CreateTagUntagAndListInPages) {
  Database db;
  ASSERT_TRUE(db.CreateTable(Tagged()).ok());
  auto listed = db.ListTagsOfResource({.resource_arn = std::string(kArn)});
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  EXPECT_EQ(listed->tags, (std::vector<Tag>{{"env", "test"}, {"team", "cart"}}));
  EXPECT_FALSE(listed->next_token);

  // Tagging a key again replaces its value; 48 more tags make 50, all in one page as DynamoDB
  // answers (it does not page them); a NextToken given still starts after its key.
  TagResourceRequest add{.resource_arn = std::string(kArn), .tags = {{"team", "checkout"}}};
  for (int i = 0; i < 48; ++i) add.tags.push_back({"k" + std::to_string(10 + i), "v"});
  ASSERT_TRUE(db.TagResource(add).ok());
  listed = db.ListTagsOfResource({.resource_arn = std::string(kArn)});
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->tags.size(), 50u);
  EXPECT_FALSE(listed->next_token);
  EXPECT_EQ(listed->tags.back(), (Tag{"team", "checkout"}));
  auto rest = db.ListTagsOfResource({.resource_arn = std::string(kArn), .next_token = "k56"});
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest->tags.size(), 2u);
  EXPECT_FALSE(rest->next_token);

  ASSERT_TRUE(
      db.UntagResource({.resource_arn = std::string(kArn), .tag_keys = {"team", "absent"}}).ok());
  listed = db.ListTagsOfResource({.resource_arn = std::string(kArn)});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ(listed->tags.front(), (Tag{"env", "test"}));
  EXPECT_EQ(listed->tags.size(), 49u);
}

TEST(TagsTest, DynamoDBsRulesAndTexts) {
  Database db;
  ASSERT_TRUE(db.CreateTable(Tagged()).ok());
  const std::string arn(kArn);
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn})),
            "Atleast one Tag needs to be provided as Input.");
  EXPECT_EQ(Error(db.UntagResource({.resource_arn = arn})),
            "Atleast one Tag Key needs to be provided as Input.");
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn, .tags = {{"", "v"}}})),
            "The Tag Key provided is invalid, Key: ");
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn, .tags = {{"a", "bad#value"}}})),
            "The Tag Value provided is invalid, Value: bad#value");
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn, .tags = {{"aws:owner", "v"}}})),
            "Tag Key cannot be prefixed with aws:, Key: aws:owner");
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn, .tags = {{"a", "1"}, {"a", "2"}}})),
            "Duplicate Tag Keys provided as input: Duplicate Tag Key found a");
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn, .tags = {{std::string(129, 'k'), "v"}}})),
            "The Tag Key provided is invalid, Key: " + std::string(129, 'k'));
  EXPECT_EQ(Error(db.TagResource({.resource_arn = "Tagged", .tags = {{"a", "1"}}})),
            "One or more parameter values were invalid: ARNs must start with 'arn:': Tagged");
  EXPECT_EQ(Error(db.TagResource({.resource_arn = arn + "/index/byX", .tags = {{"a", "1"}}})),
            "One or more parameter values were invalid: Invalid resource arn provided, only table "
            "or stream is accepted. Provided resource arn: " +
                arn + "/index/byX");
  auto missing =
      db.ListTagsOfResource({.resource_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/Nope"});
  EXPECT_EQ(missing.status().code(), Code::kResourceNotFound);
  EXPECT_EQ(missing.status().message(),
            "Requested resource not found: ResourcArn: "
            "arn:aws:dynamodb:us-east-1:000000000000:table/Nope not found");
  // Another account's ARN is refused as IAM would, without saying whether the table exists; another
  // region's is not a valid ARN here.
  auto foreign = db.ListTagsOfResource(
      {.resource_arn = "arn:aws:dynamodb:us-east-1:111122223333:table/Tagged"});
  EXPECT_EQ(foreign.status().code(), Code::kAccessDenied);
  EXPECT_EQ(foreign.status().message(),
            "User: arn:aws:iam::000000000000:root is not authorized to perform: "
            "dynamodb:ListTagsOfResource on resource: "
            "arn:aws:dynamodb:us-east-1:111122223333:table/Tagged");
  EXPECT_EQ(Error(db.UntagResource(
                {.resource_arn = "arn:aws:dynamodb:eu-west-1:000000000000:table/Tagged",
                 .tag_keys = {"a"}})),
            "Invalid TableArn: Invalid ResourceArn provided as input "
            "arn:aws:dynamodb:eu-west-1:000000000000:table/Tagged");
  // 50 tags at most, whatever the table already has (it has 2).
  TagResourceRequest many{.resource_arn = arn};
  for (int i = 0; i < 49; ++i) many.tags.push_back({"k" + std::to_string(i), "v"});
  EXPECT_EQ(Error(db.TagResource(many)),
            "Number of Tags exceed the current limit for the provided ResourceArn");
  many.tags.pop_back();
  EXPECT_TRUE(db.TagResource(many).ok());
  // CreateTable's tags pass the same checks.
  CreateTableRequest bad = SimpleTable("Other", StringKeys());
  bad.tags = {{"aws:x", "v"}};
  EXPECT_EQ(Error(db.CreateTable(bad)), "Tag Key cannot be prefixed with aws:, Key: aws:x");
}

TEST(TableSettingsTest, DeletionProtectionRefusesDeleteTableUntilDisabled) {
  Database db;
  CreateTableRequest request = SimpleTable("Kept", StringKeys());
  request.deletion_protection_enabled = true;
  ASSERT_TRUE(db.CreateTable(request).ok());
  EXPECT_TRUE(db.DescribeTable({"Kept"})->table.deletion_protection_enabled);
  EXPECT_EQ(Error(db.DeleteTable({"Kept"})),
            "Resource cannot be deleted as it is currently protected against deletion. Disable "
            "deletion protection first.");
  ASSERT_TRUE(db.DescribeTable({"Kept"}).ok());  // still there
  // UpdateTable with only DeletionProtectionEnabled is accepted.
  ASSERT_TRUE(db.UpdateTable({.table_name = "Kept", .deletion_protection_enabled = false}).ok());
  EXPECT_TRUE(db.DeleteTable({"Kept"}).ok());
}

TEST(TableSettingsTest, EachSettingAloneUpdatesAndIsReported) {
  Database db;
  ASSERT_TRUE(db.CreateTable(SimpleTable("Setty", StringKeys())).ok());
  TableDescription d = db.DescribeTable({"Setty"})->table;
  EXPECT_FALSE(d.table_class);
  EXPECT_FALSE(d.sse_description);
  ASSERT_TRUE(
      db.UpdateTable({.table_name = "Setty", .table_class = TableClass::kStandardInfrequentAccess})
          .ok());
  ASSERT_TRUE(db.UpdateTable(
                    {.table_name = "Setty", .sse_specification = SseSpecification{.enabled = true}})
                  .ok());
  ASSERT_TRUE(
      db.UpdateTable({.table_name = "Setty",
                      .on_demand_throughput = OnDemandThroughput{.max_read_request_units = 100}})
          .ok());
  ASSERT_TRUE(db.UpdateTable({.table_name = "Setty",
                              .warm_throughput = WarmThroughput{.read_units_per_second = 15000}})
                  .ok());
  d = db.DescribeTable({"Setty"})->table;
  EXPECT_EQ(d.table_class, TableClass::kStandardInfrequentAccess);
  EXPECT_TRUE(d.table_class_last_update_date_time);
  ASSERT_TRUE(d.sse_description);
  EXPECT_EQ(d.sse_description->kms_master_key_arn,
            "arn:aws:kms:us-east-1:000000000000:key/aws/dynamodb");
  EXPECT_EQ(d.on_demand_throughput, (OnDemandThroughput{.max_read_request_units = 100}));
  EXPECT_EQ(d.warm_throughput, (WarmThroughput{.read_units_per_second = 15000}));
  // -1 clears a maximum; warm throughput is only ever raised.
  ASSERT_TRUE(
      db.UpdateTable({.table_name = "Setty",
                      .on_demand_throughput = OnDemandThroughput{.max_read_request_units = -1}})
          .ok());
  EXPECT_FALSE(db.DescribeTable({"Setty"})->table.on_demand_throughput);
  EXPECT_EQ(
      Error(db.UpdateTable({.table_name = "Setty",
                            .warm_throughput = WarmThroughput{.read_units_per_second = 14000}})),
      "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
      "WarmThroughput for table is lower than current WarmThroughput, decreasing "
      "WarmThroughput is not supported");
  // Back to the default key.
  ASSERT_TRUE(db.UpdateTable({.table_name = "Setty",
                              .sse_specification = SseSpecification{.enabled = false}})
                  .ok());
  EXPECT_FALSE(db.DescribeTable({"Setty"})->table.sse_description);
  EXPECT_EQ(Error(db.UpdateTable(
                {.table_name = "Setty", .sse_specification = SseSpecification{.enabled = false}})),
            "One or more parameter values were invalid: Table is already encrypted by default");
}

TEST(TableSettingsTest, SettingsThatMustBeAloneAndOtherRefusals) {
  Database db;
  ASSERT_TRUE(db.CreateTable(SimpleTable("Setty", StringKeys())).ok());
  EXPECT_EQ(Error(db.UpdateTable({.table_name = "Setty",
                                  .table_class = TableClass::kStandard,
                                  .deletion_protection_enabled = true})),
            "One or more parameter values were invalid: TableClass modification must be the only "
            "operation in the request");
  EXPECT_EQ(Error(db.UpdateTable({.table_name = "Setty",
                                  .deletion_protection_enabled = true,
                                  .sse_specification = SseSpecification{.enabled = true}})),
            "One or more parameter values were invalid: Server-Side Encryption modification must "
            "be the only operation in the request");
  EXPECT_EQ(Error(db.UpdateTable({.table_name = "Setty",
                                  .billing_mode = BillingMode::kPayPerRequest,
                                  .deletion_protection_enabled = true})),
            "One or more parameter values were invalid: DeletionProtection modification must be "
            "the only operation in the request");
  EXPECT_EQ(Error(db.UpdateTable(
                {.table_name = "Setty",
                 .stream_specification = StreamSpecification{.stream_enabled = false},
                 .on_demand_throughput = OnDemandThroughput{.max_read_request_units = 5}})),
            "One or more parameter values were invalid: OnDemandThroughput can only be combined "
            "with BillingMode in an UpdateTable request");
  EXPECT_FALSE(db.DescribeTable({"Setty"})->table.deletion_protection_enabled);  // none applied

  CreateTableRequest provisioned = SimpleTable("Prov", StringKeys());
  provisioned.billing_mode = BillingMode::kProvisioned;
  provisioned.provisioned_throughput = ProvisionedThroughput{5, 5};
  provisioned.on_demand_throughput = OnDemandThroughput{.max_write_request_units = 10};
  EXPECT_EQ(Error(db.CreateTable(provisioned)),
            "One or more parameter values were invalid: MaxWriteRequestUnits for "
            "OnDemandThroughput cannot be specified when the table BillingMode is PROVISIONED");
  CreateTableRequest zero = SimpleTable("Zero", StringKeys());
  zero.on_demand_throughput = OnDemandThroughput{.max_read_request_units = 0};
  EXPECT_EQ(Error(db.CreateTable(zero)),
            "One or more parameter values were invalid: Requested MaxReadRequestUnits for "
            "OnDemandThroughput for table is outside of valid range");
  CreateTableRequest sse = SimpleTable("Sse", StringKeys());
  sse.sse_specification = SseSpecification{.enabled = false, .sse_type = "KMS"};
  EXPECT_EQ(Error(db.CreateTable(sse)),
            "One or more parameter values were invalid: SSEType can not be specified if Enabled "
            "is false");
}

TEST(TableSettingsTest, SnapshotsAndTheLogKeepTagsAndSettings) {
  const std::string dir = ::testing::TempDir() + "/table_settings_test";
  const DatabaseOptions options = Logged(dir);
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    CreateTableRequest request = Tagged();
    request.deletion_protection_enabled = true;
    request.table_class = TableClass::kStandardInfrequentAccess;
    request.sse_specification = SseSpecification{.enabled = true, .kms_master_key_id = "k1"};
    request.warm_throughput = WarmThroughput{.read_units_per_second = 20000};
    ASSERT_TRUE((*db)->CreateTable(request).ok());
    ASSERT_TRUE(
        (*db)->TagResource({.resource_arn = std::string(kArn), .tags = {{"added", "1"}}}).ok());
    ASSERT_TRUE(
        (*db)->UntagResource({.resource_arn = std::string(kArn), .tag_keys = {"env"}}).ok());
    ASSERT_TRUE((*db)
                    ->UpdateTable(
                        {.table_name = "Tagged",
                         .on_demand_throughput = OnDemandThroughput{.max_write_request_units = 7}})
                    .ok());
  }
  for (int reopen = 0; reopen < 2; ++reopen) {  // from the log, then from the snapshot it took
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    auto tags = (*db)->ListTagsOfResource({.resource_arn = std::string(kArn)});
    ASSERT_TRUE(tags.ok());
    EXPECT_EQ(tags->tags, (std::vector<Tag>{{"added", "1"}, {"team", "cart"}})) << reopen;
    const TableDescription d = (*db)->DescribeTable({"Tagged"})->table;
    EXPECT_TRUE(d.deletion_protection_enabled) << reopen;
    EXPECT_EQ(d.table_class, TableClass::kStandardInfrequentAccess) << reopen;
    ASSERT_TRUE(d.sse_description) << reopen;
    EXPECT_EQ(d.sse_description->kms_master_key_arn, "arn:aws:kms:us-east-1:000000000000:key/k1");
    EXPECT_EQ(d.warm_throughput, (WarmThroughput{.read_units_per_second = 20000})) << reopen;
    EXPECT_EQ(d.on_demand_throughput, (OnDemandThroughput{.max_write_request_units = 7})) << reopen;
  }
  std::filesystem::remove_all(dir);
}

// Every table's settings must pass CreateTable's checks again: snapshots, the log's replay and
// restores rebuild tables through CreateTable.
TEST(TableSettingsTest, BillingChangesKeepSettingsReloadable) {
  const std::string dir = ::testing::TempDir() + "/table_settings_billing_test";
  const DatabaseOptions options = Logged(dir);
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    // An on-demand maximum, then provisioned: the maximum goes (a provisioned table has none).
    CreateTableRequest capped = SimpleTable("Capped", StringKeys());
    capped.on_demand_throughput = OnDemandThroughput{.max_read_request_units = 100};
    ASSERT_TRUE((*db)->CreateTable(capped).ok());
    ASSERT_TRUE((*db)
                    ->UpdateTable({.table_name = "Capped",
                                   .billing_mode = BillingMode::kProvisioned,
                                   .provisioned_throughput = ProvisionedThroughput{5, 5}})
                    .ok());
    EXPECT_FALSE((*db)->DescribeTable({"Capped"})->table.on_demand_throughput);
    // Warm throughput below the floor is refused; raising the provisioned throughput above it
    // raises it; going on-demand raises it to on-demand's initial throughput.
    CreateTableRequest warm = SimpleTable("Warmed", StringKeys());
    warm.billing_mode = BillingMode::kProvisioned;
    warm.provisioned_throughput = ProvisionedThroughput{5, 5};
    warm.warm_throughput = WarmThroughput{.read_units_per_second = 10};
    ASSERT_TRUE((*db)->CreateTable(warm).ok());
    EXPECT_EQ(
        Error((*db)->UpdateTable({.table_name = "Capped",
                                  .warm_throughput = WarmThroughput{.read_units_per_second = 4}})),
        "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
        "WarmThroughput for table is lower than ReadCapacityUnits of ProvisionedThroughput");
    EXPECT_EQ(
        Error((*db)->UpdateTable({.table_name = "Tagged2",
                                  .warm_throughput = WarmThroughput{.read_units_per_second = 4}})),
        "Requested resource not found: Table: Tagged2 not found");
    ASSERT_TRUE((*db)
                    ->UpdateTable({.table_name = "Warmed",
                                   .provisioned_throughput = ProvisionedThroughput{100, 5}})
                    .ok());
    EXPECT_EQ((*db)->DescribeTable({"Warmed"})->table.warm_throughput,
              (WarmThroughput{.read_units_per_second = 100}));
    ASSERT_TRUE(
        (*db)
            ->UpdateTable({.table_name = "Warmed", .billing_mode = BillingMode::kPayPerRequest})
            .ok());
    EXPECT_EQ((*db)->DescribeTable({"Warmed"})->table.warm_throughput,
              (WarmThroughput{.read_units_per_second = 12000}));
    CreateTableRequest on_demand = SimpleTable("Cold", StringKeys());
    ASSERT_TRUE((*db)->CreateTable(on_demand).ok());
    EXPECT_EQ(Error((*db)->UpdateTable(
                  {.table_name = "Cold",
                   .warm_throughput = WarmThroughput{.write_units_per_second = 100}})),
              "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
              "WarmThroughput for table is lower than initial throughput for OnDemand");
    // A protected table's backup restores unprotected, so a failed restore can be undone and
    // the restored table deleted.
    CreateTableRequest kept = SimpleTable("Kept", StringKeys());
    kept.deletion_protection_enabled = true;
    ASSERT_TRUE((*db)->CreateTable(kept).ok());
    auto backup = (*db)->CreateBackup({.table_name = "Kept", .backup_name = "kept-backup"});
    ASSERT_TRUE(backup.ok()) << backup.status().ToString();
    ASSERT_TRUE((*db)
                    ->RestoreTableFromBackup({.target_table_name = "KeptCopy",
                                              .backup_arn = backup->backup_details.backup_arn})
                    .ok());
    EXPECT_FALSE((*db)->DescribeTable({"KeptCopy"})->table.deletion_protection_enabled);
    EXPECT_TRUE((*db)->DeleteTable({"KeptCopy"}).ok());
  }
  for (int reopen = 0; reopen < 2; ++reopen) {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << reopen << ": " << db.status().ToString();
    EXPECT_EQ((*db)->DescribeTable({"Warmed"})->table.warm_throughput,
              (WarmThroughput{.read_units_per_second = 12000}));
    EXPECT_TRUE((*db)->DescribeTable({"Kept"})->table.deletion_protection_enabled);
  }
  std::filesystem::remove_all(dir);
}

// A table with GSI "ByG" (keyed by g) carrying `max` and `warm`; provisioned (5/5, the index
// 5/5) when `provisioned`.
CreateTableRequest WithIndex(std::string name, std::optional<OnDemandThroughput> max,
                             std::optional<WarmThroughput> warm, bool provisioned = false) {
  CreateTableRequest request = SimpleTable(std::move(name), StringKeys());
  request.attribute_definitions.push_back({"g", KeyType::kString});
  GlobalSecondaryIndex index{
      .index_name = "ByG",
      .key_schema = {{"g", KeyRoleName::kHash}},
      .projection = {.projection_type = ProjectionType::kAll, .non_key_attributes = {}},
      .provisioned_throughput = std::nullopt,
      .on_demand_throughput = std::move(max),
      .warm_throughput = std::move(warm)};
  if (provisioned) {
    request.billing_mode = BillingMode::kProvisioned;
    request.provisioned_throughput = ProvisionedThroughput{5, 5};
    index.provisioned_throughput = ProvisionedThroughput{5, 5};
  }
  request.global_secondary_indexes.push_back(std::move(index));
  return request;
}

GlobalSecondaryIndexDescription IndexOf(Database& db, const std::string& table) {
  auto described = db.DescribeTable({table});
  EXPECT_TRUE(described.ok() && described->table.global_secondary_indexes.size() == 1);
  return described.ok() && !described->table.global_secondary_indexes.empty()
             ? described->table.global_secondary_indexes[0]
             : GlobalSecondaryIndexDescription{};
}

Result<UpdateTableResult> UpdateIndex(Database& db, const std::string& table,
                                      GlobalSecondaryIndexUpdate::Update change) {
  GlobalSecondaryIndexUpdate update;
  change.index_name = "ByG";
  update.update = std::move(change);
  return db.UpdateTable({.table_name = table, .global_secondary_index_updates = {{update}}});
}

TEST(TableSettingsTest, AGsiTakesItsOwnOnDemandMaximumAndWarmThroughput) {
  Database db;
  ASSERT_TRUE(db.CreateTable(WithIndex("Indexed", OnDemandThroughput{.max_read_request_units = 40},
                                       WarmThroughput{.write_units_per_second = 5000}))
                  .ok());
  GlobalSecondaryIndexDescription index = IndexOf(db, "Indexed");
  EXPECT_EQ(index.on_demand_throughput, (OnDemandThroughput{.max_read_request_units = 40}));
  EXPECT_EQ(index.warm_throughput, (WarmThroughput{.write_units_per_second = 5000}));
  EXPECT_FALSE(db.DescribeTable({"Indexed"})->table.on_demand_throughput);  // the table's own

  // Update actions: each setting alone; warm throughput only rises; -1 clears a maximum.
  ASSERT_TRUE(
      UpdateIndex(db, "Indexed",
                  {.on_demand_throughput = OnDemandThroughput{.max_write_request_units = 9}})
          .ok());
  ASSERT_TRUE(UpdateIndex(db, "Indexed",
                          {.warm_throughput = WarmThroughput{.read_units_per_second = 20000}})
                  .ok());
  index = IndexOf(db, "Indexed");
  EXPECT_EQ(index.on_demand_throughput,
            (OnDemandThroughput{.max_read_request_units = 40, .max_write_request_units = 9}));
  EXPECT_EQ(index.warm_throughput,
            (WarmThroughput{.read_units_per_second = 20000, .write_units_per_second = 5000}));
  EXPECT_EQ(Error(UpdateIndex(db, "Indexed",
                              {.warm_throughput = WarmThroughput{.write_units_per_second = 4500}})),
            "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
            "WarmThroughput for index ByG is lower than current WarmThroughput, decreasing "
            "WarmThroughput is not supported");
  ASSERT_TRUE(
      UpdateIndex(db, "Indexed",
                  {.on_demand_throughput = OnDemandThroughput{.max_read_request_units = -1,
                                                              .max_write_request_units = -1}})
          .ok());
  EXPECT_FALSE(IndexOf(db, "Indexed").on_demand_throughput);

  // Refusals.
  EXPECT_EQ(Error(UpdateIndex(db, "Indexed", {})),
            "One or more parameter values were invalid: One of ProvisionedThroughput, "
            "OnDemandThroughput or WarmThroughput is required to update index: ByG");
  EXPECT_EQ(
      Error(UpdateIndex(db, "Indexed", {.provisioned_throughput = ProvisionedThroughput{1, 1}})),
      "One or more parameter values were invalid: ProvisionedThroughput should not be "
      "specified for index: ByG when BillingMode is PAY_PER_REQUEST");
  EXPECT_EQ(Error(db.CreateTable(
                WithIndex("Zero", OnDemandThroughput{.max_write_request_units = 0}, std::nullopt))),
            "One or more parameter values were invalid: Requested MaxWriteRequestUnits for "
            "OnDemandThroughput for index ByG is outside of valid range");
  EXPECT_EQ(Error(db.CreateTable(
                WithIndex("Cold", std::nullopt, WarmThroughput{.read_units_per_second = 100}))),
            "One or more parameter values were invalid: Requested ReadUnitsPerSecond for "
            "WarmThroughput for index ByG is lower than initial throughput for OnDemand");
  EXPECT_EQ(Error(db.CreateTable(WithIndex("Prov", OnDemandThroughput{.max_write_request_units = 5},
                                           std::nullopt, /*provisioned=*/true))),
            "One or more parameter values were invalid: MaxWriteRequestUnits for "
            "OnDemandThroughput for index ByG cannot be specified when the table BillingMode is "
            "PROVISIONED");
  EXPECT_EQ(Error(db.CreateTable(WithIndex("Prov", std::nullopt,
                                           WarmThroughput{.write_units_per_second = 4},
                                           /*provisioned=*/true))),
            "One or more parameter values were invalid: Requested WriteUnitsPerSecond for "
            "WarmThroughput for index ByG is lower than WriteCapacityUnits of "
            "ProvisionedThroughput");
  EXPECT_FALSE(db.DescribeTable({"Zero"}).ok());  // nothing half-created

  // A provisioned GSI: raising its throughput raises its warm throughput to it.
  ASSERT_TRUE(
      db.CreateTable(WithIndex("Prov", std::nullopt, WarmThroughput{.write_units_per_second = 10},
                               /*provisioned=*/true))
          .ok());
  ASSERT_TRUE(
      UpdateIndex(db, "Prov", {.provisioned_throughput = ProvisionedThroughput{5, 50}}).ok());
  EXPECT_EQ(IndexOf(db, "Prov").warm_throughput, (WarmThroughput{.write_units_per_second = 50}));
}

TEST(TableSettingsTest, BillingChangesKeepGsiSettingsReloadable) {
  const std::string dir = ::testing::TempDir() + "/table_settings_gsi_test";
  const DatabaseOptions options = Logged(dir);
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)
                    ->CreateTable(WithIndex("Kept", OnDemandThroughput{.max_read_request_units = 3},
                                            WarmThroughput{.read_units_per_second = 13000}))
                    .ok());
    ASSERT_TRUE(UpdateIndex(**db, "Kept",
                            {.warm_throughput = WarmThroughput{.write_units_per_second = 6000}})
                    .ok());
    // An index added by UpdateTable, with its settings (replayed from the log's record).
    UpdateTableRequest add{.table_name = "Kept"};
    add.attribute_definitions = {{"h", KeyType::kString}};
    add.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{
        {.create = GlobalSecondaryIndex{
             .index_name = "ByH",
             .key_schema = {{"h", KeyRoleName::kHash}},
             .projection = {.projection_type = ProjectionType::kKeysOnly, .non_key_attributes = {}},
             .provisioned_throughput = std::nullopt,
             .on_demand_throughput = OnDemandThroughput{.max_write_request_units = 8},
             .warm_throughput = std::nullopt}}};
    ASSERT_TRUE((*db)->UpdateTable(add).ok());
    // On-demand to provisioned: the GSI's maximum goes; its warm throughput stays above its
    // new floor.
    ASSERT_TRUE(
        (*db)
            ->CreateTable(WithIndex("Switched", OnDemandThroughput{.max_read_request_units = 3},
                                    WarmThroughput{.read_units_per_second = 12000}))
            .ok());
    UpdateTableRequest provisioned{.table_name = "Switched",
                                   .billing_mode = BillingMode::kProvisioned,
                                   .provisioned_throughput = ProvisionedThroughput{5, 5}};
    GlobalSecondaryIndexUpdate index_throughput;
    index_throughput.update = GlobalSecondaryIndexUpdate::Update{
        .index_name = "ByG", .provisioned_throughput = ProvisionedThroughput{15000, 5}};
    provisioned.global_secondary_index_updates = {{index_throughput}};
    auto switched = (*db)->UpdateTable(provisioned);
    ASSERT_TRUE(switched.ok()) << switched.status().ToString();
    GlobalSecondaryIndexDescription index = IndexOf(**db, "Switched");
    EXPECT_FALSE(index.on_demand_throughput);
    EXPECT_EQ(index.warm_throughput, (WarmThroughput{.read_units_per_second = 15000}));
  }
  for (int reopen = 0; reopen < 2; ++reopen) {  // from the log, then from the snapshot it took
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << reopen << ": " << db.status().ToString();
    auto described = (*db)->DescribeTable({"Kept"});
    ASSERT_TRUE(described.ok());
    const auto& indexes = described->table.global_secondary_indexes;
    ASSERT_EQ(indexes.size(), 2u);
    EXPECT_EQ(indexes[0].on_demand_throughput, (OnDemandThroughput{.max_read_request_units = 3}))
        << reopen;
    EXPECT_EQ(indexes[0].warm_throughput,
              (WarmThroughput{.read_units_per_second = 13000, .write_units_per_second = 6000}))
        << reopen;
    EXPECT_EQ(indexes[1].on_demand_throughput, (OnDemandThroughput{.max_write_request_units = 8}))
        << reopen;
    EXPECT_FALSE(IndexOf(**db, "Switched").on_demand_throughput) << reopen;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace partstore
