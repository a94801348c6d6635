// Engine benchmarks (issue 4): the data-plane operations through partstore::Database on a table
// of 1M items of 200 bytes (DynamoDB ItemSize) with uniformly random keys, next to the ceiling:
// a bare lock-striped hash map doing the same lookups, in the same binary and run.
//
// Data (built once per process, on first use, by GetEngine() / GetBareMap()):
//   table "EngineBench", PK (S) "USER#000000".."USER#099999", SK (S) "ORDER#00".."ORDER#09":
//   100k partition keys x 10 items = 1M items, each exactly kItemSize = 200 bytes of ItemSize:
//   PK, SK, status (S), amount (N), paid (BOOL), counter (N), address (M of three S), and a
//   description (S) padded to the size.
//   The bare map: 64 stripes of {std::shared_mutex, std::unordered_map<std::string, std::string>},
//   key "USER#000123#ORDER#07" -> a 200-byte value, stripe = top 6 bits of std::hash.
//
//   BM_Engine_GetItem                Database::GetItem, prebuilt request, eventually consistent
//   BM_Engine_GetItemView            Database::GetItemView: the same, answering with the stored
//   item BM_Engine_GetItemTable           Table::GetItem(request, prepared): no catalogue /
//   PrepareGet BM_Engine_LookupOnly             EncodeItemKey + stripe shared lock + find, no copy
//   BM_Engine_LookupHandle           the same + the StoredItem handle taken under the lock
//   BM_Engine_LookupToItem           the same + its Item tree built after the lock (GetItem)
//   BM_BareMap_Get                   the ceiling: shared lock + find + copy the value out
//   BM_BareMap_Overwrite             exclusive lock + find + assign a 200-byte value
//   BM_Engine_PutItemOverwrite       PutItem of an existing key (the same 200-byte item)
//   BM_Engine_PutItemInsert          PutItem of a new partition key (deleted again after the run)
//   BM_Engine_UpdateItem             UpdateItem "ADD #c :one" (#c = counter; COUNTER is reserved)
//   BM_Engine_Query/limit10          Query "PK = :pk", Limit 10 (one whole collection)
//   BM_Engine_Query/between          Query "PK = :pk AND SK BETWEEN :lo AND :hi" (10 items)
//   BM_Engine_Scan                   one 1 MB page per iteration, paging through the whole table
//                                    (2 threads: a parallel scan, one segment each); bytes/s of
//                                    ItemSize
//   BM_Engine_QueryView, BM_Engine_ScanView   the same through QueryView / ScanView
// All of the above run on 1 and 2 threads, real time; items_per_second is the aggregate rate.
//   BM_Engine_CollectionInsert/N     PutItem of a new random sort key into one collection of N
//                                    items (another table); every K inserts the timer pauses and
//                                    they are deleted, so the collection stays within N..N+K
//   BM_Engine_Memory / BM_BareMap_Memory
//                                    resident memory (RSS from /proc/self/statm) and heap bytes
//                                    (jemalloc stats.allocated, or glibc mallinfo2) added by
//                                    loading the 1M items, per item and as a ratio to ItemSize.
//                                    One iteration: they report what the fixture's load measured.
//                                    RSS is exact only when the fixture is the first large
//                                    allocation of the process (run with
//                                    --benchmark_filter=Engine).
// Run: --benchmark_filter='Engine|BareMap' (about 90 s with 3 repetitions). Two-thread figures
// need an idle machine: with another session busy, the scheduler gives this process one core.
// Figures and analysis: bench/README.md, "Engine (issue 4)".
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bench/memory_snapshot.h"
#include "partstore/database.h"
#include "partstore/item.h"
#include "shard/database_state.h"
#include "shard/table.h"

namespace partstore::engine_benchmark {
namespace {

constexpr int kPartitions = 100'000;
constexpr int kItemsPerPartition = 10;
constexpr int kItems = kPartitions * kItemsPerPartition;
constexpr size_t kStripes = 64;  // the engine's default (DatabaseOptions::stripes_per_table)
constexpr size_t kItemSize = 200;
constexpr const char* kTableName = "EngineBench";
constexpr const char* kCollectionTableName = "EngineBenchCollections";

// xorshift64*: a few ns, so it does not show next to a 100+ ns lookup.
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

// Zero-padded decimal, `width` digits, written at `out`.
void PutDigits(char* out, uint64_t n, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + n % 10);
    n /= 10;
  }
}

