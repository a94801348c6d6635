// MemoryBudget and MemoryAccount: the count of what a database's store holds, against its limit
// (partstore/memory.h has the rules).
//
// Every Stripe reports the bytes its writes add and free to its table's MemoryAccount, which adds
// them to the database's MemoryBudget. The budget holds the limit and the policy; with kEvict it
// also runs the evictor (installed by the database) when a write leaves the store over the limit,
// and keeps the access clock that item collections are stamped with for LRU.
//
// HeapBytes estimates what the allocator really hands out for a block of n bytes: jemalloc's and
// glibc's size classes are within a few percent of it (16-byte steps up to 128 bytes, then four
// classes per doubling).
//
// Thread safety: counters are atomics (relaxed: a count, not a synchronization point); the
// evictor is set once before any table exists.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>

#include "partstore/memory.h"

namespace partstore {

inline size_t HeapBytes(size_t n) {
  if (n == 0) return 0;
  if (n <= 128) return (n + 15) & ~size_t{15};
  const size_t step = std::bit_floor(n - 1) / 4;
  return (n + step - 1) / step * step;
}

class MemoryBudget {
 public:
  explicit MemoryBudget(MemoryOptions options) : options_(options) {}
  MemoryBudget(const MemoryBudget&) = delete;
  MemoryBudget& operator=(const MemoryBudget&) = delete;

  const MemoryOptions& options() const { return options_; }
  int64_t used() const { return used_.load(std::memory_order_relaxed); }
  void Add(int64_t delta) { used_.fetch_add(delta, std::memory_order_relaxed); }

  // A write growing the store by `growth` bytes may go ahead (kReject; always under kEvict or
  // without a limit, and for a write that does not grow).
  bool Admits(int64_t growth) const {
    return options_.limit_bytes == 0 || options_.policy != MemoryPolicy::kReject || growth <= 0 ||
           used() + growth <= static_cast<int64_t>(options_.limit_bytes);
  }
  // kReject with a limit: writes are checked before they run.
  bool rejecting() const {
    return options_.limit_bytes != 0 && options_.policy == MemoryPolicy::kReject;
  }
  void CountRejected() { rejected_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t rejected() const { return rejected_.load(std::memory_order_relaxed); }

  // kEvict with a limit: collections are stamped with Tick() when used, and EvictIfOver runs the
  // evictor after a write.
  bool evicting() const {
    return options_.limit_bytes != 0 && options_.policy == MemoryPolicy::kEvict;
  }
  bool over() const {
    return options_.limit_bytes != 0 && used() > static_cast<int64_t>(options_.limit_bytes);
  }
  uint32_t Tick() { return tick_.fetch_add(1, std::memory_order_relaxed) + 1; }
  uint32_t now() const { return tick_.load(std::memory_order_relaxed); }
  // The database sets it when it opens and clears it when it closes; clearing waits for an
  // eviction in progress (a table a tool kept may outlive the database).
  void set_evictor(std::function<void()> evictor) {
    std::lock_guard lock(evictor_mu_);
    evictor_ = std::move(evictor);
  }
  // After a write, with no lock held. evictor_mu_ is the first lock an eviction takes.
  void EvictIfOver() const {
    if (!evicting() || !over()) return;
    std::lock_guard lock(evictor_mu_);
    if (evictor_) evictor_();
  }

 private:
  const MemoryOptions options_;
  std::atomic<int64_t> used_{0};
  std::atomic<uint64_t> rejected_{0};
  std::atomic<uint32_t> tick_{0};
  mutable std::mutex evictor_mu_;  // guards evictor_, and is held while it runs
  std::function<void()> evictor_;
};

// One table's part of the budget (its items and its indexes), shared by the table's StripeSets
// (an index may outlive its table in a reader's hands). A StripeSet gives back its bytes when it
// is destroyed (a dropped table or index).
class MemoryAccount {
 public:
  // `budget` may be null (a table outside a database: counted, never limited).
  explicit MemoryAccount(std::shared_ptr<MemoryBudget> budget) : budget_(std::move(budget)) {}
  MemoryAccount(const MemoryAccount&) = delete;
  MemoryAccount& operator=(const MemoryAccount&) = delete;

  void Add(int64_t delta) {
    bytes_.fetch_add(delta, std::memory_order_relaxed);
    if (budget_ != nullptr) budget_->Add(delta);
  }
  int64_t bytes() const { return bytes_.load(std::memory_order_relaxed); }
  MemoryBudget* budget() const { return budget_.get(); }
  // The access stamp for a collection just used, or 0 when nothing evicts.
  uint32_t Touch() const { return budget_ != nullptr && budget_->evicting() ? budget_->Tick() : 0; }

 private:
  const std::shared_ptr<MemoryBudget> budget_;
  std::atomic<int64_t> bytes_{0};
};

}  // namespace partstore
