// Streams (issue 26): what a stream costs a write, and how fast a consumer reads.
//
//   BM_Stream_Put/<view>     PutItem overwriting one of 100k keys with a changed 200-byte item
//                            (every write a MODIFY), on a table with no stream (view -1) or a
//                            stream of view type 0 KEYS_ONLY .. 3 NEW_AND_OLD_IMAGES; 1 and 2
//                            threads. The stream keeps its records (256 MiB cap: a long run
//                            trims too, as a busy table's stream does).
//   BM_Stream_GetRecords     GetRecords pages of 1000 records from a shard (records/s).
//   BM_Stream_Subscription   StreamSubscription::Poll delivering 10k records (records/s).
// Figures: bench/README.md, "Streams".
#include <benchmark/benchmark.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "partstore/database.h"
#include "partstore/stream_subscription.h"

namespace partstore::stream_benchmark {
namespace {

constexpr int kKeys = 100'000;

std::string KeyText(int i) { return "USER#" + std::to_string(100000 + i); }

std::unique_ptr<Database> MakeDb(int view) {
  auto db = std::make_unique<Database>();
  CreateTableRequest table =
      SimpleTable("Bench", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}});
  if (view >= 0) {
    table.stream_specification = StreamSpecification{true, static_cast<StreamViewType>(view)};
  }
  (void)db->CreateTable(table);
  return db;
}

Item MakeItem(int key, int version) {
  return {{"PK", Value(KeyText(key))},
          {"SK", Value("PROFILE")},
          {"version", Value(Number::Parse(std::to_string(version)).value())},
          {"payload", Value(std::string(150, 'x'))}};
}

void BM_Stream_Put(benchmark::State& state) {
  static std::unique_ptr<Database> db;
  static std::atomic<int> version{0};
  if (state.thread_index() == 0) {
    db = MakeDb(static_cast<int>(state.range(0)));
    for (int i = 0; i < kKeys; ++i)
      (void)db->PutItem({.table_name = "Bench", .item = MakeItem(i, 0)});
  }
  std::vector<PutItemRequest> requests;
  uint64_t rng = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(state.thread_index() + 1);
  for (int i = 0; i < 1024; ++i) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    requests.push_back(
        {.table_name = "Bench",
         .item = MakeItem(static_cast<int>((rng >> 33) % kKeys), version.fetch_add(1) + 1)});
  }
  size_t n = 0;
  for (auto _ : state) {
    auto put = db->PutItem(requests[n++ & 1023]);
    benchmark::DoNotOptimize(put);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Stream_Put)->DenseRange(-1, 3)->Threads(1)->Threads(2)->UseRealTime();

// A stream of 10k records on one shard (a provisioned table small enough for one partition).
struct Filled {
  std::unique_ptr<Database> db;
  std::string arn, shard;
};
Filled FillOneShard() {
  Filled f;
  f.db = std::make_unique<Database>();
  CreateTableRequest table =
      SimpleTable("Feed", KeySchema{{"PK", KeyType::kString}, {{"SK", KeyType::kString}}});
  table.billing_mode = BillingMode::kProvisioned;
  table.provisioned_throughput = ProvisionedThroughput{100, 100};
  table.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  auto created = f.db->CreateTable(table);
  f.arn = *created->table_description.latest_stream_arn;
  for (int i = 0; i < 10'000; ++i)
    (void)f.db->PutItem({.table_name = "Feed", .item = MakeItem(i, 1)});
  f.shard = f.db->DescribeStream({.stream_arn = f.arn})->stream_description.shards.at(0).shard_id;
  return f;
}

void BM_Stream_GetRecords(benchmark::State& state) {
  static Filled f = FillOneShard();
  int64_t records = 0;
  for (auto _ : state) {
    auto it = f.db->GetShardIterator({f.arn, f.shard});
    std::optional<std::string> next = it->shard_iterator;
    while (next) {
      auto page = f.db->GetRecords({*next});
      if (page->records.empty()) break;
      records += static_cast<int64_t>(page->records.size());
      next = page->next_shard_iterator;
    }
  }
  state.SetItemsProcessed(records);
}
BENCHMARK(BM_Stream_GetRecords)->Unit(benchmark::kMillisecond);

void BM_Stream_Subscription(benchmark::State& state) {
  static Filled f = FillOneShard();
  int64_t records = 0;
  for (auto _ : state) {
    auto sub =
        StreamSubscription::Open(*f.db, "Feed", {.start = StreamSubscription::Start::kTrimHorizon},
                                 [&](const StreamRecord& r) {
                                   benchmark::DoNotOptimize(r.sequence_number.data());
                                   ++records;
                                 });
    (void)(*sub)->Poll();
  }
  state.SetItemsProcessed(records);
}
BENCHMARK(BM_Stream_Subscription)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace partstore::stream_benchmark
