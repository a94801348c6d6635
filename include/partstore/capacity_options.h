// CapacityOptions: whether a Database simulates DynamoDB's capacity, and the model's constants.
//
// Off by default: an in-process cache pays nothing for capacity (no clock reads, no shared
// counters). On, every table and GSI gets simulated partitions with DynamoDB's limits: each
// partition's hard per-second limit, burst capacity, splits for size and heat, and the on-demand
// peak and quota (the members below). The defaults are the numbers DynamoDB documents; tests and
// simulations may change them.
//
// Thread safety: a value type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "partstore/clock.h"

namespace partstore::capacity {

// The largest Contributor Insights sketch (counters per rule) Database::Open accepts.
inline constexpr size_t kMaxInsightsSketchCapacity = 65536;

struct CapacityOptions {
  bool enabled = false;
  // The time source; null means a SystemClock made when the Database is.
  std::shared_ptr<Clock> clock;

  // Per-partition hard limits, per second.
  int64_t partition_read_units = 3000;
  int64_t partition_write_units = 1000;
  // Unused capacity a partition keeps for bursts, in seconds of its allocation.
  int64_t burst_seconds = 300;
  // A partition splits in two when its data passes this size.
  uint64_t partition_size_limit = 10ull << 30;
  // Split for heat: a partition that consumed at least heat_percent of its hard limit (reads or
  // writes), or was throttled at it, for heat_split_seconds consecutive seconds splits at the
  // median of its recently accessed keys (never when one key takes all its traffic).
  int64_t heat_percent = 80;
  int64_t heat_split_seconds = 60;
  // On-demand: a new table's previous peak (it can take twice that at once), how long a new
  // peak takes to count, and the per-table quota (AccountLimitExceeded beyond it).
  int64_t on_demand_initial_peak_read_units = 6000;
  int64_t on_demand_initial_peak_write_units = 2000;
  int64_t on_demand_peak_delay_seconds = 30 * 60;
  int64_t on_demand_table_read_quota = 40000;
  int64_t on_demand_table_write_quota = 40000;

  // Contributor Insights (top keys) for every table and GSI. Off by default, as in DynamoDB (where
  // it is enabled per table): it costs a sketch update per request.
  bool contributor_insights = false;

  // Metrics retention: periods kept per table and index, and per partition (less: a table may
  // have thousands), and Contributor Insights' sketch size.
  int64_t metric_seconds = 3600;
  int64_t metric_minutes = 7 * 24 * 60;
  int64_t partition_metric_seconds = 600;
  int64_t partition_metric_minutes = 24 * 60;
  size_t insights_sketch_capacity = 256;  // 1..kMaxInsightsSketchCapacity
  // Minutes Contributor Insights reports cover, the current one included (CloudWatch's rules
  // report the last hour; a simulation widens it to the whole run).
  size_t insights_minutes = 60;
};

}  // namespace partstore::capacity
