// `partstore simulate --advise` (tools/simulator/advise.h): each what-if simulated, and the ones
// that fix a workload's throttling found: write sharding's smallest shard count for a hot key,
// the smallest doubling of an under-provisioned table, auto scaling, on-demand warmed; nothing for
// a run without throttles. (The built-in scenarios are checked by hand in the issue's note: each
// gets a configuration with no throttling; they take 5-60 s each, too long for the suite.)
#include "tools/simulator/advise.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/simulator/simulation_testutil.h"
#include "tools/simulator/report_json.h"
#include "tools/simulator/report_text.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

Workload Parse(const std::string& toml) { return testing::MustParse(toml); }

// One table; `rate` writes a second of 200-byte items for 10 s, on `keys`.
std::string Writes(const std::string& table, int rate, const std::string& keys) {
  return R"(
name = "advise"
[retries]
mode = "none"
)" + table +
         R"(
[[phases]]
name = "load"
duration = "10s"
rate = )" +
         std::to_string(rate) + "\nkeys = " + keys + R"(
  [[phases.mix]]
  op = "put"
  table = "Events"
  key = "DEVICE#{key}"
  sort = "T#{seq:09}"
  size = 200
)";
}

constexpr char kRoomyTable[] = R"(
[[tables]]
name = "Events"
partition_key = "PK"
sort_key = "SK"
billing = "provisioned"
read_capacity = 1000
write_capacity = 40000
)";

const Advice* Find(const std::vector<Advice>& advice, std::string_view title_start) {
  for (const Advice& a : advice) {
    if (a.title.starts_with(title_start)) return &a;
  }
  return nullptr;
}

TEST(AdviseTest, AHotKeyGetsTheSmallestShardCountThatServesIt) {
  const Workload workload = Parse(testing::OneHotKey(3000));
  auto report = Simulate(workload);
  ASSERT_TRUE(report.ok());
  ASSERT_GT(report->totals.throttled, 0);
  const std::vector<Advice> advice = Advise(workload, *report, {});
  const Advice* sharding = Find(advice, "write sharding");
  ASSERT_NE(sharding, nullptr);
  ASSERT_TRUE(sharding->report);
  // 3,000 WCU a second on one key: one partition takes 1,000; 2 shards are not enough, 4 are.
  EXPECT_EQ(sharding->title, "write sharding, 4 shards");
  EXPECT_FALSE(sharding->throttled);
  EXPECT_EQ(sharding->report->totals.throttled, 0);
  EXPECT_EQ(sharding->report->totals.served, report->totals.offered);
  EXPECT_NE(sharding->notes[0].find("DEVICE#7 on Events"), std::string::npos) << sharding->notes[0];
  // More capacity does not fix a hot key: no capacity what-if (no ProvisionedThroughputExceeded).
  EXPECT_EQ(Find(advice, "provisioned capacity"), nullptr);
  const std::string text = AdviceText(*report, advice);
  EXPECT_NE(text.find("write sharding, 4 shards  [no throttling]"), std::string::npos) << text;
}

// One product item read 8,000 times a second (eventually consistent: 4,000 read units a second on
// one partition, which serves 3,000), on a table that has the capacity; a review written now and
// then. A cache in front of the table serves it; `cached` puts one there from the start.
std::string HotReads(bool cached) {
  return std::string(R"(
name = "hot-reads"
[retries]
mode = "none"
[[tables]]
name = "Shop"
partition_key = "PK"
sort_key = "SK"
billing = "provisioned"
read_capacity = 10000
write_capacity = 100
)") + (cached ? "cache = { item_ttl = \"1m\", query_ttl = \"1m\", memory_mb = 16 }\n" : "") +
         R"(
[[preload]]
table = "Shop"
key = "PRODUCT#{key}"
sort = "PRODUCT"
keys = 10
size = 1000
[[phases]]
name = "storm"
duration = "5s"
rate = 8000
keys = { distribution = "hot-key", key = 0 }
  [[phases.mix]]
  op = "get"
  weight = 999
  table = "Shop"
  key = "PRODUCT#{key}"
  sort = "PRODUCT"
  [[phases.mix]]
  op = "put"
  weight = 1
  table = "Shop"
  key = "PRODUCT#{key}"
  sort = "REVIEW#{seq}"
  size = 300
)";
}

