// CloudWatch-style metric points of a table, a GSI or a partition (GetMetrics' result: capacity
// simulation only): one period's counters, as DynamoDB publishes ConsumedReadCapacityUnits,
// ThrottledRequests, ReadThrottleEvents and friends.
//
// Thread safety: value types, not synchronized; const access from many threads is safe.
#pragma once

#include <array>
#include <cstdint>

#include "partstore/throttle_reason.h"

namespace partstore::capacity {

// One period's counters of one resource (a table, a GSI) or one partition.
struct MetricCounters {
  int64_t consumed_read_half_units = 0;   // read capacity units x 2 (eventual reads are 0.5)
  int64_t consumed_write_half_units = 0;  // write capacity units x 2 (same scale as reads)
  int64_t read_requests = 0;              // admitted (served) read requests
  int64_t write_requests = 0;             // admitted write requests
  int64_t throttled_read_requests = 0;
  int64_t throttled_write_requests = 0;
  int64_t returned_item_count = 0;
  std::array<int64_t, kThrottleReasonCount> throttle_events{};  // by ThrottleReason::index()

  // Adds every counter of `other`, element by element.
  MetricCounters& operator+=(const MetricCounters& other);
  // True when every counter is zero.
  bool empty() const;
  friend bool operator==(const MetricCounters&, const MetricCounters&) = default;
};

struct MetricPoint {
  int64_t timestamp = 0;  // period start, seconds
  MetricCounters counters;
  friend bool operator==(const MetricPoint&, const MetricPoint&) = default;
};

}  // namespace partstore::capacity
