#include "shard/stripe.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>

namespace partstore {

uint64_t HashPartitionKey(std::string_view encoded_partition_key) {
  return XXH3_64bits(encoded_partition_key.data(), encoded_partition_key.size());
}

const ItemCollection* Stripe::Find(PartitionKeyRef key) const {
  auto it = map_.find(key);
  return it == map_.end() ? nullptr : &it->second;
}

namespace {
// A slot of the hash map (key and collection) and its control byte.
constexpr int64_t kSlotBytes = sizeof(Stripe::Entry) + 1;
}  // namespace

int64_t Stripe::NewKeyMapGrowth(PartitionKeyRef key) const {
  const size_t capacity = map_.capacity();
  if (map_.size() + 1 <= capacity - capacity / 8 || map_.contains(key)) return 0;
  return static_cast<int64_t>(capacity + 1) * kSlotBytes;
}

int64_t Stripe::ItemBytes(const StoredItem& item, bool buffer) {
  return buffer ? static_cast<int64_t>(HeapBytes(item.footprint())) : 0;
}

void Stripe::CountMemory(int64_t delta) {
  if (delta == 0) return;
  memory_bytes_ += delta;
  account_->Add(delta);
}

bool Stripe::Put(PartitionKeyRef key, std::string_view sk, StoredItem item, StoredItem* old,
                 BufferCounting counting) {
  const size_t capacity = map_.capacity();
  int64_t memory = 0;
  auto it = map_.find(key);
  if (it == map_.end()) {
    it = map_.try_emplace(StoredKey{key.hash, PartitionKeyBytes(key.key)}, ItemCollection{}).first;
    if (map_.capacity() != capacity) {
      // The map grew and moved every entry (and left no erased slot behind).
      order_valid_.store(false, std::memory_order_relaxed);
      erased_since_growth_ = false;
    } else if (erased_since_growth_) {
      // An insert into a map with erased slots may re-hash it in place, at the same capacity,
      // moving entries: the order's pointers may be stale.
      order_valid_.store(false, std::memory_order_relaxed);
    } else if (KeepOrder()) {
      order_.insert(OrderPosition(key), &*it);
    }
    memory += static_cast<int64_t>(HeapBytes(PartitionKeyBytes::HeapLength(key.key.size()))) +
              (static_cast<int64_t>(map_.capacity()) - static_cast<int64_t>(capacity)) * kSlotBytes;
  }
  ItemCollection& collection = it->second;
  const uint64_t before = collection.total_size();
  size_t container_before = 0;
  if (account_ != nullptr) {
    container_before = collection.MemoryBytes();
    memory += ItemBytes(item, counting.item);
  }
  StoredItem replaced;
  const bool inserted =
      collection
          .InsertOrAssign(sk, std::move(item), &replaced, account_ != nullptr ? &memory : nullptr)
          .second;
  item_count_ += inserted ? 1 : 0;
  size_bytes_ += static_cast<int64_t>(collection.total_size()) - static_cast<int64_t>(before);
  if (account_ != nullptr) {
    memory +=
        static_cast<int64_t>(collection.MemoryBytes()) - static_cast<int64_t>(container_before);
    if (!inserted) memory -= ItemBytes(replaced, counting.replaced);
    CountMemory(memory);
  }
  if (old != nullptr && !inserted) *old = std::move(replaced);
  return inserted;
}

bool Stripe::Erase(PartitionKeyRef key, std::string_view sk, StoredItem* old, bool count_buffer) {
  auto it = map_.find(key);
  if (it == map_.end()) return false;
  ItemCollection& collection = it->second;
  const uint64_t before = collection.total_size();
  const size_t container_before = account_ != nullptr ? collection.MemoryBytes() : 0;
  StoredItem removed;
  int64_t memory = 0;
  if (!collection.Erase(sk, &removed, account_ != nullptr ? &memory : nullptr)) return false;
  --item_count_;
  size_bytes_ -= static_cast<int64_t>(before - collection.total_size());
  if (account_ != nullptr) memory -= ItemBytes(removed, count_buffer);
  if (collection.empty()) {
    if (KeepOrder()) {
      auto position = OrderPosition(key);
      if (position != order_.end() && *position == &*it) {
        order_.erase(position);
      } else {
        order_valid_.store(false, std::memory_order_relaxed);  // not expected: rebuild to be safe
      }
    }
    if (account_ != nullptr) {
      // The collection's arrays and the key's heap block go; the slot stays (the map keeps its
      // capacity).
      memory -=
          static_cast<int64_t>(container_before) +
          static_cast<int64_t>(HeapBytes(PartitionKeyBytes::HeapLength(it->first.key.size())));
    }
    map_.erase(it);
    erased_since_growth_ = true;
  } else if (account_ != nullptr) {
    memory +=
        static_cast<int64_t>(collection.MemoryBytes()) - static_cast<int64_t>(container_before);
  }
  if (account_ != nullptr) CountMemory(memory);
  if (old != nullptr) *old = std::move(removed);
  return true;
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

StripeSet::StripeSet(size_t count, std::shared_ptr<MemoryAccount> account)
    : account_(std::move(account)) {
  const size_t rounded = std::bit_ceil(std::max<size_t>(count, 1));
  shift_ = 64 - std::countr_zero(rounded);
  stripes_.reserve(rounded);
  for (size_t i = 0; i < rounded; ++i) {
    stripes_.push_back(std::make_unique<Stripe>());
    stripes_.back()->set_memory(account_.get());
  }
}

StripeSet::~StripeSet() {
  // The item buffers are released in address order rather than stripe by stripe: buffers written
  // over a long run lie all over the heap, and releasing 18 million of them in collection order
  // cost a cache and TLB miss each (about 7 µs an item on this machine's VM; bench/README.md,
  // "The simulator at the size of real workloads").
  std::vector<StoredItem> items;
  size_t count = 0;
  for (const auto& stripe : stripes_) {
    stripe->AssertHeld();  // (being destroyed: nobody else can hold it)
    count += static_cast<size_t>(stripe->item_count());
  }
  items.reserve(count);
  for (const auto& stripe : stripes_) {
    stripe->AssertHeld();
    if (account_ != nullptr) account_->Add(-stripe->memory_bytes());
    stripe->TakeItems(items);
  }
  StoredItem::ReleaseInAddressOrder(items);
}

int64_t StripeSet::Sum(int64_t (Stripe::*counter)() const) const {
  int64_t total = 0;
  for (const auto& stripe : stripes_) {
    Stripe::ReadLock lock(*stripe);
    total += ((*stripe).*counter)();
  }
  return total;
}

}  // namespace partstore
