// Capacity simulation benchmarks (issue 7): what simulation costs on the hot path, and how fast
// the manual clock simulates.
//
// Data: table "CapBench", PK (S) "USER#000000".."USER#099999", 100k items of about 200 bytes,
// loaded into two Databases: capacity simulation off (the default) and on (the system clock,
// 64 partitions, limits raised so that nothing is throttled: this measures the accounting, not
// the throttles).
//
//   BM_Capacity_GetItem/on:0|1     GetItem of a random key, eventually consistent
//   BM_Capacity_PutItem/on:0|1     PutItem overwriting a random key with the same 200-byte item
//   (1 and 2 threads, real time, aggregate items_per_second)
//   BM_Capacity_Simulated          the manual clock: PutItem/GetItem mix (3:1) on a provisioned
//                                  table of 4,000 WCU / 12,000 RCU (5 partitions), 30% on one hot
//                                  key, the clock advanced 50 us per request (20,000 offered per
//                                  simulated second: much of it throttled); items_per_second is
//                                  simulated requests per wall-clock second
// Run: --benchmark_filter=Capacity --benchmark_repetitions=3. Figures: bench/README.md,
// "Capacity simulation (issue 7)".
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "partstore/database.h"

namespace partstore::capacity_benchmark {
namespace {

constexpr int kKeys = 100'000;
constexpr const char* kTable = "CapBench";

std::string KeyOf(uint32_t n) {
  std::string key = "USER#000000";
  for (int i = 10; i >= 5; --i, n /= 10)
    key[static_cast<size_t>(i)] = static_cast<char>('0' + n % 10);
  return key;
}

Item ItemOf(const std::string& key) {
  return {
      {"PK", Value(key)}, {"status", Value("SHIPPED")}, {"payload", Value(std::string(170, 'x'))}};
}

std::unique_ptr<Database> Load(bool capacity_on) {
  DatabaseOptions options;
  if (capacity_on) {
    options.capacity.enabled = true;
    options.capacity.partition_read_units = 1'000'000'000;
    options.capacity.partition_write_units = 1'000'000'000;
  }
  auto db = std::make_unique<Database>(options);
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  CreateTableRequest create = SimpleTable(kTable, key);
  create.billing_mode = BillingMode::kProvisioned;
  // 64 partitions of ample throughput: ceil(RCU / 1e9 + WCU / 1e9) = 64.
  create.provisioned_throughput = ProvisionedThroughput{32'000'000'000, 32'000'000'000};
  if (!db->CreateTable(create).ok()) std::abort();
  for (uint32_t i = 0; i < kKeys; ++i) {
    PutItemRequest put;
    put.table_name = kTable;
    put.item = ItemOf(KeyOf(i));
    if (!db->PutItem(put).ok()) std::abort();
  }
  return db;
}

Database& Get(bool capacity_on) {
  static std::unique_ptr<Database> off = Load(false);
  static std::unique_ptr<Database> on = Load(true);
  return capacity_on ? *on : *off;
}

struct Random {
  explicit Random(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t Below(uint32_t n) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<uint32_t>((((state * 0x2545F4914F6CDD1Dull) >> 32) * n) >> 32);
  }
  uint64_t state;
};

void BM_Capacity_GetItem(benchmark::State& state) {
  Database& db = Get(state.range(0) != 0);
  std::vector<GetItemRequest> requests(1024);
  Random random(static_cast<uint64_t>(state.thread_index()) + 1);
  for (auto& r : requests) {
    r.table_name = kTable;
    r.key = {{"PK", Value(KeyOf(random.Below(kKeys)))}};
  }
  size_t i = 0;
  for (auto _ : state) {
    auto got = db.GetItem(requests[i++ & 1023]);
    benchmark::DoNotOptimize(got);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Capacity_PutItem(benchmark::State& state) {
  Database& db = Get(state.range(0) != 0);
  std::vector<PutItemRequest> requests(1024);
  Random random(static_cast<uint64_t>(state.thread_index()) + 7);
  for (auto& r : requests) {
    r.table_name = kTable;
    r.item = ItemOf(KeyOf(random.Below(kKeys)));
  }
  size_t i = 0;
  for (auto _ : state) {
    auto put = db.PutItem(requests[i++ & 1023]);
    benchmark::DoNotOptimize(put);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Capacity_Simulated(benchmark::State& state) {
  auto clock = std::make_shared<capacity::ManualClock>();
  DatabaseOptions options;
  options.capacity.enabled = true;
  options.capacity.clock = clock;
  Database db(options);
  KeySchema key;
  key.partition = {"PK", KeyType::kString};
  CreateTableRequest create = SimpleTable(kTable, key);
  create.billing_mode = BillingMode::kProvisioned;
  create.provisioned_throughput = ProvisionedThroughput{12'000, 4'000};
  if (!db.CreateTable(create).ok()) std::abort();
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < 10'000; ++i) keys.push_back(KeyOf(i));
  Random random(3);
  int64_t throttled = 0;
  PutItemRequest put;
  put.table_name = kTable;
  GetItemRequest get;
  get.table_name = kTable;
  for (auto _ : state) {
    clock->Advance(50);
    const std::string& pk = random.Below(10) < 3 ? keys[0] : keys[random.Below(10'000)];
    Status status;
    if (random.Below(4) == 0) {
      get.key = {{"PK", Value(pk)}};
      status = db.GetItem(get).status();
    } else {
      put.item = ItemOf(pk);
      status = db.PutItem(put).status();
    }
    throttled += !status.ok();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["throttled_pct"] =
      100.0 * static_cast<double>(throttled) / static_cast<double>(state.iterations());
  state.counters["simulated_s"] = static_cast<double>(clock->NowMicros()) / 1e6;
}

BENCHMARK(BM_Capacity_GetItem)
    ->ArgName("on")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime();
BENCHMARK(BM_Capacity_PutItem)
    ->ArgName("on")
    ->Arg(0)
    ->Arg(1)
    ->Threads(1)
    ->Threads(2)
    ->UseRealTime();
BENCHMARK(BM_Capacity_Simulated)->UseRealTime();

}  // namespace
}  // namespace partstore::capacity_benchmark
