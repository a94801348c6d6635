// Eviction (issue 25): the hit ratio of the evict policy's sampled LRU (partstore/memory.h) against
// an exact LRU of the same byte budget, on a zipfian read-through workload.
//
// 1,000,000 keys drawn zipfian (theta 0.99, YCSB's; ranks scattered over the key space), items of
// ~200 bytes, a 16 MiB limit (about 6% of the keys fit). Each request is a GetItem; a miss stores
// the item (what a read-through cache does). The first 500,000 requests warm the cache; the next
// 1,000,000 are counted. The exact LRU (a list and a hash map) replays the same requests with
// room for the same number of items the store held on average: the limit divided by the store's
// bytes per item at the end of the run.
//
//   BM_Eviction_HitRatio/<samples>   counters: hit_ratio (the store), lru_hit_ratio (exact LRU),
//                                    vs_lru (their ratio), evicted (collections), and the time
//                                    per request
#include <benchmark/benchmark.h>

#include <chrono>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

#include "partstore/database.h"
#include "tools/simulator/key_chooser.h"

namespace partstore::eviction_benchmark {
namespace {

constexpr int64_t kKeys = 1'000'000;
constexpr int kWarmup = 500'000;
constexpr int kCounted = 1'000'000;
constexpr uint64_t kLimit = 16ull << 20;

// Rank r's key: scattered, so that hot keys are not neighbours in any order.
int64_t KeyOfRank(int64_t rank) { return (rank * 7'919'993) % kKeys; }

double ExactLruHitRatio(const std::vector<int64_t>& requests, size_t capacity) {
  std::list<int64_t> order;  // most recent first
  std::unordered_map<int64_t, std::list<int64_t>::iterator> where;
  int64_t hits = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const int64_t key = requests[i];
    auto it = where.find(key);
    if (it != where.end()) {
      if (i >= static_cast<size_t>(kWarmup)) ++hits;
      order.splice(order.begin(), order, it->second);
      continue;
    }
    order.push_front(key);
    where[key] = order.begin();
    if (order.size() > capacity) {
      where.erase(order.back());
      order.pop_back();
    }
  }
  return static_cast<double>(hits) / kCounted;
}

void BM_Eviction_HitRatio(benchmark::State& state) {
  sim::KeyDistribution distribution;
  distribution.kind = sim::KeyDistribution::Kind::kZipfian;
  distribution.count = kKeys;
  const sim::KeyChooser chooser(distribution);
  sim::Random random(42);
  std::vector<int64_t> requests(kWarmup + kCounted);
  for (int64_t& key : requests) key = KeyOfRank(chooser.Next(random, 0));

  for (auto _ : state) {
    DatabaseOptions options;
    options.memory = {.limit_bytes = kLimit,
                      .policy = MemoryPolicy::kEvict,
                      .eviction_samples = static_cast<int>(state.range(0))};
    Database db(options);
    KeySchema schema;
    schema.partition = {"PK", KeyType::kString};
    (void)db.CreateTable(SimpleTable("Cache", schema));
    const std::string payload(200, 'v');
    int64_t hits = 0;
    const auto start = std::chrono::steady_clock::now();
    for (size_t i = 0; i < requests.size(); ++i) {
      Item key{{"PK", Value("key#" + std::to_string(requests[i]))}};
      Result<GetItemResult> got = db.GetItem({.table_name = "Cache", .key = key});
      if (got.ok() && got->item) {
        if (i >= static_cast<size_t>(kWarmup)) ++hits;
        continue;
      }
      key["v"] = Value(payload);
      (void)db.PutItem({.table_name = "Cache", .item = std::move(key)});
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const DescribeMemoryResult memory = db.DescribeMemory();
    const int64_t table = db.DescribeTable({.table_name = "Cache"})->table.item_count;
    const double bytes_per_item =
        static_cast<double>(memory.used_bytes) / static_cast<double>(table);
    const auto capacity = static_cast<size_t>(static_cast<double>(kLimit) / bytes_per_item);
    const double hit_ratio = static_cast<double>(hits) / kCounted;
    const double lru = ExactLruHitRatio(requests, capacity);
    state.counters["hit_ratio"] = hit_ratio;
    state.counters["lru_hit_ratio"] = lru;
    state.counters["vs_lru"] = hit_ratio / lru;
    state.counters["items_held"] = static_cast<double>(table);
    state.counters["evicted"] = static_cast<double>(memory.tables.at(0).evicted_collections);
    state.counters["ns_per_request"] = seconds * 1e9 / static_cast<double>(requests.size());
  }
}
BENCHMARK(BM_Eviction_HitRatio)->Arg(5)->Arg(10)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace partstore::eviction_benchmark
