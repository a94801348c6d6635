// Splits for heat and for size, the metrics and Contributor Insights a workload leaves behind, and
// determinism: the same requests on the manual clock give the same reports, bit for bit.
#include <gtest/gtest.h>

#include <random>

#include "shard/capacity/resource_capacity.h"
#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

capacity::CapacityOptions FastSplits() {
  capacity::CapacityOptions options;
  options.heat_split_seconds = 10;
  options.partition_size_limit = 64 * 1024;
  return options;
}

class SplitsTest : public CapacityTest {
 protected:
  SplitsTest() : CapacityTest(FastSplits()) {}
};

TEST_F(SplitsTest, HotPartitionWithTwoHotKeysSplitsBetweenThem) {
  Create(CapacityTable("Tab", 1, 999));  // one partition of 999 WCU
  DescribePartitionsResult map = Partitions("Tab");
  ASSERT_EQ(map.partitions.size(), 1u);
  // Two keys in different cells of the hash space, 700 writes per second each: the partition
  // throttles at its 1,000 WCU.
  std::string a = KeyInRange("a", 0, (uint64_t{1} << 62) - 1);
  std::string b = KeyInRange("b", uint64_t{1} << 63, UINT64_MAX);
  auto both = [&](int64_t i) { return Put("Tab", i % 2 ? a : b); };
  const int64_t before = Drive(1400, 5, both);
  EXPECT_NEAR(before, 1000 + 5 * 1000, 10);  // a full bucket, then 1,000 per second
  Drive(1400, 10, both);  // hot for heat_split_seconds: splits at the accessed keys' median
  DescribePartitionsResult after = Partitions("Tab");
  ASSERT_EQ(after.partitions.size(), 2u);
  ASSERT_EQ(after.splits.size(), 1u);
  EXPECT_EQ(after.splits[0].reason, "HEAT");
  const uint64_t at = after.splits[0].split_hash;
  EXPECT_GT(at, HashOfKey(a));
  EXPECT_LE(at, HashOfKey(b));
  // Each key now has its own partition with half the table's throughput, 499.5 WCU: 700 per
  // second is more than that, but burst and the table's unused capacity carry it for a while.
  EXPECT_DOUBLE_EQ(after.partitions[0].allocated_write_units, 499.5);
}

TEST_F(SplitsTest, HeatSplitsWhereTheHeatIsNotWherePastTrafficWas) {
  Create(CapacityTable("Tab", 1, 999));
  const std::string past = KeyInRange("c", 0, (uint64_t{1} << 61) - 1);
  const std::string a =
      KeyInRange("a", uint64_t{1} << 62, (uint64_t{1} << 62) + (uint64_t{1} << 61));
  const std::string b = KeyInRange("b", uint64_t{1} << 63, UINT64_MAX);
  // A long quiet history on `past` (500 WCU: not hot), then `a` and `b` run hot together.
  Drive(500, 100, [&](int64_t) { return Put("Tab", past); });
  Drive(1400, 12, [&](int64_t i) { return Put("Tab", i % 2 ? a : b); });
  DescribePartitionsResult d = Partitions("Tab");
  ASSERT_EQ(d.splits.size(), 1u);
  EXPECT_GT(d.splits[0].split_hash, HashOfKey(a));
  EXPECT_LE(d.splits[0].split_hash, HashOfKey(b));
}

