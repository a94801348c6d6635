// The runner: loads a target with a Dataset, then runs one workload on it for a fixed time with N
// threads (one Session each, closed loop: a thread sends its next request when the previous one
// is answered, as YCSB's client threads do) and measures throughput and per-operation latency.
//
//   TargetState state(target, dataset);
//   Status loaded = state.Load(/*loaders=*/2);
//   Result<CellResult> cell = RunCell(state, *FindWorkload("ycsb-a"), {.threads = 2});
//
// Inserts (YCSB D and E) add records after the loaded ones; TargetState counts them, so later
// cells on the same target read a table that grew, as in YCSB when workloads run in sequence.
//
// Thread safety: RunCell starts and joins its own threads; one RunCell at a time per TargetState.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "partstore/status.h"
#include "tools/bench/histogram.h"
#include "tools/bench/target.h"
#include "tools/bench/workloads.h"

namespace partstore::bench {

class TargetState {
 public:
  TargetState(Target& target, const Dataset& dataset) : target_(target), dataset_(dataset) {}

  Target& target() { return target_; }
  const Dataset& dataset() const { return dataset_; }
  // Prepare + load both tables with `loaders` threads; load_seconds() says how long it took.
  Status Load(int loaders);
  double load_seconds() const { return load_seconds_; }
  int64_t loaded_items() const { return loaded_items_; }
  // YCSB records that exist: the loaded ones and every insert so far (next_record's count).
  std::atomic<int64_t>& next_record() { return next_record_; }

 private:
  Target& target_;
  const Dataset& dataset_;
  std::atomic<int64_t> next_record_{0};
  double load_seconds_ = 0;
  int64_t loaded_items_ = 0;
};

struct CellOptions {
  Distribution distribution = Distribution::kZipfian;
  int threads = 1;
  double seconds = 2.0;         // measured
  double warmup_seconds = 0.5;  // run before measuring, not counted
  uint64_t seed = 1;
  // false for a static-response server: nothing it answers can be checked.
  bool check_reads = true;
};

struct OpResult {
  OpType op = OpType::kRead;
  uint64_t count = 0;
  uint64_t errors = 0;
  uint64_t misses = 0;  // a read that found nothing where the data says it exists
  Histogram latency;    // of the successful ones, nanoseconds
};

struct CellResult {
  std::string target;
  std::string workload;
  Distribution distribution = Distribution::kZipfian;
  int threads = 1;
  double seconds = 0;  // measured wall time
  uint64_t operations = 0;
  uint64_t errors = 0;
  uint64_t misses = 0;
  double ops_per_second = 0;
  std::string first_error;
  std::vector<OpResult> ops;  // the operation types that ran, in OpType order
  Histogram latency;          // every operation
};

Result<CellResult> RunCell(TargetState& state, const Workload& workload,
                           const CellOptions& options);

}  // namespace partstore::bench
