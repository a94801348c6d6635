// Secondary-index benchmarks (issue 6): what a global secondary index adds to PutItem, and a Query
// on a GSI next to the same Query on the base table, all through partstore::Database.
//
// Data (each table built once per process, on first use, by GetFixture()):
//   kItems = 200k items per table: PK (S) "USER#000000".."USER#019999" x SK (S) "ORDER#00".."09",
//   each exactly kItemSize = 200 bytes of ItemSize and the same on every table:
//     PK, SK, status (S), amount (N), gp0..gp4 (S, "G#" + 5 digits), gs0..gs4 (S, 10 digits) and a
//     description (S) padded to the size.
//   Item n's gp<i> is "G#" + (perm_i(n) / 10), perm_i a bijection of 0..kItems-1 (n * odd prime),
//   so every index partition holds exactly 10 entries at load, drawn from 10 unrelated base
//   partitions; gs<i> is n. GSI i ("gsi<i>") is keyed (gp<i> HASH, gs<i> RANGE).
//   Tables: Idx0 (no index), Idx1All / Idx1Keys (gsi0, projection ALL / KEYS_ONLY), Idx5All /
//   Idx5Keys (gsi0..gsi4, all ALL / all KEYS_ONLY), IdxQuery (q_all on gp0/gs0 ALL, q_keys on
//   gp1/gs1 KEYS_ONLY; never written after the load, so its index partitions stay at 10 entries).
//   Every table has the same items, so a row compares index counts and nothing else.
//
//   BM_Index_Load/<table>            one iteration: the table's load time and heap growth per item
//                                    (jemalloc stats.allocated; run the family alone to trust it)
//   BM_Index_PutOverwrite/<table>/<change>
//                                    PutItem over an existing random key, the new item differing
//                                    from the stored one by <change>:
//       gsi_sk     every gs<i> gets a fresh value: each index deletes the old entry and puts the
//                  new one in the same index partition (2 index writes per GSI, as DynamoDB bills)
//       gsi_pk     every gp<i> moves to a random index partition (another stripe, another
//                  collection)
//       non_key    only `amount` changes, the index keys stay (ALL: the entry is rewritten;
//                  KEYS_ONLY: nothing to do)
//                  Each change works on its own third of the items (n % 3), so a change never sees
//                  items another change left behind and non_key items keep their load-time keys.
//   BM_Index_PutInsert/<table>       PutItem of a new partition key "NEW#<16 digits>" (random
//                                    gp<i>, fresh gs<i>); deleted again after the run
//   BM_Index_Query/<target>          Query of one random partition, Limit 10, 10 items back:
//       base       "PK = :pk" on IdxQuery
//       gsi_all    "gp0 = :g" on IdxQuery's q_all (ALL: same items as base)
//       gsi_keys   "gp1 = :g" on IdxQuery's q_keys (KEYS_ONLY: PK, SK, gp1, gs1)
// One thread, CPU time (the machine is shared; see bench/README.md). Target (issue 6): PutItem with
// N GSIs <= (N + 1) x PutItem with none. Run: --benchmark_filter=Index (about 75 s with
// 3 repetitions, of which ~7 s loading 1.2M items and 2.8M index entries); on a busy machine add
// --benchmark_enable_random_interleaving=true, so drifting load hits every row alike.
// Figures and analysis: bench/README.md, "Secondary indexes (issue 6)".
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "bench/memory_snapshot.h"
#include "partstore/database.h"
#include "partstore/item.h"
#include "shard/table.h"

namespace partstore::index_benchmark {
namespace {

constexpr int kItemsPerPartition = 10;
constexpr int kPartitions = 20'000;
constexpr int kItems = kPartitions * kItemsPerPartition;
constexpr int kGroups = kItems / kItemsPerPartition;  // index partitions per GSI at load
constexpr int kMaxGsis = 5;
constexpr size_t kItemSize = 200;
// Odd primes not dividing kItems = 2^6 * 5^5: n -> n * p mod kItems is a bijection.
constexpr uint64_t kPermute[kMaxGsis] = {7919, 104729, 1299709, 15485863, 32452843};

struct FastRandom {
  explicit FastRandom(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint64_t Next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
  }
  uint32_t Below(uint32_t n) { return static_cast<uint32_t>(((Next() >> 32) * n) >> 32); }
  uint64_t state;
};

void PutDigits(char* out, uint64_t n, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
}

uint32_t GroupOf(uint32_t n, int gsi) {
  return static_cast<uint32_t>((n * kPermute[gsi] + static_cast<uint64_t>(gsi)) % kItems) /
         kItemsPerPartition;
}

Value& At(AttributeMap& map, std::string_view name) { return map.find(name)->second; }

// The item and direct references to the values a benchmark sets per iteration.
struct ItemTemplate {
  Item item;
  Value* pk = nullptr;
  Value* sk = nullptr;
  Value* amount = nullptr;
  Value* gp[kMaxGsis] = {};
  Value* gs[kMaxGsis] = {};