// "USER#000123" and "ORDER#07": fixed width, so every item has the same ItemSize.
struct KeyText {
  char pk[11] = {'U', 'S', 'E', 'R', '#'};
  char sk[8] = {'O', 'R', 'D', 'E', 'R', '#'};
  void Set(uint32_t partition, uint32_t sort) {
    PutDigits(pk + 5, partition, 6);
    PutDigits(sk + 6, sort, 2);
  }
  std::string_view pk_view() const { return {pk, sizeof pk}; }
  std::string_view sk_view() const { return {sk, sizeof sk}; }
};

// The bare map's key of the same item: "USER#000123#ORDER#07".
void BareKey(uint32_t partition, uint32_t sort, std::string* key) {
  key->assign("USER#000000#ORDER#00");
  PutDigits(key->data() + 5, partition, 6);
  PutDigits(key->data() + 18, sort, 2);
}

// The 200-byte item (PK and SK are set by the caller).
Item MakeItem() {
  Item item{
      {"PK", "USER#000000"},
      {"SK", "ORDER#00"},
      {"status", "SHIPPED"},
      {"amount", Value(Number::FromInt64(123456))},
      {"paid", true},
      {"counter", 0},
      {"address",
       Value::Map({{"street", "123 Main Street"}, {"city", "Springfield"}, {"zip", "12345"}})},
      {"description", ""}};
  const size_t without = ItemSize(item);
  item["description"] = std::string(kItemSize - without, 'x');
  return item;
}

// References to the key values inside an Item or AttributeMap, to set them per iteration without
// a lookup.
Value& At(AttributeMap& map, std::string_view name) { return map.find(name)->second; }

// ---- Memory --------------------------------------------------------------------------------

using bench::AllocatorName;
using bench::MemorySnapshot;

struct LoadStats {
  MemorySnapshot before, after;
  double seconds = 0;
  int64_t items = 0;
  int64_t item_bytes = 0;  // sum of ItemSize
};

void ReportMemory(benchmark::State& state, const LoadStats& load) {
  for (auto _ : state) benchmark::DoNotOptimize(load.items);
  const double items = static_cast<double>(load.items);
  const double rss = static_cast<double>(load.after.rss - load.before.rss);
  const double heap = static_cast<double>(load.after.heap - load.before.heap);
  const double item_size = static_cast<double>(load.item_bytes) / items;
  state.counters["item_size"] = item_size;
  state.counters["rss_per_item"] = rss / items;
  state.counters["heap_per_item"] = heap / items;
  state.counters["rss_ratio"] = rss / static_cast<double>(load.item_bytes);
  state.counters["heap_ratio"] = heap / static_cast<double>(load.item_bytes);
  state.counters["rss_MB"] = rss / 1e6;
  state.counters["load_s"] = load.seconds;
  state.counters["load_items_per_s"] = items / load.seconds;
  state.SetLabel(AllocatorName());
}

// ---- The engine fixture --------------------------------------------------------------------

struct Engine {
  Database db;
  std::shared_ptr<Table> table;
  std::shared_ptr<Table> collections;
  LoadStats load;
  std::atomic<int64_t> new_key_base{0};  // PutItemInsert's key numbers, a range per thread
};

std::shared_ptr<Table> MakeTable(Database& db, const char* name) {
  KeySchema schema{KeyAttribute{"PK", KeyType::kString}, KeyAttribute{"SK", KeyType::kString}};
  auto created = db.CreateTable(SimpleTable(name, schema));
  if (!created.ok()) std::abort();
  return *internal::GetTable(db, name);
}

Engine* BuildEngine() {
  auto* e = new Engine;  // never destroyed: tearing down 1M items at exit is wasted time
  e->table = MakeTable(e->db, kTableName);
  e->collections = MakeTable(e->db, kCollectionTableName);
  PutItemRequest put;
  put.table_name = kTableName;
  put.item = MakeItem();
  Value& pk = At(put.item, "PK");
  Value& sk = At(put.item, "SK");
  KeyText text;
  e->load.before = bench::TakeMemorySnapshot();
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t p = 0; p < kPartitions; ++p) {
    for (uint32_t s = 0; s < kItemsPerPartition; ++s) {
      text.Set(p, s);
      pk = Value(text.pk_view());
      sk = Value(text.sk_view());
      if (!e->db.PutItem(put).ok()) std::abort();
    }
  }
  e->load.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  e->load.after = bench::TakeMemorySnapshot();
  e->load.items = e->table->item_count();
  e->load.item_bytes = e->table->size_bytes();
  return e;
}

