// Simulate (simulation.h): the run's Database (capacity simulation on a manual clock, its metrics
// and contributor insights kept for the whole run), the Driver's set-up and phases
// (simulation_internal.h), then the Report built from the engine's metrics and the client's tally,
// with what each stage cost on this machine.
#include "tools/simulator/simulation.h"

#include <sys/resource.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "partstore/database.h"
#include "tools/simulator/pricing.h"
#include "tools/simulator/report_builder.h"
#include "tools/simulator/simulation_internal.h"

namespace partstore::sim {

using internal::Clock;
using internal::Driver;
using internal::SecondsSince;

namespace {

// The process's peak resident set (getrusage; Linux counts ru_maxrss in KiB), 0 if unknown.
int64_t PeakResidentBytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

// Holds `db` until the process exits, never freeing it (SimulateOptions::free_database false). It
// stays reachable, so a leak checker does not report it. Thread-safe.
void KeepUntilExit(std::unique_ptr<Database> db) {
  static std::mutex mu;
  static auto* const kept = new std::vector<std::unique_ptr<Database>>();
  std::lock_guard lock(mu);
  kept->push_back(std::move(db));
}

// What each cache saved: its hits times the mean read units of a read its table served, priced
// as read request units for on-demand tables (CacheReport).
void EstimateCacheSavings(const Prices& prices, Report& report) {
  for (CacheReport& cache : report.caches) {
    for (const ResourceReport& r : report.resources) {
      if (r.table != cache.table || r.index || r.read_requests == 0) continue;
      const double hits =
          static_cast<double>(cache.item_hits + cache.negative_hits + cache.query_hits);
      cache.read_units_saved = hits * r.consumed_read_units / static_cast<double>(r.read_requests);
      if (r.billing_mode == "PAY_PER_REQUEST") {
        const ClassPrices& p =
            r.table_class == "STANDARD" ? prices.standard : prices.standard_infrequent_access;
        cache.cost_saved = cache.read_units_saved * p.read_request_units_per_million / 1e6;
      }
    }
  }
}

}  // namespace

Result<Report> Simulate(const Workload& workload, const SimulateOptions& options,
                        SimulationCost* cost) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions db_options;
  db_options.capacity.enabled = true;
  db_options.capacity.clock = clock;
  db_options.capacity.contributor_insights = workload.contributor_insights;
  db_options.time_to_live.expiry_mode = ExpiryMode::kDynamoDb;  // simulating DynamoDB
  // Keep every second of the run (and its minutes) for the report.
  const int64_t seconds = TotalMicros(workload) / 1'000'000 + 2;
  db_options.capacity.metric_seconds =
      std::max<int64_t>(db_options.capacity.metric_seconds, seconds);
  db_options.capacity.partition_metric_seconds = seconds;
  db_options.capacity.partition_metric_minutes = seconds / 60 + 2;
  // Top keys over the whole run (at most a day: each minute keeps 4 rules x 100 keys).
  db_options.capacity.insights_minutes =
      static_cast<size_t>(std::clamp<int64_t>(seconds / 60 + 1, 60, 24 * 60));
  if (workload.heat_split_seconds) {
    db_options.capacity.heat_split_seconds = *workload.heat_split_seconds;
  }
  auto owned = std::make_unique<Database>(db_options);
  Database& db = *owned;
  SimulationCost local;
  SimulationCost* c = cost != nullptr ? cost : &local;
  // Frees the Database last (after the driver, which refers to it), or leaves it to the exit.
  struct Release {
    std::unique_ptr<Database> db;
    bool free;
    SimulationCost* cost;
    ~Release() {
      if (!free) {
        KeepUntilExit(std::move(db));
        return;
      }
      const auto started = Clock::now();
      db.reset();
      cost->teardown_wall_seconds = SecondsSince(started);
    }
  } release{std::move(owned), options.free_database, c};
  Driver driver(workload, db, clock);
  driver.SetReplay(options.replay);
  driver.SetFullItems(options.full_items);
  PARTSTORE_RETURN_IF_ERROR(driver.SetUp(c));
  if (options.live) options.live(db, false);
  driver.Run(options, c);
  if (options.live) options.live(db, true);
  const auto started = Clock::now();
  auto report = BuildReport(db, workload, driver.tally());
  if (report.ok()) {
    report->cost = PriceRun(*report, options.prices);
    report->caches = driver.CacheReports();
    EstimateCacheSavings(options.prices, *report);
  }
  c->report_wall_seconds = SecondsSince(started);
  c->peak_resident_bytes = PeakResidentBytes();
  return report;
}

}  // namespace partstore::sim
