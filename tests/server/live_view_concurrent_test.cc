// The live page's document read while writers are throttled, tables come and go and the clock
// moves (the page's server reads the Database from its own threads; `simulate --live` does so while
// the run writes): every document is whole and valid JSON. Run under ThreadSanitizer in CI.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "partstore/clock.h"
#include "tools/live/live_view.h"

namespace partstore::live {
namespace {

TEST(LiveViewConcurrentTest, DocumentsStayWholeWhileWritersTablesAndTheClockMove) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = clock;
  options.capacity.contributor_insights = true;
  Database db(options);
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  CreateTableRequest hot = SimpleTable("Hot", key);
  hot.billing_mode = BillingMode::kProvisioned;
  hot.provisioned_throughput = ProvisionedThroughput{10, 10};
  ASSERT_TRUE(db.CreateTable(hot).ok());

  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; !stop.load(); ++i) {
        (void)db.PutItem({.table_name = "Hot",
                          .item = {{"PK", Value("k" + std::to_string((i + w) % 7))}}});
        (void)db.GetItem({.table_name = "Hot", .key = {{"PK", Value("k1")}}});
      }
    });
  }
  threads.emplace_back([&] {  // tables created and deleted, and the clock moving on
    for (int i = 0; !stop.load(); ++i) {
      const std::string name = "tmp" + std::to_string(i % 3);
      (void)db.CreateTable(SimpleTable(name, key));
      clock->Advance(100'000);
      (void)db.DeleteTable({.table_name = name});
    }
  });
  int documents = 0;
  for (int i = 0; i < 200; ++i) {
    Result<std::string> json = LiveViewJson(db, {.window_seconds = 10});
    ASSERT_TRUE(json.ok()) << json.status().ToString();
    rapidjson::Document d;
    d.Parse(json->c_str(), json->size());
    ASSERT_FALSE(d.HasParseError()) << json->substr(0, 300);
    ASSERT_TRUE(d["capacity"].GetBool());
    for (const auto& r : d["resources"].GetArray()) {
      ASSERT_EQ(r["series"]["write"].Size(), 10u);
    }
    ++documents;
  }
  stop.store(true);
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(documents, 200);
}

}  // namespace
}  // namespace partstore::live
