// CachedStore (issue 46): what a hit costs against the engine's own read, in one run, on a table of
// 10,000 items of ~100 bytes (and a Query of one partition of 10 items), uniformly random keys,
// 1 and 2 threads. The cache's upstream is a Database here, so every figure is the cache's own
// cost; in front of a remote table a hit saves the whole round trip.
//
//   BM_Cache_EngineGetItem   Database::GetItem (the baseline)
//   BM_Cache_GetItemHit      CachedStore::GetItem of a cached key (target: >= 0.8x the baseline)
//   BM_Cache_EngineQuery     Database::Query of a 10-item partition
//   BM_Cache_QueryHit        CachedStore::Query of the same, from the query cache
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <string>

#include "partstore/cached_store.h"
#include "partstore/database.h"

namespace partstore::cache_benchmark {
namespace {

constexpr int kKeys = 10000;
constexpr int kPartitions = 1000;  // Query: 10 items each

Database& Upstream() {
  static Database* db = [] {
    auto* d = new Database();
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    (void)d->CreateTable(SimpleTable("Items", key));
    KeySchema pages;
    pages.partition = {"PK", KeyType::kString};
    pages.sort = KeyAttribute{"SK", KeyType::kString};
    (void)d->CreateTable(SimpleTable("Lists", pages));
    for (int i = 0; i < kKeys; ++i) {
      (void)d->PutItem({.table_name = "Items",
                        .item = {{"PK", Value("USER#" + std::to_string(i))},
                                 {"name", Value(std::string(60, 'n'))},
                                 {"n", Value(int64_t{i})}}});
      (void)d->PutItem({.table_name = "Lists",
                        .item = {{"PK", Value("LIST#" + std::to_string(i % kPartitions))},
                                 {"SK", Value("ITEM#" + std::to_string(i))},
                                 {"name", Value(std::string(60, 'n'))}}});
    }
    return d;
  }();
  return *db;
}

CachedStore& Cache() {
  static CachedStore* cache = [] {
    auto opened = CachedStore::Open(Upstream(), {});
    CachedStore* c = opened->release();
    for (int i = 0; i < kKeys; ++i) {
      (void)c->GetItem(
          {.table_name = "Items", .key = {{"PK", Value("USER#" + std::to_string(i))}}});
    }
    return c;
  }();
  return *cache;
}

Item KeyOf(int i) { return {{"PK", Value("USER#" + std::to_string(i))}}; }

QueryRequest ListQuery(int partition) {
  return {.table_name = "Lists",
          .key_condition_expression = "PK = :p",
          .expression_attribute_values =
              AttributeMap{{":p", Value("LIST#" + std::to_string(partition))}}};
}

template <typename StoreT>
void GetItems(benchmark::State& state, StoreT& store) {
  std::mt19937 rng(static_cast<unsigned>(state.thread_index()));
  GetItemRequest request{.table_name = "Items"};
  for (auto _ : state) {
    request.key = KeyOf(static_cast<int>(rng() % kKeys));
    benchmark::DoNotOptimize(store.GetItem(request));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Cache_EngineGetItem(benchmark::State& state) { GetItems(state, Upstream()); }
BENCHMARK(BM_Cache_EngineGetItem)->Threads(1)->Threads(2)->UseRealTime();

void BM_Cache_GetItemHit(benchmark::State& state) {
  CachedStore& cache = Cache();
  const uint64_t misses = cache.stats().item_misses;
  GetItems(state, cache);
  if (cache.stats().item_misses != misses) state.SkipWithError("a hit missed");
}
BENCHMARK(BM_Cache_GetItemHit)->Threads(1)->Threads(2)->UseRealTime();

template <typename StoreT>
void Queries(benchmark::State& state, StoreT& store) {
  std::mt19937 rng(static_cast<unsigned>(state.thread_index()));
  for (auto _ : state) {
    benchmark::DoNotOptimize(store.Query(ListQuery(static_cast<int>(rng() % 100))));
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Cache_EngineQuery(benchmark::State& state) { Queries(state, Upstream()); }
BENCHMARK(BM_Cache_EngineQuery)->Threads(1)->Threads(2)->UseRealTime();

void BM_Cache_QueryHit(benchmark::State& state) {
  CachedStore& cache = Cache();
  for (int p = 0; p < 100; ++p) (void)cache.Query(ListQuery(p));
  const uint64_t misses = cache.stats().query_misses;
  Queries(state, cache);
  if (cache.stats().query_misses != misses) state.SkipWithError("a hit missed");
}
BENCHMARK(BM_Cache_QueryHit)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace partstore::cache_benchmark
