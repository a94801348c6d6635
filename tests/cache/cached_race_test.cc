// The orderings the cache must get right, made deterministic: an upstream call held between
// its answer and the cache's use of it (tests/testutil/forwarding_store.h), while another call
// runs to its end.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "partstore/cached_store.h"
#include "partstore/database.h"
#include "tests/testutil/forwarding_store.h"

namespace partstore {
namespace {

Item Entry(const std::string& pk, const std::string& data) {
  return {{"PK", Value(pk)}, {"data", Value(data)}};
}

// Holds the first call of the chosen kind after the upstream answered it, until Release().
class HoldingStore : public testing::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  enum class Hold { kNone, kGetItem, kQuery, kPutItem };

  void HoldNext(Hold hold) {
    std::lock_guard lock(mu_);
    hold_ = hold;
    held_ = released_ = false;
  }
  void WaitHeld() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return held_; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }

  Result<GetItemResult> GetItem(const GetItemRequest& r) override {
    auto answer = inner_.GetItem(r);
    MaybeHold(Hold::kGetItem);
    return answer;
  }
  Result<QueryResult> Query(const QueryRequest& r) override {
    auto answer = inner_.Query(r);
    MaybeHold(Hold::kQuery);
    return answer;
  }
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& r) override {
    for (const auto& [table, keys] : r.request_items) batch_keys += keys.keys.size();
    return inner_.BatchGetItem(r);
  }
  std::atomic<size_t> batch_keys{0};  // keys the cache asked the upstream for in batches
  Result<PutItemResult> PutItem(const PutItemRequest& r) override {
    auto answer = inner_.PutItem(r);
    MaybeHold(Hold::kPutItem);
    return answer;
  }

 private:
  void MaybeHold(Hold kind) {
    std::unique_lock lock(mu_);
    if (hold_ != kind) return;
    hold_ = Hold::kNone;
    held_ = true;
    cv_.notify_all();
    cv_.wait(lock, [&] { return released_; });
  }
  std::mutex mu_;
  std::condition_variable cv_;
  Hold hold_ = Hold::kNone;
  bool held_ = false, released_ = false;
};

class CachedRaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KeySchema key;
    key.partition = KeyAttribute{"PK", KeyType::kString};
    ASSERT_TRUE(db_.CreateTable(SimpleTable("Race", key)).ok());
    ASSERT_TRUE(db_.PutItem({.table_name = "Race", .item = Entry("k", "v1")}).ok());
    auto opened = CachedStore::Open(holding_, {});
    ASSERT_TRUE(opened.ok());
    cache_ = std::move(*opened);
  }
  std::optional<Item> Get() {
    auto got = cache_->GetItem({.table_name = "Race", .key = {{"PK", Value("k")}}});
    EXPECT_TRUE(got.ok());
    return got.ok() ? got->item : std::nullopt;
  }

  Database db_;
  HoldingStore holding_{db_};
  std::unique_ptr<CachedStore> cache_;
};

TEST_F(CachedRaceTest, AFillReadBeforeAWriteIsNotStoredAfterIt) {
  holding_.HoldNext(HoldingStore::Hold::kGetItem);
  auto reader = std::async(std::launch::async, [&] { return Get(); });
  holding_.WaitHeld();  // the reader has v1 from the table, not yet cached
  ASSERT_TRUE(cache_->PutItem({.table_name = "Race", .item = Entry("k", "v2")}).ok());
  holding_.Release();
  EXPECT_EQ(reader.get(), Entry("k", "v1"));  // what the table had when it was read
  EXPECT_EQ(Get(), Entry("k", "v2"));         // and the cache kept the write, not the fill
}

TEST_F(CachedRaceTest, APageReadBeforeAWriteIsNotAHitAfterIt) {
  auto query = [&] {
    auto page = cache_->Query({.table_name = "Race",
                               .key_condition_expression = "PK = :k",
                               .expression_attribute_values = AttributeMap{{":k", Value("k")}}});
    EXPECT_TRUE(page.ok());
    return page.ok() ? page->items : std::vector<Item>{};
  };
  holding_.HoldNext(HoldingStore::Hold::kQuery);
  auto reader = std::async(std::launch::async, query);
  holding_.WaitHeld();
  ASSERT_TRUE(cache_->PutItem({.table_name = "Race", .item = Entry("k", "v2")}).ok());
  holding_.Release();
  EXPECT_EQ(reader.get(), std::vector<Item>{Entry("k", "v1")});
  EXPECT_EQ(query(), std::vector<Item>{Entry("k", "v2")});
}

