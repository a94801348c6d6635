// The workloads of the simulator's speed targets are what bench/README.md says they measure:
// hour_20k.toml, an hour at 20,000 requests a second over 100,000 Zipfian keys, with Contributor
// Insights on; hour_20k_orders.toml, issue 51's shape of the seed e-commerce table.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

Result<Workload> Load(const std::string& file) {
  const std::string path = std::string(PARTSTORE_BENCH_WORKLOADS) + "/" + file;
  std::ifstream in(path);
  if (!in) return Status::Validation("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseWorkload(text.str(), path);
}

TEST(BenchWorkloadTest, TheHourAt20kIsWhatTheReadmeMeasures) {
  Result<Workload> w = Load("hour_20k.toml");
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_TRUE(w->contributor_insights);
  ASSERT_EQ(w->phases.size(), 1u);
  const Phase& phase = w->phases[0];
  EXPECT_EQ(phase.duration_micros, int64_t{3600} * 1'000'000);
  EXPECT_EQ(phase.rate, 20000);
  EXPECT_FALSE(phase.rate_end.has_value());
  EXPECT_EQ(phase.keys.kind, KeyDistribution::Kind::kZipfian);
  EXPECT_EQ(phase.keys.count, 100000);
  ASSERT_EQ(phase.mix.size(), 2u);
  EXPECT_EQ(phase.mix[0].kind, OpKind::kGet);
  EXPECT_EQ(phase.mix[1].kind, OpKind::kPut);
  EXPECT_EQ(phase.mix[0].weight, 3 * phase.mix[1].weight);
}

// Issue 51: a provisioned table with a KEYS_ONLY GSI (GSI1PK / GSI1SK), 100,000 users of 300 B
// preloaded, then 20,000 requests a second for an hour, Zipfian (theta 0.9) over the users: 70%
// GetItem of a profile, 25% PutItem of a new 400 B order under the user (ORDER#<seq>, with GSI1
// keys), 5% Query of a user's last 10 orders.
TEST(BenchWorkloadTest, TheOrdersHourIsIssue51sShape) {
  Result<Workload> w = Load("hour_20k_orders.toml");
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_TRUE(w->contributor_insights);
  ASSERT_EQ(w->tables.size(), 1u);
  const TableSpec& table = w->tables[0];
  EXPECT_FALSE(table.on_demand);
  ASSERT_EQ(table.indexes.size(), 1u);
  EXPECT_EQ(table.indexes[0].partition_key, "GSI1PK");
  EXPECT_EQ(table.indexes[0].sort_key, "GSI1SK");
  EXPECT_EQ(table.indexes[0].projection, "KEYS_ONLY");
  ASSERT_EQ(w->preload.size(), 1u);
  EXPECT_EQ(w->preload[0].keys, 100000);
  EXPECT_EQ(w->preload[0].size.bytes, 300);
  ASSERT_EQ(w->phases.size(), 1u);
  const Phase& phase = w->phases[0];
  EXPECT_EQ(phase.duration_micros, int64_t{3600} * 1'000'000);
  EXPECT_EQ(phase.rate, 20000);
  EXPECT_EQ(phase.keys.kind, KeyDistribution::Kind::kZipfian);
  EXPECT_EQ(phase.keys.count, 100000);
  EXPECT_EQ(phase.keys.theta, 0.9);
  ASSERT_EQ(phase.mix.size(), 3u);
  EXPECT_EQ(phase.mix[0].kind, OpKind::kGet);
  EXPECT_EQ(phase.mix[0].weight, 70);
  EXPECT_EQ(phase.mix[1].kind, OpKind::kPut);
  EXPECT_EQ(phase.mix[1].weight, 25);
  ASSERT_TRUE(phase.mix[1].size.has_value());
  EXPECT_EQ(phase.mix[1].size->bytes, 400);
  ASSERT_TRUE(phase.mix[1].sort.has_value());
  EXPECT_EQ(phase.mix[1].sort->text(), "ORDER#{seq:09}");
  EXPECT_EQ(phase.mix[1].attributes.size(), 2u);
  EXPECT_EQ(phase.mix[2].kind, OpKind::kQuery);
  EXPECT_EQ(phase.mix[2].weight, 5);
  EXPECT_EQ(phase.mix[2].limit, 10);
  EXPECT_FALSE(phase.mix[2].scan_forward);
}

}  // namespace
}  // namespace partstore::sim
