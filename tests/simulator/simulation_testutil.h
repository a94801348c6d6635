// Helpers of the simulation tests (simulation_test.cc, auto_scaling_test.cc, pricing_test.cc,
// advise_test.cc, report_summary_test.cc): a workload parsed and a run simulated, failing the test
// on an error, and the one-hot-key workload several of them throttle.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "tools/simulator/simulation.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim::testing {

inline Workload MustParse(const std::string& toml) {
  auto parsed = ParseWorkload(toml, "test.toml");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return parsed.ok() ? *parsed : Workload{};
}

inline Report MustSimulate(const Workload& workload, const SimulateOptions& options = {}) {
  auto report = Simulate(workload, options);
  EXPECT_TRUE(report.ok()) << report.status().message();
  return report.ok() ? *report : Report{};
}

inline Report MustSimulate(const std::string& toml, const SimulateOptions& options = {}) {
  return MustSimulate(MustParse(toml), options);
}

// One key written `rate` times a second for 10 s, 200-byte items, no retries, on a provisioned
// table with room to spare (40,000 WCU): only the partition's 1,000 WCU limit can throttle it.
// (tests/simulator/advise_workload.toml is this at 3,000 a second.)
inline std::string OneHotKey(int rate) {
  return R"(
name = "hot"
[retries]
mode = "none"
[[tables]]
name = "Events"
partition_key = "PK"
sort_key = "SK"
billing = "provisioned"
read_capacity = 1000
write_capacity = 40000
[[phases]]
name = "hot"
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

}  // namespace partstore::sim::testing
