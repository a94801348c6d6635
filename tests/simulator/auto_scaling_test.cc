// Auto scaling (tools/simulator/auto_scaling.h) against the documented timings, on the manual
// clock: a step from 30% to 150% of the provisioned writes (when the first scale-out lands, and
// how far), scale-in after 15 quiet minutes down to the minimum, no scale-in when it is disabled,
// GSIs scaled on their own, the daily decrease quota, the bill over the changing capacity, and
// the workload file's checks.
#include "tools/simulator/auto_scaling.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <string>

#include "tests/simulator/simulation_testutil.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim {
namespace {

// A phase of `rate` puts a second of new 200-byte items (keys "<NAME>#{seq}") with a GSI key.
std::string WritesPhase(const std::string& name, const std::string& duration, int rate) {
  std::string key = name;
  for (char& c : key) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return "[[phases]]\nname = \"" + name + "\"\nduration = \"" + duration +
         "\"\nrate = " + std::to_string(rate) +
         "\nkeys = { distribution = \"uniform\", count = 1000000 }\n"
         "  [[phases.mix]]\n  op = \"put\"\n  table = \"Events\"\n  key = \"" +
         key + "#{seq}\"\n  size = 200\n  attributes = { G = \"G#{key}\" }\n";
}

// A provisioned table (100 RCU / 100 WCU) and its GSI (100 / 100), both scaling writes between 50
// and 1,000 at 70%; 10 minutes at 30 writes a second, 20 at 150, 40 at 10, each a new item (so each
// write is one WCU on the table and one on the GSI). No retries: consumption is what the first
// attempts got.
std::string StepWorkload(const std::string& extra_scaling = "") {
  return R"(
name = "step"
[retries]
mode = "none"
[[tables]]
name = "Events"
partition_key = "PK"
billing = "provisioned"
read_capacity = 100
write_capacity = 100
  [tables.auto_scaling]
  write = { min = 50, max = 1000, target = 70)" +
         extra_scaling + R"( }
  [[tables.indexes]]
  name = "ByG"
  partition_key = "G"
  projection = "KEYS_ONLY"
  read_capacity = 100
  write_capacity = 100
    [tables.indexes.auto_scaling]
    write = { min = 50, max = 1000, target = 70 }
)" + WritesPhase("base", "10m", 30) +
         WritesPhase("step", "20m", 150) + WritesPhase("quiet", "40m", 10);
}

Report Simulated(const std::string& toml) { return testing::MustSimulate(toml); }

TEST(AutoScalingTest, AStepTo150PercentScalesOutAfterTwoMinutesAndInAfterFifteenQuietOnes) {
  const Report report = Simulated(StepWorkload());
  ASSERT_EQ(report.resources.size(), 2u);
  for (const ResourceReport& resource : report.resources) {
    SCOPED_TRACE(resource.index.value_or("table"));
    const auto& actions = resource.scaling_actions;
    ASSERT_EQ(actions.size(), 2u);
    // The step starts at 600 s; minutes 10 and 11 are both above 70 WCU/s: the high alarm fires
    // at the end of minute 11 (720 s), and the UpdateTable lands 120 s later.
    const ScalingActionReport& out = actions[0];
    EXPECT_EQ(out.reason, "scale-out");
    EXPECT_EQ(out.dimension, "write");
    EXPECT_EQ(out.time_seconds, 720);
    EXPECT_EQ(out.effective_seconds, 840);
    EXPECT_EQ(out.from, 100);
    // Burst capacity serves the whole 150 a second for those minutes: ceil(150 / 0.7) = 215.
    EXPECT_DOUBLE_EQ(out.consumed_per_second, 150);
    EXPECT_EQ(out.to, 215);
    // The quiet phase starts at 1,800 s at 10 WCU/s, below (70% - 20) x 215: the 15th quiet
    // minute ends at 2,700 s; the new capacity, ceil(10 / 0.7) = 15, is held at the minimum.
    const ScalingActionReport& in = actions[1];
    EXPECT_EQ(in.reason, "scale-in");
    EXPECT_EQ(in.time_seconds, 2700);
    EXPECT_EQ(in.effective_seconds, 2820);
    EXPECT_EQ(in.from, 215);
    EXPECT_EQ(in.to, 50);
    // The minutes show it; the bill pays each capacity for its time.
    EXPECT_EQ(resource.capacity_minutes[13].write_capacity, 100);  // 780 s
    EXPECT_EQ(resource.capacity_minutes[14].write_capacity, 215);  // 840 s
    EXPECT_EQ(resource.capacity_minutes[47].write_capacity, 50);   // 2,820 s
    EXPECT_NEAR(resource.capacity_minutes[20].consumed_write_per_second, 150, 1e-9);
    EXPECT_DOUBLE_EQ(resource.write_capacity_unit_hours,
                     (100.0 * 840 + 215.0 * (2820 - 840) + 50.0 * (4200 - 2820)) / 3600);
    EXPECT_DOUBLE_EQ(resource.read_capacity_unit_hours, 100.0 * 4200 / 3600);  // not scaled
  }
  EXPECT_DOUBLE_EQ(report.cost.resources[0].write_capacity_unit_hours,
                   report.resources[0].write_capacity_unit_hours);
  EXPECT_EQ(report.totals.throttled, 0);
}

TEST(AutoScalingTest, DisabledScaleInKeepsTheCapacity) {
  const Report report = Simulated(StepWorkload(", disable_scale_in = true"));
  ASSERT_EQ(report.resources[0].scaling_actions.size(), 1u);
  EXPECT_EQ(report.resources[0].scaling_actions[0].reason, "scale-out");
  EXPECT_EQ(report.resources[0].capacity_minutes.back().write_capacity, 215);
  // The GSI's own policy still scales in.
  EXPECT_EQ(report.resources[1].scaling_actions.size(), 2u);
}

