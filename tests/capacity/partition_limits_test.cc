// The documented per-partition numbers on a manual clock (reference §3): the hard limits of one
// key, burst capacity, adaptive capacity, and splits when throughput is raised.
#include <gtest/gtest.h>

#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

class PartitionLimitsTest : public CapacityTest {};

TEST_F(PartitionLimitsTest, OneHotKeySustainsOneThousandWritesPerSecondWhateverTheTable) {
  Create(CapacityTable("Tab", 40000, 40000));                  // 40 partitions' worth of throughput
  Drive(2000, 1, [&](int64_t) { return Put("Tab", "hot"); });  // the first second fills buckets
  const int64_t served = Drive(2000, 10, [&](int64_t) { return Put("Tab", "hot"); });
  // 1,000 WCU per second (1 KB items: 1 WCU each), give or take the bucket's edge.
  EXPECT_NEAR(served, 10000, 20);
  // The throttle names the partition limit and the table.
  Status last = Status::Ok();
  for (int i = 0; i < 3 && last.ok(); ++i) last = Put("Tab", "hot");
  ASSERT_EQ(last.code(), Code::kProvisionedThroughputExceeded) << last.ToString();
  EXPECT_EQ(ReasonNames(last), std::vector<std::string>{"TableWriteKeyRangeThroughputExceeded"});
  EXPECT_EQ(last.detail()->throttling_reasons[0].resource,
            "arn:aws:dynamodb:us-east-1:000000000000:table/Tab");
  EXPECT_EQ(last.message(),
            "The level of configured provisioned throughput for the table was exceeded. Consider "
            "increasing your provisioning level with the UpdateTable API.");
}

TEST_F(PartitionLimitsTest, OneHotKeySustainsThreeThousandStrongReadsPerSecond) {
  Create(CapacityTable("Tab", 40000, 40000));
  ASSERT_TRUE(Put("Tab", "hot").ok());
  Drive(6000, 1, [&](int64_t) { return Get("Tab", "hot"); });
  const int64_t served = Drive(6000, 10, [&](int64_t) { return Get("Tab", "hot"); });
  EXPECT_NEAR(served, 30000, 20);
  // Eventually consistent reads cost half: 6,000 per second fit.
  const int64_t eventual = Drive(6000, 10, [&](int64_t) { return Get("Tab", "hot", false); });
  EXPECT_NEAR(eventual, 60000, 20);
  // Beyond 6,000 eventually consistent reads a second: throttled at the partition's limit.
  EXPECT_NEAR(Drive(9000, 5, [&](int64_t) { return Get("Tab", "hot", false); }), 30000, 20);
  Status last = Status::Ok();
  for (int i = 0; i < 3 && last.ok(); ++i) last = Get("Tab", "hot");
  EXPECT_EQ(ReasonNames(last), std::vector<std::string>{"TableReadKeyRangeThroughputExceeded"});
}

TEST_F(PartitionLimitsTest, ThrottledWritesChangeNothing) {
  Create(CapacityTable("Tab", 1, 1));
  ASSERT_TRUE(Put("Tab", "a").ok());  // the partition's one second of 1 WCU
  Status second = Put("Tab", "b");
  ASSERT_EQ(second.code(), Code::kProvisionedThroughputExceeded);
  EXPECT_EQ(ReasonNames(second),
            std::vector<std::string>{"TableWriteProvisionedThroughputExceeded"});
  Advance(10);
  GetItemRequest get;
  get.table_name = "Tab";
  get.key = {{"PK", Value("b")}};
  auto got = db_.GetItem(get);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->item.has_value());
}

TEST_F(PartitionLimitsTest, UnusedCapacityAccumulatesForAtMostThreeHundredSeconds) {
  Create(CapacityTable("Tab", 100, 100));  // one partition of 100 WCU
  Advance(150);
  EXPECT_DOUBLE_EQ(Partitions("Tab").partitions.at(0).burst_write_units, 150 * 100);
  Advance(1000);
  EXPECT_DOUBLE_EQ(Partitions("Tab").partitions.at(0).burst_write_units, 300 * 100);
  // Spent at up to the partition's 1,000 WCU: 30,000 saved + 100 per second allocated + the
  // first second's 100 serve 1,000 per second for about 30000 / 900 = 33 seconds.
  const int64_t served = Drive(1000, 60, [&](int64_t) { return Put("Tab", "k"); });
  EXPECT_NEAR(served, 30000 + 100 * 60 + 100, 50);
  EXPECT_LT(Partitions("Tab").partitions.at(0).burst_write_units, 1);
}

