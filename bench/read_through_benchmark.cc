// ReadThrough (issue 25): what a hit costs over a plain GetItem, on a table of 10,000 items of
// ~100 bytes with a TTL attribute, uniformly random keys, 1 and 2 threads.
//
//   BM_ReadThrough_GetItem   Database::GetItem of a stored key (the baseline)
//   BM_ReadThrough_Hit       ReadThrough::GetOrLoad of the same keys: the GetItem and the
//                            expiry check (the loader is never called)
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "partstore/database.h"
#include "partstore/read_through.h"

namespace partstore::read_through_benchmark {
namespace {

constexpr int kKeys = 10000;

Database& Db() {
  static Database* db = [] {
    auto* d = new Database();
    KeySchema key;
    key.partition = {"PK", KeyType::kString};
    (void)d->CreateTable(SimpleTable("Cache", key));
    for (int i = 0; i < kKeys; ++i) {
      (void)d->PutItem({.table_name = "Cache",
                        .item = {{"PK", Value("USER#" + std::to_string(i))},
                                 {"name", Value(std::string(60, 'n'))},
                                 {"exp", Value(int64_t{4'000'000'000})}}});
    }
    return d;
  }();
  return *db;
}

Item KeyOf(int i) { return {{"PK", Value("USER#" + std::to_string(i))}}; }

void BM_ReadThrough_GetItem(benchmark::State& state) {
  Database& db = Db();
  std::mt19937 rng(static_cast<unsigned>(state.thread_index()));
  GetItemRequest request{.table_name = "Cache"};
  for (auto _ : state) {
    request.key = KeyOf(static_cast<int>(rng() % kKeys));
    benchmark::DoNotOptimize(db.GetItem(request));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReadThrough_GetItem)->Threads(1)->Threads(2)->UseRealTime();

void BM_ReadThrough_Hit(benchmark::State& state) {
  Database& db = Db();
  static ReadThrough cache(db, {.table_name = "Cache", .ttl_attribute = "exp"});
  std::mt19937 rng(static_cast<unsigned>(state.thread_index()));
  const ReadThrough::Loader never = [](const Item&) -> Result<std::optional<Item>> {
    return Status::Internal("a hit must not load");
  };
  for (auto _ : state) {
    benchmark::DoNotOptimize(cache.GetOrLoad(KeyOf(static_cast<int>(rng() % kKeys)), never));
  }
  state.SetItemsProcessed(state.iterations());
  if (cache.stats().loads != 0) state.SkipWithError("a hit called the loader");
}
BENCHMARK(BM_ReadThrough_Hit)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
}  // namespace partstore::read_through_benchmark
