#include "shard/capacity/heavy_hitters.h"

#include <xxhash.h>

#include <algorithm>
#include <cassert>

namespace partstore::capacity {

namespace {

constexpr size_t kFilterPerCounter = 8;

size_t FilterSize(size_t capacity) {
  size_t n = 1;
  while (n < capacity * kFilterPerCounter) n <<= 1;
  return n;
}

}  // namespace

HeavyHitters::HeavyHitters(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)), filter_(FilterSize(capacity_), 0) {}

uint64_t HeavyHitters::Hash(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

size_t HeavyHitters::AddWeight(std::string_view key, int64_t weight) {
  assert(weight >= 0);
  total_weight_ += weight;
  ++stamp_;

  const uint64_t hash = Hash(key);
  if (auto it = index_.find(KeyRef{hash, key}); it != index_.end()) {
    const size_t slot = it->second;
    counters_[slot].count += weight;
    counters_[slot].stamp = stamp_;
    SiftDown(counters_[slot].heap_pos);  // a larger (count, stamp) only moves away from the root
    return kNotAssigned;
  }

  const size_t mask = filter_.size() - 1;
  const size_t bucket = hash & mask;
  if (counters_.size() < capacity_) {
    if (counters_.capacity() < capacity_) {
      // Reserved in full at the first key, never reallocated: the index holds views of the keys.
      counters_.reserve(capacity_);
      heap_.reserve(capacity_);
    }
    const size_t slot = counters_.size();
    Counter& counter = counters_.emplace_back();
    counter.key.assign(key.data(), key.size());
    counter.hash = hash;
    counter.count = filter_[bucket] + weight;
    counter.error = filter_[bucket];
    counter.stamp = stamp_;
    index_.emplace(KeyRef{hash, counter.key}, slot);
    heap_.push_back(slot);
    counter.heap_pos = heap_.size() - 1;
    SiftUp(counter.heap_pos);
    return slot;
  }

  // The filter: an untracked key whose bucket's bound, with this weight, stays under the minimum
  // count only adds to the bound.
  const size_t slot = heap_[0];
  Counter& counter = counters_[slot];
  const int64_t bound = filter_[bucket];
  if (bound + weight < counter.count) {
    filter_[bucket] = bound + weight;
    return kNotAssigned;
  }
  // Evict the minimum (heap_[0]): its count bounds its key's weight from now on. Its key string is
  // reused for the new key (its buffer kept when large enough), out of the index meanwhile.
  int64_t& evicted_bound = filter_[counter.hash & mask];
  evicted_bound = std::max(evicted_bound, counter.count);
  index_.erase(KeyRef{counter.hash, counter.key});
  counter.key.assign(key.data(), key.size());
  counter.hash = hash;
  index_.emplace(KeyRef{hash, counter.key}, slot);
  counter.display.clear();
  counter.error = bound;
  counter.count = bound + weight;
  counter.stamp = stamp_;
  // The new (count, key) may be larger than the children's, never smaller than the root's parent
  // (it has none): sifting down restores the heap.
  SiftDown(0);
  return slot;
}

bool HeavyHitters::Less(size_t a, size_t b) const {
  const Counter& x = counters_[a];
  const Counter& y = counters_[b];
  if (x.count != y.count) return x.count < y.count;
  return x.stamp < y.stamp;
}

void HeavyHitters::Place(size_t pos, size_t counter) {
  heap_[pos] = counter;
  counters_[counter].heap_pos = pos;
}

void HeavyHitters::SiftUp(size_t pos) {
  const size_t moving = heap_[pos];
  while (pos > 0) {
    const size_t parent = (pos - 1) / 2;
    if (!Less(moving, heap_[parent])) break;
    Place(pos, heap_[parent]);
    pos = parent;
  }
  Place(pos, moving);
}

void HeavyHitters::SiftDown(size_t pos) {
  const size_t moving = heap_[pos];
  const size_t n = heap_.size();
  while (true) {
    size_t child = 2 * pos + 1;
    if (child >= n) break;
    if (child + 1 < n && Less(heap_[child + 1], heap_[child])) ++child;
    if (!Less(heap_[child], moving)) break;
    Place(pos, heap_[child]);
    pos = child;
  }
  Place(pos, moving);
}

std::vector<HeavyHitters::Entry> HeavyHitters::Top(size_t n) const {
  std::vector<const Counter*> order;
  order.reserve(counters_.size());
  for (const Counter& counter : counters_) order.push_back(&counter);
  n = std::min(n, order.size());
  // Keys are unique, so this order is total and the result does not depend on slot order.
  std::partial_sort(order.begin(), order.begin() + static_cast<ptrdiff_t>(n), order.end(),
                    [](const Counter* a, const Counter* b) {
                      if (a->count != b->count) return a->count > b->count;
                      return a->key < b->key;
                    });
  std::vector<Entry> top;
  top.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    top.push_back(Entry{order[i]->key, order[i]->display, order[i]->count, order[i]->error});
  }
  return top;
}

void HeavyHitters::Clear() {
  counters_.clear();
  heap_.clear();
  index_.clear();
  std::fill(filter_.begin(), filter_.end(), 0);
  total_weight_ = 0;
}

}  // namespace partstore::capacity