// AWS's example (developer guide, "burst and adaptive capacity"): 400 WCU over 4 partitions,
// 100 each; one partition receiving 150 WCU per second is served from burst capacity first, then
// by adaptive capacity, since the table as a whole has unused throughput.
TEST_F(PartitionLimitsTest, HotPartitionIsServedFromBurstThenByAdaptiveCapacity) {
  Create(CapacityTable("Tab", 1, 3999));  // 4 partitions
  UpdateTableRequest lower;
  lower.table_name = "Tab";
  lower.provisioned_throughput = ProvisionedThroughput{1, 400};
  ASSERT_TRUE(db_.UpdateTable(lower).ok());
  DescribePartitionsResult before = Partitions("Tab");
  ASSERT_EQ(before.partitions.size(), 4u);
  EXPECT_DOUBLE_EQ(before.partitions[0].allocated_write_units, 100);
  const auto& p0 = before.partitions[0];
  // Ten keys of partition 0, 15 writes per second each.
  std::vector<std::string> keys;
  for (int i = 0; i < 10; ++i)
    keys.push_back(KeyInRange("k", p0.hash_range_start, p0.hash_range_end, i));
  Advance(300);  // burst fills: 300 s x 100 WCU
  auto write = [&](int64_t i) { return Put("Tab", keys[static_cast<size_t>(i) % keys.size()]); };

  EXPECT_EQ(Drive(150, 300, write), 150 * 300);  // 50 per second beyond allocation, from burst
  DescribePartitionsResult mid = Partitions("Tab");
  EXPECT_NEAR(mid.partitions[0].burst_write_units, 30000 - 50 * 300, 100);
  EXPECT_DOUBLE_EQ(mid.partitions[0].adaptive_write_units, 0);

  EXPECT_EQ(Drive(150, 600, write), 150 * 600);  // burst runs out at ~600 s; adaptive takes over
  DescribePartitionsResult after = Partitions("Tab");
  EXPECT_LT(after.partitions[0].burst_write_units, 1);
  EXPECT_NEAR(after.partitions[0].adaptive_write_units, 50 * 300, 200);
  EXPECT_EQ(after.partitions[0].throttled_write_requests, 0);
}

TEST_F(PartitionLimitsTest, AdaptiveCapacityStopsAtTheTableThroughput) {
  Create(CapacityTable("Tab", 1, 3999));
  UpdateTableRequest lower;
  lower.table_name = "Tab";
  lower.provisioned_throughput = ProvisionedThroughput{1, 400};
  ASSERT_TRUE(db_.UpdateTable(lower).ok());
  DescribePartitionsResult map = Partitions("Tab");
  std::vector<std::string> hot, others;
  for (int i = 0; i < 10; ++i) {
    hot.push_back(
        KeyInRange("h", map.partitions[0].hash_range_start, map.partitions[0].hash_range_end, i));
  }
  for (size_t p = 1; p < 4; ++p) {
    others.push_back(
        KeyInRange("o", map.partitions[p].hash_range_start, map.partitions[p].hash_range_end));
  }
  // The other partitions use their 100 each: the table has 100 left for the hot one, which asks
  // for 200 per second. No burst saved (no idle time); measured after the first full buckets.
  int64_t hot_served = 0;
  auto mix = [&](int64_t i) {
    const int64_t slot = i % 5;
    if (slot < 3) return Put("Tab", others[static_cast<size_t>(slot)]);
    Status s = Put("Tab", hot[static_cast<size_t>(i) % hot.size()]);
    hot_served += s.ok();
    return s;
  };
  Drive(500, 10, mix);
  hot_served = 0;
  Drive(500, 60, mix);
  EXPECT_NEAR(hot_served, 100 * 60, 100);
  Status throttled = Status::Ok();
  for (int i = 0; i < 400 && throttled.ok(); ++i) throttled = Put("Tab", hot[0]);
  EXPECT_EQ(ReasonNames(throttled),
            std::vector<std::string>{"TableWriteProvisionedThroughputExceeded"});
}

