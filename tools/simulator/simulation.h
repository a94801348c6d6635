// Simulate: runs a Workload (workload.h) against an in-process Database with capacity simulation
// on a manual clock, and reports what DynamoDB would have done (report.h).
//
// The run: tables are created, sharding policies set, the preload imported (Database::ImportItem:
// no capacity consumed), then each phase offers its requests at their arrival times (evenly
// spaced at the phase's rate, or along its ramp) on the manual clock, interleaved in time order
// with the client's retries of throttled requests (RetryPolicy: exponential backoff with jitter).
// Nothing waits: the clock jumps from one request to the next, so a run takes as long as the
// engine needs to serve its requests. One thread, one Random seeded by the workload: the same
// workload gives the same Report, bit for bit.
//
// Thread safety: Simulate is reentrant (each call owns its Database); `progress` and `live` are
// called on the calling thread. Other threads may read the Database `live` is given (the page's
// server does) until the second call returns.
#pragma once

#include <cstdint>
#include <functional>

#include "partstore/database.h"
#include "partstore/status.h"
#include "tools/simulator/pricing.h"
#include "tools/simulator/report.h"
#include "tools/simulator/workload.h"

namespace partstore::sim {

struct Replay;  // trace_replay.h

struct SimulateOptions {
  // Called with the fraction of the simulated time done (0..1), every 1% or so and once at 1.
  std::function<void(double fraction)> progress{};
  // What the Report's bill (Report::cost) is priced at (pricing.h).
  Prices prices = DefaultPrices();
  // Non-null: the trace's requests are sent instead of the phases' (the workload is the replay's,
  // ReadTrace's). Must outlive the call.
  const Replay* replay = nullptr;
  // Positive: the run keeps to the wall clock, this many simulated seconds a second (`partstore
  // simulate --live --speed`), waiting whenever it is ahead; it may fall behind, never run ahead.
  double pace = 0;
  // Called on the calling thread with the run's Database: once its tables exist and its preload
  // is in (finished false), and once the run is over, before the report is built (finished
  // true). `--live` serves its page from the Database in between, and lingers in the second call.
  std::function<void(Database& db, bool finished)> live{};
  // False: the run's Database is not freed when Simulate returns but left to the process's exit,
  // for a command that exits after one run (`partstore simulate WORKLOAD`): an hour of the seed
  // shape holds 18 million items, and freeing them one by one takes seconds (SimulationCost's
  // teardown_wall_seconds). The memory stays reachable (no leak is reported).
  bool free_database = true;
  // True: every item is padded with text that varies (Padding::kFull, padding.h), stored byte for
  // byte as a real item's would be. False (the default): only the items of tables with a cache
  // are, since a cache's memory limit (CacheSpec::memory_mb) must see an item's real bytes as a
  // DAX node's memory would; the others are padded with one repeated byte, which the engine keeps
  // by its length. No answer, size, bill or report changes (SimulationTest's
  // FullItemsGiveTheSameReports), only the run's memory.
  bool full_items = false;
};

// What the run cost on this machine (not part of the Report, which holds simulated figures only).
struct SimulationCost {
  int64_t requests = 0;  // attempts sent to the engine (preload not included)
  int64_t preload_items = 0;
  double wall_seconds = 0;  // the phases (preload and report not included)
  double preload_wall_seconds = 0;
  double report_wall_seconds = 0;
  double teardown_wall_seconds = 0;  // freeing the run's Database (0 with free_database false)
  int64_t peak_resident_bytes = 0;   // the process's peak resident memory after the run
};

// Errors: a workload the engine refuses (a table definition, a sharding policy: the engine's
// ValidationException, prefixed with where it came from). Errors of individual requests are not
// failures of the run: they are counted in the Report.
Result<Report> Simulate(const Workload& workload, const SimulateOptions& options = {},
                        SimulationCost* cost = nullptr);

}  // namespace partstore::sim
