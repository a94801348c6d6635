// ReadThrough (partstore/read_through.h): hits, misses and loads; loaded items stored with their
// TTL and treated as misses once it passes (before the sweeper runs); errors, exceptions and
// "no such item" not stored; a loader's item with another key refused; concurrent misses of one
// key load once (ThreadSanitizer runs the concurrent test).
#include "partstore/read_through.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

class ReadThroughTest : public ::testing::Test {
 protected:
  ReadThroughTest() : clock_(std::make_shared<capacity::ManualClock>()), db_(Options(clock_)) {
    EXPECT_TRUE(db_.CreateTable(SimpleTable("Users", StringKeys(false))).ok());
  }
  static DatabaseOptions Options(std::shared_ptr<capacity::ManualClock> clock) {
    DatabaseOptions options;
    options.capacity.clock = std::move(clock);
    options.time_to_live.epoch_at_clock_zero = 1'800'000'000;
    return options;
  }
  static Item Key(const std::string& pk) { return {{"PK", Value(pk)}}; }
  // A loader that counts its calls and answers the user's name.
  ReadThrough::Loader Counting() {
    return [this](const Item& key) -> Result<std::optional<Item>> {
      ++calls_;
      Item item = key;
      item["name"] = Value("loaded " + key.at("PK").as_string());
      return std::optional<Item>(std::move(item));
    };
  }

  std::shared_ptr<capacity::ManualClock> clock_;
  Database db_;
  std::atomic<int> calls_{0};
};

TEST_F(ReadThroughTest, MissLoadsAndStoresThenHits) {
  ReadThrough cache(db_, {.table_name = "Users", .ttl_attribute = "exp", .ttl_seconds = 60});
  auto first = cache.GetOrLoad(Key("u1"), Counting());
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->at("name"), Value("loaded u1"));
  EXPECT_EQ((*first)->at("exp"), Value(1'800'000'060));  // stored with its expiry
  auto stored = db_.GetItem({.table_name = "Users", .key = Key("u1")});
  ASSERT_TRUE(stored.ok() && stored->item);
  EXPECT_EQ(*stored->item, **first);

  auto second = cache.GetOrLoad(Key("u1"), Counting());
  ASSERT_TRUE(second.ok() && second->has_value());
  EXPECT_EQ(calls_, 1);
  const ReadThroughStats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.misses, 1u);
  EXPECT_EQ(stats.loads, 1u);
}

TEST_F(ReadThroughTest, AnExpiredItemIsAMissBeforeTheSweeperRuns) {
  ReadThrough cache(db_, {.table_name = "Users", .ttl_attribute = "exp", .ttl_seconds = 60});
  ASSERT_TRUE(cache.GetOrLoad(Key("u1"), Counting()).ok());
  clock_->Advance(59'000'000);
  ASSERT_TRUE(cache.GetOrLoad(Key("u1"), Counting()).ok());
  EXPECT_EQ(calls_, 1);
  clock_->Advance(2'000'000);  // 61 s: past the expiry; TTL is not even enabled on the table
  auto reloaded = cache.GetOrLoad(Key("u1"), Counting());
  ASSERT_TRUE(reloaded.ok() && reloaded->has_value());
  EXPECT_EQ(calls_, 2);
  EXPECT_EQ((*reloaded)->at("exp"), Value(1'800'000'121));
  EXPECT_EQ(cache.stats().expired, 1u);
}

TEST_F(ReadThroughTest, NothingStoredForErrorsExceptionsOrNoItem) {
  ReadThrough cache(db_, {.table_name = "Users"});
  auto none = cache.GetOrLoad(Key("gone"), [](const Item&) -> Result<std::optional<Item>> {
    return std::optional<Item>();
  });
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  auto failed = cache.GetOrLoad(Key("bad"), [](const Item&) -> Result<std::optional<Item>> {
    return Status::Internal("source down");
  });
  EXPECT_EQ(failed.status().message(), "source down");
  auto threw = cache.GetOrLoad(Key("bad"), [](const Item&) -> Result<std::optional<Item>> {
    throw std::runtime_error("x");
  });
  EXPECT_EQ(threw.status().code(), Code::kInternal);
  auto other_key = cache.GetOrLoad(Key("me"), [](const Item&) -> Result<std::optional<Item>> {
    return std::optional<Item>(Item{{"PK", Value("someone else")}});
  });
  EXPECT_EQ(other_key.status().code(), Code::kValidation);
  auto scan = db_.Scan({.table_name = "Users"});
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ(scan->count, 0);
  EXPECT_EQ(cache.stats().load_errors, 3u);
  // The read's own errors come first.
  EXPECT_EQ(cache.GetOrLoad({{"nope", Value("x")}}, Counting()).status().code(), Code::kValidation);
  ReadThrough missing(db_, {.table_name = "Missing"});
  EXPECT_EQ(missing.GetOrLoad(Key("u"), Counting()).status().code(), Code::kResourceNotFound);
  ReadThrough zero(db_, {.table_name = "Users", .ttl_seconds = 0});
  EXPECT_EQ(zero.GetOrLoad(Key("u"), Counting()).status().code(), Code::kValidation);
  EXPECT_EQ(calls_, 0);
}

TEST_F(ReadThroughTest, ConcurrentMissesOfOneKeyLoadOnce) {
  ReadThrough cache(db_, {.table_name = "Users", .ttl_attribute = "exp"});
  std::atomic<int> started{0};
  ReadThrough::Loader slow = [&](const Item& key) -> Result<std::optional<Item>> {
    ++calls_;
    // Hold the load until every caller has missed, so they all find it in flight.
    for (int i = 0; i < 200 && started.load() < 8; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    Item item = key;
    item["v"] = Value(1);
    return std::optional<Item>(std::move(item));
  };
  std::vector<std::thread> threads;
  std::atomic<int> answered{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      ++started;
      auto got = cache.GetOrLoad(Key("hot"), slow);
      if (got.ok() && got->has_value() && (*got)->at("v") == Value(1)) ++answered;
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(answered, 8);
  EXPECT_EQ(calls_, 1);
  const ReadThroughStats stats = cache.stats();
  EXPECT_EQ(stats.loads, 1u);
  EXPECT_EQ(stats.hits + stats.misses, 8u);
}

}  // namespace
}  // namespace partstore::testing