  ItemTemplate() {
    item = Item{{"PK", "USER#000000"},
                {"SK", "ORDER#00"},
                {"status", "SHIPPED"},
                {"amount", Value(Number::FromInt64(1234))},
                {"description", ""}};
    for (int i = 0; i < kMaxGsis; ++i) {
      item.insert_or_assign("gp" + std::to_string(i), Value("G#00000"));
      item.insert_or_assign("gs" + std::to_string(i), Value("0000000000"));
    }
    const size_t without = ItemSize(item);
    if (without >= kItemSize) std::abort();
    item["description"] = std::string(kItemSize - without, 'x');
    pk = &At(item, "PK");
    sk = &At(item, "SK");
    amount = &At(item, "amount");
    for (int i = 0; i < kMaxGsis; ++i) {
      gp[i] = &At(item, "gp" + std::to_string(i));
      gs[i] = &At(item, "gs" + std::to_string(i));
    }
  }
  void SetKey(uint32_t n) {
    char p[11] = {'U', 'S', 'E', 'R', '#'};
    char s[8] = {'O', 'R', 'D', 'E', 'R', '#'};
    PutDigits(p + 5, n / kItemsPerPartition, 6);
    PutDigits(s + 6, n % kItemsPerPartition, 2);
    *pk = Value(std::string_view(p, sizeof p));
    *sk = Value(std::string_view(s, sizeof s));
  }
  void SetGroup(int gsi, uint32_t group) {
    char g[7] = {'G', '#'};
    PutDigits(g + 2, group, 5);
    *gp[gsi] = Value(std::string_view(g, sizeof g));
  }
  void SetSort(int gsi, uint64_t value) {
    char s[10];
    PutDigits(s, value, 10);
    *gs[gsi] = Value(std::string_view(s, sizeof s));
  }
  // Item n exactly as loaded.
  void SetLoaded(uint32_t n) {
    SetKey(n);
    *amount = Value(Number::FromInt64(1234));
    for (int i = 0; i < kMaxGsis; ++i) {
      SetGroup(i, GroupOf(n, i));
      SetSort(i, n);
    }
  }
};

struct TableSpec {
  const char* name;
  int gsis;
  ProjectionType projection;
};

constexpr TableSpec kTables[] = {
    {"Idx0", 0, ProjectionType::kAll},          {"Idx1All", 1, ProjectionType::kAll},
    {"Idx1Keys", 1, ProjectionType::kKeysOnly}, {"Idx5All", 5, ProjectionType::kAll},
    {"Idx5Keys", 5, ProjectionType::kKeysOnly},
};
constexpr const char* kQueryTable = "IdxQuery";

struct LoadStats {
  double seconds = 0;
  int64_t heap_bytes = 0;
};

using bench::HeapAllocated;

GlobalSecondaryIndex Gsi(std::string name, int attr, ProjectionType projection) {
  GlobalSecondaryIndex gsi;
  gsi.index_name = std::move(name);
  gsi.key_schema = {{"gp" + std::to_string(attr), KeyRoleName::kHash},
                    {"gs" + std::to_string(attr), KeyRoleName::kRange}};
  gsi.projection.projection_type = projection;
  return gsi;
}

Database& Db() {
  static Database* db = new Database;  // never destroyed
  return *db;
}

// Creates `request`'s table and loads the kItems items into it.
LoadStats CreateAndLoad(CreateTableRequest request) {
  for (int i = 0; i < kMaxGsis; ++i) {
    request.attribute_definitions.push_back({"gp" + std::to_string(i), KeyType::kString});
    request.attribute_definitions.push_back({"gs" + std::to_string(i), KeyType::kString});
  }
  // Only the definitions an index uses may be listed.
  std::vector<AttributeDefinition> used(request.attribute_definitions.begin(),
                                        request.attribute_definitions.begin() + 2);
  for (const AttributeDefinition& d : request.attribute_definitions) {
    for (const GlobalSecondaryIndex& gsi : request.global_secondary_indexes) {
      for (const KeySchemaElement& e : gsi.key_schema) {
        if (e.attribute_name == d.attribute_name) used.push_back(d);
      }
    }
  }
  request.attribute_definitions = std::move(used);
  const std::string name = request.table_name;
  auto created = Db().CreateTable(request);
  if (!created.ok()) {
    std::fprintf(stderr, "CreateTable %s: %s\n", name.c_str(),
                 std::string(created.status().message()).c_str());
    std::abort();
  }
  PutItemRequest put;
  put.table_name = name;
  ItemTemplate t;
  const int64_t before = HeapAllocated();
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t n = 0; n < static_cast<uint32_t>(kItems); ++n) {
    t.SetLoaded(n);
    put.item = t.item;
    if (!Db().PutItem(put).ok()) std::abort();
  }
  LoadStats stats;
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats.heap_bytes = HeapAllocated() - before;
  return stats;
}

CreateTableRequest BaseRequest(const char* name) {
  return SimpleTable(
      name, KeySchema{KeyAttribute{"PK", KeyType::kString}, KeyAttribute{"SK", KeyType::kString}});
}

const LoadStats& GetTable(int table) {
  static std::map<int, LoadStats> loaded;
  auto it = loaded.find(table);
  if (it != loaded.end()) return it->second;
  CreateTableRequest request;
  if (table < 0) {
    request = BaseRequest(kQueryTable);
    request.global_secondary_indexes = {Gsi("q_all", 0, ProjectionType::kAll),
                                        Gsi("q_keys", 1, ProjectionType::kKeysOnly)};
  } else {
    const TableSpec& spec = kTables[table];
    request = BaseRequest(spec.name);
    for (int i = 0; i < spec.gsis; ++i) {
      request.global_secondary_indexes.push_back(
          Gsi("gsi" + std::to_string(i), i, spec.projection));
    }
  }
  return loaded.emplace(table, CreateAndLoad(std::move(request))).first->second;
}

void SetItems(benchmark::State& state) { state.SetItemsProcessed(state.iterations()); }

// ---- Load ----------------------------------------------------------------------------------

void BM_Index_Load(benchmark::State& state, int table) {
  const LoadStats& load = GetTable(table);
  for (auto _ : state) benchmark::DoNotOptimize(load.seconds);
  state.counters["load_s"] = load.seconds;
  state.counters["heap_per_item"] = static_cast<double>(load.heap_bytes) / kItems;
  state.counters["puts_per_s"] = kItems / load.seconds;
}

// ---- PutItem -------------------------------------------------------------------------------

enum class Change { kGsiSort = 0, kGsiPartition = 1, kNonKey = 2 };
constexpr const char* kChangeNames[] = {"gsi_sk", "gsi_pk", "non_key"};

void BM_Index_PutOverwrite(benchmark::State& state, int table, Change change) {
  GetTable(table);
  PutItemRequest request;
  request.table_name = kTables[table].name;
  ItemTemplate t;
  FastRandom rng(static_cast<uint64_t>(table) * 31 + static_cast<uint64_t>(change) + 1);
  const uint32_t third = static_cast<uint32_t>(change);
  // Fresh sort key values, above every n; distinct per (table, change) is not needed (the entry
  // key includes the table key), only distinct from what the item holds.
  static uint64_t fresh = 1'000'000'000;
  int64_t amount = 0;
  for (auto _ : state) {
    const uint32_t n = 3 * rng.Below(kItems / 3) + third;
    switch (change) {
      case Change::kGsiSort:
        t.SetKey(n);
        for (int i = 0; i < kMaxGsis; ++i) {
          t.SetGroup(i, GroupOf(n, i));  // the item's own index partition
          t.SetSort(i, fresh++);
        }
        break;
      case Change::kGsiPartition:
        t.SetKey(n);
        for (int i = 0; i < kMaxGsis; ++i) {
          t.SetGroup(i, rng.Below(kGroups));
          t.SetSort(i, n);  // the load-time sort key: only the partition changes
        }
        break;
      case Change::kNonKey:
        t.SetLoaded(n);
        *t.amount = Value(Number::FromInt64(++amount));
        break;
    }
    request.item = t.item;
    if (!Db().PutItem(request).ok()) state.SkipWithError("PutItem failed");
  }
  SetItems(state);
}

void BM_Index_PutInsert(benchmark::State& state, int table) {
  GetTable(table);
  PutItemRequest request;
  request.table_name = kTables[table].name;
  ItemTemplate t;
  t.SetLoaded(0);
  FastRandom rng(static_cast<uint64_t>(table) + 101);
  static int64_t next_key = 0;
  static uint64_t fresh = 2'000'000'000;
  const int64_t first = next_key;
  char text[20] = {'N', 'E', 'W', '#'};
  for (auto _ : state) {
    PutDigits(text + 4, static_cast<uint64_t>(next_key++), 16);
    *t.pk = Value(std::string_view(text, sizeof text));
    for (int i = 0; i < kMaxGsis; ++i) {
      t.SetGroup(i, rng.Below(kGroups));
      t.SetSort(i, fresh++);
    }
    request.item = t.item;
    if (!Db().PutItem(request).ok()) state.SkipWithError("PutItem failed");
  }
  SetItems(state);
  DeleteItemRequest del;
  del.table_name = request.table_name;
  del.key = {{"PK", ""}, {"SK", *t.sk}};
  Value& del_pk = At(del.key, "PK");
  for (int64_t n = first; n < next_key; ++n) {
    PutDigits(text + 4, static_cast<uint64_t>(n), 16);
    del_pk = Value(std::string_view(text, sizeof text));
    if (!Db().DeleteItem(del).ok()) std::abort();
  }
}

// Note: the request item is copied into the request each iteration (request.item = t.item), as a
// caller building a new request would; BM_Index_ItemCopy measures that copy alone.
void BM_Index_ItemCopy(benchmark::State& state) {
  ItemTemplate t;
  Item copy;
  for (auto _ : state) {
    copy = t.item;
    benchmark::DoNotOptimize(copy);
  }
  SetItems(state);
}

// ---- Query ---------------------------------------------------------------------------------

enum class Target { kBase = 0, kGsiAll = 1, kGsiKeys = 2 };

void BM_Index_Query(benchmark::State& state, Target target) {
  GetTable(-1);
  QueryRequest request;
  request.table_name = kQueryTable;
  request.limit = kItemsPerPartition;
  request.expression_attribute_values = AttributeMap{{":k", ""}};
  uint32_t partitions = kPartitions;
  switch (target) {
    case Target::kBase:
      request.key_condition_expression = "PK = :k";
      break;
    case Target::kGsiAll:
      request.index_name = "q_all";
      request.key_condition_expression = "gp0 = :k";
      partitions = kGroups;
      break;
    case Target::kGsiKeys:
      request.index_name = "q_keys";
      request.key_condition_expression = "gp1 = :k";
      partitions = kGroups;
      break;
  }
  Value& k = At(*request.expression_attribute_values, ":k");
  FastRandom rng(static_cast<uint64_t>(target) + 7);
  int64_t items = 0;
  for (auto _ : state) {
    const uint32_t p = rng.Below(partitions);
    if (target == Target::kBase) {
      char text[11] = {'U', 'S', 'E', 'R', '#'};
      PutDigits(text + 5, p, 6);
      k = Value(std::string_view(text, sizeof text));
    } else {
      char text[7] = {'G', '#'};
      PutDigits(text + 2, p, 5);
      k = Value(std::string_view(text, sizeof text));
    }
    Result<QueryResult> result = Db().Query(request);
    if (!result.ok() || result->count != kItemsPerPartition) {
      state.SkipWithError(result.ok() ? "Query: wrong count"
                                      : std::string(result.status().message()).c_str());
      break;
    }
    items += result->count;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(items);
  state.counters["queries_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// ---- Registration --------------------------------------------------------------------------

const int kRegistered = [] {
  constexpr int kTableCount = static_cast<int>(std::size(kTables));
  for (int t = 0; t < kTableCount; ++t) {
    benchmark::RegisterBenchmark((std::string("BM_Index_Load/") + kTables[t].name).c_str(),
                                 BM_Index_Load, t)
        ->Iterations(1)
        ->Repetitions(1);
  }
  benchmark::RegisterBenchmark("BM_Index_Load/IdxQuery", BM_Index_Load, -1)
      ->Iterations(1)
      ->Repetitions(1);
  benchmark::RegisterBenchmark("BM_Index_ItemCopy", BM_Index_ItemCopy);
  // Grouped by change so the rows to compare run back to back.
  for (int c = 0; c < 3; ++c) {
    for (int t = 0; t < kTableCount; ++t) {
      benchmark::RegisterBenchmark(
          (std::string("BM_Index_PutOverwrite/") + kTables[t].name + "/" + kChangeNames[c]).c_str(),
          BM_Index_PutOverwrite, t, static_cast<Change>(c));
    }
  }
  for (int t = 0; t < kTableCount; ++t) {
    benchmark::RegisterBenchmark((std::string("BM_Index_PutInsert/") + kTables[t].name).c_str(),
                                 BM_Index_PutInsert, t);
  }
  constexpr const char* kTargetNames[] = {"base", "gsi_all", "gsi_keys"};
  for (int q = 0; q < 3; ++q) {
    benchmark::RegisterBenchmark((std::string("BM_Index_Query/") + kTargetNames[q]).c_str(),
                                 BM_Index_Query, static_cast<Target>(q));
  }
  return 0;
}();

}  // namespace
}  // namespace partstore::index_benchmark
