// CacheCounters: what a CachedStore counts (partstore/cached_store.h's CacheStats), shared by its
// parts, and TimedCall, which counts a call to the upstream and its time.
//
// Thread safety: relaxed atomics; safe for concurrent use.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <utility>

namespace partstore::cache {

struct CacheCounters {
  std::atomic<uint64_t> item_hits{0}, negative_hits{0}, item_misses{0}, shared_loads{0};
  std::atomic<uint64_t> query_hits{0}, query_misses{0}, uncacheable_pages{0};
  std::atomic<uint64_t> passed_through{0}, writes{0};
  std::atomic<uint64_t> item_invalidations{0}, page_invalidations{0};
  std::atomic<uint64_t> upstream_calls{0}, upstream_micros{0};
  std::atomic<uint64_t> stream_records{0}, stream_throttles{0}, stream_errors{0};

  static void Add(std::atomic<uint64_t>& counter, uint64_t n = 1) {
    counter.fetch_add(n, std::memory_order_relaxed);
  }
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
