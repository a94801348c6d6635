// `partstore simulate` throughput (issue 10): simulated requests per wall-clock second.
//
//   BM_Simulate_PointOps     GetItem/PutItem 3:1 on 100,000 preloaded keys (zipfian 0.99) of a
//                            provisioned table with room for them: the target, >= 1M/s
//   BM_Simulate_HotKey       PutItem on one key at 5,000/s: 80% of attempts throttled, retried
//                            with backoff (the throttle path and the retry queue)
//   BM_Simulate_Builtin/N    the built-in scenarios, each whole
// Each iteration is one Simulate call; items_per_second counts the requests sent to the engine
// (retries included, preload excluded: SimulationCost::requests over SimulationCost::wall_seconds
// is what `partstore simulate` prints). Run:
//   build/release/bench/partstore_benchmarks --benchmark_filter=Simulate
//     --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <string>

#include "tools/simulator/scenarios.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/workload_toml.h"

namespace partstore::sim::simulation_benchmark {
namespace {

constexpr const char* kPointOps = R"(
name = "point-ops"
[[tables]]
name = "Bench"
partition_key = "PK"
read_capacity = 100000
write_capacity = 40000
[[preload]]
table = "Bench"
key = "K#{key:06}"
keys = 100000
size = 200
[[phases]]
name = "mix"
duration = "20s"
rate = 50000
keys = { distribution = "zipfian", count = 100000, theta = 0.99 }
  [[phases.mix]]
  op = "get"
  weight = 3
  table = "Bench"
  key = "K#{key:06}"
  [[phases.mix]]
  op = "put"
  weight = 1
  table = "Bench"
  key = "K#{key:06}"
  size = 200
)";

constexpr const char* kHotKey = R"(
name = "hot-key"
[[tables]]
name = "Bench"
partition_key = "PK"
read_capacity = 1000
write_capacity = 40000
[[phases]]
name = "hot"
duration = "60s"
rate = 5000
keys = { distribution = "hot-key" }
  [[phases.mix]]
  op = "put"
  table = "Bench"
  key = "K#{key}"
  size = 200
)";

void RunWorkload(benchmark::State& state, std::string_view toml) {
  auto workload = ParseWorkload(toml, "bench");
  if (!workload.ok()) {
    state.SkipWithError(std::string(workload.status().message()).c_str());
    return;
  }
  double wall = 0;
  int64_t requests = 0;
  for (auto _ : state) {
    SimulationCost cost;
    auto report = Simulate(*workload, {}, &cost);
    if (!report.ok()) {
      state.SkipWithError(std::string(report.status().message()).c_str());
      return;
    }
    wall += cost.wall_seconds;
    requests += cost.requests;
  }
  // Requests over the driving loop's own time (not the preload's or the report's).
  state.counters["requests_per_second"] = benchmark::Counter(static_cast<double>(requests) / wall);
  state.counters["requests"] =
      benchmark::Counter(static_cast<double>(requests) / static_cast<double>(state.iterations()));
}

void BM_Simulate_PointOps(benchmark::State& state) { RunWorkload(state, kPointOps); }
BENCHMARK(BM_Simulate_PointOps)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Simulate_HotKey(benchmark::State& state) { RunWorkload(state, kHotKey); }
BENCHMARK(BM_Simulate_HotKey)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Simulate_Builtin(benchmark::State& state) {
  const Scenario& scenario = BuiltinScenarios()[static_cast<size_t>(state.range(0))];
  state.SetLabel(std::string(scenario.name));
  RunWorkload(state, scenario.toml);
}
BENCHMARK(BM_Simulate_Builtin)->DenseRange(0, 4)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace partstore::sim::simulation_benchmark
