// ItemCollection (shard/item_collection.h) against a plain boost::container::flat_map, the
// design it replaces, measured in the same run: inserts (steady state and filling), point lookups
// and 10-item scans in one collection of 100 to 100k items with random 20-byte keys.
//
//   BM_Collection_InsertErase<X>/N  one insert of a new key + one erase of a random present key,
//                                   at steady size N (both pay for one 20-byte key string)
//   BM_Collection_Fill<X>/N         filling an empty collection to N in random order;
//                                   `per_insert` is the time per insert
//   BM_Collection_Find<X>/N         point lookup of a present key by std::string_view
//   BM_Collection_Scan10<X>/N       seek to a random present key and read 10 items forward
//   BM_SegmentSizeSweep_*/N/S       ItemCollection with segments of S items (how the default
//                                   was chosen)
//
// Items are one shared empty StoredItem: a stored item is an 8-byte handle whichever its
// contents, so moving it costs the same, and the measurement stays on the container.
// `bytes_per_item` counts the container's own structure (element arrays by capacity, segment index,
// separators), not keys or items.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/container/flat_map.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "partstore/item.h"
#include "shard/item_collection.h"

namespace partstore::item_collection_benchmark {
namespace {

constexpr size_t kKeyLength = 20;

// 2n distinct random keys of kKeyLength bytes, generated once per n.
const std::vector<std::string>& Keys(size_t n) {
  static std::map<size_t, std::vector<std::string>> cache;
  std::vector<std::string>& keys = cache[n];
  if (keys.empty()) {
    std::mt19937_64 rng(n);
    std::uniform_int_distribution<int> byte('0', 'z');
    std::vector<std::string> all;
    while (all.size() < 2 * n) {
      std::string key(kKeyLength, '\0');
      for (char& c : key) c = static_cast<char>(byte(rng));
      all.push_back(std::move(key));
      if (all.size() == 2 * n) {
        std::sort(all.begin(), all.end());
        all.erase(std::unique(all.begin(), all.end()), all.end());
      }
    }
    std::shuffle(all.begin(), all.end(), rng);
    keys = std::move(all);
  }
  return keys;
}

// xorshift64*: cheap enough not to show in a 20 ns lookup.
struct FastRandom {
  uint64_t state = 0x9E3779B97F4A7C15ull;
  size_t Below(size_t n) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return static_cast<size_t>((state * 0x2545F4914F6CDD1Dull) >> 32) % n;
  }
};

const StoredItem& EmptyItem() {
  static const StoredItem item = StoredItem::Encode(Item{});
  return item;
}

class FlatMap {
 public:
  using Map = boost::container::flat_map<std::string, StoredItem, std::less<>>;
  explicit FlatMap(size_t = 0) {}
  // Built from sorted keys (appends), to skip the quadratic random-order fill in setup.
  void Build(std::vector<std::string> keys) {
    std::sort(keys.begin(), keys.end());
    for (std::string& key : keys) map_.emplace_hint(map_.end(), std::move(key), EmptyItem());
  }
  void Insert(std::string key) { map_.insert_or_assign(std::move(key), EmptyItem()); }
  void Erase(std::string_view key) { map_.erase(map_.find(key)); }
  const StoredItem* Find(std::string_view key) const {
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : &it->second;
  }
  size_t Scan(std::string_view start, int n) const {
    size_t sum = 0;
    for (auto it = map_.lower_bound(start); it != map_.end() && n > 0; ++it, --n) {
      sum += it->first.size() + it->second.item_size();
    }
    return sum;
  }
  size_t Bytes() const { return sizeof(map_) + map_.capacity() * sizeof(Map::value_type); }

 private:
  Map map_;
};

class Segmented {
 public:
  explicit Segmented(size_t max_segment = ItemCollection::kDefaultMaxSegmentSize)
      : collection_(ItemCollectionOptions{.max_segment_size = max_segment}) {}
  // Random-order inserts, so segments are as full as in use (sorted appends leave them half full).
  void Build(std::vector<std::string> keys) {
    for (std::string& key : keys) Insert(std::move(key));
  }
  void Insert(std::string key) { collection_.InsertOrAssign(key, EmptyItem()); }
  void Erase(std::string_view key) { collection_.Erase(key); }
  const StoredItem* Find(std::string_view key) const { return collection_.Find(key); }
  size_t Scan(std::string_view start, int n) const {
    size_t sum = 0;
    for (auto c = collection_.LowerBound(start); c.valid() && n > 0; c.Next(), --n) {
      sum += c.key().size() + c.item().item_size();
    }
    return sum;
  }
  size_t Bytes() const { return collection_.ContainerBytes(); }
  size_t segments() const { return collection_.segment_count(); }

