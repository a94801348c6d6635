// Table: memory (partstore/memory.h): the reject policy's admission of a write, and eviction's
// sampling and eviction of whole item collections.
#include <fmt/format.h>

#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "shard/table.h"

namespace partstore {

namespace {

// What a new item or index entry costs beside its buffer: its element in the collection's array
// (16 bytes, with the array's growth slack; a key that is not the item's own has a heap block
// too), and for a new partition key a hash-map
// slot (which holds a one-item collection's item itself). Estimates: the stripes count the real
// figures afterwards.
constexpr int64_t kElementBytes = 64;
constexpr int64_t kCollectionBytes = 128;

}  // namespace

void Table::EraseUnmetered(Stripe& stripe, const EncodedKey& key, const StoredItem& item,
                           StreamRemover remover, bool emit) {
  const IndexList& indexes = WriterIndexes(key.hash);
  IndexWritePlan plan;
  if (!indexes.empty()) plan = PlanIndexWrites(indexes, &item, nullptr, key);
  if (capacity_) {
    // Unmetered: only the simulated partitions' sizes and counts follow.
    (void)ChargeWrite(key, KeyOf(item), 0, -static_cast<int64_t>(item.item_size()), -1, plan, &item,
                      nullptr, capacity::RequestCounting::kPartOfRequest,
                      capacity::Metering::kUnmetered);
  }
  stripe.Erase({key.hash, key.partition}, key.sort);
  if (!indexes.empty()) {
    CapacityCharge unused;
    ApplyIndexWrites(plan, nullptr, &unused);
  }
  if (emit) Emit(key.hash, item, StoredItem(), remover);
}

int64_t Table::GrowthOf(const EncodedKey& key, const StoredItem* existing, const StoredItem& item,
                        const IndexWritePlan& plan) const {
  int64_t growth = static_cast<int64_t>(HeapBytes(item.footprint()));
  if (existing != nullptr) {
    growth -= static_cast<int64_t>(HeapBytes(existing->footprint()));
  } else {
    growth +=
        kElementBytes +
        static_cast<int64_t>(HeapBytes(CollectionKey::HeapLength(StoredSortKey(key, item), item)));
    const Stripe& stripe = stripes_.ForHash(key.hash);
    stripe.AssertReaderHeld();  // REQUIRES: the write's stripe held (see table.h)
    growth += stripe.NewKeyMapGrowth({key.hash, key.partition});
  }
  for (const IndexWrite& w : plan) {
    const bool shares = w.index->SharesBuffer(item);
    if (w.put && !w.replaces) {
      growth +=
          kElementBytes + kCollectionBytes / 2 +
          (shares ? 0 : static_cast<int64_t>(HeapBytes(w.index->EntryBufferBytes(w.new_size))));
    } else if (w.put && !shares) {
      growth += static_cast<int64_t>(w.index->EntryBufferBytes(w.new_size)) -
                static_cast<int64_t>(w.index->EntryBufferBytes(w.old_size));
    }
  }
  return growth;
}

Status Table::AdmitWrite(int64_t growth) const {
  MemoryBudget* budget = memory_->budget();
  if (budget == nullptr || budget->Admits(growth)) return Status::Ok();
  budget->CountRejected();
  return Status(Code::kMemoryLimitExceeded,
                fmt::format("Memory limit exceeded: the store holds {} of its {}-byte limit and "
                            "this write needs about {} more (memory policy reject)",
                            budget->used(), budget->options().limit_bytes, growth));
}

int64_t Table::StagedGrowth(const StagedWrite& write) const {
  if (!write.new_item) return 0;
  return GrowthOf(write.key, write.existing ? &write.existing : nullptr, write.new_item,
                  write.plan);
}

void Table::SampleForEviction(size_t stripe_index, size_t count, bool with_expiry,
                              std::vector<EvictionCandidate>* out) {
  if (eviction_cursors_.size() != stripes_.size()) eviction_cursors_.resize(stripes_.size());
  const std::string* attribute = nullptr;
  std::string ttl;
  if (with_expiry) {
    std::lock_guard lock(ttl_mu_);
    if (ttl_attribute_) ttl = *ttl_attribute_;
    if (!ttl.empty()) attribute = &ttl;
  }
  // The collection's nearest expiry, from its first items (enough to tell a session's or a
  // cache entry's collection from one without TTL).
  constexpr int kItemsLooked = 16;
  const Stripe& stripe = stripes_.at(stripe_index);
  Stripe::ReadLock lock(stripe);
  stripe.Sample(&eviction_cursors_[stripe_index], count,
                [&](const Stripe::StoredKey& key, const ItemCollection& collection) {
                  EvictionCandidate candidate;
                  candidate.table = weak_from_this();
                  candidate.hash = key.hash;
                  candidate.partition = key.key;
                  candidate.last_used = collection.last_used();
                  candidate.expiry = std::numeric_limits<double>::infinity();
                  if (attribute != nullptr) {
                    ItemCollection::Cursor cursor = collection.NewCursor();
                    int looked = 0;
                    for (cursor.SeekToFirst(); cursor.valid() && looked < kItemsLooked;
                         cursor.Next(), ++looked) {
                      if (std::optional<double> v = TtlValueOf(cursor.item(), *attribute)) {
                        candidate.expiry = std::min(candidate.expiry, *v);
                      }
                    }
                  }
                  out->push_back(std::move(candidate));
                });
}

int64_t Table::EvictCollection(const EvictionCandidate& candidate) {
  Stripe& stripe = stripes_.ForHash(candidate.hash);
  const PartitionKeyRef partition{candidate.hash, candidate.partition};
  std::vector<std::pair<std::string, StoredItem>> items;
  {
    Stripe::WriteLock lock(stripe);
    const ItemCollection* collection = stripe.Find(partition);
    // Gone, or used since it was sampled: no longer the one to evict.
    if (collection == nullptr || collection->last_used() != candidate.last_used) return 0;
    ItemCollection::Cursor cursor = collection->NewCursor();
    for (cursor.SeekToFirst(); cursor.valid(); cursor.Next()) {
      items.emplace_back(std::string(cursor.key()), cursor.item());
    }
    EncodedKey key{candidate.hash, candidate.partition, {}};
    for (const auto& [sk, item] : items) {
      key.sort = sk;
      EraseUnmetered(stripe, key, item, StreamRemover::kEviction);
    }
  }
  evicted_items_.fetch_add(items.size(), std::memory_order_relaxed);
  evicted_collections_.fetch_add(1, std::memory_order_relaxed);
  return static_cast<int64_t>(items.size());
}

}  // namespace partstore