Engine& GetEngine() {
  static Engine* engine = BuildEngine();
  return *engine;
}

// ---- The bare map fixture ------------------------------------------------------------------

struct alignas(64) BareStripe {
  mutable std::shared_mutex mu;
  std::unordered_map<std::string, std::string> map;
};

struct BareMap {
  BareStripe stripes[kStripes];
  LoadStats load;
  static size_t StripeOf(size_t hash) { return hash >> 58; }  // top 6 bits: 64 stripes
  BareStripe& For(const std::string& key) {
    return stripes[StripeOf(std::hash<std::string>{}(key))];
  }
};
static_assert(kStripes == 64);

BareMap* BuildBareMap() {
  auto* m = new BareMap;
  const std::string value(kItemSize, 'v');
  std::string key;
  m->load.before = bench::TakeMemorySnapshot();
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t p = 0; p < kPartitions; ++p) {
    for (uint32_t s = 0; s < kItemsPerPartition; ++s) {
      BareKey(p, s, &key);
      BareStripe& stripe = m->For(key);
      std::unique_lock lock(stripe.mu);
      stripe.map.insert_or_assign(key, value);
    }
  }
  m->load.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m->load.after = bench::TakeMemorySnapshot();
  m->load.items = kItems;
  m->load.item_bytes = static_cast<int64_t>(kItems) * static_cast<int64_t>(kItemSize);
  return m;
}

BareMap& GetBareMap() {
  static BareMap* map = BuildBareMap();
  return *map;
}

void SetItems(benchmark::State& state, int64_t per_iteration = 1) {
  state.SetItemsProcessed(state.iterations() * per_iteration);
}

// ---- Point reads ---------------------------------------------------------------------------

// The tree-returning reads or their view-returning forms (the items as stored, no tree built).
template <bool kView>
auto Get(Database& db, const GetItemRequest& request) {
  if constexpr (kView)
    return db.GetItemView(request);
  else
    return db.GetItem(request);
}
template <bool kView>
auto QueryOf(Database& db, const QueryRequest& request) {
  if constexpr (kView)
    return db.QueryView(request);
  else
    return db.Query(request);
}
template <bool kView>
auto ScanOf(Database& db, const ScanRequest& request) {
  if constexpr (kView)
    return db.ScanView(request);
  else
    return db.Scan(request);
}

template <bool kView>
void EngineGetItem(benchmark::State& state) {
  Engine& e = GetEngine();
  GetItemRequest request;
  request.table_name = kTableName;
  request.key = {{"PK", ""}, {"SK", ""}};
  Value& pk = At(request.key, "PK");
  Value& sk = At(request.key, "SK");
  FastRandom rng(state.thread_index() + 1);
  KeyText text;
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    text.Set(n / kItemsPerPartition, n % kItemsPerPartition);
    pk = Value(text.pk_view());
    sk = Value(text.sk_view());
    auto result = Get<kView>(e.db, request);
    if (!result.ok() || !result->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(result);
  }
  SetItems(state);
}
void BM_Engine_GetItem(benchmark::State& state) { EngineGetItem<false>(state); }
void BM_Engine_GetItemView(benchmark::State& state) { EngineGetItem<true>(state); }

void BM_Engine_GetItemTable(benchmark::State& state) {
  Engine& e = GetEngine();
  GetItemRequest request;
  request.table_name = kTableName;
  request.key = {{"PK", ""}, {"SK", ""}};
  Value& pk = At(request.key, "PK");
  Value& sk = At(request.key, "SK");
  const PreparedProjection prepared;
  FastRandom rng(state.thread_index() + 1);
  KeyText text;
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    text.Set(n / kItemsPerPartition, n % kItemsPerPartition);
    pk = Value(text.pk_view());
    sk = Value(text.sk_view());
    Result<GetItemResult> result = e.table->GetItem(request, prepared);
    if (!result.ok() || !result->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(result);
  }
  SetItems(state);
}

enum class Copy { kNone, kHandle, kToItem };