TEST(PartitionMapTest, EveryHashMapsToThePartitionHoldingIt) {
  // 7 partitions (4,096 cells do not divide by 7), then at least 13 after a throughput increase
  // splits them: each partition's first, middle and last hash map to it, and the partitions
  // tile the hash space.
  capacity::ResourceSettings settings{.on_demand = false, .read_units = 0, .write_units = 7000};
  capacity::ResourceCapacity resource(ThrottleResource::kTable, "arn", KeySchema{{"PK"}, {}},
                                      settings, capacity::CapacityOptions{}, 0);
  for (const int64_t write_units : {int64_t{7000}, int64_t{13000}}) {
    settings.write_units = write_units;
    resource.Update(settings, 1'000'000);
    const auto& partitions = resource.partitions();
    ASSERT_GE(partitions.size(), static_cast<size_t>(write_units / 1000));
    for (size_t i = 0; i < partitions.size(); ++i) {
      const auto& p = partitions[i];
      EXPECT_EQ(resource.PartitionOf(p.begin), i);
      EXPECT_EQ(resource.PartitionOf(p.begin + (p.end - p.begin) / 2), i);
      EXPECT_EQ(resource.PartitionOf(p.end), i);
      if (i > 0) {
        EXPECT_EQ(p.begin, partitions[i - 1].end + 1);
      }
    }
    EXPECT_EQ(partitions.front().begin, 0u);
    EXPECT_EQ(partitions.back().end, UINT64_MAX);
  }
}

TEST_F(SplitsTest, OneHotKeyNeverSplits) {
  Create(CapacityTable("Tab"));
  Drive(2000, 60, [&](int64_t) { return Put("Tab", "celebrity"); });
  DescribePartitionsResult d = Partitions("Tab");
  EXPECT_EQ(d.partitions.size(), 4u);
  EXPECT_TRUE(d.splits.empty());
}

TEST_F(SplitsTest, PartitionSplitsWhenItsDataPassesTheSizeLimit) {
  Create(CapacityTable("Tab", 1, 999));
  // 100 items of ~1 KB: past 64 KB the partition splits (in the middle of its range); sizes add up.
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(Put("Tab", "k" + std::to_string(i), 1000).ok());
    Advance(0.01);
  }
  DescribePartitionsResult d = Partitions("Tab");
  ASSERT_GE(d.partitions.size(), 2u);
  EXPECT_EQ(d.splits[0].reason, "SIZE");
  int64_t bytes = 0, items = 0;
  for (const auto& p : d.partitions) {
    bytes += p.size_bytes;
    items += p.item_count;
    EXPECT_LE(p.size_bytes, 64 * 1024 + 1100);
  }
  EXPECT_EQ(items, 100);
  auto table = db_.DescribeTable({"Tab"});
  EXPECT_EQ(bytes, table->table.table_size_bytes);
}

capacity::CapacityOptions WithInsights() {
  capacity::CapacityOptions options;
  options.contributor_insights = true;
  return options;
}

class ReportsTest : public CapacityTest {
 protected:
  ReportsTest() : CapacityTest(WithInsights()) {}
};

TEST_F(ReportsTest, ContributorInsightsRankTheHotKeys) {
  Create(CapacityTable("Tab", 3000, 3000));
  // "hot" takes 600 writes per second, "warm" 100, and 50 others one each.
  Drive(751, 60, [&](int64_t i) {
    const int64_t slot = i % 751;
    if (slot < 600) return Put("Tab", "hot");
    if (slot < 700) return Put("Tab", "warm");
    return Put("Tab", "k" + std::to_string(slot));
  });
  auto insights = db_.GetContributorInsights({.table_name = "Tab", .top_n = 2});
  ASSERT_TRUE(insights.ok()) << insights.status().ToString();
  ASSERT_EQ(insights->rules.size(), 4u);
  const InsightsRuleResult& keys = insights->rules[0];
  EXPECT_EQ(keys.rule_name, "MostAccessedPartitionKeys");
  ASSERT_EQ(keys.contributors.size(), 2u);
  EXPECT_EQ(keys.contributors[0].key, (Item{{"PK", Value("hot")}}));
  // ConsumedThroughputUnits = 3 x WCU: 600 writes a second for a minute.
  EXPECT_DOUBLE_EQ(keys.contributors[0].value, 3.0 * 600 * 60);
  EXPECT_EQ(keys.contributors[1].key, (Item{{"PK", Value("warm")}}));
  EXPECT_TRUE(insights->rules[2].contributors.empty());  // nothing throttled
  // The hot key, pushed past its partition's limit, heads the throttled rule.
  Drive(2000, 5, [&](int64_t) { return Put("Tab", "hot"); });
  insights = db_.GetContributorInsights({.table_name = "Tab", .top_n = 5});
  EXPECT_EQ(insights->rules[2].rule_name, "MostThrottledPartitionKeys");
  ASSERT_EQ(insights->rules[2].contributors.size(), 1u);
  EXPECT_EQ(insights->rules[2].contributors[0].key, (Item{{"PK", Value("hot")}}));
}

