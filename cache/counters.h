// CacheCounters: what a CachedStore counts (partstore/cached_store.h's CacheStats), shared by its
// parts, and TimedCall, which counts a call to the upstream and its time.
//
// Thread safety: relaxed atomics; safe for concurrent use.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <utility>

namespace partstore::cache {

// A counter every hit adds to: one cache line per stripe, a thread adding to its own stripe, so
// that threads on other cores do not take the line from each other on every hit.
class StripedCounter {
 public:
  void Add(uint64_t n = 1) { stripes_[Stripe()].value.fetch_add(n, std::memory_order_relaxed); }
  uint64_t load(std::memory_order order = std::memory_order_relaxed) const {
    uint64_t sum = 0;
    for (const Padded& p : stripes_) sum += p.value.load(order);
    return sum;
  }

 private:
  static constexpr size_t kStripes = 16;
  struct alignas(64) Padded {
    std::atomic<uint64_t> value{0};
  };
  static size_t Stripe() {
    static std::atomic<size_t> next{0};
    thread_local const size_t stripe = next.fetch_add(1, std::memory_order_relaxed) % kStripes;
    return stripe;
  }
  std::array<Padded, kStripes> stripes_{};
};

struct CacheCounters {
  StripedCounter item_hits, negative_hits, query_hits;
  std::atomic<uint64_t> item_misses{0}, shared_loads{0};
  std::atomic<uint64_t> query_misses{0}, uncacheable_pages{0};
  std::atomic<uint64_t> passed_through{0}, writes{0};
  std::atomic<uint64_t> item_invalidations{0}, page_invalidations{0};
  std::atomic<uint64_t> upstream_calls{0}, upstream_micros{0};
  std::atomic<uint64_t> stream_records{0}, stream_throttles{0}, stream_errors{0};

  static void Add(std::atomic<uint64_t>& counter, uint64_t n = 1) {
    counter.fetch_add(n, std::memory_order_relaxed);
  }
  static void Add(StripedCounter& counter, uint64_t n = 1) { counter.Add(n); }
};

// Calls `call()` (a call to the upstream), counting it and its time in `counters`.
template <typename Call>
auto TimedCall(CacheCounters& counters, Call&& call) {
  const auto start = std::chrono::steady_clock::now();
  auto result = std::forward<Call>(call)();
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  CacheCounters::Add(counters.upstream_calls);
  CacheCounters::Add(counters.upstream_micros, static_cast<uint64_t>(micros.count()));
  return result;
}

}  // namespace partstore::cache