TEST(AdviseTest, HotReadsGetACacheInFrontOfTheTable) {
  const Workload workload = Parse(HotReads(false));
  auto report = Simulate(workload);
  ASSERT_TRUE(report.ok());
  ASSERT_GT(report->totals.throttled, 0);
  EXPECT_TRUE(report->caches.empty());
  const std::vector<Advice> advice = Advise(workload, *report, {});
  const Advice* cache = Find(advice, "a cache in front of Shop");
  ASSERT_NE(cache, nullptr);
  ASSERT_TRUE(cache->report);
  EXPECT_FALSE(cache->throttled);
  EXPECT_EQ(cache->report->totals.served, report->totals.offered);
  ASSERT_EQ(cache->report->caches.size(), 1u);
  EXPECT_GT(cache->report->caches[0].hit_ratio, 0.99);
  const std::string text = AdviceText(*report, advice);
  EXPECT_NE(text.find("a cache in front of Shop (DAX's semantics)  [no throttling]"),
            std::string::npos)
      << text;
}

TEST(AdviseTest, ACachedTableReportsItsHitsAndTheReadUnitsTheyDidNotConsume) {
  auto plain = Simulate(Parse(HotReads(false)));
  auto cached = Simulate(Parse(HotReads(true)));
  ASSERT_TRUE(plain.ok() && cached.ok());
  EXPECT_EQ(cached->totals.throttled, 0);
  ASSERT_EQ(cached->caches.size(), 1u);
  const CacheReport& c = cached->caches[0];
  EXPECT_EQ(c.table, "Shop");
  // Every put (write-through) leaves the new item cached: the product item is read once, then
  // answered from memory.
  EXPECT_EQ(c.item_misses, 1);
  EXPECT_GT(c.item_hits, 39000);
  EXPECT_DOUBLE_EQ(c.read_units_saved, 0.5 * static_cast<double>(c.item_hits));  // 1 KB: 0.5
  EXPECT_EQ(c.cost_saved, 0);  // provisioned
  double consumed = 0;
  for (const ResourceReport& r : cached->resources) consumed += r.consumed_read_units;
  EXPECT_LT(consumed, 10);  // the table served one read
  const std::string text = ReportText(*cached);
  EXPECT_NE(text.find("Caches (in front of their tables"), std::string::npos) << text;
  EXPECT_NE(ReportJson(*cached).find("\"caches\":[{\"table\":\"Shop\""), std::string::npos);
}

TEST(AdviseTest, AnUnderProvisionedTableGetsMoreCapacityAutoScalingAndOnDemand) {
  const std::string small = R"(
[[tables]]
name = "Events"
partition_key = "PK"
sort_key = "SK"
billing = "provisioned"
read_capacity = 100
write_capacity = 100
)";
  const Workload workload =
      Parse(Writes(small, 300, R"({ distribution = "uniform", count = 100000 })"));
  auto report = Simulate(workload);
  ASSERT_TRUE(report.ok());
  ASSERT_GT(report->totals.throttled, 0);
  const std::vector<Advice> advice = Advise(workload, *report, {});
  const Advice* capacity = Find(advice, "provisioned capacity");
  ASSERT_NE(capacity, nullptr);
  ASSERT_TRUE(capacity->report);
  EXPECT_FALSE(capacity->throttled) << capacity->title;
  // 300 writes a second against 100 WCU (and the burst saved from unused capacity): x2 is not
  // enough for 10 s, x4 is.
  EXPECT_EQ(capacity->title, "provisioned capacity x4");
  EXPECT_NE(Find(advice, "auto scaling"), nullptr);
  const Advice* on_demand = Find(advice, "on-demand");
  ASSERT_NE(on_demand, nullptr);
  ASSERT_TRUE(on_demand->report);
  EXPECT_FALSE(on_demand->throttled);
  EXPECT_EQ(on_demand->report->resources[0].billing_mode, "PAY_PER_REQUEST");
  // Each run has its bill: 4x the provisioned writes cost more than the original.
  EXPECT_GT(capacity->report->cost.total, report->cost.total);
}

TEST(AdviseTest, NothingThrottledNothingToChange) {
  const Workload workload =
      Parse(Writes(kRoomyTable, 100, R"({ distribution = "uniform", count = 1000 })"));
  auto report = Simulate(workload);
  ASSERT_TRUE(report.ok());
  EXPECT_TRUE(Advise(workload, *report, {}).empty());
  EXPECT_EQ(AdviceText(*report, {}), "Advice: nothing was throttled; nothing to change.\n");
}

}  // namespace
}  // namespace partstore::sim
