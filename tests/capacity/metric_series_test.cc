#include "shard/capacity/metric_series.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <ostream>
#include <utility>
#include <vector>

namespace partstore::capacity {

// Readable failure messages (found by ADL, so outside the anonymous namespace).
void PrintTo(const MetricPoint& p, std::ostream* os) {
  *os << "{t=" << p.timestamp << " read_half=" << p.counters.consumed_read_half_units
      << " reads=" << p.counters.read_requests << "}";
}

namespace {

constexpr int64_t kSecond = 1'000'000;  // microseconds

MetricCounters Reads(int64_t half_units) {
  MetricCounters c;
  c.consumed_read_half_units = half_units;
  c.read_requests = 1;
  return c;
}

std::vector<int64_t> Timestamps(const std::vector<MetricPoint>& points) {
  std::vector<int64_t> out;
  for (const MetricPoint& p : points) out.push_back(p.timestamp);
  return out;
}

TEST(MetricCountersTest, PlusEqualsAddsEveryField) {
  MetricCounters a{1, 2, 3, 4, 5, 6, 7, {}};
  a.throttle_events[0] = 8;
  a.throttle_events[15] = 9;
  MetricCounters b = a;
  b.throttle_events[3] = 10;
  a += b;
  MetricCounters expected{2, 4, 6, 8, 10, 12, 14, {}};
  expected.throttle_events[0] = 16;
  expected.throttle_events[3] = 10;
  expected.throttle_events[15] = 18;
  EXPECT_EQ(a, expected);
}

TEST(MetricCountersTest, EmptyOnlyWhenAllZero) {
  EXPECT_TRUE(MetricCounters{}.empty());
  MetricCounters c;
  c.throttle_events[kThrottleReasonCount - 1] = 1;
  EXPECT_FALSE(c.empty());
  EXPECT_FALSE(Reads(0).empty());  // read_requests = 1
}

TEST(MetricSeriesTest, AggregatesWithinSecondAndMinute) {
  MetricSeries s;
  s.Add(0, Reads(1));
  s.Add(999'999, Reads(2));      // still second 0
  s.Add(1 * kSecond, Reads(4));  // second 1
  MetricCounters second0 = Reads(3);
  second0.read_requests = 2;
  EXPECT_EQ(s.Points(1), (std::vector<MetricPoint>{{0, second0}, {1, Reads(4)}}));
  ASSERT_EQ(s.Points(60).size(), 1u);
  EXPECT_EQ(s.Points(60)[0].timestamp, 0);
  EXPECT_EQ(s.Points(60)[0].counters.consumed_read_half_units, 7);
  EXPECT_EQ(s.Points(60)[0].counters.read_requests, 3);
}

TEST(MetricSeriesTest, MinuteBoundaryAtSixtySeconds) {
  MetricSeries s;
  s.Add(59 * kSecond + 999'999, Reads(1));  // 59.999999 s: second 59, minute 0
  s.Add(60 * kSecond, Reads(2));            // exactly 60 s: second 60, minute 60
  s.Add(119 * kSecond + 999'999, Reads(4));
  s.Add(120 * kSecond, Reads(8));
  EXPECT_EQ(Timestamps(s.Points(1)), (std::vector<int64_t>{59, 60, 119, 120}));
  const std::vector<MetricPoint> minutes = s.Points(60);
  EXPECT_EQ(Timestamps(minutes), (std::vector<int64_t>{0, 60, 120}));
  EXPECT_EQ(minutes[0].counters.consumed_read_half_units, 1);
  EXPECT_EQ(minutes[1].counters.consumed_read_half_units, 6);
  EXPECT_EQ(minutes[2].counters.consumed_read_half_units, 8);
}

TEST(MetricSeriesTest, SparseOutputHasNoPointsForIdlePeriods) {
  MetricSeries s;
  s.Add(5 * kSecond, Reads(1));
  s.Add(500 * kSecond, Reads(1));
  EXPECT_EQ(Timestamps(s.Points(1)), (std::vector<int64_t>{5, 500}));
  EXPECT_EQ(Timestamps(s.Points(60)), (std::vector<int64_t>{0, 480}));
  EXPECT_EQ(s.second_points(), 2u);
  EXPECT_EQ(s.minute_points(), 2u);
}

TEST(MetricSeriesTest, EmptyDeltaStillCreatesPoint) {
  MetricSeries s;
  s.Add(3 * kSecond, MetricCounters{});
  ASSERT_EQ(s.Points(1).size(), 1u);
  EXPECT_TRUE(s.Points(1)[0].counters.empty());
}

TEST(MetricSeriesTest, RangeQueriesAreInclusive) {
  MetricSeries s;
  for (int64_t t : {2, 4, 6, 8, 10, 70, 130}) s.Add(t * kSecond, Reads(t));
  EXPECT_EQ(Timestamps(s.Points(1, 4, 8)), (std::vector<int64_t>{4, 6, 8}));
  EXPECT_EQ(Timestamps(s.Points(1, 3, 9)), (std::vector<int64_t>{4, 6, 8}));
  EXPECT_EQ(Timestamps(s.Points(1, 5, 5)), std::vector<int64_t>{});
  EXPECT_EQ(Timestamps(s.Points(1, 10, 10)), std::vector<int64_t>{10});
  EXPECT_EQ(Timestamps(s.Points(1, 131, 1000)), std::vector<int64_t>{});
  EXPECT_EQ(Timestamps(s.Points(1, -100, 2)), std::vector<int64_t>{2});
  EXPECT_EQ(Timestamps(s.Points(1, 8, 4)), std::vector<int64_t>{});  // from > to
  EXPECT_EQ(Timestamps(s.Points(1, std::numeric_limits<int64_t>::min(),
                                std::numeric_limits<int64_t>::max())),
            (std::vector<int64_t>{2, 4, 6, 8, 10, 70, 130}));
  EXPECT_EQ(Timestamps(s.Points(60, 1, 120)), (std::vector<int64_t>{60, 120}));
  EXPECT_EQ(Timestamps(s.Points(60, 0, 59)), std::vector<int64_t>{0});
  EXPECT_EQ(s.Points(60, 60, 60)[0].counters.consumed_read_half_units, 70);
}

TEST(MetricSeriesTest, OtherPeriodsAreEmpty) {
  MetricSeries s;
  s.Add(1 * kSecond, Reads(1));
  for (int period : {0, -1, 2, 5, 59, 61, 300, 3600}) {
    EXPECT_TRUE(s.Points(period).empty()) << period;
    EXPECT_TRUE(s.Points(period, 0, 1000).empty()) << period;
  }
}

TEST(MetricSeriesTest, RetentionDropsSecondsAndMinutesIndependently) {
  MetricSeries s(SeriesRetention{.seconds = 10, .minutes = 2});
  for (int64_t t = 0; t <= 200; ++t) s.Add(t * kSecond, Reads(1));
  // Seconds: the newest (200) and 10 before it.
  EXPECT_EQ(s.second_points(), 11u);
  EXPECT_EQ(s.Points(1).front().timestamp, 190);
  EXPECT_EQ(s.Points(1).back().timestamp, 200);
  // Minutes: the newest (180) and 2 before it, although their seconds are gone.
  EXPECT_EQ(Timestamps(s.Points(60)), (std::vector<int64_t>{60, 120, 180}));
  EXPECT_EQ(s.Points(60)[0].counters.read_requests, 60);
  EXPECT_EQ(s.Points(60)[2].counters.read_requests, 21);
}

TEST(MetricSeriesTest, RetentionIsRelativeToNewestPointNotPointCount) {
  MetricSeries s(SeriesRetention{.seconds = 10, .minutes = 1});
  s.Add(0, Reads(1));
  s.Add(10 * kSecond, Reads(1));  // 10 s back: kept
  EXPECT_EQ(s.second_points(), 2u);
  s.Add(11 * kSecond, Reads(1));  // now second 0 is 11 s back: dropped
  EXPECT_EQ(Timestamps(s.Points(1)), (std::vector<int64_t>{10, 11}));
  s.Add(1000 * kSecond, Reads(1));  // a long gap drops everything else
  EXPECT_EQ(Timestamps(s.Points(1)), std::vector<int64_t>{1000});
  EXPECT_EQ(Timestamps(s.Points(60)), std::vector<int64_t>{960});
}

TEST(MetricSeriesTest, ZeroRetentionKeepsOnlyNewest) {
  MetricSeries s(SeriesRetention{.seconds = 0, .minutes = -5});
  s.Add(1 * kSecond, Reads(1));
  s.Add(61 * kSecond, Reads(1));
  EXPECT_EQ(Timestamps(s.Points(1)), std::vector<int64_t>{61});
  EXPECT_EQ(Timestamps(s.Points(60)), std::vector<int64_t>{60});
}

TEST(MetricSeriesTest, MemoryIsBoundedByRetention) {
  MetricSeries s(SeriesRetention{.seconds = 3600, .minutes = 60});
  for (int64_t t = 0; t < 100'000; ++t) {
    s.Add(t * kSecond + 123, Reads(1));
    ASSERT_LE(s.second_points(), 3601u);
    ASSERT_LE(s.minute_points(), 61u);
  }
  EXPECT_EQ(s.second_points(), 3601u);
  EXPECT_EQ(s.minute_points(), 61u);
  EXPECT_EQ(s.Points(1).front().timestamp, 99'999 - 3600);
  EXPECT_EQ(s.total().read_requests, 100'000);  // total() survives retention
  EXPECT_EQ(s.total().consumed_read_half_units, 100'000);
}

TEST(MetricSeriesTest, HugeRetentionDoesNotOverflow) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  MetricSeries s(SeriesRetention{.seconds = kMax, .minutes = kMax});
  s.Add(0, Reads(1));
  s.Add(kMax, Reads(1));
  EXPECT_EQ(s.second_points(), 2u);
  EXPECT_EQ(s.minute_points(), 2u);
}

TEST(MetricSeriesTest, OutOfOrderTimeGoesToNewestPoint) {
  MetricSeries s;
  s.Add(61 * kSecond, Reads(1));
  s.Add(30 * kSecond, Reads(2));      // earlier second and earlier minute
  s.Add(61 * kSecond - 1, Reads(4));  // 60.999999 s: still earlier than the newest
  s.Add(0, Reads(8));
  EXPECT_EQ(Timestamps(s.Points(1)), std::vector<int64_t>{61});
  EXPECT_EQ(Timestamps(s.Points(60)), std::vector<int64_t>{60});
  EXPECT_EQ(s.Points(1)[0].counters.consumed_read_half_units, 15);
  EXPECT_EQ(s.Points(60)[0].counters.consumed_read_half_units, 15);
  EXPECT_TRUE(s.SecondAt(30 * kSecond).empty());
  s.Add(62 * kSecond, Reads(16));  // time moves on normally afterwards
  EXPECT_EQ(Timestamps(s.Points(1)), (std::vector<int64_t>{61, 62}));
  EXPECT_EQ(s.total().consumed_read_half_units, 31);
}

TEST(MetricSeriesTest, NegativeTimeCountsAsZero) {
  MetricSeries s;
  s.Add(-1, Reads(1));
  s.Add(-5 * kSecond, Reads(2));
  EXPECT_EQ(Timestamps(s.Points(1)), std::vector<int64_t>{0});
  EXPECT_EQ(s.SecondAt(-1).consumed_read_half_units, 3);
  EXPECT_EQ(s.SecondAt(0).consumed_read_half_units, 3);
}

TEST(MetricSeriesTest, ThrottleEventsByReasonIndex) {
  const ThrottleReason table_read_key_range{ThrottleResource::kTable, ThrottleOperation::kRead,
                                            ThrottleLimit::kKeyRangeThroughputExceeded};
  const ThrottleReason index_write_provisioned{ThrottleResource::kIndex, ThrottleOperation::kWrite,
                                               ThrottleLimit::kProvisionedThroughputExceeded};
  MetricSeries s;
  MetricCounters throttled;
  throttled.throttled_read_requests = 1;
  throttled.throttle_events[table_read_key_range.index()] = 1;
  s.Add(kSecond, throttled);
  s.Add(kSecond, throttled);
  MetricCounters gsi;
  gsi.throttled_write_requests = 1;
  gsi.throttle_events[index_write_provisioned.index()] = 1;
  s.Add(2 * kSecond, gsi);

  const MetricCounters second1 = s.SecondAt(kSecond);
  EXPECT_EQ(second1.throttled_read_requests, 2);
  EXPECT_EQ(second1.throttle_events[table_read_key_range.index()], 2);
  EXPECT_EQ(second1.throttle_events[index_write_provisioned.index()], 0);
  const MetricCounters minute = s.Points(60)[0].counters;
  EXPECT_EQ(minute.throttle_events[table_read_key_range.index()], 2);
  EXPECT_EQ(minute.throttle_events[index_write_provisioned.index()], 1);
  int64_t events = 0;
  for (int i = 0; i < kThrottleReasonCount; ++i) events += s.total().throttle_events[i];
  EXPECT_EQ(events, 3);
}

TEST(MetricSeriesTest, SecondAtReturnsPointOrZeros) {
  MetricSeries s;
  s.Add(7 * kSecond + 500'000, Reads(3));
  EXPECT_EQ(s.SecondAt(7 * kSecond), Reads(3));
  EXPECT_EQ(s.SecondAt(8 * kSecond - 1), Reads(3));
  EXPECT_TRUE(s.SecondAt(8 * kSecond).empty());
  EXPECT_TRUE(s.SecondAt(6 * kSecond + 999'999).empty());
  EXPECT_TRUE(MetricSeries().SecondAt(0).empty());
}

TEST(MetricSeriesTest, ClearResetsPointsAndTotal) {
  MetricSeries s(SeriesRetention{.seconds = 5, .minutes = 5});
  s.Add(100 * kSecond, Reads(1));
  s.Clear();
  EXPECT_EQ(s.second_points(), 0u);
  EXPECT_EQ(s.minute_points(), 0u);
  EXPECT_TRUE(s.total().empty());
  s.Add(3 * kSecond, Reads(1));  // after Clear, earlier times start a new series
  EXPECT_EQ(Timestamps(s.Points(1)), std::vector<int64_t>{3});
}

// Checks the series against a trivially correct model: every Add kept in a list, summed on demand.
TEST(MetricSeriesTest, MatchesModel) {
  const SeriesRetention retention{.seconds = 30, .minutes = 3};
  MetricSeries s(retention);
  std::vector<std::pair<int64_t, int64_t>> adds;  // (effective second, half units)
  uint64_t rng = 42;
  int64_t now = 0;
  for (int i = 0; i < 2000; ++i) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    now += static_cast<int64_t>((rng >> 33) % 2'000'000);
    const int64_t half = static_cast<int64_t>((rng >> 20) % 7);
    // One Add in eight comes up to 90 s late; the model charges it to the newest second.
    const int64_t at =
        (rng >> 10) % 8 == 0 ? now - static_cast<int64_t>((rng >> 40) % 90) * kSecond : now;
    s.Add(at, Reads(half));
    const int64_t second =
        std::max(at < 0 ? 0 : at / kSecond, adds.empty() ? 0 : adds.back().first);
    adds.emplace_back(second, half);
  }
  const int64_t newest = adds.back().first;
  for (int period : {1, 60}) {
    const int64_t span = period == 1 ? retention.seconds : retention.minutes * 60;
    std::vector<MetricPoint> expected;
    for (const auto& [second, half] : adds) {
      const int64_t ts = second / period * period;
      if (newest / period * period - ts > span) continue;
      if (expected.empty() || expected.back().timestamp != ts) expected.push_back({ts, {}});
      expected.back().counters += Reads(half);
    }
    EXPECT_EQ(s.Points(period), expected) << period;
  }
  EXPECT_EQ(s.total().read_requests, 2000);
}

}  // namespace
}  // namespace partstore::capacity
