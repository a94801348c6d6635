// Memory of the seed model (issue 51, "Index entries that cost bytes, not objects"): the seed
// e-commerce and social items of `partstore bench` (tools/bench/workloads.h: users with their
// profile, 30 followers and 5 orders of 3 lines each; products with 10 reviews), about 200,000
// items (3,720 users), in one table (PK, SK) with or without the model's GSI1 (GSI1PK, GSI1SK:
// orders under their user, order lines under their product; 37% of the items carry it).
//
//   BM_SeedMemory/<index>   one iteration: loads the items into a new Database and reports, per
//                           item, the heap and resident memory the load added, and their ratio
//                           to the items' DynamoDB size: TableSizeBytes + IndexSizeBytes, as
//                           DescribeTable reports them. <index>: none, keys_only, all.
//   BM_HashOnlyMemory       the same for a hash-only table (every item a collection of its
//                           own, as YCSB's usertable): 200,000 YCSB records of 10 fields of 10
//                           bytes (about 150 B each).
//
// The figure is keys_only's rss_ratio (target <= 1.5x). RSS is exact only for the first
// load of a process: run one row at a time, e.g.
//   build/release/bench/partstore_benchmarks --benchmark_filter=BM_SeedMemory/keys_only
// The heap figures are exact in any order. Figures: bench/README.md, "Index entries that cost
// bytes".
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/memory_snapshot.h"
#include "partstore/database.h"
#include "partstore/item.h"
#include "tools/bench/workloads.h"

namespace partstore::seed_memory_benchmark {
namespace {

constexpr int64_t kUsers = 3'720;  // about 200,000 items
constexpr const char* kTable = "Seed";

enum class Index { kNone = 0, kKeysOnly = 1, kAll = 2 };
constexpr const char* kIndexNames[] = {"none", "keys_only", "all"};

CreateTableRequest SeedTable(Index index) {
  CreateTableRequest create = SimpleTable(kTable, KeySchema{KeyAttribute{"PK", KeyType::kString},
                                                            KeyAttribute{"SK", KeyType::kString}});
  if (index == Index::kNone) return create;
  create.attribute_definitions.push_back({"GSI1PK", KeyType::kString});
  create.attribute_definitions.push_back({"GSI1SK", KeyType::kString});
  GlobalSecondaryIndex gsi;
  gsi.index_name = "GSI1";
  gsi.key_schema = {{"GSI1PK", KeyRoleName::kHash}, {"GSI1SK", KeyRoleName::kRange}};
  gsi.projection.projection_type =
      index == Index::kAll ? ProjectionType::kAll : ProjectionType::kKeysOnly;
  create.global_secondary_indexes.push_back(std::move(gsi));
  return create;
}

[[noreturn]] void Fail(const char* what, const Status& status) {
  std::fprintf(stderr, "%s: %s\n", what, std::string(status.message()).c_str());
  std::abort();
}

// Loads `items` into a new Database's table `create` and reports the memory per item (see above).
void LoadAndReport(benchmark::State& state, const CreateTableRequest& create,
                   const std::vector<bench::BenchItem>& items) {
  const bench::MemorySnapshot before = bench::TakeMemorySnapshot();
  auto db = std::make_unique<Database>();
  if (auto created = db->CreateTable(create); !created.ok()) Fail("CreateTable", created.status());
  PutItemRequest put;
  put.table_name = create.table_name;
  for (const bench::BenchItem& b : items) {
    put.item.clear();  // one tree at a time: the load's pages are the store's
    for (const bench::Attribute& a : b.attributes)
      put.item.insert_or_assign(a.name, Value(a.value));
    if (auto r = db->PutItem(put); !r.ok()) Fail("PutItem", r.status());
  }
  const bench::MemorySnapshot after = bench::TakeMemorySnapshot();

  DescribeTableRequest describe;
  describe.table_name = create.table_name;
  auto described = db->DescribeTable(describe);
  if (!described.ok()) Fail("DescribeTable", described.status());
  const TableDescription& t = described->table;
  int64_t index_bytes = 0;
  int64_t index_items = 0;
  for (const GlobalSecondaryIndexDescription& g : t.global_secondary_indexes) {
    index_bytes += g.index_size_bytes;
    index_items += g.item_count;
  }
  for (auto _ : state) benchmark::DoNotOptimize(t.item_count);

  const double count = static_cast<double>(t.item_count);
  const double dynamodb_bytes = static_cast<double>(t.table_size_bytes + index_bytes);
  const double rss = static_cast<double>(after.rss - before.rss);
  const double heap = static_cast<double>(after.heap - before.heap);
  state.counters["items"] = count;
  state.counters["index_items"] = static_cast<double>(index_items);
  state.counters["dynamodb_per_item"] = dynamodb_bytes / count;
  state.counters["heap_per_item"] = heap / count;
  state.counters["rss_per_item"] = rss / count;
  state.counters["heap_ratio"] = heap / dynamodb_bytes;
  state.counters["rss_ratio"] = rss / dynamodb_bytes;
  state.SetLabel(bench::AllocatorName());
  db.reset();
}

void BM_SeedMemory(benchmark::State& state, Index index) {
  bench::DatasetOptions options;
  options.users = kUsers;
  LoadAndReport(state, SeedTable(index), bench::Dataset(options).SeedItems());
}

void BM_HashOnlyMemory(benchmark::State& state) {
  bench::DatasetOptions options;
  options.records = 200'000;
  options.field_length = 10;
  const bench::Dataset dataset(options);
  std::vector<bench::BenchItem> records;
  records.reserve(static_cast<size_t>(options.records));
  sim::Random random(options.seed);
  for (int64_t n = 0; n < options.records; ++n) records.push_back(dataset.YcsbRecord(n, random));
  const CreateTableRequest create = SimpleTable(
      "usertable", KeySchema{KeyAttribute{dataset.ycsb_table().partition_key, KeyType::kString}});
  LoadAndReport(state, create, records);
}
BENCHMARK(BM_HashOnlyMemory)->Iterations(1)->Repetitions(1)->Unit(benchmark::kMillisecond);

const int kRegistered = [] {
  for (int i = 0; i < 3; ++i) {
    benchmark::RegisterBenchmark((std::string("BM_SeedMemory/") + kIndexNames[i]).c_str(),
                                 BM_SeedMemory, static_cast<Index>(i))
        ->Iterations(1)
        ->Repetitions(1)
        ->Unit(benchmark::kMillisecond);
  }
  return 0;
}();

}  // namespace
}  // namespace partstore::seed_memory_benchmark
