// Advise: `partstore simulate --advise`. From a run's report, the what-ifs that answer "what
// should I change?", each simulated and reported beside the original with its bill:
//
//   hot keys      a table's or GSI's KeyRangeThroughputExceeded throttles: write sharding of its
//                 most throttled partition keys (up to 3), the smallest shard count of 2, 4, 8,
//                 ... 64 whose run has no KeyRangeThroughputExceeded on that table or GSI
//                 (calculated suffixes from the sort key on a table with one, so that point
//                 reads still work; random ones on a GSI);
//   cache         a table's or GSI's ReadKeyRangeThroughputExceeded throttles: a cache (DAX's
//                 semantics, partstore/cached_store.h) in front of the table;
//   capacity      ProvisionedThroughputExceeded: the throttled tables' and GSIs' provisioned
//                 units doubled until the run has none (at most 16x);
//   auto scaling  the provisioned tables and GSIs that throttled, with target tracking at 70%
//                 between their units and 20 times them;
//   on-demand     every table on-demand, warmed (WarmThroughput) to the peak units it consumed
//                 (at least on-demand's initial units).
// A what-if that the simulator refuses (e.g. sharding a key a BatchGetItem reads) is reported
// with the reason instead of a run.
//
// Thread safety: reentrant (each run owns its Database).
#pragma once

#include <string>
#include <vector>

#include "partstore/status.h"
#include "tools/simulator/report.h"
#include "tools/simulator/simulation.h"
#include "tools/simulator/workload.h"

namespace partstore::sim {

struct Advice {
  std::string title;               // "write sharding, 8 shards"
  std::vector<std::string> notes;  // what was changed, and what the run showed
  std::optional<Report> report;    // absent when the what-if could not be simulated
  bool throttled = true;           // whether its run still throttled
};

// The what-ifs of `base` (whose run gave `report`), simulated with `options`' prices; each run's
// workload is named "<base name> + <what-if>".
std::vector<Advice> Advise(const Workload& base, const Report& report,
                           const SimulateOptions& options);

// The advice as the text report shows it: each what-if's changes, its result against the run's
// (throttled attempts, served share, requests given up) and its bill.
std::string AdviceText(const Report& base, const std::vector<Advice>& advice);

}  // namespace partstore::sim
