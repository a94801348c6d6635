// Write-sharding benchmarks (issue 8): what scatter-gather costs a Query, and what sharding a hot
// partition key buys under the capacity simulation.
//
// Scatter-gather data: one logical partition key "FEED" with the same 2,000 items of about 200
// bytes (SK "000000".."001999") in five tables of one Database (capacity simulation off): "Plain"
// (unsharded, read with Database::Query) and "Sharded1/4/16/64" (a CALCULATED-suffix policy on
// "FEED", the suffix from the sort key, so shards hold even shares; read with ShardedQuery).
//
//   BM_Sharding_QueryPage/shards:S            first page, Limit 100, forward (S = 0: plain Query)
//   BM_Sharding_QueryAll/shards:S             every item, all pages, no Limit (one 400 KB page)
//   BM_Sharding_QueryPageConcurrent/shards:S  the Limit-100 page with concurrent_first_reads
//   (items_per_second: items returned; shard_reads: Query calls per ShardedQuery)
//
// Hot key: a fresh Database per iteration on the manual clock, a provisioned table of W WCU and
// 1 RCU keyed PK + SK, 5,000 writes of about 200 bytes (1 WCU each) per simulated second to the
// logical key "HOT" for 10 simulated seconds (the clock advanced 200 us before each write; the
// setup is not timed). W = 5,000 gives ceil(1/3000 + 5000/1000) = 6 partitions (RCU cannot be 0),
// W = 4,999 gives 5; each partition's hard limit is 1,000 WCU/s.
//
//   BM_Sharding_HotKey/shards:0/wcu:W    PutItem on PK "HOT"
//   BM_Sharding_HotKey/shards:10/wcu:W   ShardedPutItem under a 10-shard RANDOM policy on "HOT"
//   (served_per_s / throttled_per_s: per simulated second; time_per_request: wall clock per
//   write; partitions_hit: distinct partitions holding the physical keys; the label gives, per
//   partition, the physical keys in it / the write units it consumed / the writes it throttled,
//   in the last iteration)
//
// Run: --benchmark_filter=Sharding --benchmark_repetitions=5. Figures: bench/README.md,
// "Write sharding (issue 8)".
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/key_encoding.h"
#include "partstore/database.h"
#include "shard/stripe.h"