 private:
  ItemCollection collection_;
};

template <typename C>
void SetMemoryCounters(benchmark::State& state, const C& c, size_t n) {
  state.counters["bytes_per_item"] = static_cast<double>(c.Bytes()) / static_cast<double>(n);
}

template <typename C>
void InsertErase(benchmark::State& state, size_t n, size_t max_segment) {
  const std::vector<std::string>& keys = Keys(n);
  std::vector<std::string> present(keys.begin(), keys.begin() + n);
  std::vector<std::string> absent(keys.begin() + n, keys.end());
  C c(max_segment);
  c.Build(present);
  FastRandom random;
  for (auto _ : state) {
    const size_t a = random.Below(absent.size());
    const size_t p = random.Below(present.size());
    c.Insert(absent[a]);
    c.Erase(present[p]);
    std::swap(absent[a], present[p]);
  }
  SetMemoryCounters(state, c, n);
}

template <typename C>
void Find(benchmark::State& state, size_t n, size_t max_segment) {
  const std::vector<std::string>& keys = Keys(n);
  C c(max_segment);
  c.Build(std::vector<std::string>(keys.begin(), keys.begin() + n));
  FastRandom random;
  for (auto _ : state) benchmark::DoNotOptimize(c.Find(keys[random.Below(n)]));
}

template <typename C>
void Scan10(benchmark::State& state, size_t n, size_t max_segment) {
  const std::vector<std::string>& keys = Keys(n);
  C c(max_segment);
  c.Build(std::vector<std::string>(keys.begin(), keys.begin() + n));
  FastRandom random;
  for (auto _ : state) benchmark::DoNotOptimize(c.Scan(keys[random.Below(n)], 10));
}

template <typename C>
void BM_Collection_InsertErase(benchmark::State& state) {
  InsertErase<C>(state, state.range(0), ItemCollection::kDefaultMaxSegmentSize);
}

template <typename C>
void BM_Collection_Fill(benchmark::State& state) {
  const size_t n = state.range(0);
  const std::vector<std::string>& keys = Keys(n);
  size_t bytes = 0;
  for (auto _ : state) {
    C c;
    for (size_t i = 0; i < n; ++i) c.Insert(keys[i]);
    bytes = c.Bytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["per_insert"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
  state.counters["bytes_per_item"] = static_cast<double>(bytes) / static_cast<double>(n);
}

template <typename C>
void BM_Collection_Find(benchmark::State& state) {
  Find<C>(state, state.range(0), ItemCollection::kDefaultMaxSegmentSize);
}

template <typename C>
void BM_Collection_Scan10(benchmark::State& state) {
  Scan10<C>(state, state.range(0), ItemCollection::kDefaultMaxSegmentSize);
}

#define PARTSTORE_COLLECTION_BENCHMARK(name)                                   \
  BENCHMARK_TEMPLATE(name, FlatMap)->RangeMultiplier(10)->Range(100, 100'000); \
  BENCHMARK_TEMPLATE(name, Segmented)->RangeMultiplier(10)->Range(100, 100'000)

PARTSTORE_COLLECTION_BENCHMARK(BM_Collection_InsertErase);
PARTSTORE_COLLECTION_BENCHMARK(BM_Collection_Fill);
PARTSTORE_COLLECTION_BENCHMARK(BM_Collection_Find);
PARTSTORE_COLLECTION_BENCHMARK(BM_Collection_Scan10);

// Segment size: at N items, segments of S.
void SweepArgs(benchmark::internal::Benchmark* b) {
  for (int64_t n : {1'000, 10'000, 100'000}) {
    for (int64_t s : {128, 256, 512, 1024, 2048, 4096, 8192}) b->Args({n, s});
  }
}
void BM_SegmentSizeSweep_InsertErase(benchmark::State& state) {
  InsertErase<Segmented>(state, state.range(0), state.range(1));
}
void BM_SegmentSizeSweep_Find(benchmark::State& state) {
  Find<Segmented>(state, state.range(0), state.range(1));
}
void BM_SegmentSizeSweep_Scan10(benchmark::State& state) {
  Scan10<Segmented>(state, state.range(0), state.range(1));
}
BENCHMARK(BM_SegmentSizeSweep_InsertErase)->Apply(SweepArgs);
BENCHMARK(BM_SegmentSizeSweep_Find)->Apply(SweepArgs);
BENCHMARK(BM_SegmentSizeSweep_Scan10)->Apply(SweepArgs);

}  // namespace
}  // namespace partstore::item_collection_benchmark
