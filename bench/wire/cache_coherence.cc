// bench/wire/cache_coherence.cc (issue 46): two figures of CachedStore in front of a remote table
// (RemoteStore to a tools/server in this process, over loopback HTTP):
//
//   staleness   another writer changes an item the cache holds (straight to the upstream), at a
//               random moment of the poll cycle; how long until the cache answers the new value,
//               following the table's stream (NEW_AND_OLD_IMAGES), for two poll intervals: p50,
//               p99, max over 200 writes.
//   hot         one product's 20 reviews (a Query of ~4.3 KB, 1 read unit) read at 20x what its
//               partition serves (a provisioned table of 10 read units, one partition, no burst
//               credit), for 5 s: straight to the upstream, then through the cache: how many
//               were throttled, and the read units the upstream consumed.
//
//   build/release/bench/cache_coherence        # ~2 minutes
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "partstore/cached_store.h"
#include "partstore/database.h"
#include "partstore/remote_store.h"
#include "tools/server/server.h"

namespace {

using namespace partstore;
using Clock = std::chrono::steady_clock;

// A Database served on a free loopback port for the life of the object.
class Served {
 public:
  explicit Served(DatabaseOptions options) : db_(std::move(options)) {
    server::ServerOptions o;
    o.port = 0;
    o.threads = 1;
    o.handle_signals = false;
    server_ = std::make_unique<server::Server>(db_, o);
    if (!server_->Start().ok()) std::abort();
    thread_ = std::thread([this] { server_->Run(); });
  }
  ~Served() {
    server_->Stop();
    thread_.join();
  }
  Database& db() { return db_; }
  std::unique_ptr<RemoteStore> Client() {
    RemoteOptions r;
    r.endpoint = "http://127.0.0.1:" + std::to_string(server_->port());
    r.region = "us-east-1";
    r.credentials = AwsCredentials{"AKIDBENCH", "bench", ""};
    r.retry.max_attempts = 1;  // count the upstream's throttles as they come
    return std::move(*RemoteStore::Open(r));
  }

 private:
  Database db_;
  std::unique_ptr<server::Server> server_;
  std::thread thread_;
};

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

void Staleness(std::chrono::milliseconds poll) {
  Served served({});
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  CreateTableRequest table = SimpleTable("Stale", key);
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  (void)served.db().CreateTable(table);
  auto remote = served.Client();
  CacheOptions options;
  options.stream_poll_interval = poll;
  auto cache = std::move(*CachedStore::Open(*remote, options));
  const Item k{{"PK", Value("item")}};
  (void)served.db().PutItem(
      {.table_name = "Stale", .item = {{"PK", Value("item")}, {"v", Value(int64_t{0})}}});
  (void)cache->GetItem({.table_name = "Stale", .key = k});
  std::vector<double> ms;
  std::mt19937 rng(7);
  for (int64_t i = 1; i <= 200; ++i) {
    (void)served.db().PutItem(
        {.table_name = "Stale", .item = {{"PK", Value("item")}, {"v", Value(i)}}});
    const auto start = Clock::now();
    while (true) {
      auto got = cache->GetItem({.table_name = "Stale", .key = k});
      if (got.ok() && got->item && got->item->at("v") == Value(i)) break;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    // The next write at a random moment of the poll cycle.
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % (poll.count() * 1000)));
  }
  const CacheStats s = cache->stats();
  std::printf(
      "staleness  poll %4lld ms: p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms  (%llu records, "
      "%llu misses)\n",
      static_cast<long long>(poll.count()), Percentile(ms, 0.5), Percentile(ms, 0.99),
      *std::max_element(ms.begin(), ms.end()), static_cast<unsigned long long>(s.stream_records),
      static_cast<unsigned long long>(s.item_misses));
}

void HotPartition() {
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.burst_seconds = 0;
  Served served(options);
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  key.sort = KeyAttribute{"SK", KeyType::kString};
  CreateTableRequest table = SimpleTable("Reviews", key);
  table.billing_mode = BillingMode::kProvisioned;
  table.provisioned_throughput = ProvisionedThroughput{10, 100};
  (void)served.db().CreateTable(table);
  for (int i = 0; i < 20; ++i) {
    (void)served.db().PutItem({.table_name = "Reviews",
                               .item = {{"PK", Value("PRODUCT#viral")},
                                        {"SK", Value("REVIEW#" + std::to_string(i))},
                                        {"text", Value(std::string(180, 'r'))}}});
  }
  auto remote = served.Client();
  auto cache = std::move(*CachedStore::Open(*remote, {}));
  const QueryRequest query{
      .table_name = "Reviews",
      .key_condition_expression = "PK = :p",
      .expression_attribute_values = AttributeMap{{":p", Value("PRODUCT#viral")}},
      .return_consumed_capacity = ReturnConsumedCapacity::kTotal};
  // 10 read units/s at 1 a query: 10 queries/s; 20x: 200 queries/s for 5 s.
  for (Store* store : {static_cast<Store*>(remote.get()), static_cast<Store*>(cache.get())}) {
    int served_queries = 0, throttled = 0;
    double units = 0;
    const auto start = Clock::now();
    for (int i = 0; i < 1000; ++i) {
      std::this_thread::sleep_until(start + std::chrono::milliseconds(5 * i));
      auto page = store->Query(query);
      if (page.ok()) {
        ++served_queries;
        if (page->consumed_capacity) units += page->consumed_capacity->CapacityUnits();
      } else if (page.status().code() == Code::kProvisionedThroughputExceeded) {
        ++throttled;
      }
    }
    std::printf(
        "hot        %-9s 1000 queries in 5 s: %4d served, %4d throttled, %6.1f read units "
        "consumed upstream\n",
        store == remote.get() ? "straight" : "cached", served_queries, throttled, units);
    std::this_thread::sleep_for(std::chrono::seconds(2));  // the partition's tokens refill
  }
}

}  // namespace

int main() {
  Staleness(std::chrono::milliseconds(250));
  Staleness(std::chrono::milliseconds(50));
  HotPartition();
  return 0;
}
