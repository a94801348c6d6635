// Write sharding from many threads (run under ThreadSanitizer in CI: the name has "Concurrent").
// Writers put through a random-suffix policy (its draw counter is shared) while readers run
// scatter-gather queries and aggregates and another thread replaces policies (the PolicySet swap).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/sharding/sharding_testutil.h"

namespace partstore::testing {
namespace {

TEST(ShardingConcurrent, WritersReadersAndPolicyChangesKeepEveryItem) {
  Database db;
  ASSERT_TRUE(db.CreateTable(ShardedTestTable("Feed")).ok());
  MustSetPolicy(db, "Feed", Policy("HOT", 8, sharding::ShardStrategy::kRandom));
  constexpr int kWriters = 3;
  constexpr int kPerWriter = 400;
  std::atomic<bool> writing{true};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&db, w] {
      for (int i = 0; i < kPerWriter; ++i) {
        auto put = db.ShardedPutItem(
            {.table_name = "Feed",
             .item = {{"PK", "HOT"}, {"SK", "E#" + std::to_string(w) + "#" + std::to_string(i)}}});
        ASSERT_TRUE(put.ok()) << put.status().ToString();
      }
    });
  }
  threads.emplace_back([&] {  // readers: pages are ordered and never repeat an item
    while (writing.load()) {
      QueryRequest q{.table_name = "Feed",
                     .key_condition_expression = "PK = :pk",
                     .expression_attribute_values = AttributeMap{{":pk", "HOT"}},
                     .limit = 50};
      auto page = db.ShardedQuery(q);
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      for (size_t i = 1; i < page->result.items.size(); ++i) {
        EXPECT_LT(page->result.items[i - 1].at("SK").as_string(),
                  page->result.items[i].at("SK").as_string());
      }
      auto count = db.ShardedAggregate(
          {.query = {.table_name = "Feed",
                     .key_condition_expression = "PK = :pk",
                     .expression_attribute_values = AttributeMap{{":pk", "HOT"}}}});
      ASSERT_TRUE(count.ok());
    }
  });
  threads.emplace_back([&] {  // policy changes on other keys swap the table's PolicySet
    for (int i = 0; writing.load(); ++i) {
      MustSetPolicy(db, "Feed", Policy("COLD" + std::to_string(i % 5), 2 + i % 3,
                                       sharding::ShardStrategy::kCalculated));
    }
  });
  for (int w = 0; w < kWriters; ++w) threads[static_cast<size_t>(w)].join();
  writing = false;
  for (size_t t = kWriters; t < threads.size(); ++t) threads[t].join();

  auto count = db.ShardedAggregate(
      {.query = {.table_name = "Feed",
                 .key_condition_expression = "PK = :pk",
                 .expression_attribute_values = AttributeMap{{":pk", "HOT"}}}});
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->count, kWriters * kPerWriter);
  EXPECT_EQ(count->shards_queried, 8);
}

}  // namespace
}  // namespace partstore::testing
