// On-demand backups (partstore/backups.h): a backup is the table at one moment, restores into an
// equal new table (indexes rebuilt, overrides applied), is listed, described and deleted with
// DynamoDB's errors, and outlives the process in a data directory (a damaged file is refused).
// RestoreTableToPointInTime (partstore/continuous_backups.h) restores the present the same way.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "partstore/database.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::EveryType;
using testing::MustCreate;
using testing::MustPut;
using testing::SortedItems;
using testing::StringKeys;
using testing::TestDirectory;

CreateTableRequest OrdersWithIndexes() {
  CreateTableRequest create = SimpleTable("Orders", StringKeys());
  create.attribute_definitions.push_back({"gpk", KeyType::kString});
  create.global_secondary_indexes.push_back(
      {.index_name = "ByGroup",
       .key_schema = {{"gpk", KeyRoleName::kHash}},
       .projection = {.projection_type = ProjectionType::kAll}});
  return create;
}

size_t GroupCount(Database& db, const std::string& table) {
  QueryRequest query;
  query.table_name = table;
  query.index_name = "ByGroup";
  query.key_condition_expression = "gpk = :g";
  query.expression_attribute_values = {{":g", Value("group")}};
  Result<QueryResult> found = db.Query(query);
  EXPECT_TRUE(found.ok()) << found.status().ToString();
  return found.ok() ? found->items.size() : 0;
}

TEST(BackupTest, RestoresTheTableAsItWasWhenTaken) {
  Database db;
  ASSERT_TRUE(db.CreateTable(OrdersWithIndexes()).ok());
  for (int i = 0; i < 20; ++i) MustPut(db, "Orders", EveryType("p" + std::to_string(i), "s"));
  const std::vector<Item> before = SortedItems(db, "Orders");
  Result<CreateBackupResult> created =
      db.CreateBackup({.table_name = "Orders", .backup_name = "nightly-1"});
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const BackupDetails& details = created->backup_details;
  EXPECT_EQ(details.backup_name, "nightly-1");
  EXPECT_EQ(details.backup_status, BackupStatus::kAvailable);
  EXPECT_EQ(details.backup_type, "USER");
  EXPECT_GT(details.backup_size_bytes, 0);
  EXPECT_TRUE(
      details.backup_arn.starts_with(db.DescribeTable({"Orders"})->table.table_arn + "/backup/"));
  // Later changes are not in the backup.
  MustPut(db, "Orders", EveryType("later", "s"));
  ASSERT_TRUE(
      db.DeleteItem({.table_name = "Orders", .key = {{"PK", Value("p0")}, {"SK", Value("s")}}})
          .ok());

  Result<RestoreTableFromBackupResult> restored = db.RestoreTableFromBackup(
      {.target_table_name = "Restored", .backup_arn = details.backup_arn});
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(restored->table_description.table_name, "Restored");
  EXPECT_EQ(restored->table_description.item_count, 20);
  EXPECT_EQ(SortedItems(db, "Restored"), before);
  EXPECT_EQ(GroupCount(db, "Restored"), 20u);  // the GSI is rebuilt

  Result<DescribeBackupResult> described = db.DescribeBackup({details.backup_arn});
  ASSERT_TRUE(described.ok());
  const SourceTableDetails& source = described->backup_description.source_table_details;
  EXPECT_EQ(source.table_name, "Orders");
  EXPECT_EQ(source.item_count, 20);
  EXPECT_EQ(source.key_schema, SimpleTable("Orders", StringKeys()).key_schema);
  ASSERT_EQ(described->backup_description.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(described->backup_description.global_secondary_indexes[0].index_name, "ByGroup");
}

TEST(BackupTest, OverridesApplyToTheRestoredTable) {
  Database db;
  ASSERT_TRUE(db.CreateTable(OrdersWithIndexes()).ok());
  MustPut(db, "Orders", EveryType("a", "s"));
  const std::string arn =
      db.CreateBackup({.table_name = "Orders", .backup_name = "bk1"})->backup_details.backup_arn;
  Result<RestoreTableFromBackupResult> restored = db.RestoreTableFromBackup(
      {.target_table_name = "Provisioned",
       .backup_arn = arn,
       .billing_mode_override = BillingMode::kProvisioned,
       .provisioned_throughput_override = ProvisionedThroughput{7, 9},
       .global_secondary_index_override = std::vector<GlobalSecondaryIndex>{}});
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  const TableDescription& table = restored->table_description;
  EXPECT_EQ(table.billing_mode, BillingMode::kProvisioned);
  EXPECT_EQ(table.provisioned_throughput.read_capacity_units, 7);
  EXPECT_EQ(table.provisioned_throughput.write_capacity_units, 9);
  EXPECT_TRUE(table.global_secondary_indexes.empty());
  EXPECT_EQ(SortedItems(db, "Provisioned").size(), 1u);
  RestoreTableFromBackupRequest sse{.target_table_name = "Sse", .backup_arn = arn};
  sse.sse_specification_override = true;
  EXPECT_EQ(db.RestoreTableFromBackup(sse).status().code(), Code::kValidation);
}

TEST(BackupTest, ListsPagesFiltersAndDeletes) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  MustCreate(db, "Users", StringKeys());
  std::vector<std::string> arns;
  for (const char* table : {"Orders", "Users", "Orders"}) {
    arns.push_back(db.CreateBackup({.table_name = table, .backup_name = "bk-" + std::string(table)})
                       ->backup_details.backup_arn);
  }
  Result<ListBackupsResult> all = db.ListBackups({});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->backup_summaries.size(), 3u);
  EXPECT_EQ(all->backup_summaries[0].details.backup_arn, arns[0]);
  EXPECT_EQ(db.ListBackups({.table_name = "Orders"})->backup_summaries.size(), 2u);
  EXPECT_EQ(db.ListBackups({.backup_type = "SYSTEM"})->backup_summaries.size(), 0u);
  EXPECT_EQ(db.ListBackups({.backup_type = "ALL"})->backup_summaries.size(), 3u);
  EXPECT_EQ(db.ListBackups({.time_range_upper_bound = 1.0})->backup_summaries.size(), 0u);
  Result<ListBackupsResult> page = db.ListBackups({.limit = 2});
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->backup_summaries.size(), 2u);
  ASSERT_EQ(page->last_evaluated_backup_arn, arns[1]);
  Result<ListBackupsResult> rest =
      db.ListBackups({.limit = 2, .exclusive_start_backup_arn = page->last_evaluated_backup_arn});
  ASSERT_EQ(rest->backup_summaries.size(), 1u);
  EXPECT_FALSE(rest->last_evaluated_backup_arn);
  EXPECT_EQ(db.ListBackups({.limit = 0}).status().code(), Code::kValidation);
  EXPECT_EQ(db.ListBackups({.backup_type = "WEEKLY"}).status().code(), Code::kValidation);

  // Deleting the table keeps its backups; deleting a backup answers DELETED once.
  ASSERT_TRUE(db.DeleteTable({"Users"}).ok());
  Result<DeleteBackupResult> deleted = db.DeleteBackup({arns[1]});
  ASSERT_TRUE(deleted.ok());
  EXPECT_EQ(deleted->backup_description.backup_details.backup_status, BackupStatus::kDeleted);
  EXPECT_EQ(db.DeleteBackup({arns[1]}).status().code(), Code::kBackupNotFound);
  EXPECT_EQ(db.ListBackups({})->backup_summaries.size(), 2u);
}

