// Streams under concurrency (run under ThreadSanitizer in CI's concurrent_tests): writers on four
// threads, a subscription consuming on a fifth, and a control thread that splits the table's
// partitions (raising its throughput) and moves the manual clock, all at once. Every acknowledged
// write appears exactly once, in write order per key, both in the pull API's full read and in
// what the subscription delivered.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "partstore/database.h"
#include "partstore/stream_subscription.h"
#include "tests/shard/database_testutil.h"

namespace partstore::testing {
namespace {

// What one record says happened: the event and the version it wrote (or removed).
using Change = std::pair<StreamEventName, std::string>;

std::string VersionOf(const StreamRecord& r) {
  const StoredItem& image = r.new_image ? *r.new_image : *r.old_image;
  return std::string(image.Find("v")->number_text());
}

TEST(StreamConcurrentTest, AcknowledgedWritesAppearExactlyOnceInOrder) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = clock;
  Database db(options);
  CreateTableRequest request = SimpleTable("Feed", StringKeys());
  request.billing_mode = BillingMode::kProvisioned;
  request.provisioned_throughput = ProvisionedThroughput{100, 500};
  request.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  auto created = db.CreateTable(request);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::string arn = *created->table_description.latest_stream_arn;

  std::map<std::string, std::vector<Change>> delivered;
  auto sub = StreamSubscription::Open(db, "Feed", {}, [&](const StreamRecord& r) {
    delivered[std::string(r.keys.at("PK").as_string())].push_back({r.event_name, VersionOf(r)});
  });
  ASSERT_TRUE(sub.ok()) << sub.status().ToString();

  constexpr int kWriters = 4, kOps = 300, kKeys = 10;
  std::atomic<int> running{kWriters};
  std::vector<std::map<std::string, std::vector<Change>>> acknowledged(kWriters);
  std::vector<std::thread> threads;
  for (int t = 0; t < kWriters; ++t) {
    threads.emplace_back([&, t] {
      std::map<std::string, bool> exists;
      for (int i = 0; i < kOps; ++i) {
        const std::string pk = "w" + std::to_string(t) + "-" + std::to_string(i % kKeys);
        const std::string version = std::to_string(i);
        const Item key{{"PK", Value(pk)}, {"SK", Value("x")}};
        while (true) {  // throttled writes are retried: only acknowledged ones count
          Status status;
          if (i % 7 == 6 && exists[pk]) {
            auto deleted = db.DeleteItem(
                {.table_name = "Feed", .key = key, .return_values = ReturnValue::kAllOld});
            status = deleted.status();
            if (status.ok()) {
              const std::string old(deleted->attributes->at("v").as_number().ToString());
              acknowledged[t][pk].push_back({StreamEventName::kRemove, old});
              exists[pk] = false;
            }
          } else {
            Item item = key;
            item["v"] = N(version);
            status = db.PutItem({.table_name = "Feed", .item = item}).status();
            if (status.ok()) {
              acknowledged[t][pk].push_back(
                  {exists[pk] ? StreamEventName::kModify : StreamEventName::kInsert, version});
              exists[pk] = true;
            }
          }
          if (status.ok()) break;
          ASSERT_EQ(status.code(), Code::kProvisionedThroughputExceeded) << status.ToString();
          std::this_thread::yield();
        }
      }
      running.fetch_sub(1);
    });
  }
  std::thread control([&] {
    for (int64_t wcu : {1500, 3000, 6000}) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      UpdateTableRequest raise{.table_name = "Feed"};
      raise.provisioned_throughput = ProvisionedThroughput{100, wcu};
      auto updated = db.UpdateTable(raise);
      EXPECT_TRUE(updated.ok()) << updated.status().ToString();
    }
    while (running.load() > 0) {
      EXPECT_TRUE(db.AdvanceClock({1}).ok());
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  // The consumer runs while they write.
  while (running.load() > 0) {
    auto polled = (*sub)->Wait(std::chrono::milliseconds(5));
    ASSERT_TRUE(polled.ok()) << polled.status().ToString();
  }
  for (auto& thread : threads) thread.join();
  control.join();
  ASSERT_TRUE((*sub)->Poll().ok());

  std::map<std::string, std::vector<Change>> expected;
  for (const auto& per_thread : acknowledged) expected.insert(per_thread.begin(), per_thread.end());
  EXPECT_EQ(delivered, expected);

  // The pull API's full read (parents before children) says the same, and the splits happened.
  auto described = db.DescribeStream({.stream_arn = arn});
  ASSERT_TRUE(described.ok());
  EXPECT_GE(described->stream_description.shards.size(), 7u);  // 1 + 2 + 4: two splits at least
  std::map<std::string, std::vector<Change>> pulled;
  for (const StreamShard& shard : described->stream_description.shards) {
    auto it = db.GetShardIterator({arn, shard.shard_id});
    ASSERT_TRUE(it.ok());
    std::optional<std::string> next = it->shard_iterator;
    while (next) {
      auto page = db.GetRecords({*next});
      ASSERT_TRUE(page.ok()) << page.status().ToString();
      for (const StreamRecord& r : page->records) {
        pulled[std::string(r.keys.at("PK").as_string())].push_back({r.event_name, VersionOf(r)});
      }
      if (page->records.empty()) break;
      next = page->next_shard_iterator;
    }
  }
  EXPECT_EQ(pulled, expected);
}

}  // namespace
}  // namespace partstore::testing
