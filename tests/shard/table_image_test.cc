// Database::ReadTableImage (partstore/table_image.h) and continuous backups
// (partstore/continuous_backups.h): the image is one point in time, and point-in-time recovery
// reports the present as its one restorable point.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "partstore/database.h"
#include "tests/shard/database_testutil.h"

namespace partstore {
namespace {

using testing::EveryType;
using testing::MustCreate;
using testing::MustPut;
using testing::SortedItems;
using testing::StringKeys;

std::vector<Item> ImageItems(const TableImage& image) {
  std::vector<Item> items;
  for (const StoredItem& item : image.items) items.push_back(item.ToItem());
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    return std::get<std::string>(a.at("SK").variant()) <
           std::get<std::string>(b.at("SK").variant());
  });
  return items;
}

TEST(TableImageTest, ReadsEveryItemAndTheDescription) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  for (int i = 0; i < 50; ++i) MustPut(db, "Orders", EveryType("p", "s" + std::to_string(100 + i)));
  Result<TableImage> image = db.ReadTableImage("Orders");
  ASSERT_TRUE(image.ok()) << image.status().ToString();
  EXPECT_EQ(image->table.table_name, "Orders");
  EXPECT_GT(image->time, 0);
  EXPECT_EQ(ImageItems(*image), SortedItems(db, "Orders"));
  // The image is a copy: later writes do not change it.
  MustPut(db, "Orders", EveryType("p", "s999"));
  EXPECT_EQ(image->items.size(), 50u);
  EXPECT_EQ(db.ReadTableImage("Nope").status().code(), Code::kResourceNotFound);
}

TEST(TableImageTest, ConcurrentImagesSeeWholeTransactions) {
  DatabaseOptions options;
  options.stripes_per_table = 16;  // (ThreadSanitizer follows at most 64 held locks)
  Database db(options);
  MustCreate(db, "Accounts", StringKeys());
  constexpr int kAccounts = 8;
  for (int i = 0; i < kAccounts; ++i) {
    MustPut(db, "Accounts",
            Item{{"PK", Value("a" + std::to_string(i))}, {"SK", Value("x")}, {"v", Value(100)}});
  }
  std::atomic<bool> stop{false};
  std::thread mover([&] {
    for (int n = 0; !stop.load(); ++n) {
      const std::string from = "a" + std::to_string(n % kAccounts);
      const std::string to = "a" + std::to_string((n + 3) % kAccounts);
      TransactWriteItemsRequest request;
      for (const auto& [account, delta] : {std::pair{from, -1}, std::pair{to, 1}}) {
        TransactWriteItem write;
        write.update =
            UpdateItemRequest{.table_name = "Accounts",
                              .key = {{"PK", Value(account)}, {"SK", Value("x")}},
                              .update_expression = "ADD v :d",
                              .expression_attribute_values = AttributeMap{{":d", Value(delta)}}};
        request.transact_items.push_back(std::move(write));
      }
      (void)db.TransactWriteItems(request);
    }
  });
  for (int round = 0; round < 50; ++round) {
    Result<TableImage> image = db.ReadTableImage("Accounts");
    ASSERT_TRUE(image.ok());
    int64_t total = 0;
    for (const StoredItem& item : image->items) {
      total += std::get<Number>(item.ToItem().at("v").variant()).ToInt64().value();
    }
    EXPECT_EQ(total, 100 * kAccounts) << "round " << round;
  }
  stop = true;
  mover.join();
}

TEST(ContinuousBackupsTest, RecoveryIsOffUntilEnabledAndThenCoversThePresent) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  Result<ContinuousBackupsResult> described = db.DescribeContinuousBackups({"Orders"});
  ASSERT_TRUE(described.ok());
  EXPECT_TRUE(described->continuous_backups_description.continuous_backups_enabled);
  const auto& off = described->continuous_backups_description.point_in_time_recovery_description;
  EXPECT_EQ(off.point_in_time_recovery_status, PointInTimeRecoveryStatus::kDisabled);
  EXPECT_FALSE(off.earliest_restorable_date_time);

  Result<ContinuousBackupsResult> enabled =
      db.UpdateContinuousBackups({.table_name = "Orders",
                                  .point_in_time_recovery_enabled = true,
                                  .recovery_period_in_days = 7});
  ASSERT_TRUE(enabled.ok()) << enabled.status().ToString();
  const auto& on = enabled->continuous_backups_description.point_in_time_recovery_description;
  EXPECT_EQ(on.point_in_time_recovery_status, PointInTimeRecoveryStatus::kEnabled);
  EXPECT_EQ(on.recovery_period_in_days, 7);
  ASSERT_TRUE(on.earliest_restorable_date_time && on.latest_restorable_date_time);
  // No history is kept: the one restorable point is the present.
  EXPECT_EQ(*on.earliest_restorable_date_time, *on.latest_restorable_date_time);

  Result<ContinuousBackupsResult> disabled =
      db.UpdateContinuousBackups({.table_name = "Orders", .point_in_time_recovery_enabled = false});
  ASSERT_TRUE(disabled.ok());
  EXPECT_EQ(disabled->continuous_backups_description.point_in_time_recovery_description
                .point_in_time_recovery_status,
            PointInTimeRecoveryStatus::kDisabled);
}

TEST(ContinuousBackupsTest, RefusesUnknownTablesAndBadPeriods) {
  Database db;
  MustCreate(db, "Orders", StringKeys());
  EXPECT_EQ(db.DescribeContinuousBackups({"Nope"}).status().code(), Code::kTableNotFound);
  EXPECT_EQ(
      db.UpdateContinuousBackups({.table_name = "Nope", .point_in_time_recovery_enabled = true})
          .status()
          .code(),
      Code::kTableNotFound);
  Result<ContinuousBackupsResult> zero =
      db.UpdateContinuousBackups({.table_name = "Orders",
                                  .point_in_time_recovery_enabled = true,
                                  .recovery_period_in_days = 0});
  EXPECT_EQ(zero.status().code(), Code::kValidation);
  EXPECT_EQ(db.UpdateContinuousBackups({.table_name = "Orders",
                                        .point_in_time_recovery_enabled = false,
                                        .recovery_period_in_days = 3})
                .status()
                .code(),
            Code::kValidation);
}

}  // namespace
}  // namespace partstore
