// Database: memory (partstore/memory.h): DescribeMemory, and the evictor of the kEvict policy.
//
// Eviction is Redis's approximated LRU (its maxmemory-policy allkeys-lru, and volatile-ttl for
// ttl_first): each round samples `eviction_samples` item collections of one stripe, chosen at
// random (the table in proportion to its bytes, then a stripe), adds them to a pool of the 16
// best candidates kept across rounds, and evicts the best: the longest unused (by the budget's
// access clock), or with ttl_first the nearest expiry among collections that have one (Redis's
// volatile-ttl samples only keys with an expiry; here, where no index of them is kept, eviction
// samples up to ten more rounds for one before it takes a collection without). A candidate used
// since it was sampled is skipped when its turn comes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "partstore/database.h"
#include "shard/database_state.h"

namespace partstore {

namespace {

constexpr size_t kPoolSize = 16;  // Redis's EVPOOL_SIZE
constexpr int kTtlSearchRounds = 10;

uint64_t NextRandom(uint64_t* state) {  // splitmix64
  uint64_t z = (*state += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

}  // namespace

DescribeMemoryResult Database::DescribeMemory() const {
  const internal::DatabaseState& state = *state_;
  DescribeMemoryResult result;
  result.limit_bytes = state.options_.memory.limit_bytes;
  result.policy = state.options_.memory.policy;
  result.used_bytes = state.memory_->used();
  result.rejected_writes = state.memory_->rejected();
  std::shared_lock lock(state.mu_);
  for (const auto& [name, table] : state.tables_) {
    result.tables.push_back({name, table->memory_bytes(), table->evicted_items(),
                             table->evicted_collections(), table->expired_items()});
  }
  return result;
}

void internal::DatabaseState::Evict() {
  std::lock_guard evict_lock(evict_mu_);
  if (!memory_->over()) return;  // another writer's eviction made room
  std::vector<std::shared_ptr<Table>> tables;
  {
    std::shared_lock lock(mu_);
    for (const auto& [name, table] : tables_) tables.push_back(table);
  }
  const MemoryOptions& options = options_.memory;
  const uint32_t now = memory_->now();
  // Best first: with ttl_first a nearer expiry (collections without one after all that have
  // one), then the longer unused (ages on the wrapping 32-bit clock).
  auto better = [&](const Table::EvictionCandidate& a, const Table::EvictionCandidate& b) {
    if (options.ttl_first && a.expiry != b.expiry) return a.expiry < b.expiry;
    return static_cast<uint32_t>(now - a.last_used) > static_cast<uint32_t>(now - b.last_used);
  };
  int fruitless = 0;  // rounds in a row that evicted nothing
  int ttl_search = 0;
  while (memory_->over() && fruitless < 1000) {
    // A table in proportion to its bytes, then one of its stripes.
    int64_t total = 0;
    for (const auto& table : tables) total += std::max<int64_t>(table->memory_bytes(), 0);
    if (total <= 0) break;
    int64_t pick = static_cast<int64_t>(NextRandom(&eviction_rng_) % static_cast<uint64_t>(total));
    Table* chosen = tables.back().get();
    for (const auto& table : tables) {
      pick -= std::max<int64_t>(table->memory_bytes(), 0);
      if (pick < 0) {
        chosen = table.get();
        break;
      }
    }
    const size_t stripe = NextRandom(&eviction_rng_) % chosen->stripes().size();
    chosen->SampleForEviction(stripe, static_cast<size_t>(options.eviction_samples),
                              options.ttl_first, &eviction_pool_);
    std::sort(eviction_pool_.begin(), eviction_pool_.end(), better);
    // (Duplicates of one collection may sit in the pool; the second finds it gone.)
    if (eviction_pool_.size() > kPoolSize) eviction_pool_.resize(kPoolSize);
    if (eviction_pool_.empty()) {
      ++fruitless;
      continue;
    }
    // ttl_first: look further (up to kTtlSearchRounds rounds of samples) for a collection with an
    // expiry before taking one without.
    if (options.ttl_first && std::isinf(eviction_pool_.front().expiry) &&
        ttl_search < kTtlSearchRounds) {
      ++ttl_search;
      continue;
    }
    ttl_search = 0;
    const Table::EvictionCandidate best = std::move(eviction_pool_.front());
    eviction_pool_.erase(eviction_pool_.begin());
    std::shared_ptr<Table> table = best.table.lock();
    if (table != nullptr && table->EvictCollection(best) > 0) {
      fruitless = 0;
    } else {
      ++fruitless;
    }
  }
}

}  // namespace partstore
