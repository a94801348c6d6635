// OnDemandThroughput and WarmThroughput in the capacity simulation: a maximum below the
// per-table quota throttles with MaxOnDemandThroughputExceeded; warm throughput starts (or
// grows) a table with the partitions it calls for, and only ever raises them.
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

}  // namespace
}  // namespace partstore::testing
