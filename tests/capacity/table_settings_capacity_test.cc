// OnDemandThroughput and WarmThroughput in the capacity simulation, for tables and GSIs: a maximum
// below the per-table quota throttles with MaxOnDemandThroughputExceeded; warm throughput starts
// (or grows) a table or index with the partitions it calls for, and only ever raises them.
#include <gtest/gtest.h>

#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

class TableSettingsCapacityTest : public CapacityTest {};

TEST_F(TableSettingsCapacityTest, OnDemandMaximumThrottlesWithItsReason) {
  CreateTableRequest request = CapacityTable("Tab");
  request.on_demand_throughput = OnDemandThroughput{.max_write_request_units = 50};
  Create(request);
  auto uniform = [&](int64_t i) { return Put("Tab", "k" + std::to_string(i % 1000)); };
  // About 50 writes a second get through (the first second's full bucket aside).
  Drive(200, 1, uniform);
  EXPECT_NEAR(Drive(200, 10, uniform), 500, 20);
  Status last = Status::Ok();
  for (int i = 0; i < 500 && last.ok(); ++i) last = uniform(i);
  ASSERT_EQ(last.code(), Code::kThrottling) << last.ToString();
  EXPECT_EQ(ReasonNames(last), std::vector<std::string>{"TableWriteMaxOnDemandThroughputExceeded"});
  // Reads have no maximum.
  EXPECT_TRUE(Get("Tab", "k1").ok());
  // -1 clears the maximum: the quota applies again.
  ASSERT_TRUE(
      db_.UpdateTable({.table_name = "Tab",
                       .on_demand_throughput = OnDemandThroughput{.max_write_request_units = -1}})
          .ok());
  Advance(1);
  EXPECT_GE(Drive(1000, 5, uniform), 1000 * 5 * 99 / 100);
}

TEST_F(TableSettingsCapacityTest, WarmThroughputSetsThePartitions) {
  CreateTableRequest request = CapacityTable("Warm");
  request.warm_throughput =
      WarmThroughput{.read_units_per_second = 12000, .write_units_per_second = 10000};
  Create(request);
  EXPECT_EQ(Partitions("Warm").partitions.size(), 10u);  // 10,000 WRU / 1,000 a partition
  ASSERT_TRUE(db_.UpdateTable({.table_name = "Warm",
                               .warm_throughput = WarmThroughput{.write_units_per_second = 16000}})
                  .ok());
  EXPECT_GE(Partitions("Warm").partitions.size(), 16u);
  // A new on-demand table without it: 4 partitions.
  Create(CapacityTable("Cold"));
  EXPECT_EQ(Partitions("Cold").partitions.size(), 4u);
}

// A GSI keyed by "g" on table `name` (on-demand), with the given settings.
CreateTableRequest TableWithIndex(const std::string& name, std::optional<OnDemandThroughput> max,
                                  std::optional<WarmThroughput> warm) {
  CreateTableRequest request = CapacityTable(name);
  request.attribute_definitions.push_back({"g", KeyType::kString});
  request.global_secondary_indexes.push_back(GlobalSecondaryIndex{
      .index_name = "ByG",
      .key_schema = {{"g", KeyRoleName::kHash}},
      .projection = {.projection_type = ProjectionType::kKeysOnly, .non_key_attributes = {}},
      .provisioned_throughput = std::nullopt,
      .on_demand_throughput = std::move(max),
      .warm_throughput = std::move(warm)});
  return request;
}

TEST_F(TableSettingsCapacityTest, AnIndexOnDemandMaximumThrottlesItsWrites) {
  Create(TableWithIndex("Tab", OnDemandThroughput{.max_write_request_units = 50}, std::nullopt));
  int64_t next = 0;  // every put a new item (an unchanged entry is no index write)
  auto put = [&](int64_t) {
    const std::string key = "k" + std::to_string(next++);
    return db_.PutItem({.table_name = "Tab", .item = {{"PK", Value(key)}, {"g", Value(key)}}})
        .status();
  };
  Drive(200, 1, put);
  EXPECT_NEAR(Drive(200, 10, put), 500, 20);  // the index's 50 writes a second
  Status last = Status::Ok();
  for (int i = 0; i < 500 && last.ok(); ++i) last = put(i);
  ASSERT_EQ(last.code(), Code::kThrottling) << last.ToString();
  EXPECT_EQ(ReasonNames(last), std::vector<std::string>{"IndexWriteMaxOnDemandThroughputExceeded"});
  // An item the index does not take is not held back by it.
  EXPECT_TRUE(Put("Tab", "no-g").ok());
  // -1 clears the index's maximum.
  GlobalSecondaryIndexUpdate clear;
  clear.update = GlobalSecondaryIndexUpdate::Update{
      .index_name = "ByG",
      .on_demand_throughput = OnDemandThroughput{.max_write_request_units = -1}};
  ASSERT_TRUE(
      db_.UpdateTable({.table_name = "Tab", .global_secondary_index_updates = {{clear}}}).ok());
  Advance(1);
  EXPECT_GE(Drive(1000, 5, put), 1000 * 5 * 99 / 100);
}

TEST_F(TableSettingsCapacityTest, AnIndexWarmThroughputSetsItsPartitions) {
  Create(TableWithIndex(
      "Warm", std::nullopt,
      WarmThroughput{.read_units_per_second = 12000, .write_units_per_second = 8000}));
  EXPECT_EQ(Partitions("Warm", "ByG").partitions.size(), 8u);  // 8,000 WRU / 1,000 a partition
  EXPECT_EQ(Partitions("Warm").partitions.size(), 4u);         // the table's own: a new table's
  GlobalSecondaryIndexUpdate raise;
  raise.update = GlobalSecondaryIndexUpdate::Update{
      .index_name = "ByG", .warm_throughput = WarmThroughput{.write_units_per_second = 12000}};
  ASSERT_TRUE(
      db_.UpdateTable({.table_name = "Warm", .global_secondary_index_updates = {{raise}}}).ok());
  EXPECT_GE(Partitions("Warm", "ByG").partitions.size(), 12u);
}

}  // namespace
}  // namespace partstore::testing