namespace partstore::sharding_benchmark {
namespace {

constexpr int kFeedItems = 2'000;
constexpr const char* kFeed = "FEED";

KeySchema FeedKey() {
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  key.sort = KeyAttribute{"SK", KeyType::kString};
  return key;
}

std::string Padded(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%06d", n);
  return buf;
}

std::string TableOf(int shards) {
  return shards == 0 ? "Plain" : "Sharded" + std::to_string(shards);
}

sharding::ShardingPolicy PolicyOn(std::string key, int32_t shards,
                                  sharding::ShardStrategy strategy) {
  sharding::ShardingPolicy policy;
  policy.key = std::move(key);
  policy.shard_count = shards;
  policy.strategy = strategy;
  return policy;
}

QueryRequest FeedQuery(int shards, std::optional<int32_t> limit) {
  QueryRequest q;
  q.table_name = TableOf(shards);
  q.key_condition_expression = "PK = :pk";
  q.expression_attribute_values = AttributeMap{{":pk", Value(kFeed)}};
  q.limit = limit;
  return q;
}

// One page: plain Query for shards == 0, else ShardedQuery. Counts shard reads into *reads.
Result<QueryResult> QueryOnce(Database& db, int shards, const QueryRequest& q, bool concurrent,
                              int64_t* reads) {
  if (shards == 0) {
    ++*reads;
    return db.Query(q);
  }
  auto page = db.ShardedQuery(q, ShardedQueryOptions{.concurrent_first_reads = concurrent});
  if (!page.ok()) return page.status();
  *reads += page->shard_reads;
  return std::move(page->result);
}

// Every page; the items in order (empty on error, *error set).
std::vector<Item> ReadAll(Database& db, int shards, bool concurrent, int64_t* reads,
                          Status* error) {
  std::vector<Item> items;
  QueryRequest q = FeedQuery(shards, std::nullopt);
  for (;;) {
    auto page = QueryOnce(db, shards, q, concurrent, reads);
    if (!page.ok()) {
      *error = page.status();
      return {};
    }
    items.insert(items.end(), page->items.begin(), page->items.end());
    if (!page->last_evaluated_key) return items;
    q.exclusive_start_key = std::move(page->last_evaluated_key);
  }
}

std::unique_ptr<Database> LoadFeed() {
  auto db = std::make_unique<Database>();
  for (int shards : {0, 1, 4, 16, 64}) {
    if (!db->CreateTable(SimpleTable(TableOf(shards), FeedKey())).ok()) std::abort();
    if (shards > 0 &&
        !db->PutShardingPolicy(
               {TableOf(shards), PolicyOn(kFeed, shards, sharding::ShardStrategy::kCalculated)})
             .ok()) {
      std::abort();
    }
  }
  for (int i = 0; i < kFeedItems; ++i) {
    PutItemRequest put;
    put.item = {{"PK", Value(kFeed)},
                {"SK", Value(Padded(i))},
                {"status", Value("SHIPPED")},
                {"payload", Value(std::string(170, 'x'))}};
    for (int shards : {0, 1, 4, 16, 64}) {
      put.table_name = TableOf(shards);
      const bool ok = shards == 0 ? db->PutItem(put).ok() : db->ShardedPutItem(put).ok();
      if (!ok) std::abort();
    }
  }
  return db;
}

Database& Feed() {
  static std::unique_ptr<Database> db = LoadFeed();
  return *db;
}

// Checks once per benchmark that the sharded read returns exactly the unsharded items, in order.
bool SameAsPlain(benchmark::State& state, int shards, bool concurrent) {
  Database& db = Feed();
  int64_t reads = 0;
  Status error;
  std::vector<Item> plain = ReadAll(db, 0, false, &reads, &error);
  std::vector<Item> sharded = ReadAll(db, shards, concurrent, &reads, &error);
  if (!error.ok()) {
    state.SkipWithError(error.ToString().c_str());
    return false;
  }
  if (plain.size() != kFeedItems || sharded != plain) {
    state.SkipWithError("sharded Query differs from the unsharded Query");
    return false;
  }
  auto page = QueryOnce(db, shards, FeedQuery(shards, 100), concurrent, &reads);
  auto plain_page = QueryOnce(db, 0, FeedQuery(0, 100), false, &reads);
  if (!page.ok() || !plain_page.ok() || page->items != plain_page->items ||
      page->items.size() != 100 || !page->last_evaluated_key) {
    state.SkipWithError("sharded Limit-100 page differs from the unsharded page");
    return false;
  }
  return true;
}

void QueryPage(benchmark::State& state, bool concurrent) {
  const int shards = static_cast<int>(state.range(0));
  Database& db = Feed();
  if (!SameAsPlain(state, shards, concurrent)) return;
  const QueryRequest q = FeedQuery(shards, 100);
  int64_t reads = 0, items = 0;
  for (auto _ : state) {
    auto page = QueryOnce(db, shards, q, concurrent, &reads);
    if (!page.ok()) {
      state.SkipWithError(page.status().ToString().c_str());
      break;
    }
    items += static_cast<int64_t>(page->items.size());
    benchmark::DoNotOptimize(page);
  }
  state.SetItemsProcessed(items);
  state.counters["shard_reads"] =
      benchmark::Counter(static_cast<double>(reads), benchmark::Counter::kAvgIterations);
}

void BM_Sharding_QueryPage(benchmark::State& state) { QueryPage(state, false); }
void BM_Sharding_QueryPageConcurrent(benchmark::State& state) { QueryPage(state, true); }

void BM_Sharding_QueryAll(benchmark::State& state) {
  const int shards = static_cast<int>(state.range(0));
  Database& db = Feed();
  if (!SameAsPlain(state, shards, false)) return;
  int64_t reads = 0, items = 0;
  for (auto _ : state) {
    Status error;
    std::vector<Item> all = ReadAll(db, shards, false, &reads, &error);
    if (!error.ok()) {
      state.SkipWithError(error.ToString().c_str());
      break;
    }
    items += static_cast<int64_t>(all.size());
    benchmark::DoNotOptimize(all);
  }
  state.SetItemsProcessed(items);
  state.counters["shard_reads"] =
      benchmark::Counter(static_cast<double>(reads), benchmark::Counter::kAvgIterations);
}

// ---- Hot key under the capacity simulation ----

constexpr int kOfferedPerSecond = 5'000;
constexpr int kSimulatedSeconds = 10;
constexpr const char* kHotTable = "HotKey";

uint64_t HashOf(const std::string& pk) {
  std::string encoded;
  AppendKeyEncoding(Value(pk), &encoded);
  return HashPartitionKey(encoded);
}

void BM_Sharding_HotKey(benchmark::State& state) {
  const int shards = static_cast<int>(state.range(0));
  const int writes = kOfferedPerSecond * kSimulatedSeconds;
  const int64_t step_micros = 1'000'000 / kOfferedPerSecond;
  int64_t served = 0, throttled = 0;
  int partitions_hit = 0;
  std::string label;
  for (auto _ : state) {
    state.PauseTiming();  // a fresh Database per iteration: setup is not timed
    auto clock = std::make_shared<capacity::ManualClock>();
    DatabaseOptions options;
    options.capacity.enabled = true;
    options.capacity.clock = clock;
    Database db(options);
    CreateTableRequest create = SimpleTable(kHotTable, FeedKey());
    create.billing_mode = BillingMode::kProvisioned;
    create.provisioned_throughput = ProvisionedThroughput{1, static_cast<int64_t>(state.range(1))};
    if (!db.CreateTable(create).ok()) std::abort();
    if (shards > 0 && !db.PutShardingPolicy(
                             {kHotTable, PolicyOn("HOT", shards, sharding::ShardStrategy::kRandom)})
                           .ok()) {
      std::abort();
    }
    // Which partition each physical key ("HOT", or "HOT#SHARD0".."HOT#SHARD<n-1>") lands in.
    auto before = db.DescribePartitions({kHotTable, std::nullopt});
    if (!before.ok()) std::abort();
    std::vector<int> keys_in(before->partitions.size(), 0);
    for (int s = 0; s < std::max(shards, 1); ++s) {
      const uint64_t h = HashOf(shards == 0 ? "HOT" : "HOT#SHARD" + std::to_string(s));
      for (size_t p = 0; p < before->partitions.size(); ++p) {
        if (h >= before->partitions[p].hash_range_start &&
            h <= before->partitions[p].hash_range_end) {
          ++keys_in[p];
        }
      }
    }

    PutItemRequest put;
    put.table_name = kHotTable;
    put.item = {{"PK", Value("HOT")}, {"SK", Value("")}, {"payload", Value(std::string(180, 'x'))}};
    std::string error;
    state.ResumeTiming();
    for (int i = 0; i < writes; ++i) {
      clock->Advance(step_micros);
      put.item.insert_or_assign("SK", Value(Padded(i)));
      const Status status =
          shards == 0 ? db.PutItem(put).status() : db.ShardedPutItem(put).status();
      if (status.ok()) {
        ++served;
      } else if (status.code() == Code::kProvisionedThroughputExceeded ||
                 status.code() == Code::kThrottling) {
        ++throttled;
      } else {
        error = status.ToString();
        break;
      }
    }
    state.PauseTiming();
    if (!error.empty()) {
      state.SkipWithError(error.c_str());
      break;
    }

    auto after = db.DescribePartitions({kHotTable, std::nullopt});
    if (!after.ok() || after->partitions.size() != before->partitions.size()) {
      state.SkipWithError("partitions changed during the run");
      break;
    }
    partitions_hit = 0;
    label = "keys/WCU/throttled per partition:";
    for (size_t p = 0; p < keys_in.size(); ++p) {
      partitions_hit += keys_in[p] > 0;
      if (keys_in[p] == 0 && after->partitions[p].consumed_write_units == 0) continue;
      char part[48];
      std::snprintf(part, sizeof part, " %d/%.0f/%lld", keys_in[p],
                    after->partitions[p].consumed_write_units,
                    static_cast<long long>(after->partitions[p].throttled_write_requests));
      label += part;
    }
    state.ResumeTiming();
  }
  const double simulated =
      static_cast<double>(kSimulatedSeconds) * static_cast<double>(state.iterations());
  state.counters["served_per_s"] = static_cast<double>(served) / simulated;
  state.counters["throttled_per_s"] = static_cast<double>(throttled) / simulated;
  state.counters["time_per_request"] =
      benchmark::Counter(static_cast<double>(writes) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["partitions_hit"] = partitions_hit;
  state.SetItemsProcessed(static_cast<int64_t>(writes) * state.iterations());
  state.SetLabel(label);
}

BENCHMARK(BM_Sharding_QueryPage)->ArgName("shards")->Arg(0)->Arg(1)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Sharding_QueryAll)->ArgName("shards")->Arg(0)->Arg(1)->Arg(4)->Arg(16)->Arg(64);
BENCHMARK(BM_Sharding_QueryPageConcurrent)
    ->ArgName("shards")
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->UseRealTime();
BENCHMARK(BM_Sharding_HotKey)
    ->ArgNames({"shards", "wcu"})
    ->Args({0, 5000})
    ->Args({10, 5000})
    ->Args({0, 4999})
    ->Args({10, 4999})
    ->Args({0, 40000})
    ->Args({10, 40000})
    ->UseRealTime();

}  // namespace
}  // namespace partstore::sharding_benchmark
