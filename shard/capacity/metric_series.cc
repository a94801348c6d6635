#include "shard/capacity/metric_series.h"

#include <algorithm>
#include <limits>

#include "shard/capacity/token_bucket.h"

namespace partstore::capacity {
namespace {

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
  Current(now_micros) += delta;
}

MetricCounters& MetricSeries::Current(int64_t now_micros) {
  const int64_t second = ToSeconds(now_micros);
  // Never create a point in the past: a late Add is charged to the newest second.
  if (!seconds_.empty() && seconds_.back().timestamp >= second) return seconds_.back().counters;
  Fold();
  seconds_.push_back(MetricPoint{second, {}});
  while (second - seconds_.front().timestamp > retained_second_span_) seconds_.pop_front();
  open_ = true;
  return seconds_.back().counters;
}

void MetricSeries::Fold() {
  if (!open_) return;
  const MetricPoint& last = seconds_.back();
  AddToNewest(minutes_, MinuteStart(last.timestamp), last.counters, retained_minute_span_);
  total_ += last.counters;
  open_ = false;
}

MetricCounters MetricSeries::total() const {
  MetricCounters out = total_;
  if (open_) out += seconds_.back().counters;
  return out;
}

std::deque<MetricPoint> MetricSeries::Minutes() const {
  if (!open_) return minutes_;
  std::deque<MetricPoint> out = minutes_;
  const MetricPoint& last = seconds_.back();
  AddToNewest(out, MinuteStart(last.timestamp), last.counters, retained_minute_span_);
  return out;
}

std::vector<MetricPoint> MetricSeries::Points(int period_seconds, int64_t from_seconds,
                                              int64_t to_seconds) const {
  if (period_seconds != kSecondPeriod && period_seconds != kMinutePeriod) return {};
  if (from_seconds > to_seconds) return {};
  std::deque<MetricPoint> minutes;
  const std::deque<MetricPoint>* series = &seconds_;
  if (period_seconds == kMinutePeriod) {
    minutes = Minutes();
    series = &minutes;
  }
  const auto first = std::lower_bound(series->begin(), series->end(), from_seconds, ByTimestamp);
  // upper_bound rather than lower_bound(to_seconds + 1), which would overflow at INT64_MAX.
  const auto last = std::upper_bound(
      first, series->end(), to_seconds,
      [](int64_t timestamp, const MetricPoint& point) { return timestamp < point.timestamp; });
  return std::vector<MetricPoint>(first, last);
}

std::vector<MetricPoint> MetricSeries::Points(int period_seconds) const {
  return Points(period_seconds, std::numeric_limits<int64_t>::min(),
                std::numeric_limits<int64_t>::max());
}

MetricCounters MetricSeries::SecondAt(int64_t now_micros) const {
  const int64_t second = ToSeconds(now_micros);
  const auto it = std::lower_bound(seconds_.begin(), seconds_.end(), second, ByTimestamp);
  if (it == seconds_.end() || it->timestamp != second) return {};
  return it->counters;
}

size_t MetricSeries::minute_points() const { return Minutes().size(); }

void MetricSeries::Clear() {
  open_ = false;
  seconds_.clear();
  minutes_.clear();
  total_ = {};
}

}  // namespace partstore::capacity