// The engine's lookup through its public pieces: the item found, its handle taken under the
// lock (what every read does), or that and its tree built after the lock (what GetItem returns).
template <Copy kCopy>
void EngineLookup(benchmark::State& state) {
  Engine& e = GetEngine();
  const Table& table = *e.table;
  Item key{{"PK", ""}, {"SK", ""}};
  Value& pk = At(key, "PK");
  Value& sk = At(key, "SK");
  FastRandom rng(state.thread_index() + 1);
  KeyText text;
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    text.Set(n / kItemsPerPartition, n % kItemsPerPartition);
    pk = Value(text.pk_view());
    sk = Value(text.sk_view());
    Result<Table::EncodedKey> encoded = table.EncodeItemKey(key);
    const Stripe& stripe = table.stripes().ForHash(encoded->hash);
    Stripe::ReadLock lock(stripe);
    const StoredItem* item = stripe.FindItem({encoded->hash, encoded->partition}, encoded->sort);
    if (item == nullptr) state.SkipWithError("lookup failed");
    if constexpr (kCopy != Copy::kNone) {
      StoredItem handle = *item;
      lock.Unlock();
      if constexpr (kCopy == Copy::kToItem) {
        Item tree = handle.ToItem();
        benchmark::DoNotOptimize(tree);
      } else {
        benchmark::DoNotOptimize(handle);
      }
    } else {
      benchmark::DoNotOptimize(item);
    }
  }
  SetItems(state);
}
void BM_Engine_LookupOnly(benchmark::State& state) { EngineLookup<Copy::kNone>(state); }
void BM_Engine_LookupHandle(benchmark::State& state) { EngineLookup<Copy::kHandle>(state); }
void BM_Engine_LookupToItem(benchmark::State& state) { EngineLookup<Copy::kToItem>(state); }

void BM_BareMap_Get(benchmark::State& state) {
  BareMap& m = GetBareMap();
  FastRandom rng(state.thread_index() + 1);
  std::string key;
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    BareKey(n / kItemsPerPartition, n % kItemsPerPartition, &key);
    const BareStripe& stripe = m.For(key);
    std::shared_lock lock(stripe.mu);
    auto it = stripe.map.find(key);
    if (it == stripe.map.end()) state.SkipWithError("lookup failed");
    std::string value = it->second;
    lock.unlock();
    benchmark::DoNotOptimize(value);
  }
  SetItems(state);
}

void BM_BareMap_Overwrite(benchmark::State& state) {
  BareMap& m = GetBareMap();
  FastRandom rng(state.thread_index() + 1);
  std::string key;
  const std::string value(kItemSize, 'w');
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    BareKey(n / kItemsPerPartition, n % kItemsPerPartition, &key);
    BareStripe& stripe = m.For(key);
    std::unique_lock lock(stripe.mu);
    auto it = stripe.map.find(key);
    if (it == stripe.map.end()) state.SkipWithError("lookup failed");
    it->second = value;  // same length: no allocation, as an in-place overwrite
  }
  SetItems(state);
}

// ---- Writes --------------------------------------------------------------------------------

void BM_Engine_PutItemOverwrite(benchmark::State& state) {
  Engine& e = GetEngine();
  PutItemRequest request;
  request.table_name = kTableName;
  request.item = MakeItem();
  Value& pk = At(request.item, "PK");
  Value& sk = At(request.item, "SK");
  FastRandom rng(state.thread_index() + 1);
  KeyText text;
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    text.Set(n / kItemsPerPartition, n % kItemsPerPartition);
    pk = Value(text.pk_view());
    sk = Value(text.sk_view());
    if (!e.db.PutItem(request).ok()) state.SkipWithError("PutItem failed");
  }
  SetItems(state);
}

// New partition keys "NEW#<16 digits>" (one item each), spread uniformly over the hash space by
// XXH3 like any key; deleted again after the run so the table stays at 1M items.
void BM_Engine_PutItemInsert(benchmark::State& state) {
  Engine& e = GetEngine();
  PutItemRequest request;
  request.table_name = kTableName;
  request.item = MakeItem();
  Value& pk = At(request.item, "PK");
  // Each thread takes a disjoint range of key numbers.
  const int64_t first = e.new_key_base.fetch_add(int64_t{1} << 40);
  int64_t next = first;
  char text[20] = {'N', 'E', 'W', '#'};
  for (auto _ : state) {
    PutDigits(text + 4, static_cast<uint64_t>(next++), 16);
    pk = Value(std::string_view(text, sizeof text));
    if (!e.db.PutItem(request).ok()) state.SkipWithError("PutItem failed");
  }
  SetItems(state);
  DeleteItemRequest del;
  del.table_name = kTableName;
  del.key = {{"PK", ""}, {"SK", At(request.item, "SK")}};
  Value& del_pk = At(del.key, "PK");
  for (int64_t n = first; n < next; ++n) {
    PutDigits(text + 4, static_cast<uint64_t>(n), 16);
    del_pk = Value(std::string_view(text, sizeof text));
    if (!e.db.DeleteItem(del).ok()) std::abort();
  }
}

