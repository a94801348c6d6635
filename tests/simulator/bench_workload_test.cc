// The workload of the simulator's speed target (bench/workloads/hour_20k.toml) is what
// bench/README.md says it measures: an hour at 20,000 requests a second over 100,000 Zipfian keys,
// with Contributor Insights on.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

TEST(BenchWorkloadTest, TheHourAt20kIsWhatTheReadmeMeasures) {
  const std::string path = std::string(PARTSTORE_BENCH_WORKLOADS) + "/hour_20k.toml";
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::stringstream text;
  text << in.rdbuf();
  Result<Workload> w = ParseWorkload(text.str(), path);
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

}  // namespace
}  // namespace partstore::sim
