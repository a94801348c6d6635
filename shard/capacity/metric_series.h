// MetricSeries: CloudWatch-style counters of one resource (a table, a GSI) or one partition,
// aggregated per second and per minute, as DynamoDB publishes ConsumedReadCapacityUnits,
// ThrottledRequests, ReadThrottleEvents and friends.
//
// Two sparse series share one clock:
//   seconds  one point per second in which Add was called, timestamp = floor(micros / 10^6);
//   minutes  one point per minute in which Add was called, timestamp = floor(seconds / 60) * 60.
// A period without any Add has no point (CloudWatch reports no datapoint, not a zero); an Add of
// all-zero counters still creates its point. Timestamps are period starts, in seconds.
//
// Time is expected to be non-decreasing (the shard's clock). An Add earlier than the newest second
// is charged to the newest second and its minute: points are never reordered and never created in
// the past. Negative times are treated as 0 (a manual clock starts at 0).
//
// Retention keeps the newest point of each period and the `seconds` (resp. `minutes`) periods
// before it; older points are dropped on Add. So at most retention.seconds + 1 second points and
// retention.minutes + 1 minute points are held. total() is never dropped.
//
// Invariants: each series' timestamps are strictly increasing; the newest minute point is the
// minute of the newest second point.
//
// Cost: an Add adds to one point (the newest second's); that second reaches its minute and the
// total when the next second starts (reads include it at once).
//
// Thread safety: not thread-safe; the caller serializes (typically under the owning resource's
// lock).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "partstore/metrics.h"
#include "partstore/throttle_reason.h"

namespace partstore::capacity {

// How many periods back (before the newest point) are kept. Negative values count as 0.
struct SeriesRetention {
  int64_t seconds = 3600;         // one hour of 1-second points
  int64_t minutes = 7 * 24 * 60;  // one week of 1-minute points
};

class MetricSeries {
 public:
  static constexpr int kSecondPeriod = 1;
  static constexpr int kMinutePeriod = 60;

  explicit MetricSeries(SeriesRetention retention = {});

  // Adds `delta` to the second that contains `now_micros` and to its minute (to the newest second
  // and its minute when `now_micros` is earlier than the newest second), then drops points older
  // than the retention relative to the newest point.
  void Add(int64_t now_micros, const MetricCounters& delta);
  // The counters of the second Add(now_micros, ...) would add to, for adding in place (the hot
  // path: a request's few counters, without a whole MetricCounters). Creates the point.
  MetricCounters& Current(int64_t now_micros);

  // The points of period 1 or 60 seconds whose timestamp is in [from_seconds, to_seconds], oldest
  // first. Any other period, or from_seconds > to_seconds: empty.
  std::vector<MetricPoint> Points(int period_seconds, int64_t from_seconds,
                                  int64_t to_seconds) const;
  // Every retained point of the period (1 or 60; any other period: empty), oldest first.
  std::vector<MetricPoint> Points(int period_seconds) const;

  // The counters summed over all Adds since construction or Clear (not subject to retention).
  MetricCounters total() const;

  // The counters of the second that contains `now_micros`, or zeros when it has no point.
  MetricCounters SecondAt(int64_t now_micros) const;

  // Memory held: the number of retained points of each period.
  size_t second_points() const { return seconds_.size(); }
  size_t minute_points() const;

  // Drops every point and resets total() to zeros; the retention is kept.
  void Clear();

 private:
  // The newest second point is open: minutes_ and total_ do not include it yet (adds touch one
  // point); Fold adds it to them, when the next second starts.
  void Fold();
  // minutes_ with the open second added.
  std::deque<MetricPoint> Minutes() const;

  int64_t retained_second_span_;  // most seconds from the newest second point to a kept one
  int64_t retained_minute_span_;  // most seconds from the newest minute point to a kept one
  std::deque<MetricPoint> seconds_;
  std::deque<MetricPoint> minutes_;
  MetricCounters total_;  // of the folded seconds
  bool open_ = false;
};

}  // namespace partstore::capacity