void BM_Engine_UpdateItem(benchmark::State& state) {
  Engine& e = GetEngine();
  UpdateItemRequest request;
  request.table_name = kTableName;
  request.key = {{"PK", ""}, {"SK", ""}};
  request.update_expression = "ADD #c :one";
  request.expression_attribute_names = expr::NameMap{{"#c", "counter"}};
  request.expression_attribute_values = AttributeMap{{":one", 1}};
  Value& pk = At(request.key, "PK");
  Value& sk = At(request.key, "SK");
  FastRandom rng(state.thread_index() + 1);
  KeyText text;
  for (auto _ : state) {
    const uint32_t n = rng.Below(kItems);
    text.Set(n / kItemsPerPartition, n % kItemsPerPartition);
    pk = Value(text.pk_view());
    sk = Value(text.sk_view());
    if (!e.db.UpdateItem(request).ok()) state.SkipWithError("UpdateItem failed");
  }
  SetItems(state);
}

// ---- Query and Scan ------------------------------------------------------------------------

// range(0): 0 = "PK = :pk" with Limit 10; 1 = "PK = :pk AND SK BETWEEN :lo AND :hi".
template <bool kView>
void EngineQuery(benchmark::State& state) {
  Engine& e = GetEngine();
  const bool between = state.range(0) != 0;
  QueryRequest request;
  request.table_name = kTableName;
  if (between) {
    request.key_condition_expression = "PK = :pk AND SK BETWEEN :lo AND :hi";
    request.expression_attribute_values =
        AttributeMap{{":pk", ""}, {":lo", "ORDER#00"}, {":hi", "ORDER#09"}};
  } else {
    request.key_condition_expression = "PK = :pk";
    request.expression_attribute_values = AttributeMap{{":pk", ""}};
    request.limit = kItemsPerPartition;
  }
  Value& pk = At(*request.expression_attribute_values, ":pk");
  FastRandom rng(state.thread_index() + 1);
  KeyText text;
  int64_t items = 0;
  for (auto _ : state) {
    text.Set(rng.Below(kPartitions), 0);
    pk = Value(text.pk_view());
    auto result = QueryOf<kView>(e.db, request);
    if (!result.ok() || result->count != kItemsPerPartition) {
      state.SkipWithError("Query failed");
      break;
    }
    items += result->count;
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(items);
  state.counters["queries_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Engine_Query(benchmark::State& state) { EngineQuery<false>(state); }
void BM_Engine_QueryView(benchmark::State& state) { EngineQuery<true>(state); }

template <bool kView>
void EngineScan(benchmark::State& state) {
  Engine& e = GetEngine();
  ScanRequest request;
  request.table_name = kTableName;
  if (state.threads() > 1) {
    request.segment = state.thread_index();
    request.total_segments = state.threads();
  }
  const double item_size =
      static_cast<double>(e.table->size_bytes()) / static_cast<double>(e.table->item_count());
  int64_t items = 0;
  for (auto _ : state) {
    auto result = ScanOf<kView>(e.db, request);
    if (!result.ok()) {
      state.SkipWithError("Scan failed");
      break;
    }
    items += result->count;
    if (result->last_evaluated_key) {
      request.exclusive_start_key = std::move(*result->last_evaluated_key);
    } else {
      request.exclusive_start_key.reset();  // wrap around
    }
  }
  state.SetItemsProcessed(items);
  state.SetBytesProcessed(static_cast<int64_t>(static_cast<double>(items) * item_size));
  state.counters["pages_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_Engine_Scan(benchmark::State& state) { EngineScan<false>(state); }
void BM_Engine_ScanView(benchmark::State& state) { EngineScan<true>(state); }

// ---- Inserts into one large collection -----------------------------------------------------

// "ORDER#" + 16 random hex digits: a random position in the collection.
void RandomSortKey(FastRandom& rng, char (&text)[22]) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::memcpy(text, "ORDER#", 6);
  uint64_t r = rng.Next();
  for (int i = 0; i < 16; ++i, r >>= 4) text[6 + i] = kHex[r & 15];
}

void BM_Engine_CollectionInsert(benchmark::State& state) {
  Engine& e = GetEngine();
  const int64_t n = state.range(0);
  char pk_text[16];
  const int pk_len = std::snprintf(pk_text, sizeof pk_text, "BIG#%lld", static_cast<long long>(n));
  PutItemRequest put;
  put.table_name = kCollectionTableName;
  put.item = MakeItem();
  At(put.item, "PK") = Value(std::string_view(pk_text, pk_len));
  Value& sk = At(put.item, "SK");
  FastRandom rng(static_cast<uint64_t>(n));
  char text[22];
  // Fill the collection to n once per process (its keys are the first n of this sequence).
  static std::map<int64_t, bool> filled;
  if (!filled[n]) {
    for (int64_t i = 0; i < n; ++i) {
      RandomSortKey(rng, text);
      sk = Value(std::string_view(text, sizeof text));
      if (!e.db.PutItem(put).ok()) std::abort();
    }
    filled[n] = true;
  }
  FastRandom fresh(static_cast<uint64_t>(n) * 7919 + 13);
  const int64_t batch = std::clamp<int64_t>(n / 8, 16, 1024);
  std::vector<std::string> inserted;
  inserted.reserve(static_cast<size_t>(batch));
  DeleteItemRequest del;
  del.table_name = kCollectionTableName;
  del.key = {{"PK", At(put.item, "PK")}, {"SK", ""}};
  Value& del_sk = At(del.key, "SK");
  auto delete_inserted = [&] {
    for (const std::string& key : inserted) {
      del_sk = Value(key);
      if (!e.db.DeleteItem(del).ok()) std::abort();
    }
    inserted.clear();
  };
  for (auto _ : state) {
    RandomSortKey(fresh, text);
    sk = Value(std::string_view(text, sizeof text));
    if (!e.db.PutItem(put).ok()) state.SkipWithError("PutItem failed");
    inserted.emplace_back(text, sizeof text);
    if (static_cast<int64_t>(inserted.size()) == batch) {
      state.PauseTiming();
      delete_inserted();
      state.ResumeTiming();
    }
  }
  delete_inserted();
  SetItems(state);
  state.counters["batch"] = static_cast<double>(batch);
}

// ---- Memory --------------------------------------------------------------------------------

void BM_Engine_Memory(benchmark::State& state) { ReportMemory(state, GetEngine().load); }
void BM_BareMap_Memory(benchmark::State& state) { ReportMemory(state, GetBareMap().load); }

// Memory first: its figures are those of the first load in the process.
BENCHMARK(BM_Engine_Memory)->Iterations(1)->Repetitions(1);
BENCHMARK(BM_BareMap_Memory)->Iterations(1)->Repetitions(1);

#define PARTSTORE_THREADED(bm) BENCHMARK(bm)->Threads(1)->Threads(2)->UseRealTime()
PARTSTORE_THREADED(BM_BareMap_Get);
PARTSTORE_THREADED(BM_Engine_GetItem);
PARTSTORE_THREADED(BM_Engine_GetItemView);
PARTSTORE_THREADED(BM_Engine_GetItemTable);
PARTSTORE_THREADED(BM_Engine_LookupOnly);
PARTSTORE_THREADED(BM_Engine_LookupHandle);
PARTSTORE_THREADED(BM_Engine_LookupToItem);
PARTSTORE_THREADED(BM_BareMap_Overwrite);
PARTSTORE_THREADED(BM_Engine_PutItemOverwrite);
PARTSTORE_THREADED(BM_Engine_PutItemInsert);
PARTSTORE_THREADED(BM_Engine_UpdateItem);
BENCHMARK(BM_Engine_Query)
    ->ArgName("between")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime();
BENCHMARK(BM_Engine_QueryView)
    ->ArgName("between")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime();
PARTSTORE_THREADED(BM_Engine_Scan);
PARTSTORE_THREADED(BM_Engine_ScanView);
BENCHMARK(BM_Engine_CollectionInsert)->Arg(100)->Arg(1000)->Arg(10000)->Arg(100000)->UseRealTime();
#undef PARTSTORE_THREADED

}  // namespace
}  // namespace partstore::engine_benchmark