TEST(AutoScalingTest, DynamoDBsDailyDecreaseQuota) {
  // Four decreases at any time of a UTC day.
  for (int done = 0; done < 4; ++done) EXPECT_TRUE(AutoScaler::DecreaseAllowed(done, 10, 20));
  // Then one each hour without a decrease.
  EXPECT_FALSE(AutoScaler::DecreaseAllowed(4, 1000, 1000 + 3599));
  EXPECT_TRUE(AutoScaler::DecreaseAllowed(4, 1000, 1000 + 3600));
  EXPECT_TRUE(AutoScaler::DecreaseAllowed(26, 1000, 1000 + 7200));
  // At most 27 a day.
  EXPECT_FALSE(AutoScaler::DecreaseAllowed(27, 1000, 1000 + 7200));
}

TEST(AutoScalingTest, TheWorkloadFileAndTheScalerRefuseWhatCannotScale) {
  auto error = [](const std::string& toml) {
    auto parsed = ParseWorkload(toml, "w.toml");
    if (!parsed.ok()) return std::string(parsed.status().message());
    auto report = Simulate(*parsed);
    return report.ok() ? std::string("OK") : std::string(report.status().message());
  };
  std::string on_demand = StepWorkload();
  on_demand.replace(on_demand.find("billing = \"provisioned\""),
                    std::string("billing = \"provisioned\"").size(), "billing = \"on-demand\"");
  on_demand.replace(on_demand.find("read_capacity = 100\nwrite_capacity = 100\n"),
                    std::string("read_capacity = 100\nwrite_capacity = 100\n").size(), "");
  EXPECT_NE(error(on_demand).find("tables[0].auto_scaling: an on-demand table has no capacity to "
                                  "scale"),
            std::string::npos)
      << error(on_demand);
  std::string low_target = StepWorkload();
  low_target.replace(low_target.find("target = 70"), 11, "target = 10");
  EXPECT_NE(
      error(low_target).find("tables[0].auto_scaling.write.target: must be between 20 and 90"),
      std::string::npos)
      << error(low_target);
  std::string inverted = StepWorkload();
  inverted.replace(inverted.find("min = 50, max = 1000"), 20, "min = 500, max = 100");
  EXPECT_NE(error(inverted).find("tables[0].auto_scaling.write.max: must be at least min"),
            std::string::npos)
      << error(inverted);
  std::string unknown = StepWorkload(", step = 5");
  EXPECT_NE(error(unknown).find("unknown key \"step\""), std::string::npos) << error(unknown);
}

// A phase's scheduled throughput change: an UpdateTable when it starts, in the report beside auto
// scaling's actions and billed from then on.
TEST(ThroughputSettingsTest, APhaseSetsProvisionedUnitsWhenItStarts) {
  const Report report = Simulated(R"(
name = "scheduled"
[[tables]]
name = "Events"
partition_key = "PK"
billing = "provisioned"
read_capacity = 100
write_capacity = 100
[[phases]]
name = "before"
duration = "1m"
rate = 10
  [[phases.mix]]
  op = "put"
  table = "Events"
  key = "A#{seq}"
[[phases]]
name = "after"
duration = "1m"
rate = 10
  [[phases.throughput]]
  table = "Events"
  write_capacity = 400
  [[phases.mix]]
  op = "put"
  table = "Events"
  key = "B#{seq}"
)");
  const ResourceReport& table = report.resources[0];
  ASSERT_EQ(table.scaling_actions.size(), 1u);
  EXPECT_EQ(table.scaling_actions[0].reason, "scheduled");
  EXPECT_EQ(table.scaling_actions[0].time_seconds, 60);
  EXPECT_EQ(table.scaling_actions[0].to, 400);
  EXPECT_EQ(table.capacity_minutes[1].write_capacity, 400);
  EXPECT_DOUBLE_EQ(table.write_capacity_unit_hours, (100.0 * 60 + 400.0 * 60) / 3600);
  EXPECT_DOUBLE_EQ(table.read_capacity_unit_hours, 100.0 * 120 / 3600);
}

// A workload's OnDemandThroughput and WarmThroughput reach the engine: the maximum throttles with
// its reason, warm throughput starts the table with its partitions.
TEST(ThroughputSettingsTest, OnDemandMaximumAndWarmThroughputFromTheWorkload) {
  const Report report = Simulated(R"(
name = "settings"
[retries]
mode = "none"
[[tables]]
name = "Capped"
partition_key = "PK"
billing = "on-demand"
max_write_request_units = 50
warm_write_units = 8000
[[phases]]
name = "load"
duration = "10s"
rate = 200
  [[phases.mix]]
  op = "put"
  table = "Capped"
  key = "K#{seq}"
)");
  ASSERT_FALSE(report.throttle_events.empty());
  EXPECT_EQ(report.throttle_events[0].reason, "TableWriteMaxOnDemandThroughputExceeded");
  EXPECT_NEAR(static_cast<double>(report.totals.served), 50 * 10 + 50, 60);  // (a first full
                                                                             // second's bucket)
  EXPECT_EQ(report.resources[0].partitions.size(), 8u);  // 8,000 WRU / 1,000 a partition
  auto refused = ParseWorkload(R"(
name = "bad"
[[tables]]
name = "Prov"
partition_key = "PK"
billing = "provisioned"
read_capacity = 5
write_capacity = 5
max_write_request_units = 50
[[phases]]
name = "p"
duration = "1s"
rate = 1
  [[phases.mix]]
  op = "put"
  table = "Prov"
  key = "K"
)",
                               "bad.toml");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find(
                "tables[0].max_write_request_units: an on-demand maximum is for on-demand tables"),
            std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace partstore::sim
