// Simulate (tools/simulator/simulation.h): determinism, DynamoDB's documented limits as the
// simulation reproduces them, the client's retry accounting, and the report's internal sums.
#include "tools/simulator/simulation.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "tests/simulator/simulation_testutil.h"
#include "tests/testutil/sanitizers.h"
#include "tools/simulator/report_json.h"
#include "tools/simulator/scenarios.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

Workload ParseToml(const std::string& toml) { return testing::MustParse(toml); }
Report RunWorkload(const Workload& workload) { return testing::MustSimulate(workload); }

// A provisioned table far larger than one partition's limits, one hot key written at `rate`
// after a warm-up phase (a new partition starts with one second of tokens), retries off so that
// served counts are first attempts only.
std::string HotKey(int rate, const std::string& sharding) {
  return R"(
name = "hot-key"
seed = 3
[retries]
mode = "none"
[[tables]]
name = "Events"
partition_key = "PK"
sort_key = "SK"
read_capacity = 1000
write_capacity = 40000
)" + sharding +
         R"(
[[phases]]
name = "warm-up"
duration = "2s"
rate = )" +
         std::to_string(rate) +
         R"(
keys = { distribution = "hot-key", key = 7 }
  [[phases.mix]]
  op = "put"
  table = "Events"
  key = "DEVICE#{key}"
  sort = "T#{seq:09}"
  size = 200
[[phases]]
name = "measured"
duration = "10s"
rate = )" +
         std::to_string(rate) +
         R"(
keys = { distribution = "hot-key", key = 7 }
  [[phases.mix]]
  op = "put"
  table = "Events"
  key = "DEVICE#{key}"
  sort = "T#{seq:09}"
  size = 200
)";
}

TEST(SimulationTest, SameWorkloadAndSeedGiveByteIdenticalJson) {
  const Scenario* scenario = FindScenario("viral-product");
  ASSERT_NE(scenario, nullptr);
  Workload workload = ParseToml(std::string(scenario->toml));
  // Shortened: the same phases, a tenth of the time (a fortieth under a sanitizer, whose heap
  // makes a simulated second about ten times as long).
  for (Phase& phase : workload.phases) phase.duration_micros /= PARTSTORE_TEST_SANITIZED ? 40 : 10;
  const std::string first = ReportJson(RunWorkload(workload));
  const std::string second = ReportJson(RunWorkload(workload));
  EXPECT_EQ(first, second);
  EXPECT_GT(first.size(), 1000u);
  workload.seed += 1;
  EXPECT_NE(ReportJson(RunWorkload(workload)), first) << "the seed must matter";
}

TEST(SimulationTest, OneHotKeyIsServedAtAboutOneThousandWritesPerSecond) {
  const Report report = RunWorkload(ParseToml(HotKey(3000, "")));
  ASSERT_EQ(report.phases.size(), 2u);
  const PhaseReport& measured = report.phases[1];
  EXPECT_DOUBLE_EQ(measured.offered_rate, 3000.0);
  // 200-byte items are 1 WCU: one partition's 1,000 WCU/s, whatever the table's 40,000.
  EXPECT_NEAR(measured.served_rate, 1000.0, 10.0);
  EXPECT_EQ(measured.counts.gave_up, measured.counts.throttled);  // retries off
  ASSERT_FALSE(report.throttle_events.empty());
  EXPECT_EQ(report.throttle_events[0].reason, "TableWriteKeyRangeThroughputExceeded");
  // Contributor Insights names the key.
  const ResourceReport& table = report.resources.at(0);
  ASSERT_FALSE(table.top_keys.empty());
  EXPECT_EQ(table.top_keys[0].rule, "MostAccessedPartitionKeys");
  ASSERT_FALSE(table.top_keys[0].keys.empty());
  EXPECT_EQ(table.top_keys[0].keys[0].key, "PK=DEVICE#7");
}

