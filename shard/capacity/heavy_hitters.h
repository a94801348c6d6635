// HeavyHitters: a top-k sketch over string keys with non-negative int64 weights, in memory bounded
// by a fixed number of counters: Filtered Space-Saving (Homem and Carvalho, "Finding top-k
// elements in data streams", Information Sciences 180(24), 2010), Space-Saving (Metwally, Agrawal
// and El Abbadi, ICDT 2005) with a filter in front of its evictions.
//
// The sketch holds at most capacity() counters {key, display, count, error} and a filter of
// 8 x capacity (rounded up to a power of two) buckets, each an upper bound of the weight of every
// untracked key hashed to it. Adding weight w to a tracked key adds w to its count. An untracked
// key in bucket b with bound a:
//   - takes a free counter {count a + w, error a};
//   - when all are taken, and a + w is below the smallest count m: adds w to the bound (nothing
//     else changes: a stream of rare keys costs an array add, not an eviction);
//   - else takes the counter with the smallest count (ties: the one added to least recently),
//     which becomes {key, count a + w, error a}; the evicted key's bucket bound becomes at least m.
// Guarantees, with N = total_weight():
//   - for every tracked key: true weight <= count <= true weight + error, and error <= N /
//     capacity (the counts sum to at most N);
//   - every key whose true weight exceeds N / capacity is tracked;
//   - while no more than capacity() distinct keys have been added, every count is exact (error 0).
// Weights are added with plain int64 arithmetic: the caller keeps total_weight() below INT64_MAX.
//
// Each counter also holds a `display` Item (the key attributes to show a user), built by the
// caller's make_display callable only when a counter is (re)assigned to a key, so that adding to a
// tracked key, the hot path, builds nothing. Add costs O(log capacity) and allocates only when a
// counter is assigned. The eviction tie rule compares integers (an add stamp), not keys: in a
// stream of many distinct keys most counters share the minimum count, and comparing their keys
// on every sift was the sketch's main cost; the filter then took the evictions of a Zipfian
// stream's tail off the hot path (bench/README.md, "Simulator v2").
//
// Results are deterministic: the same sequence of Add calls gives the same counters and the same
// Top(), independent of addresses and of the index's slot order. A key is hashed once per Add
// (XXH3, the same on every platform): the index looks the hash up and the filter takes its bucket
// from it.
//
// Thread safety: not thread-safe; const methods are thread-safe when nothing modifies the sketch.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/item.h"

namespace partstore::capacity {

class HeavyHitters {
 public:
  // One tracked key, as reported by Top().
  struct Entry {
    std::string key;    // the key as passed to Add (opaque bytes)
    Item display;       // what make_display returned when the counter was assigned to `key`
    int64_t count = 0;  // estimated weight: true weight <= count <= true weight + error
    int64_t error = 0;  // overestimation bound: the evicted minimum's count, 0 if never evicted
    friend bool operator==(const Entry&, const Entry&) = default;
  };

  // `capacity`: the number of counters, >= 1 (0 is treated as 1).
  explicit HeavyHitters(size_t capacity);

  HeavyHitters(const HeavyHitters&) = delete;
  HeavyHitters& operator=(const HeavyHitters&) = delete;
  HeavyHitters(HeavyHitters&&) noexcept = default;
  HeavyHitters& operator=(HeavyHitters&&) noexcept = default;

  // Adds `weight` (>= 0; 0 still tracks the key) to `key`. `make_display` is a callable returning
  // an Item, called once when a counter is assigned to `key` and not otherwise. If it throws, the
  // counts are already updated and the counter keeps an empty display.
  template <class MakeDisplay>
  void Add(std::string_view key, int64_t weight, MakeDisplay&& make_display) {
    const size_t assigned = AddWeight(key, weight);
    if (assigned != kNotAssigned) {
      counters_[assigned].display = std::forward<MakeDisplay>(make_display)();
    }
  }

  // Up to n tracked keys, by count descending, ties by key ascending (bytes).
  std::vector<Entry> Top(size_t n) const;

  // Number of tracked keys, <= capacity().
  size_t size() const { return counters_.size(); }
  size_t capacity() const { return capacity_; }
  // Sum of the weights added since construction or the last Clear().
  int64_t total_weight() const { return total_weight_; }

  // Forgets every key and resets total_weight(). Keeps the counter array's allocation.
  void Clear();

  // The filter's size, and the bucket of `key` (for tests and models of the sketch).
  size_t filter_buckets() const { return filter_.size(); }
  size_t BucketOf(std::string_view key) const { return Hash(key) & (filter_.size() - 1); }

 private:
  static uint64_t Hash(std::string_view key);

  // The index's key: a tracked key's hash and a view of its counter's `key` (counters_ never
  // reallocates: it is reserved to capacity_ at the first key, and a counter's key changes only
  // while its entry is out of the index).
  struct KeyRef {
    uint64_t hash;
    std::string_view key;
    friend bool operator==(const KeyRef& a, const KeyRef& b) {
      return a.hash == b.hash && a.key == b.key;
    }
  };
  struct KeyRefHash {
    size_t operator()(const KeyRef& k) const { return static_cast<size_t>(k.hash); }
  };
  // Open addressing (abseil's Swiss table): a lookup reads a control group and a slot of 32 bytes,
  // where a node-based map chased a pointer per step of a bucket's chain.
  using Index = absl::flat_hash_map<KeyRef, size_t, KeyRefHash>;

  struct Counter {
    std::string key;
    Item display;
    int64_t count = 0;
    int64_t error = 0;
    uint64_t stamp = 0;   // when it was last added to (the eviction tie rule: oldest first)
    size_t heap_pos = 0;  // position of this counter in heap_
    uint64_t hash = 0;    // Hash(key): its index entry and filter bucket
  };

  static constexpr size_t kNotAssigned = static_cast<size_t>(-1);

  // Updates counts, the heap and the index for Add. Returns the counter assigned to `key` (its
  // display cleared) or kNotAssigned when `key` was already tracked.
  size_t AddWeight(std::string_view key, int64_t weight);

  // Heap order: count ascending, ties by stamp ascending, so heap_[0] is the counter to evict.
  bool Less(size_t a, size_t b) const;
  void SiftUp(size_t pos);
  void SiftDown(size_t pos);
  void Place(size_t pos, size_t counter);

  size_t capacity_;
  int64_t total_weight_ = 0;
  uint64_t stamp_ = 0;             // Add calls so far (Counter::stamp)
  std::vector<Counter> counters_;  // at most capacity_, indexed by slot
  std::vector<size_t> heap_;       // binary min-heap of slots, ordered by Less
  Index index_;                    // key -> slot
  // The filter (Filtered Space-Saving): per bucket of key hashes, an upper bound of the weight of
  // each untracked key in it. kFilterPerCounter buckets a counter, a power of two in all.
  std::vector<int64_t> filter_;
};

}  // namespace partstore::capacity
