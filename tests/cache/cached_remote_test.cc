// CachedStore in front of a remote endpoint (a RemoteStore to tools/server over a Database), and
// the upstream's faults: a server that stops mid-run, throttling, a stream whose shard splits.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "partstore/cached_store.h"
#include "partstore/clock.h"
#include "partstore/database.h"
#include "partstore/remote_store.h"
#include "tests/server/server_testutil.h"

namespace partstore {
namespace {

using server::ServerOptions;
using server::server_testing::RunningServer;
using std::chrono::milliseconds;

Item Item3(const std::string& pk, const std::string& data) {
  return {{"PK", Value(pk)}, {"data", Value(data)}};
}
Item KeyPk(const std::string& pk) { return {{"PK", Value(pk)}}; }
KeySchema HashKey() {
  KeySchema key;
  key.partition = KeyAttribute{"PK", KeyType::kString};
  return key;
}

// `db` served on a free loopback port, one thread, no signal handling.
std::unique_ptr<RunningServer> Serve(Database& db) {
  ServerOptions options;
  options.port = 0;
  options.threads = 1;
  options.handle_signals = false;
  auto server = std::make_unique<RunningServer>(db, options);
  EXPECT_TRUE(server->start_status().ok());
  return server;
}

// A RemoteStore's options for a server at `port`, the test's credentials, one attempt a call.
RemoteOptions ClientOf(uint16_t port) {
  RemoteOptions remote;
  remote.endpoint = "http://127.0.0.1:" + std::to_string(port);
  remote.region = "us-east-1";
  remote.credentials = AwsCredentials{"AKID", "secret", ""};
  remote.connect_timeout = milliseconds(500);
  remote.request_timeout = milliseconds(1000);
  remote.retry.max_attempts = 1;
  return remote;
}

// A cache over a RemoteStore over a served Database; the server can be stopped mid-test.
class CachedRemoteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(db_.CreateTable(SimpleTable("Items", HashKey())).ok());
    server_ = Serve(db_);
    auto opened = RemoteStore::Open(ClientOf(server_->port()));
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    remote_ = std::move(*opened);
    CacheOptions cache;
    cache.item_ttl_seconds = 60;
    cache.clock = clock_;
    auto cached = CachedStore::Open(*remote_, cache);
    ASSERT_TRUE(cached.ok());
    cache_ = std::move(*cached);
  }

  std::shared_ptr<capacity::ManualClock> clock_ = std::make_shared<capacity::ManualClock>();
  Database db_;
  std::unique_ptr<RunningServer> server_;
  std::unique_ptr<RemoteStore> remote_;
  std::unique_ptr<CachedStore> cache_;
};

TEST_F(CachedRemoteTest, AnswersAsTheUpstreamDoes) {
  ASSERT_TRUE(cache_->PutItem({.table_name = "Items", .item = Item3("a", "x")}).ok());
  auto got = cache_->GetItem({.table_name = "Items", .key = KeyPk("a")});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->item, Item3("a", "x"));
  auto direct = db_.GetItem({.table_name = "Items", .key = KeyPk("a")});
  EXPECT_EQ(got->item, direct->item);
  auto missing = cache_->GetItem({.table_name = "Nope", .key = KeyPk("a")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kResourceNotFound);
  EXPECT_EQ(missing.status().message(),
            db_.GetItem({.table_name = "Nope", .key = KeyPk("a")}).status().message());
}

TEST_F(CachedRemoteTest, AStoppedUpstreamFailsWritesAndMissesWhileHitsLastTheirTtl) {
  ASSERT_TRUE(cache_->PutItem({.table_name = "Items", .item = Item3("a", "x")}).ok());
  server_->Stop();
  // A hit needs no upstream.
  auto hit = cache_->GetItem({.table_name = "Items", .key = KeyPk("a")});
  ASSERT_TRUE(hit.ok()) << hit.status().ToString();
  EXPECT_EQ(hit->item, Item3("a", "x"));
  // A write is not acknowledged, and the key is not left cached with a value no one stored.
  auto put = cache_->PutItem({.table_name = "Items", .item = Item3("a", "y")});
  ASSERT_FALSE(put.ok());
  EXPECT_TRUE(put.status().code() == Code::kInternal ||
              put.status().code() == Code::kOutcomeUnknown)
      << put.status().ToString();
  auto after = cache_->GetItem({.table_name = "Items", .key = KeyPk("a")});
  ASSERT_FALSE(after.ok());  // forgotten: a miss, and the upstream is gone
  EXPECT_EQ(after.status().code(), Code::kInternal);
  EXPECT_EQ(db_.GetItem({.table_name = "Items", .key = KeyPk("a")})->item, Item3("a", "x"));
  // A miss fails with the transport's error naming the endpoint.
  auto miss = cache_->GetItem({.table_name = "Items", .key = KeyPk("b")});
  ASSERT_FALSE(miss.ok());
  EXPECT_NE(miss.status().message().find("127.0.0.1"), std::string::npos)
      << miss.status().ToString();
}

