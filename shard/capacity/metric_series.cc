#include "shard/capacity/metric_series.h"

#include <algorithm>
#include <limits>

namespace partstore::capacity {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;

// Floor division to whole seconds; negative times count as 0.
int64_t ToSeconds(int64_t micros) { return micros <= 0 ? 0 : micros / kMicrosPerSecond; }

int64_t MinuteStart(int64_t seconds) { return seconds / 60 * 60; }

// retention periods x period length in seconds, clamped to [0, INT64_MAX].
int64_t Span(int64_t periods, int64_t period_seconds) {
  if (periods <= 0) return 0;
  if (periods > std::numeric_limits<int64_t>::max() / period_seconds) {
    return std::numeric_limits<int64_t>::max();
  }
  return periods * period_seconds;
}

// Adds `delta` to the point of `timestamp`, which is the newest point or newer than it.
void AddToNewest(std::deque<MetricPoint>& series, int64_t timestamp, const MetricCounters& delta,
                 int64_t retained_span) {
  if (series.empty() || series.back().timestamp < timestamp) {
    series.push_back(MetricPoint{timestamp, {}});
  }
  series.back().counters += delta;
  // Timestamps are >= 0, so the difference cannot overflow.
  const int64_t newest = series.back().timestamp;
  while (newest - series.front().timestamp > retained_span) series.pop_front();
}

bool ByTimestamp(const MetricPoint& point, int64_t timestamp) {
  return point.timestamp < timestamp;
}

}  // namespace

MetricCounters& MetricCounters::operator+=(const MetricCounters& other) {
  consumed_read_half_units += other.consumed_read_half_units;
  consumed_write_half_units += other.consumed_write_half_units;
  read_requests += other.read_requests;
  write_requests += other.write_requests;
  throttled_read_requests += other.throttled_read_requests;
  throttled_write_requests += other.throttled_write_requests;
  returned_item_count += other.returned_item_count;
  for (size_t i = 0; i < throttle_events.size(); ++i)
    throttle_events[i] += other.throttle_events[i];
  return *this;
}

bool MetricCounters::empty() const { return *this == MetricCounters{}; }

MetricSeries::MetricSeries(SeriesRetention retention)
    : retained_second_span_(Span(retention.seconds, kSecondPeriod)),
      retained_minute_span_(Span(retention.minutes, kMinutePeriod)) {}

void MetricSeries::Add(int64_t now_micros, const MetricCounters& delta) {
  int64_t second = ToSeconds(now_micros);
  // Never create a point in the past: a late Add is charged to the newest second.
  if (!seconds_.empty()) second = std::max(second, seconds_.back().timestamp);
  AddToNewest(seconds_, second, delta, retained_second_span_);
  AddToNewest(minutes_, MinuteStart(second), delta, retained_minute_span_);
  total_ += delta;
}

const std::deque<MetricPoint>* MetricSeries::SeriesOf(int period_seconds) const {
  switch (period_seconds) {
    case kSecondPeriod:
      return &seconds_;
    case kMinutePeriod:
      return &minutes_;
    default:
      return nullptr;
  }
}

std::vector<MetricPoint> MetricSeries::Points(int period_seconds, int64_t from_seconds,
                                              int64_t to_seconds) const {
  const std::deque<MetricPoint>* series = SeriesOf(period_seconds);
  if (series == nullptr || from_seconds > to_seconds) return {};
  const auto first = std::lower_bound(series->begin(), series->end(), from_seconds, ByTimestamp);
  // upper_bound rather than lower_bound(to_seconds + 1), which would overflow at INT64_MAX.
  const auto last = std::upper_bound(
      first, series->end(), to_seconds,
      [](int64_t timestamp, const MetricPoint& point) { return timestamp < point.timestamp; });
  return std::vector<MetricPoint>(first, last);
}

std::vector<MetricPoint> MetricSeries::Points(int period_seconds) const {
  const std::deque<MetricPoint>* series = SeriesOf(period_seconds);
  if (series == nullptr) return {};
  return std::vector<MetricPoint>(series->begin(), series->end());
}

MetricCounters MetricSeries::SecondAt(int64_t now_micros) const {
  const int64_t second = ToSeconds(now_micros);
  const auto it = std::lower_bound(seconds_.begin(), seconds_.end(), second, ByTimestamp);
  if (it == seconds_.end() || it->timestamp != second) return {};
  return it->counters;
}

void MetricSeries::Clear() {
  seconds_.clear();
  minutes_.clear();
  total_ = {};
}

}  // namespace partstore::capacity