TEST(BackupTest, DynamoDbsErrors) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  EXPECT_EQ(db.CreateBackup({.table_name = "Nope", .backup_name = "bk1"}).status().code(),
            Code::kTableNotFound);
  EXPECT_EQ(db.CreateBackup({.table_name = "Orders", .backup_name = "x"}).status().code(),
            Code::kValidation);
  EXPECT_EQ(db.CreateBackup({.table_name = "Orders", .backup_name = "bad name"}).status().code(),
            Code::kValidation);
  const std::string arn =
      db.CreateBackup({.table_name = "Orders", .backup_name = "bk1"})->backup_details.backup_arn;
  const std::string missing = arn.substr(0, arn.size() - 1) + (arn.back() == '0' ? "1" : "0");
  EXPECT_EQ(db.DescribeBackup({missing}).status().code(), Code::kBackupNotFound);
  EXPECT_EQ(db.RestoreTableFromBackup({.target_table_name = "New", .backup_arn = missing})
                .status()
                .code(),
            Code::kBackupNotFound);
  EXPECT_EQ(
      db.RestoreTableFromBackup({.target_table_name = "Orders", .backup_arn = arn}).status().code(),
      Code::kTableAlreadyExists);
}

TEST(BackupTest, BackupsOutliveTheProcessInADataDirectory) {
  const std::string dir = TestDirectory();
  DatabaseOptions options;
  options.persistence.data_dir = dir;
  std::string arn;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    ASSERT_TRUE((*db)->CreateTable(OrdersWithIndexes()).ok());
    for (int i = 0; i < 5; ++i) MustPut(**db, "Orders", EveryType("p" + std::to_string(i), "s"));
    arn = (*db)
              ->CreateBackup({.table_name = "Orders", .backup_name = "kept"})
              ->backup_details.backup_arn;
    ASSERT_TRUE((*db)->DeleteTable({"Orders"}).ok());
  }
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Result<DescribeBackupResult> described = (*db)->DescribeBackup({arn});
    ASSERT_TRUE(described.ok()) << described.status().ToString();
    EXPECT_EQ(described->backup_description.backup_details.backup_name, "kept");
    EXPECT_EQ(described->backup_description.source_table_details.item_count, 5);
    ASSERT_TRUE(
        (*db)->RestoreTableFromBackup({.target_table_name = "Orders", .backup_arn = arn}).ok());
    EXPECT_EQ(SortedItems(**db, "Orders").size(), 5u);
    EXPECT_EQ(GroupCount(**db, "Orders"), 5u);
    ASSERT_TRUE((*db)->DeleteBackup({arn}).ok());
  }
  auto db = Database::Open(options);
  ASSERT_TRUE(db.ok());
  EXPECT_EQ((*db)->ListBackups({})->backup_summaries.size(), 0u);
}