TEST(SimulationTest, WriteShardingServesTheOfferedRateOnceCapacityAllows) {
  const Report report = RunWorkload(ParseToml(HotKey(3000, R"(
[[sharding]]
table = "Events"
key = "DEVICE#7"
shards = 10
strategy = "random"
)")));
  const PhaseReport& measured = report.phases[1];
  EXPECT_DOUBLE_EQ(measured.served_rate, 3000.0);
  EXPECT_EQ(measured.counts.throttled, 0);
}

TEST(SimulationTest, RetriesAreCountedAndDelayServedRequests) {
  Workload workload = ParseToml(HotKey(1500, ""));
  const Report report = RunWorkload(workload);
  workload.retries.mode = RetryPolicy::Mode::kExponential;
  workload.retries.max_attempts = 5;
  const Report retried = RunWorkload(workload);
  EXPECT_EQ(report.totals.retries, 0);
  EXPECT_GT(retried.totals.retries, 0);
  EXPECT_EQ(retried.totals.attempts, retried.totals.offered + retried.totals.retries);
  EXPECT_GT(retried.retry_delay.delayed_requests, 0);
  EXPECT_GT(retried.retry_delay.p99_ms, retried.retry_delay.p50_ms);
  // Retries cannot lift the partition's limit: still about 1,000/s served in the measured phase
  // (served counts a retried request in the phase that offered it).
  EXPECT_NEAR(retried.phases[1].served_rate, 1000.0, 60.0);
  EXPECT_LE(retried.totals.gave_up, report.totals.gave_up);
}

// Every offered request ends exactly one way, the timeline adds up to the totals, and the heat
// map and the partitions add up to the table's consumed units.
void ExpectConsistent(const Report& r) {
  const RequestCounts& t = r.totals;
  EXPECT_EQ(t.offered, t.served + t.gave_up + t.condition_failed + t.errors) << r.workload;
  EXPECT_EQ(t.attempts, t.offered + t.retries) << r.workload;
  RequestCounts timeline;
  for (const TimelinePoint& p : r.timeline) timeline += p.counts;
  EXPECT_EQ(timeline.offered, t.offered);
  EXPECT_EQ(timeline.attempts, t.attempts);
  EXPECT_EQ(timeline.served, t.served);
  EXPECT_EQ(timeline.throttled, t.throttled);
  for (const ResourceReport& res : r.resources) {
    double partitions = 0;
    for (const PartitionReport& p : res.partitions) partitions += p.consumed_write_units;
    EXPECT_NEAR(partitions, res.consumed_write_units, 1e-6) << res.table;
    double cells = 0;
    const HeatMap& h = res.heat_map;
    ASSERT_EQ(h.write_units.size(), h.partition_ids.size());
    for (size_t row = 0; row < h.write_units.size(); ++row) {
      ASSERT_EQ(h.write_units[row].size(), static_cast<size_t>(h.columns));
      for (int64_t c = 0; c < h.columns; ++c) {
        const double span =
            std::min<double>(static_cast<double>(h.bucket_seconds),
                             r.simulated_seconds - static_cast<double>(c * h.bucket_seconds));
        cells += h.write_units[row][c] * span;
      }
    }
    EXPECT_NEAR(cells, res.consumed_write_units, 1e-6 * std::max(1.0, res.consumed_write_units))
        << res.table;
  }
}

TEST(SimulationTest, ReportsAddUp) {
  ExpectConsistent(RunWorkload(ParseToml(HotKey(3000, ""))));
  Workload workload = ParseToml(HotKey(1500, ""));
  workload.retries.mode = RetryPolicy::Mode::kExponential;
  ExpectConsistent(RunWorkload(workload));
}

TEST(SimulationTest, EveryBuiltInScenarioParsesAndRunsConsistently) {
  ASSERT_GE(BuiltinScenarios().size(), 5u);
  for (const Scenario& scenario : BuiltinScenarios()) {
    SCOPED_TRACE(std::string(scenario.name));
    auto parsed = ParseWorkload(scenario.toml, scenario.file);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    Workload workload = *parsed;
    // A twentieth of the time keeps the test quick (an eightieth under a sanitizer); the full
    // runs are the CLI's.
    const int64_t shorter = PARTSTORE_TEST_SANITIZED ? 80 : 20;
    for (Phase& phase : workload.phases) {
      phase.duration_micros = std::max<int64_t>(phase.duration_micros / shorter, 1'000'000);
    }
    const Report report = RunWorkload(workload);
    EXPECT_EQ(report.totals.errors, 0) << (report.errors.empty() ? "" : report.errors[0].message);
    ExpectConsistent(report);
  }
}

// Padding of one repeated byte is stored by its length (core/stored_item_format.h); with
// full_items every item's padding varies and is stored byte for byte. The reports of every
// built-in scenario are the same either way: only the run's memory differs.
TEST(SimulationTest, FullItemsGiveTheSameReports) {
  for (const Scenario& scenario : BuiltinScenarios()) {
    // Under a sanitizer (ten times as slow), three: a cache, a throttled GSI, retries of a hot key.
    const std::string_view name = scenario.name;
    if (PARTSTORE_TEST_SANITIZED && name != "product-page-cached" && name != "gsi-backpressure" &&
        name != "celebrity") {
      continue;
    }
    SCOPED_TRACE(std::string(scenario.name));
    Workload workload = ParseToml(std::string(scenario.toml));
    for (Phase& phase : workload.phases) {
      phase.duration_micros = std::max<int64_t>(phase.duration_micros / 200, 1'000'000);
    }
    const std::string by_length = ReportJson(RunWorkload(workload));
    const std::string full = ReportJson(testing::MustSimulate(workload, {.full_items = true}));
    EXPECT_EQ(by_length, full);
  }
}

TEST(SimulationTest, AnEngineRefusalOfTheWorkloadIsAnError) {
  // ParseWorkload checks what it can; whatever the engine still refuses (here a policy the parser
  // would have refused, built by hand) fails the run with the engine's message and its place.
  Workload workload = ParseToml(HotKey(10, ""));
  ShardingSpec spec{.table = "Events"};
  spec.policy.key = "DEVICE#7";
  spec.policy.shard_count = 0;
  workload.sharding.push_back(spec);
  auto report = Simulate(workload);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), Code::kValidation);
  EXPECT_NE(report.status().message().find("sharding policy on Events (DEVICE#7): "),
            std::string::npos)
      << report.status().message();
}

