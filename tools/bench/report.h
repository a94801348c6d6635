// What `partstore bench` reports: the machine, the data, every cell (target x workload x
// distribution x threads) with throughput and latency percentiles, and the ratios the targets of
// issue 11 are stated in. Printed as Markdown tables (readable in a terminal, pasted as is into
// bench/README.md) and written as JSON.
//
// Thread safety: plain data and pure functions.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tools/bench/runner.h"
#include "tools/bench/workloads.h"

namespace partstore::bench {

struct MachineInfo {
  std::string cpu;  // /proc/cpuinfo's model name
  int cores = 0;    // online CPUs
  double memory_gib = 0;
  std::string kernel;
  std::string date;  // UTC, ISO 8601
};
MachineInfo DescribeMachine();

// How a target takes part: the ratios are computed between roles.
enum class Role : uint8_t {
  kEngine,       // partstore in-process
  kCeiling,      // the bare map (in-process) or a static-response server (over the wire)
  kPeer,         // Redis, dynalite, DynamoDB, ...
  kWireSubject,  // partstore serve over the wire
};

struct TargetInfo {
  std::string name;
  Role role = Role::kPeer;
  bool wire = false;  // over HTTP: measured with `connections` threads
  int64_t loaded_items = 0;
  double load_seconds = 0;
  std::string error;  // why it was left out, if it was
};

// numerator / denominator, over the cells both have (same workload, distribution, threads).
struct RatioSpec {
  std::string numerator;
  std::string denominator;
  std::string label;   // "engine / bare-map"
  std::string target;  // the goal, e.g. ">= 0.4 on point reads", or empty
  bool point_reads_only = false;
  double goal = 0;  // the ratio to reach (0: none)
};

struct BenchReport {
  MachineInfo machine;
  DatasetOptions dataset;
  double seconds = 0;
  double warmup_seconds = 0;
  int rounds = 1;  // each cell is the median of this many runs
  int connections = 0;
  std::vector<TargetInfo> targets;
  std::vector<CellResult> cells;
  std::vector<RatioSpec> ratios;
};

// One ratio's figures: every matching pair of cells' ratio, and whether all reach the goal.
struct RatioResult {
  const RatioSpec* spec = nullptr;
  struct Pair {
    std::string workload;
    Distribution distribution;
    int threads;
    double ratio;
  };
  std::vector<Pair> pairs;
  double min = 0, median = 0, max = 0;
  bool met = false;  // every pair >= goal (and at least one pair)
};
std::vector<RatioResult> ComputeRatios(const BenchReport& report);

void PrintReport(const BenchReport& report, std::ostream& out);
std::string ReportJson(const BenchReport& report);

}  // namespace partstore::bench
