// Capacity simulation under concurrency (run under ThreadSanitizer in CI): threads racing for one
// partition's tokens never get more than it holds, and every request is counted exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "shard/database_state.h"
#include "tests/capacity/capacity_testutil.h"

namespace partstore::testing {
namespace {

TEST(CapacityConcurrentTest, ThreadsRacingForOnePartitionGetExactlyItsTokens) {
  auto clock = std::make_shared<capacity::ManualClock>();
  Database db(ManualCapacity(clock));
  ASSERT_TRUE(db.CreateTable(CapacityTable("Tab", 1, 999)).ok());  // one partition, 999 WCU
  constexpr int kThreads = 4;
  constexpr int kEach = 600;
  std::atomic<int64_t> served{0}, throttled{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        PutItemRequest put;
        put.table_name = "Tab";
        put.item = {{"PK", Value("t" + std::to_string(t) + "-" + std::to_string(i))}};
        Status s = db.PutItem(put).status();
        (s.ok() ? served : throttled).fetch_add(1);
        // Readers too, on the same partition's read side.
        GetItemRequest get;
        get.table_name = "Tab";
        get.key = put.item;
        (void)db.GetItem(get);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  // The clock never moved: the partition's one second of 999 WCU, no more, no less.
  EXPECT_EQ(served.load(), 999);
  EXPECT_EQ(throttled.load(), kThreads * kEach - 999);
  auto metrics = db.GetMetrics({.table_name = "Tab", .period = 60});
  ASSERT_TRUE(metrics.ok());
  ASSERT_EQ(metrics->points.size(), 1u);
  const auto& c = metrics->points[0].counters;
  EXPECT_EQ(c.write_requests, 999);
  EXPECT_EQ(c.throttled_write_requests, kThreads * kEach - 999);
  EXPECT_EQ(c.consumed_write_half_units, 2 * 999);
  EXPECT_EQ(c.read_requests + c.throttled_read_requests, kThreads * kEach);
  EXPECT_EQ((*internal::GetTable(db, "Tab"))->item_count(), 999);
}

TEST(CapacityConcurrentTest, SystemClockServesAtMostTheLimitWhileTheClockRuns) {
  DatabaseOptions options;
  options.capacity.enabled = true;  // the system clock
  Database db(options);
  ASSERT_TRUE(db.CreateTable(CapacityTable("Tab", 1, 100)).ok());
  const auto start = std::chrono::steady_clock::now();
  std::atomic<int64_t> served{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(300)) {
        PutItemRequest put;
        put.table_name = "Tab";
        put.item = {{"PK", Value("same")}};
        served += db.PutItem(put).ok();
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // One full second saved at creation, then 100 per second.
  EXPECT_LE(served.load(), 100 + static_cast<int64_t>(100 * seconds) + 1);
  EXPECT_GE(served.load(), 100);
}

}  // namespace
}  // namespace partstore::testing