// A minimal one-table workload around `mix` (TOML of [[phases.mix]] entries) and `phase` keys.
std::string OneTable(const std::string& table_extra, const std::string& phase_extra,
                     const std::string& mix) {
  return R"(
name = "t"
seed = 9
[retries]
mode = "none"
[[tables]]
name = "Tab"
partition_key = "PK"
sort_key = "SK"
read_capacity = 40000
write_capacity = 40000
)" + table_extra +
         R"(
[[phases]]
name = "p"
)" + phase_extra +
         "\n" + mix;
}

// What each table holds at the end of a run of `toml` (DescribeMemory), with or without full items.
std::map<std::string, int64_t> TableBytesAtTheEnd(const std::string& toml, bool full_items) {
  std::map<std::string, int64_t> bytes;
  SimulateOptions options;
  options.full_items = full_items;
  options.live = [&](Database& db, bool finished) {
    if (!finished) return;
    for (const TableMemory& t : db.DescribeMemory().tables) bytes[t.table_name] = t.bytes;
  };
  testing::MustSimulate(toml, options);
  return bytes;
}

// full_items is honoured, and a table with a cache is always padded in full: its cache's memory
// limit must see an item's real bytes.
TEST(SimulationTest, FullItemsHoldTheirBytes) {
  const std::string toml = OneTable("", "duration = \"1s\"\nrate = 100", R"(
  [[phases.mix]]
  op = "put"
  table = "Tab"
  key = "K{key}"
  sort = "S"
  size = 4000
  [[phases.mix]]
  op = "put"
  table = "Cached"
  key = "K{key}"
  sort = "S"
  size = 4000
)") + R"(
[[tables]]
name = "Cached"
partition_key = "PK"
sort_key = "SK"
read_capacity = 40000
write_capacity = 40000
cache = { item_ttl = "5m" }
[[preload]]
table = "Tab"
key = "P{key}"
sort = "S"
keys = 1000
size = 4000
[[preload]]
table = "Cached"
key = "P{key}"
sort = "S"
keys = 1000
size = 4000
)";
  const std::map<std::string, int64_t> by_length = TableBytesAtTheEnd(toml, false);
  const std::map<std::string, int64_t> full = TableBytesAtTheEnd(toml, true);
  constexpr int64_t kPadding = 1000 * 4000;  // the preload's alone
  EXPECT_LT(by_length.at("Tab"), kPadding / 4);
  EXPECT_GT(full.at("Tab"), kPadding);
  EXPECT_GT(by_length.at("Cached"), kPadding);
  EXPECT_GT(full.at("Cached"), kPadding);
}

