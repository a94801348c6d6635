// Report: what one simulation run found, as the text, JSON and HTML reports show it
// (report_text.h, report_json.h, report_html.h). Built by Simulate (simulation.h) from the
// client's own counts and the engine's metrics, partitions and Contributor Insights.
//
// Everything in a Report is a function of the workload and its seed (simulated time only, no
// wall-clock figures), so the same workload gives the same Report and the same JSON, byte for
// byte. Rates are per simulated second.
//
// Thread safety: value types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace partstore::sim {

// The client's view of requests. A request is offered once and attempted up to the retry policy's
// max_attempts times; a batch's attempt that leaves items unprocessed counts as throttled (its
// unprocessed items are what the retry sends).
struct RequestCounts {
  int64_t offered = 0;           // new requests the workload made
  int64_t attempts = 0;          // requests sent (offered + retries)
  int64_t served = 0;            // attempts that succeeded (all items processed)
  int64_t throttled = 0;         // attempts refused (or partly refused) for throughput
  int64_t retries = 0;           // attempts that were retries
  int64_t gave_up = 0;           // requests still throttled at their last attempt
  int64_t condition_failed = 0;  // ConditionalCheckFailed / transactions cancelled for conditions
  int64_t errors = 0;            // any other error (see Report::errors)
  RequestCounts& operator+=(const RequestCounts& other);
};