TEST(BackupTest, ADamagedBackupFileIsRefusedNamingIt) {
  const std::string dir = TestDirectory();
  DatabaseOptions options;
  options.persistence.data_dir = dir;
  {
    auto db = Database::Open(options);
    ASSERT_TRUE(db.ok());
    MustCreate(**db, "Orders", StringKeys());
    MustPut(**db, "Orders", EveryType("a", "s"));
    ASSERT_TRUE((*db)->CreateBackup({.table_name = "Orders", .backup_name = "bk1"}).ok());
  }
  const auto file = std::filesystem::directory_iterator(dir + "/backups")->path();
  const auto size = std::filesystem::file_size(file);
  std::filesystem::resize_file(file, size - 3);
  auto db = Database::Open(options);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), Code::kValidation);
  EXPECT_NE(db.status().message().find(file.filename().string()), std::string::npos)
      << db.status().message();
  EXPECT_NE(db.status().message().find("offset"), std::string::npos) << db.status().message();
}

TEST(PointInTimeRestoreTest, RestoresThePresentOnceRecoveryIsEnabled) {
  Database db;
  ASSERT_TRUE(db.CreateTable(OrdersWithIndexes()).ok());
  for (int i = 0; i < 6; ++i) MustPut(db, "Orders", EveryType("p" + std::to_string(i), "s"));
  RestoreTableToPointInTimeRequest request{.source_table_name = "Orders",
                                           .target_table_name = "Now",
                                           .use_latest_restorable_time = true};
  EXPECT_EQ(db.RestoreTableToPointInTime(request).status().code(),
            Code::kPointInTimeRecoveryUnavailable);
  ASSERT_TRUE(
      db.UpdateContinuousBackups({.table_name = "Orders", .point_in_time_recovery_enabled = true})
          .ok());
  Result<RestoreTableToPointInTimeResult> restored = db.RestoreTableToPointInTime(request);
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_EQ(SortedItems(db, "Now"), SortedItems(db, "Orders"));
  EXPECT_EQ(GroupCount(db, "Now"), 6u);

  // By ARN, at the present as RestoreDateTime, with an override.
  const std::string arn = db.DescribeTable({"Orders"})->table.table_arn;
  const double now = db.DescribeContinuousBackups({"Orders"})
                         ->continuous_backups_description.point_in_time_recovery_description
                         .latest_restorable_date_time.value();
  RestoreTableToPointInTimeRequest by_arn{
      .source_table_arn = arn, .target_table_name = "ByArn", .restore_date_time = now};
  by_arn.global_secondary_index_override = std::vector<GlobalSecondaryIndex>{};
  Result<RestoreTableToPointInTimeResult> second = db.RestoreTableToPointInTime(by_arn);
  ASSERT_TRUE(second.ok()) << second.status().ToString();
  EXPECT_TRUE(second->table_description.global_secondary_indexes.empty());
  EXPECT_EQ(SortedItems(db, "ByArn").size(), 6u);
}

TEST(PointInTimeRestoreTest, RefusesThePastAndBadRequests) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  ASSERT_TRUE(
      db.UpdateContinuousBackups({.table_name = "Orders", .point_in_time_recovery_enabled = true})
          .ok());
  Result<RestoreTableToPointInTimeResult> past = db.RestoreTableToPointInTime(
      {.source_table_name = "Orders", .target_table_name = "Past", .restore_date_time = 1.0e9});
  ASSERT_EQ(past.status().code(), Code::kInvalidRestoreTime);
  EXPECT_NE(past.status().message().find("no history"), std::string::npos);
  EXPECT_EQ(db.DescribeTable({"Past"}).status().code(), Code::kResourceNotFound);
  EXPECT_EQ(db.RestoreTableToPointInTime({.target_table_name = "Xx1"}).status().code(),
            Code::kValidation);  // no source
  EXPECT_EQ(db.RestoreTableToPointInTime({.source_table_name = "Orders",
                                          .target_table_name = "Xx2",
                                          .use_latest_restorable_time = true,
                                          .restore_date_time = 1.0})
                .status()
                .code(),
            Code::kValidation);  // both times
  EXPECT_EQ(db.RestoreTableToPointInTime({.source_table_name = "Nope",
                                          .target_table_name = "Xx3",
                                          .use_latest_restorable_time = true})
                .status()
                .code(),
            Code::kTableNotFound);
  EXPECT_EQ(db.RestoreTableToPointInTime({.source_table_name = "Orders",
                                          .target_table_name = "Orders",
                                          .use_latest_restorable_time = true})
                .status()
                .code(),
            Code::kTableAlreadyExists);
}

}  // namespace
}  // namespace partstore