// An update's padding (its SET of the data attribute) follows full_items too.
TEST(SimulationTest, FullItemsPadUpdatesInFull) {
  const std::string toml = OneTable(
      "", "duration = \"1s\"\nrate = 100\nkeys = { distribution = \"uniform\", count = 50 }", R"(
  [[phases.mix]]
  op = "update"
  table = "Tab"
  key = "K{key}"
  sort = "S"
  size = 4000
  counter = "n"
)");
  constexpr int64_t kSomeItems = 20 * 4000;  // 100 updates of 50 keys touch more than 20
  EXPECT_LT(TableBytesAtTheEnd(toml, false).at("Tab"), kSomeItems / 4);
  EXPECT_GT(TableBytesAtTheEnd(toml, true).at("Tab"), kSomeItems);
}

TEST(SimulationTest, BatchesDrawDistinctKeys) {
  // {seq} in the key: every draw is distinct, so each batch_write carries all 25 items.
  const Report seq = RunWorkload(ParseToml(OneTable("", "duration = \"1s\"\nrate = 40", R"(
  [[phases.mix]]
  op = "batch_write"
  table = "Tab"
  key = "EVENT#{seq:08}"
  sort = "A"
  batch = 25
)")));
  EXPECT_EQ(seq.totals.errors, 0);
  EXPECT_EQ(seq.resources[0].write_requests, 40 * 25);
  // Duplicates drawn from a small space are drawn again, never sent: no errors, fewer items.
  const Report small = RunWorkload(ParseToml(OneTable("", "duration = \"1s\"\nrate = 40", R"(
  [[phases.mix]]
  op = "batch_write"
  table = "Tab"
  key = "HOT"
  sort = "REVIEW#{item}"
  items = 30
  batch = 25
)")));
  EXPECT_EQ(small.totals.errors, 0) << (small.errors.empty() ? "" : small.errors[0].message);
  EXPECT_EQ(small.totals.served, 40);
}

TEST(SimulationTest, GsiReadThrottlesCountInTheTotals) {
  const Report r = RunWorkload(ParseToml(
      OneTable(R"(
  [[tables.indexes]]
  name = "ByG"
  partition_key = "GPK"
  read_capacity = 5
  write_capacity = 1000
[[preload]]
table = "Tab"
key = "K#{key}"
sort = "S"
keys = 100
attributes = { GPK = "G#{key}" }
)",
               "duration = \"5s\"\nrate = 200\nkeys = { distribution = \"uniform\", count = 100 }",
               R"(
  [[phases.mix]]
  op = "query"
  table = "Tab"
  index = "ByG"
  key = "G#{key}"
)")));
  ASSERT_FALSE(r.throttle_events.empty());
  EXPECT_EQ(r.throttle_events[0].reason, "IndexReadProvisionedThroughputExceeded");
  EXPECT_GT(r.throttle_events[0].events, 0);
  int64_t timeline = 0;
  for (const TimelinePoint& p : r.timeline) {
    for (const ReasonCount& c : p.throttle_events) timeline += c.events;
  }
  EXPECT_EQ(timeline, r.throttle_events[0].events);
}

TEST(SimulationTest, HeatMapOfAQuarterSecondRunIsPerSecond) {
  const Report r = RunWorkload(ParseToml(OneTable("", "duration = \"250ms\"\nrate = 800", R"(
  [[phases.mix]]
  op = "put"
  table = "Tab"
  key = "K#{seq}"
  sort = "S"
  size = 200
)")));
  EXPECT_DOUBLE_EQ(r.simulated_seconds, 0.25);
  const ResourceReport& t = r.resources[0];
  EXPECT_EQ(t.consumed_write_units, 200);  // 800/s for a quarter second, 1 WCU each
  double per_second = 0;
  for (const auto& row : t.heat_map.write_units) per_second += row.at(0);
  EXPECT_DOUBLE_EQ(per_second, 800);
}

TEST(SimulationTest, SplitChildrenAreBornAtTheSplit) {
  const Report r = RunWorkload(ParseToml(R"(
name = "heat"
[retries]
mode = "none"
[capacity]
heat_split_seconds = 3
[[tables]]
name = "Tab"
partition_key = "PK"
read_capacity = 100
write_capacity = 900
[[phases]]
name = "hot"
duration = "12s"
rate = 950
keys = { distribution = "uniform", count = 100000 }
  [[phases.mix]]
  op = "put"
  table = "Tab"
  key = "K#{key}"
  size = 100
)"));
  const ResourceReport& t = r.resources[0];
  ASSERT_FALSE(t.splits.empty());
  for (const SplitReport& split : t.splits) {
    for (int child : {split.left_id, split.right_id}) {
      const auto it = std::find_if(t.partitions.begin(), t.partitions.end(),
                                   [&](const PartitionReport& p) { return p.id == child; });
      ASSERT_NE(it, t.partitions.end());
      EXPECT_EQ(it->created_seconds, split.time_seconds) << "partition " << child;
    }
  }
  // A child's heat-map row is blank (-1) before it was born.
  const HeatMap& h = t.heat_map;
  for (size_t row = 0; row < h.partition_ids.size(); ++row) {
    if (h.partition_ids[row] == t.splits[0].right_id) {
      EXPECT_EQ(h.utilization[row][0], -1.0);
    }
  }
}

TEST(SimulationTest, TopKeysCoverTheWholeRun) {
  // A hot key for 2 minutes, then 70 quiet minutes: CloudWatch's hour would have forgotten it.
  const Report r = RunWorkload(ParseToml(OneTable("", R"(duration = "2m"
rate = 50
keys = { distribution = "hot-key", key = 7 }
  [[phases.mix]]
  op = "put"
  table = "Tab"
  key = "K#{key}"
  sort = "S#{seq}"
[[phases]]
name = "quiet"
duration = "70m"
rate = 0
)",
                                                  R"(
  [[phases.mix]]
  op = "get"
  table = "Tab"
  key = "K#0"
  sort = "S#0"
)")));
  const TopKeyRule& accessed = r.resources[0].top_keys.at(0);
  ASSERT_FALSE(accessed.keys.empty());
  EXPECT_EQ(accessed.keys[0].key, "PK=K#7");
  EXPECT_EQ(accessed.keys[0].minute, 0);
}

TEST(SimulationTest, ShardedTablesRefuseReadsWithoutASharedForm) {
  auto report = Simulate(ParseToml(OneTable(R"(
[[sharding]]
table = "Tab"
key = "HOT"
shards = 4
)",
                                            "duration = \"1s\"\nrate = 10", R"(
  [[phases.mix]]
  op = "batch_get"
  table = "Tab"
  key = "HOT"
  sort = "S#{item}"
  items = 10
  batch = 5
)")));
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("no sharded form"), std::string::npos)
      << report.status().message();
}

TEST(SimulationTest, EveryOperationKindIsServed) {
  // Each of the ten operation kinds, on ample capacity: each is sent, served, and errs never.
  std::string mix;
  for (const char* op : {"get", "put", "update", "delete", "batch_get", "batch_write",
                         "transact_write", "transact_get"}) {
    const std::string name = op;
    mix += "  [[phases.mix]]\n  op = \"" + name + "\"\n  table = \"Tab\"\n  key = \"K#{key}\"\n" +
           "  sort = \"S#{item}\"\n  items = 5\n";
    if (name.starts_with("batch") || name.starts_with("transact")) mix += "  batch = 3\n";
  }
  mix +=
      "  [[phases.mix]]\n  op = \"query\"\n  table = \"Tab\"\n  key = \"K#{key}\"\n  limit = 3\n";
  mix += "  [[phases.mix]]\n  op = \"scan\"\n  table = \"Tab\"\n  limit = 7\n";
  const Report r = RunWorkload(ParseToml(OneTable(
      R"(
[[preload]]
table = "Tab"
key = "K#{key}"
sort = "S#{item}"
keys = 50
items_per_key = 5
)",
      "duration = \"2s\"\nrate = 500\nkeys = { distribution = \"uniform\", count = 50 }", mix)));
  ASSERT_EQ(r.phases.size(), 1u);
  EXPECT_EQ(r.totals.errors, 0) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_EQ(r.totals.throttled, 0);
  for (const OperationReport& op : r.phases[0].operations) {
    EXPECT_GT(op.counts.offered, 0) << op.name;
    EXPECT_EQ(op.counts.served + op.counts.condition_failed, op.counts.offered) << op.name;
  }
}

}  // namespace
}  // namespace partstore::sim

namespace partstore::sim {
namespace {

// A preload `from` files: an export's data as DynamoDB JSON, a CSV, and the errors.
class PreloadFromTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::string(::testing::TempDir()) + "partstore_preload_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/json");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Workload(const std::string& from) {
    return OneTable("[[preload]]\ntable = \"Tab\"\nfrom = \"" + from + "\"\n",
                    "duration = \"1s\"\nrate = 10", R"(
  [[phases.mix]]
  op = "get"
  table = "Tab"
  key = "K#{key}"
  sort = "S#0"
)");
  }
  std::string dir_;
};

TEST_F(PreloadFromTest, LoadsDynamoDbJsonAndCsvFiles) {
  {
    std::ofstream out(dir_ + "/json/part-1.json");
    for (int i = 0; i < 40; ++i) {
      out << R"({"Item":{"PK":{"S":"K#)" << i << R"("},"SK":{"S":"S#0"},"n":{"N":")" << i
          << "\"}}}\n";
    }
  }
  std::ofstream(dir_ + "/rows.csv") << "PK,SK,v\nK#1,S#0,a\nK#2,S#0,b\n";
  for (const auto& [from, items] :
       {std::pair{dir_ + "/json", 40}, std::pair{dir_ + "/rows.csv", 2}}) {
    SimulationCost cost;
    auto report = Simulate(ParseToml(Workload(from)), {}, &cost);
    ASSERT_TRUE(report.ok()) << report.status().message();
    EXPECT_EQ(cost.preload_items, items) << from;
  }
}

// What a run cost: its peak memory, and the time to free its Database unless the caller leaves
// that to the process's exit (free_database false, `partstore simulate` with one workload).
TEST_F(PreloadFromTest, ReportsPeakMemoryAndTeardown) {
  std::ofstream(dir_ + "/rows.csv") << "PK,SK,v\nK#1,S#0,a\nK#2,S#0,b\n";
  SimulationCost freed;
  ASSERT_TRUE(Simulate(ParseToml(Workload(dir_ + "/rows.csv")), {}, &freed).ok());
  EXPECT_GT(freed.peak_resident_bytes, 1 << 20);
  EXPECT_GT(freed.teardown_wall_seconds, 0.0);
  SimulationCost kept;
  SimulateOptions options;
  options.free_database = false;
  ASSERT_TRUE(Simulate(ParseToml(Workload(dir_ + "/rows.csv")), options, &kept).ok());
  EXPECT_EQ(kept.teardown_wall_seconds, 0.0);
  EXPECT_GT(kept.peak_resident_bytes, 1 << 20);
}

TEST_F(PreloadFromTest, RefusesMissingFilesTemplatesBesideFromAndBadRecords) {
  auto missing = ParseWorkload(Workload(dir_ + "/nothing"), "test.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no such file or directory"), std::string::npos)
      << missing.status().message();
  auto both =
      ParseWorkload(OneTable("[[preload]]\ntable = \"Tab\"\nfrom = \"" + dir_ + "\"\nkeys = 3\n",
                             "duration = \"1s\"\nrate = 1",
                             "  [[phases.mix]]\n  op = \"scan\"\n  table = \"Tab\"\n"),
                    "test.toml");
  EXPECT_FALSE(both.ok());
  std::ofstream(dir_ + "/json/bad.json") << "{\"Item\":{\"PK\":{\"S\":\"x\"}}}\nnot json\n";
  auto report = Simulate(ParseToml(Workload(dir_ + "/json")));
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("2 records"), std::string::npos)
      << report.status().message();
}

}  // namespace
}  // namespace partstore::sim