// Delay that retries added to requests that were eventually served: from the first attempt to
// the successful one, in milliseconds of simulated time.
struct RetryDelay {
  int64_t delayed_requests = 0;  // served requests that needed at least one retry
  double mean_ms = 0;            // over delayed_requests
  double p50_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

struct OperationReport {
  std::string name;  // "get", "put", ... (OpKindName)
  std::string table;
  std::optional<std::string> index;
  std::string key;  // the key templates, "PRODUCT#{key}" or "PRODUCT#viral / REVIEW#{seq}"
                    // (partition / sort), which tell two operations on one table apart
  RequestCounts counts;
};

struct PhaseReport {
  std::string name;
  double start_seconds = 0;
  double duration_seconds = 0;
  double offered_rate = 0;  // counts.offered / duration
  double served_rate = 0;   // counts.served / duration
  RequestCounts counts;
  RetryDelay retry_delay;
  std::vector<OperationReport> operations;  // in the phase's mix order
};

// A throttle reason as DynamoDB names it (e.g. "TableWriteKeyRangeThroughputExceeded") with the
// number of throttle events the engine counted for it.
struct ReasonCount {
  std::string reason;
  int64_t events = 0;
};

struct PartitionReport {
  int id = 0;
  std::string hash_range_start;  // 16 hex digits
  std::string hash_range_end;
  double created_seconds = 0;
  std::optional<double> retired_seconds;  // when it split (absent: still live at the end)
  int64_t item_count = 0;                 // live partitions at the end of the run
  int64_t size_bytes = 0;
  double consumed_read_units = 0;  // over the run
  double consumed_write_units = 0;
  int64_t throttled_read_requests = 0;
  int64_t throttled_write_requests = 0;
};

struct SplitReport {
  double time_seconds = 0;
  int parent_id = 0;
  int left_id = 0;
  int right_id = 0;
  std::string reason;  // THROUGHPUT, SIZE, HEAT or PEAK
};

// Consumed capacity per partition (rows) and time bucket (columns). Cell values are average
// units per second over the bucket; utilization is max(read / 3,000, write / 1,000) of the
// partition's hard limits, so 1.0 means the partition ran at its limit. A partition that did not
// exist during a bucket has utilization -1 there (drawn blank).
struct HeatMap {
  int64_t bucket_seconds = 1;
  int64_t columns = 0;
  std::vector<int> partition_ids;                // row order: by hash range start, then creation
  std::vector<std::vector<double>> read_units;   // [row][column]
  std::vector<std::vector<double>> write_units;  // [row][column]
  std::vector<std::vector<double>> utilization;  // [row][column]
  std::vector<std::vector<int64_t>> throttled;   // throttled requests, [row][column]
};

struct TopKey {
  std::string key;     // "PK=PRODUCT#viral" or "PK=USER#1, SK=ORDER#7"
  double value = 0;    // per-minute maximum (see Contributor Insights in the README)
  int64_t minute = 0;  // which minute of the run (0: its first) holds that maximum
};

struct TopKeyRule {
  std::string rule;  // MostAccessedPartitionKeys, MostAccessedItems, MostThrottledPartitionKeys,
                     // MostThrottledItems
  std::vector<TopKey> keys;
};

// One UpdateTable auto scaling made (auto_scaling.h), or a phase's scheduled throughput change.
struct ScalingActionReport {
  double time_seconds = 0;       // the alarm (a minute's end)
  double effective_seconds = 0;  // the new capacity in effect
  std::string dimension;         // "read" or "write"
  int64_t from = 0;
  int64_t to = 0;
  double consumed_per_second = 0;  // the minute that decided it
  std::string reason;              // "scale-out", "scale-in", or "scheduled" (a phase's change)
};

// A provisioned resource's minute: its provisioned units at the minute's start and what it
// consumed (units per second, the minute's average: CloudWatch's Sum / 60).
struct CapacityMinute {
  double start_seconds = 0;
  int64_t read_capacity = 0;
  int64_t write_capacity = 0;
  double consumed_read_per_second = 0;
  double consumed_write_per_second = 0;
};

// One table or GSI.
struct ResourceReport {
  std::string table;
  std::optional<std::string> index;
  std::string billing_mode;   // PROVISIONED or PAY_PER_REQUEST
  std::string table_class = "STANDARD";  // or STANDARD_INFREQUENT_ACCESS (a GSI: its table's)
  int64_t read_capacity = 0;             // provisioned units at the start (0 on-demand)
  int64_t write_capacity = 0;
  // Provisioned: the units over the run (auto scaling changes them), as capacity-unit-hours.
  double read_capacity_unit_hours = 0;
  double write_capacity_unit_hours = 0;
  std::vector<ScalingActionReport> scaling_actions;
  std::vector<CapacityMinute> capacity_minutes;  // provisioned resources, every minute
  double consumed_read_units = 0;
  double consumed_write_units = 0;
  double peak_read_units = 0;  // largest consumed read units in one second
  double peak_write_units = 0;
  int64_t read_requests = 0;  // admitted by the engine
  int64_t write_requests = 0;
  int64_t throttled_read_requests = 0;
  int64_t throttled_write_requests = 0;
  std::vector<ReasonCount> throttle_events;  // by reason, only reasons that occurred
  std::vector<PartitionReport> partitions;   // every partition that existed, by id
  std::vector<SplitReport> splits;
  HeatMap heat_map;
  std::vector<TopKeyRule> top_keys;  // empty rules are kept (a rule with no keys)
  int64_t item_count = 0;            // at the end of the run
  int64_t size_bytes = 0;            // at the end of the run (DynamoDB's item sizes)
};

// What one table or GSI cost (pricing.h): the quantities billed and their prices' products.
struct ResourceCost {
  std::string table;
  std::optional<std::string> index;
  std::string billing_mode;  // as ResourceReport's
  std::string table_class;
  double read_request_units = 0;  // on-demand
  double write_request_units = 0;
  double read_capacity_unit_hours = 0;  // provisioned
  double write_capacity_unit_hours = 0;
  double storage_gb_months = 0;
  double read_cost = 0;  // request units or capacity-unit-hours, priced
  double write_cost = 0;
  double storage_cost = 0;
  double total = 0;
};

// A run's bill, in `currency`, by resource. `monthly_estimate`: the total at the run's rates for
// a 730-hour month (the run's throughput repeated, the storage held).
struct Bill {
  std::string region;
  std::string currency;
  std::string prices;  // where the prices came from ("built-in", or the price file)
  double hours = 0;    // the simulated time
  std::vector<ResourceCost> resources;  // as Report::resources
  double read_cost = 0;
  double write_cost = 0;
  double storage_cost = 0;
  double total = 0;
  double monthly_estimate = 0;
};

// The client's counts over time, one point per bucket (the heat map's buckets).
struct TimelinePoint {
  double start_seconds = 0;
  RequestCounts counts;
  std::vector<ReasonCount> throttle_events;  // engine throttle events by reason, all resources
};

// A table's cache (TableSpec::cache): what it answered, and what the table did not serve.
struct CacheReport {
  std::string table;
  int64_t item_hits = 0;  // GetItem / BatchGetItem keys answered with an item
  int64_t negative_hits = 0;
  int64_t item_misses = 0;  // keys read from the table
  int64_t query_hits = 0;   // Query / Scan pages
  int64_t query_misses = 0;
  double hit_ratio = 0;  // hits / (hits + misses), items and pages together
  // Estimated: the hits times the mean read units of a read the table served.
  double read_units_saved = 0;
  // On-demand tables: read_units_saved at the read request price (the bill, Report::cost, is
  // what the table consumed: the hits are already not in it); provisioned tables: 0 (the
  // provisioned units are paid either way; the cache lets a table be provisioned for its misses).
  double cost_saved = 0;
  int64_t memory_bytes = 0;  // what the cache held at the end
};

struct Report {
  std::string workload;  // Workload::name
  std::string description;
  uint64_t seed = 0;
  double simulated_seconds = 0;  // the phases' total (retries still waiting at the end are
                                 // counted as given up)
  RequestCounts totals;
  double offered_rate = 0;  // totals / simulated_seconds
  double served_rate = 0;
  double throttle_rate = 0;  // throttled / attempts (0 without attempts)
  RetryDelay retry_delay;
  std::vector<ReasonCount> throttle_events;  // every resource, by reason
  std::vector<PhaseReport> phases;
  std::vector<ResourceReport> resources;  // tables in workload order, each followed by its GSIs
  int64_t timeline_bucket_seconds = 1;
  std::vector<TimelinePoint> timeline;
  // The first few distinct error messages (with how often each occurred), to debug a workload.
  struct ErrorCount {
    std::string message;
    int64_t count = 0;
  };
  std::vector<ErrorCount> errors;
  Bill cost;  // at SimulateOptions::prices
  std::vector<CacheReport> caches;  // tables with a cache, in workload order
};

}  // namespace partstore::sim