TEST_F(CachedRaceTest, ABatchJoinsAGetItemsLoadInsteadOfReadingTheKeyAgain) {
  ASSERT_TRUE(db_.PutItem({.table_name = "Race", .item = Entry("j", "other")}).ok());
  holding_.HoldNext(HoldingStore::Hold::kGetItem);
  auto reader = std::async(std::launch::async, [&] { return Get(); });
  holding_.WaitHeld();  // "k" is being loaded by the GetItem
  BatchGetItemRequest batch;
  batch.request_items.emplace_back(
      "Race", KeysAndAttributes{.keys = {{{"PK", Value("k")}}, {{"PK", Value("j")}}}});
  auto batched = std::async(std::launch::async, [&] { return cache_->BatchGetItem(batch); });
  // The batch reads "j" itself, then waits for the GetItem's "k".
  while (holding_.batch_keys.load() == 0) std::this_thread::yield();
  holding_.Release();
  EXPECT_EQ(reader.get(), Entry("k", "v1"));
  auto result = batched.get();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(holding_.batch_keys.load(), 1u);  // "k" was not asked for again
  ASSERT_EQ(result->responses.size(), 1u);
  EXPECT_EQ(result->responses[0].second.size(), 2u);
  EXPECT_TRUE(result->unprocessed_keys.empty());
  EXPECT_EQ(cache_->stats().shared_loads, 1u);
}

TEST_F(CachedRaceTest, OverlappingWritesOfOneKeyLeaveNeitherCached) {
  // W1 reaches the table first but returns last: caching what each write returned in the order
  // they return would leave v1, which the table no longer holds.
  holding_.HoldNext(HoldingStore::Hold::kPutItem);
  auto first = std::async(std::launch::async, [&] {
    return cache_->PutItem({.table_name = "Race", .item = Entry("k", "w1")}).ok();
  });
  holding_.WaitHeld();
  ASSERT_TRUE(cache_->PutItem({.table_name = "Race", .item = Entry("k", "w2")}).ok());
  holding_.Release();
  EXPECT_TRUE(first.get());
  const uint64_t misses = cache_->stats().item_misses;
  EXPECT_EQ(Get(), Entry("k", "w2"));
  EXPECT_EQ(cache_->stats().item_misses, misses + 1);  // forgotten, read again
}

// A stream whose GetRecords is throttled (DynamoDB Streams' LimitExceededException) a few times:
// the follower backs off, counts the throttles, and catches up once they stop.
class ThrottledStreams : public testing::ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  std::atomic<int> throttles_left{0};
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& r) override {
    if (throttles_left.load() > 0) {
      --throttles_left;
      return Status(Code::kLimitExceeded, "Rate exceeded for shard");
    }
    return inner_.GetRecords(r);
  }
};

TEST(CachedStreamThrottleTest, AThrottledStreamBacksOffAndCatchesUp) {
  Database db;
  KeySchema key;
  key.partition = KeyAttribute{"PK", KeyType::kString};
  CreateTableRequest table = SimpleTable("Race", key);
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  ASSERT_TRUE(db.CreateTable(table).ok());
  ASSERT_TRUE(db.PutItem({.table_name = "Race", .item = Entry("k", "v1")}).ok());
  ThrottledStreams streams(db);
  CacheOptions options;
  options.stream_poll_interval = std::chrono::milliseconds(1);
  auto opened = CachedStore::Open(streams, options);
  ASSERT_TRUE(opened.ok());
  CachedStore& cache = **opened;
  auto get = [&] { return cache.GetItem({.table_name = "Race", .key = {{"PK", Value("k")}}}); };
  EXPECT_EQ(get()->item, Entry("k", "v1"));
  streams.throttles_left = 3;
  ASSERT_TRUE(db.PutItem({.table_name = "Race", .item = Entry("k", "v2")}).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (get()->item != Entry("k", "v2") && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(get()->item, Entry("k", "v2"));
  EXPECT_EQ(cache.stats().stream_throttles, 3u);
  EXPECT_EQ(cache.stats().item_misses, 1u);  // caught up by the stream, not by a miss
  EXPECT_NE(cache.PrometheusMetrics().find("partstore_cache_stream_throttles_total 3\n"),
            std::string::npos);
}

}  // namespace
}  // namespace partstore