// The USENIX ATC'22 paper's example: 3,200 WCU is 4 partitions of 800; 3,600 gives each 900;
// 6,000 needs more than 4 x 1,000, so every partition splits: 8 of 750; down to 5,000: 8 of 625
// (partitions never merge).
TEST_F(PartitionLimitsTest, RaisingThroughputSplitsPartitionsAsInThePaper) {
  Create(CapacityTable("Tab", 1, 3200));
  auto expect = [&](size_t count, double each) {
    DescribePartitionsResult d = Partitions("Tab");
    ASSERT_EQ(d.partitions.size(), count);
    for (const auto& p : d.partitions) EXPECT_NEAR(p.allocated_write_units, each, 1e-6);
  };
  expect(4, 800);
  for (auto [wcu, count, each] :
       {std::tuple{3600, 4u, 900.0}, std::tuple{6000, 8u, 750.0}, std::tuple{5000, 8u, 625.0}}) {
    UpdateTableRequest update;
    update.table_name = "Tab";
    update.provisioned_throughput = ProvisionedThroughput{1, wcu};
    ASSERT_TRUE(db_.UpdateTable(update).ok());
    expect(count, each);
  }
  DescribePartitionsResult d = Partitions("Tab");
  ASSERT_EQ(d.splits.size(), 4u);
  for (const auto& s : d.splits) EXPECT_EQ(s.reason, "THROUGHPUT");
  // The ranges still cover the hash space exactly.
  EXPECT_EQ(d.partitions.front().hash_range_start, 0u);
  EXPECT_EQ(d.partitions.back().hash_range_end, UINT64_MAX);
  for (size_t i = 1; i < d.partitions.size(); ++i) {
    EXPECT_EQ(d.partitions[i].hash_range_start, d.partitions[i - 1].hash_range_end + 1);
  }
}

TEST_F(PartitionLimitsTest, SwitchingBillingModeKeepsThePartitionsAndChangesTheLimits) {
  Create(CapacityTable("Tab", 1, 9999));  // 10 partitions of ~1,000 WCU
  UpdateTableRequest to_on_demand;
  to_on_demand.table_name = "Tab";
  to_on_demand.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_TRUE(db_.UpdateTable(to_on_demand).ok());
  DescribePartitionsResult on_demand = Partitions("Tab");
  EXPECT_EQ(on_demand.billing_mode, "PAY_PER_REQUEST");
  // The previous peak starts at half the provisioned throughput (DynamoDB keeps the higher of
  // that and a new table's 2,000 WRU): 10 partitions at their hard limit.
  EXPECT_DOUBLE_EQ(on_demand.peak_write_units, 4999);
  ASSERT_EQ(on_demand.partitions.size(), 10u);
  EXPECT_DOUBLE_EQ(on_demand.partitions[0].allocated_write_units, 1000);
  Advance(1);
  EXPECT_NEAR(Drive(8000, 5, [&](int64_t i) { return Put("Tab", "k" + std::to_string(i)); }), 40000,
              400);
  // Back to provisioned at 100 WCU: 10 WCU per partition, plus burst.
  UpdateTableRequest to_provisioned;
  to_provisioned.table_name = "Tab";
  to_provisioned.billing_mode = BillingMode::kProvisioned;
  to_provisioned.provisioned_throughput = ProvisionedThroughput{1, 100};
  ASSERT_TRUE(db_.UpdateTable(to_provisioned).ok());
  DescribePartitionsResult provisioned = Partitions("Tab");
  EXPECT_EQ(provisioned.partitions.size(), 10u);
  EXPECT_DOUBLE_EQ(provisioned.partitions[0].allocated_write_units, 10);
  Advance(1);
  const int64_t served =
      Drive(1000, 10, [&](int64_t i) { return Put("Tab", "p" + std::to_string(i)); });
  EXPECT_LE(served, 100 * 10 + 100 + 100);  // 100 per second, a full second, one second's burst
  EXPECT_GE(served, 100 * 10);
}

TEST_F(PartitionLimitsTest, InitialPartitionCountFollowsProvisionedThroughput) {
  Create(CapacityTable("Aaa", 3000, 1000));  // 1 + 1
  Create(CapacityTable("Bbb", 1, 1));
  Create(CapacityTable("Ccc", 6001, 0 + 1));  // 2.0003 + 0.001 -> 3
  Create(CapacityTable("Ddd"));               // on-demand: 4
  EXPECT_EQ(Partitions("Aaa").partitions.size(), 2u);
  EXPECT_EQ(Partitions("Bbb").partitions.size(), 1u);
  EXPECT_EQ(Partitions("Ccc").partitions.size(), 3u);
  EXPECT_EQ(Partitions("Ddd").partitions.size(), 4u);
}

}  // namespace
}  // namespace partstore::testing