TEST_F(ReportsTest, PerSecondMetricsShowTheHotKeyCeiling) {
  Create(CapacityTable("Tab", 40000, 40000));
  Drive(1500, 5, [&](int64_t) { return Put("Tab", "hot"); });
  auto metrics = db_.GetMetrics({.table_name = "Tab", .period = 1, .include_partitions = true});
  ASSERT_TRUE(metrics.ok());
  ASSERT_EQ(metrics->points.size(), 5u);
  // The partition's bucket starts full (one second of 1,000 WCU): seconds 0 and 1 serve
  // everything but one request, then 1,000 per second.
  EXPECT_EQ(metrics->points[0].counters.consumed_write_half_units / 2, 1500);
  for (size_t s = 2; s < 5; ++s) {
    const auto& c = metrics->points[s].counters;
    EXPECT_NEAR(c.consumed_write_half_units / 2, 1000, 2) << "second " << s;
    EXPECT_NEAR(c.throttled_write_requests, 500, 2);
  }
  EXPECT_EQ(metrics->partitions.size(), 54u);  // ceil(40000 / 3000 + 40000 / 1000)
}

// The whole state a report shows, as text, for comparing two runs.
std::string Fingerprint(Database& db, const std::string& table) {
  std::string out;
  auto partitions = db.DescribePartitions({table, std::nullopt});
  for (const auto& p : partitions->partitions) {
    out += std::to_string(p.partition_id) + ":" + std::to_string(p.hash_range_start) + ":" +
           std::to_string(p.consumed_write_units) + ":" + std::to_string(p.burst_write_units) +
           ":" + std::to_string(p.throttled_write_requests) + ";";
  }
  auto metrics = db.GetMetrics({.table_name = table, .period = 1, .include_partitions = true});
  for (const auto& series : metrics->partitions) {
    for (const auto& point : series.points) {
      out += std::to_string(point.timestamp) + "/" +
             std::to_string(point.counters.consumed_write_half_units) + "/" +
             std::to_string(point.counters.consumed_read_half_units) + "/" +
             std::to_string(point.counters.throttled_write_requests) + ",";
    }
  }
  auto insights = db.GetContributorInsights({.table_name = table, .top_n = 20});
  for (const auto& rule : insights->rules) {
    for (const auto& c : rule.contributors) out += std::to_string(c.value) + "|";
  }
  return out;
}

std::string RunWorkload() {
  auto clock = std::make_shared<capacity::ManualClock>();
  capacity::CapacityOptions options = WithInsights();
  options.heat_split_seconds = 5;
  Database db(ManualCapacity(clock, options));
  EXPECT_TRUE(db.CreateTable(CapacityTable("Tab", 500, 1500)).ok());
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int> key(0, 200);
  for (int i = 0; i < 60000; ++i) {
    clock->Advance(static_cast<int64_t>(rng() % 700));
    const std::string pk = (rng() % 3 == 0) ? "hot" : "k" + std::to_string(key(rng));
    if (rng() % 4 == 0) {
      GetItemRequest get;
      get.table_name = "Tab";
      get.key = {{"PK", Value(pk)}};
      (void)db.GetItem(get);
    } else {
      PutItemRequest put;
      put.table_name = "Tab";
      put.item = {{"PK", Value(pk)}, {"n", Value(std::string(rng() % 3000, 'x'))}};
      (void)db.PutItem(put);
    }
  }
  return Fingerprint(db, "Tab");
}

TEST(DeterminismTest, TheSameWorkloadTwiceGivesIdenticalReports) {
  const std::string first = RunWorkload();
  const std::string second = RunWorkload();
  EXPECT_GT(first.size(), 1000u);
  EXPECT_EQ(first, second);
}

}  // namespace
}  // namespace partstore::testing