// The background follower over the wire: another writer's change reaches the cache within the
// poll interval (20 ms here; 2 s allowed for a loaded machine), with no miss.
TEST(CachedRemoteStreamTest, AnotherWritersChangeArrivesThroughTheStream) {
  Database db;
  CreateTableRequest table = SimpleTable("Live", HashKey());
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  ASSERT_TRUE(db.CreateTable(table).ok());
  ASSERT_TRUE(db.PutItem({.table_name = "Live", .item = Item3("a", "old")}).ok());
  std::unique_ptr<RunningServer> server = Serve(db);
  auto store = RemoteStore::Open(ClientOf(server->port()));
  ASSERT_TRUE(store.ok());
  CacheOptions cache_options;
  cache_options.stream_poll_interval = milliseconds(20);
  auto cache = CachedStore::Open(**store, cache_options);
  ASSERT_TRUE(cache.ok());
  EXPECT_EQ((*cache)->GetItem({.table_name = "Live", .key = KeyPk("a")})->item, Item3("a", "old"));
  ASSERT_TRUE(db.PutItem({.table_name = "Live", .item = Item3("a", "new")}).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::optional<Item> seen;
  while (std::chrono::steady_clock::now() < deadline) {
    seen = (*cache)->GetItem({.table_name = "Live", .key = KeyPk("a")})->item;
    if (seen == Item3("a", "new")) break;
    std::this_thread::sleep_for(milliseconds(5));
  }
  EXPECT_EQ(seen, Item3("a", "new"));
  EXPECT_EQ((*cache)->stats().item_misses, 1u);
  EXPECT_GE((*cache)->stats().stream_records, 1u);
}

// Capacity simulated on the upstream: one hot key read far past what its partition serves.
class CachedThrottlingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions options;
    options.capacity.enabled = true;
    options.capacity.clock = upstream_clock_;
    upstream_ = std::make_unique<Database>(options);
    CreateTableRequest table = SimpleTable("Hot", HashKey());
    table.billing_mode = BillingMode::kProvisioned;
    table.provisioned_throughput = ProvisionedThroughput{5, 5};
    ASSERT_TRUE(upstream_->CreateTable(table).ok());
    ASSERT_TRUE(upstream_->PutItem({.table_name = "Hot", .item = Item3("star", "x")}).ok());
    auto cached = CachedStore::Open(*upstream_, {});
    ASSERT_TRUE(cached.ok());
    cache_ = std::move(*cached);
  }
  std::shared_ptr<capacity::ManualClock> upstream_clock_ =
      std::make_shared<capacity::ManualClock>();
  std::unique_ptr<Database> upstream_;
  std::unique_ptr<CachedStore> cache_;
};

TEST_F(CachedThrottlingTest, HitsAreNotThrottledAndWriteThrottlesAreNotHidden) {
  int direct_throttled = 0, cached_throttled = 0;
  for (int i = 0; i < 5000; ++i) {
    auto direct = upstream_->GetItem({.table_name = "Hot", .key = KeyPk("star")});
    if (!direct.ok()) {
      EXPECT_EQ(direct.status().code(), Code::kProvisionedThroughputExceeded);
      ++direct_throttled;
    }
    auto cached = cache_->GetItem({.table_name = "Hot", .key = KeyPk("star")});
    if (!cached.ok()) ++cached_throttled;
  }
  EXPECT_GT(direct_throttled, 4000);
  EXPECT_EQ(cached_throttled, 0);
  EXPECT_EQ(cache_->stats().item_misses, 1u);

  int write_throttled = 0;
  for (int i = 0; i < 5000; ++i) {
    auto put = cache_->PutItem({.table_name = "Hot", .item = Item3("w" + std::to_string(i), "x")});
    if (!put.ok()) {
      EXPECT_EQ(put.status().code(), Code::kProvisionedThroughputExceeded);
      ++write_throttled;
      // Not acknowledged, so not cached either: the next read asks the table.
      auto read = cache_->GetItem({.table_name = "Hot", .key = KeyPk("w" + std::to_string(i))});
      if (read.ok()) {
        EXPECT_FALSE(read->item);
      }
    }
  }
  EXPECT_GT(write_throttled, 0);
}

TEST(CachedStreamSplitTest, RecordsAreFollowedIntoTheChildShards) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = clock;
  Database upstream(options);
  CreateTableRequest table = SimpleTable("Split", HashKey());
  table.billing_mode = BillingMode::kProvisioned;
  table.provisioned_throughput = ProvisionedThroughput{100, 500};  // one partition
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  ASSERT_TRUE(upstream.CreateTable(table).ok());
  CacheOptions cache_options;
  cache_options.stream_poll_interval = std::chrono::minutes(1);
  auto opened = CachedStore::Open(upstream, cache_options);
  ASSERT_TRUE(opened.ok());
  CachedStore& cache = **opened;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        upstream.PutItem({.table_name = "Split", .item = Item3("k" + std::to_string(i), "before")})
            .ok());
    EXPECT_EQ(cache.GetItem({.table_name = "Split", .key = KeyPk("k" + std::to_string(i))})->item,
              Item3("k" + std::to_string(i), "before"));
  }
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(
        upstream.PutItem({.table_name = "Split", .item = Item3("k" + std::to_string(i), "middle")})
            .ok());
  }
  ASSERT_TRUE(upstream.AdvanceClock({1}).ok());
  UpdateTableRequest raise{.table_name = "Split"};
  raise.provisioned_throughput = ProvisionedThroughput{100, 1500};  // two partitions
  ASSERT_TRUE(upstream.UpdateTable(raise).ok());
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(
        upstream.PutItem({.table_name = "Split", .item = Item3("k" + std::to_string(i), "after")})
            .ok());
  }
  cache.PollStreams();  // the parent to its end, then the children found
  cache.PollStreams();  // the children read
  // From the cache's first read of the table: 19 "before", 10 "middle", 20 "after".
  EXPECT_EQ(cache.stats().stream_records, 49u);
  const uint64_t misses = cache.stats().item_misses;
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(cache.GetItem({.table_name = "Split", .key = KeyPk("k" + std::to_string(i))})->item,
              Item3("k" + std::to_string(i), "after"));
  }
  EXPECT_EQ(cache.stats().item_misses, misses);  // refreshed, not forgotten
}

}  // namespace
}  // namespace partstore
