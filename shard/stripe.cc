#include "shard/stripe.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>

namespace partstore {

uint64_t HashPartitionKey(std::string_view encoded_partition_key) {
  return XXH3_64bits(encoded_partition_key.data(), encoded_partition_key.size());
}

ItemCollection* Stripe::Find(PartitionKeyRef key) {
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : &it->second;
}

const ItemCollection* Stripe::Find(PartitionKeyRef key) const {
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : &it->second;
}

ItemCollection& Stripe::FindOrCreate(PartitionKeyRef key) {
  auto it = map_.find(key);
  if (it != map_.end()) return it->second;
  auto [inserted, unused] =
      map_.try_emplace(StoredKey{key.hash, std::string(key.key)}, ItemCollection{});
  if (KeepOrder()) order_.insert(OrderPosition(key), &*inserted);
  return inserted->second;
}

bool Stripe::KeepOrder() {
  if (!order_valid_.load(std::memory_order_relaxed)) return false;
  const uint32_t writes = writes_since_scan_.load(std::memory_order_relaxed);
  if (writes >= kMaintainedWritesPerScan) {
    order_valid_.store(false, std::memory_order_relaxed);
    return false;
  }
  writes_since_scan_.store(writes + 1, std::memory_order_relaxed);
  return true;
}

void Stripe::EraseIfEmpty(PartitionKeyRef key) {
  auto it = map_.find(key);
  if (it == map_.end() || !it->second.empty()) return;
  if (KeepOrder()) {
    auto position = OrderPosition(key);
    if (position != order_.end() && *position == &*it) {
      order_.erase(position);
    } else {
      order_valid_.store(false, std::memory_order_relaxed);  // not expected: rebuild to be safe
    }
  }
  map_.erase(it);
}

std::vector<const Stripe::Entry*>::iterator Stripe::OrderPosition(PartitionKeyRef key) const {
  return std::lower_bound(
      order_.begin(), order_.end(), key,
      [](const Entry* e, const PartitionKeyRef& k) { return e->first.ref() < k; });
}

const std::vector<const Stripe::Entry*>& Stripe::Ordered() const {
  // Writers change order_valid_ only under the exclusive lock, so with `mu` held (shared) it is
  // stable; order_mu_ serializes the readers that find it stale.
  writes_since_scan_.store(0, std::memory_order_relaxed);
  if (order_valid_.load(std::memory_order_acquire)) return order_;
  std::lock_guard<std::mutex> lock(order_mu_);
  if (!order_valid_.load(std::memory_order_relaxed)) {
    order_.clear();
    order_.reserve(map_.size());
    for (const Entry& entry : map_) order_.push_back(&entry);
    std::sort(order_.begin(), order_.end(),
              [](const Entry* a, const Entry* b) { return a->first.ref() < b->first.ref(); });
    order_valid_.store(true, std::memory_order_release);
  }
  return order_;
}

StripeSet::StripeSet(size_t count) {
  const size_t rounded = std::bit_ceil(std::max<size_t>(count, 1));
  shift_ = 64 - std::countr_zero(rounded);
  stripes_.reserve(rounded);
  for (size_t i = 0; i < rounded; ++i) stripes_.push_back(std::make_unique<Stripe>());
}

}  // namespace partstore
