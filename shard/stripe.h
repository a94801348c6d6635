// StripeSet: a table's items, spread over lock stripes by the hash of the partition key.
//
// hash = XXH3_64(encoded partition key). Stripe = hash >> (64 - log2(stripe count)): the top
// bits, so stripes partition the hash space into equal, ordered ranges and iterating stripes in
// index order iterates hashes in order. Within a stripe:
//   - an open-addressing hash map (abseil's flat_hash_map) from (hash, encoded partition key) to
//     the key's ItemCollection gives point lookups one probe (the stored hash is reused, never
//     recomputed); entries move when the map grows, so a collection's address is good only until
//     the next new partition key of the stripe;
//   - the scan order (hash, encoded partition key) is a sorted vector of pointers to the map's
//     entries, rebuilt lazily: a write that adds or removes a partition key marks it stale (or, up
//     to a bound, keeps it in place; a new key that grows the map, or arrives after a key was
//     erased since it last grew (the map may re-hash in place), always marks it stale), and
//     the next scan of the stripe sorts it again (an item write to an existing key does not).
//     A read-mostly table scans from a built order at no cost; a scan racing with inserts of new
//     keys pays one sort of the stripe per page it enters. Keeping an ordered structure up to date
//     on every insert instead would cost each new partition key a tree insert or an array shift
//     (std::map: a cache miss per level on every GetItem as well).
// A partition key's collection is removed when its last item is.
//
// The stripe owns its data: items go in and out through Put and Erase, which keep the stripe's
// item count and byte size (the sum of the items' DynamoDB sizes, read from each StoredItem's
// header) and create and remove collections; readers get const collections, items and cursors.
// Items are StoredItems that do not change while a reader holds a handle: a reader copies the
// handles it needs under the lock and reads them after releasing it (MutableItem says when a
// writer may change one in place).
//
// Thread safety: each Stripe's data is guarded by its lock (a std::shared_mutex behind
// Stripe::Mutex), taken through Stripe::ReadLock (shared: readers) and Stripe::WriteLock
// (exclusive: writers); every method says which it needs, and clang builds check it
// (core/thread_annotations.h). The scan-order vector is rebuilt under the lock held shared plus
// `order_mu_`, so concurrent readers build it once. Counters (items, bytes) change only under the
// exclusive lock and are read under the shared one. Lock order: the stripe's lock before
// `order_mu_`; a thread holds at most one stripe of a set at a time, except a transaction
// (shard/table.h has the whole order).
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/thread_annotations.h"
#include "shard/compact_key.h"
#include "shard/item_collection.h"
#include "shard/memory_budget.h"

namespace partstore {

// XXH3_64 of an encoded partition key.
uint64_t HashPartitionKey(std::string_view encoded_partition_key);

// (hash, encoded partition key): the identity and scan position of an item collection.
struct PartitionKeyRef {
  uint64_t hash = 0;
  std::string_view key;
  friend auto operator<=>(const PartitionKeyRef& a, const PartitionKeyRef& b) {
    if (auto c = a.hash <=> b.hash; c != 0) return c;
    return a.key.compare(b.key) <=> 0;
  }
  friend bool operator==(const PartitionKeyRef& a, const PartitionKeyRef& b) = default;
};

class Stripe {
 public:
  // The map's key: the encoded partition key inline up to 31 bytes (shard/compact_key.h), so a
  // lookup compares it in the slot it probes.
  struct StoredKey {
    uint64_t hash = 0;
    PartitionKeyBytes key;
    PartitionKeyRef ref() const { return {hash, key.view()}; }
  };
  struct Hasher {
    using is_transparent = void;
    size_t operator()(const StoredKey& k) const { return static_cast<size_t>(k.hash); }
    size_t operator()(const PartitionKeyRef& k) const { return static_cast<size_t>(k.hash); }
  };
  struct Equal {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return Ref(a) == Ref(b);
    }
    static PartitionKeyRef Ref(const StoredKey& k) { return k.ref(); }
    static PartitionKeyRef Ref(const PartitionKeyRef& k) { return k; }
  };
  // Open addressing (abseil's Swiss table: one control byte per slot, the key and collection in
  // the slot itself): a lookup reads a control group and the slot where std::unordered_map read a
  // bucket and then a heap node (bench/README.md, "The stripe's map"). Slots move when the table
  // grows or re-hashes in place, so Entry pointers (order_) live only until the next insert of a
  // new partition key.
  using Map = absl::flat_hash_map<StoredKey, ItemCollection, Hasher, Equal>;
  using Entry = Map::value_type;

  // The stripe's reader/writer lock, a capability clang's analysis follows.
  class PARTSTORE_CAPABILITY("mutex") Mutex {
   public:
    void lock() PARTSTORE_ACQUIRE() { mu_.lock(); }
    void unlock() PARTSTORE_RELEASE() { mu_.unlock(); }
    void lock_shared() PARTSTORE_ACQUIRE_SHARED() { mu_.lock_shared(); }
    void unlock_shared() PARTSTORE_RELEASE_SHARED() { mu_.unlock_shared(); }

   private:
    std::shared_mutex mu_;
  };
  // Holds a stripe shared (a reader) until Unlock() or the end of its scope.
  class PARTSTORE_SCOPED_CAPABILITY ReadLock {
   public:
    explicit ReadLock(const Stripe& stripe) PARTSTORE_ACQUIRE_SHARED(stripe.mu_) : mu_(stripe.mu_) {
      mu_.lock_shared();
    }
    ~ReadLock() PARTSTORE_RELEASE_GENERIC() {
      if (locked_) mu_.unlock_shared();
    }
    void Unlock() PARTSTORE_RELEASE_GENERIC() {
      mu_.unlock_shared();
      locked_ = false;
    }
    ReadLock(const ReadLock&) = delete;
    ReadLock& operator=(const ReadLock&) = delete;

   private:
    Mutex& mu_;
    bool locked_ = true;
  };
  // Holds a stripe exclusively (a writer) until Unlock() or the end of its scope.
  class PARTSTORE_SCOPED_CAPABILITY WriteLock {
   public:
    explicit WriteLock(Stripe& stripe) PARTSTORE_ACQUIRE(stripe.mu_) : mu_(stripe.mu_) {
      mu_.lock();
    }
    ~WriteLock() PARTSTORE_RELEASE() {
      if (locked_) mu_.unlock();
    }
    void Unlock() PARTSTORE_RELEASE() {
      mu_.unlock();
      locked_ = false;
    }
    WriteLock(const WriteLock&) = delete;
    WriteLock& operator=(const WriteLock&) = delete;

   private:
    Mutex& mu_;
    bool locked_ = true;
  };
  // The lock itself, for a transaction's StripeLocks (several stripes, locked in address order).
  Mutex& mutex() const PARTSTORE_RETURN_CAPABILITY(mu_) { return mu_; }
  // A function whose caller holds the lock where the analysis cannot see it (a transaction's
  // stripes, locked in a loop) states so with these. They check nothing at run time.
  void AssertHeld() const PARTSTORE_ASSERT_CAPABILITY(mu_) {}
  void AssertReaderHeld() const PARTSTORE_ASSERT_SHARED_CAPABILITY(mu_) {}

  // The collection of partition key `key`, or null when it has no items. Good until the lock is
  // released or a Put adds a partition key to this stripe.
  const ItemCollection* Find(PartitionKeyRef key) const PARTSTORE_REQUIRES_SHARED(mu_);
  // The item under (`key`, `sk`), or null. Good as long as its collection's pointer (Find): a
  // one-item collection holds its item inline, in the map's slot (shard/item_collection.h).
  const StoredItem* FindItem(PartitionKeyRef key, std::string_view sk) const
      PARTSTORE_REQUIRES_SHARED(mu_) {
    const ItemCollection* collection = Find(key);
    return collection != nullptr ? collection->Find(sk) : nullptr;
  }
  // The same item, to be changed where it is, or null. REQUIRES: the lock held exclusively; the
  // change keeps the item's size and buffer length, which the counters hold
  // (PatchStoredItemInPlace).
  StoredItem* MutableItem(PartitionKeyRef key, std::string_view sk) PARTSTORE_REQUIRES(mu_) {
    // The collection's elements are not const objects: FindItem's view of them is.
    return const_cast<StoredItem*>(FindItem(key, sk));
  }
  // Stores `item` (REQUIRES: not empty) under (`key`, `sk`), replacing the item there; returns
  // whether it is new. The replaced item is moved into *old when `old` is not null. Keeps the
  // counters.
  // Whose buffers a Put counts as memory: the stored item's and the replaced one's (an index entry
  // may share its base item's buffer, which the table's stripe counts).
  struct BufferCounting {
    bool item;
    bool replaced;
  };
  bool Put(PartitionKeyRef key, std::string_view sk, StoredItem item, StoredItem* old = nullptr,
           BufferCounting counting = BufferCounting{true, true}) PARTSTORE_REQUIRES(mu_);
  // Removes the item under (`key`, `sk`) (and the collection, when it was the last); returns
  // whether there was one, moved into *old when `old` is not null. Keeps the counters.
  bool Erase(PartitionKeyRef key, std::string_view sk, StoredItem* old = nullptr,
             bool count_buffer = true) PARTSTORE_REQUIRES(mu_);

  // Partition keys in scan order. The vector stays valid while the lock is held and no partition
  // key is added or removed. Built on first use after it was
  // invalidated; while valid, adding or removing a partition key keeps it in order in place (a
  // binary search and a memmove of pointers) for up to kMaintainedWritesPerScan such writes after
  // the last Ordered() call, and invalidates it at the next: a table scanned now and then between
  // inserts (YCSB E) never re-sorts, and one written in bulk that nobody scans stops paying for the
  // order after a few writes. Either way a stripe's writes between two scans cost at most
  // kMaintainedWritesPerScan memmoves, well below one re-sort.
  const std::vector<const Entry*>& Ordered() const PARTSTORE_REQUIRES_SHARED(mu_);
  static constexpr uint32_t kMaintainedWritesPerScan = 64;
  // Whether the scan order is built and current (tests: kept in place vs. invalidated).
  bool order_cached() const PARTSTORE_REQUIRES_SHARED(mu_) {
    return order_valid_.load(std::memory_order_relaxed);
  }

  // Moves every item handle of the stripe into `out` (see ItemCollection::TakeItems). For a
  // stripe being destroyed: the caller holds the only reference to it.
  void TakeItems(std::vector<StoredItem>& out) PARTSTORE_REQUIRES(mu_) {
    for (auto& [key, collection] : map_) collection.TakeItems(out);
  }

  // Memory (shard/memory_budget.h): Put and Erase report what they allocate and free (the map by
  // capacity, collections by MemoryBytes, key strings and item buffers as heap blocks) to
  // `account`; null: not counted. Set once, before the stripe is used.
  void set_memory(MemoryAccount* account) { account_ = account; }
  int64_t memory_bytes() const PARTSTORE_REQUIRES_SHARED(mu_) { return memory_bytes_; }
  // The bytes a Put of partition key `key` would add to the hash map's slots: 0 when the key is
  // present or the map has room, else the slots its doubling adds (the reject policy's estimate;
  // absl's maps grow past 7/8 full).
  int64_t NewKeyMapGrowth(PartitionKeyRef key) const PARTSTORE_REQUIRES_SHARED(mu_);

  // Calls visit(const StoredKey&, const ItemCollection&) for every collection, in the map's slot
  // order (a snapshot's copy: no order needed, none built).
  template <typename Visit>
  void ForEach(Visit visit) const PARTSTORE_REQUIRES_SHARED(mu_) {
    for (const Entry& entry : map_) visit(entry.first, entry.second);
  }

  // Eviction's sampling: calls visit(const StoredKey&, const ItemCollection&) for up to `count`
  // collections from the one at `*cursor` on, in the map's own slot order (the hash table's: as
  // good as random, and unrelated to use), wrapping around, and leaves the cursor at the next one
  // to visit: one not sampled since the lap before, so evicting what was just sampled (the pool's
  // best candidate, as often as not) leaves the cursor in place. A cursor whose key is gone
  // (deleted, expired, or evicted after an earlier lap's sample) starts again at the first slot.
  // (It named the last collection visited until 2026-12: every eviction of that one sent the next
  // round back to the first slots, and at 2 MiB and more of items the nearest-expiry choice was no
  // better than chance.)
  template <typename Visit>
  void Sample(StoredKey* cursor, size_t count, Visit visit) const PARTSTORE_REQUIRES_SHARED(mu_) {
    if (map_.empty()) return;
    auto it = map_.find(cursor->ref());
    if (it == map_.end()) it = map_.begin();
    for (size_t i = 0; i < count && i < map_.size(); ++i) {
      visit(it->first, it->second);
      if (++it == map_.end()) it = map_.begin();
    }
    *cursor = it->first;
  }

  // Items, and the sum of their DynamoDB sizes (ItemSize, no per-item overhead).
  int64_t item_count() const PARTSTORE_REQUIRES_SHARED(mu_) { return item_count_; }
  int64_t size_bytes() const PARTSTORE_REQUIRES_SHARED(mu_) { return size_bytes_; }
  size_t partition_count() const PARTSTORE_REQUIRES_SHARED(mu_) { return map_.size(); }

 private:
  mutable Mutex mu_;
  MemoryAccount* account_ = nullptr;
  int64_t memory_bytes_ PARTSTORE_GUARDED_BY(mu_) = 0;
  // What an item's buffer adds when counted (its key's heap block, if any, the collection reports).
  static int64_t ItemBytes(const StoredItem& item, bool buffer);
  void CountMemory(int64_t delta) PARTSTORE_REQUIRES(mu_);
  int64_t item_count_ PARTSTORE_GUARDED_BY(mu_) = 0;
  int64_t size_bytes_ PARTSTORE_GUARDED_BY(mu_) = 0;
  // Where `key` is or would be in order_.
  std::vector<const Entry*>::iterator OrderPosition(PartitionKeyRef key) const
      PARTSTORE_REQUIRES(mu_);

  Map map_ PARTSTORE_GUARDED_BY(mu_);
  // A partition key was erased since the map last grew: the map may hold erased slots, and an
  // insert may then re-hash it in place (same capacity, entries moved), so a new partition key
  // invalidates order_ instead of keeping it in place (see Put).
  bool erased_since_growth_ PARTSTORE_GUARDED_BY(mu_) = false;
  // order_ is written under mu_ held exclusively, or shared together with order_mu_ (Ordered()).
  mutable std::mutex order_mu_;
  mutable std::vector<const Entry*> order_;
  mutable std::atomic<bool> order_valid_{false};  // built by the first scan
  // Partition keys added or removed in place since the last Ordered(); reset by readers (shared
  // lock, so atomic), counted by writers (exclusive lock).
  mutable std::atomic<uint32_t> writes_since_scan_{0};
  // Whether the next partition-key write keeps order_ in place (counting it), else invalidates it.
  bool KeepOrder() PARTSTORE_REQUIRES(mu_);
};

class StripeSet {
 public:
  // `count` is rounded up to a power of two (at least 1). Memory is reported to `account` (may be
  // null; Stripe::set_memory).
  explicit StripeSet(size_t count, std::shared_ptr<MemoryAccount> account = nullptr);
  // Gives the stripes' bytes back to the account.
  ~StripeSet();
  StripeSet(const StripeSet&) = delete;
  StripeSet& operator=(const StripeSet&) = delete;

  size_t size() const { return stripes_.size(); }
  int shift() const { return shift_; }
  size_t IndexOf(uint64_t hash) const {
    return shift_ >= 64 ? 0 : static_cast<size_t>(hash >> shift_);
  }
  Stripe& ForHash(uint64_t hash) { return *stripes_[IndexOf(hash)]; }
  const Stripe& ForHash(uint64_t hash) const { return *stripes_[IndexOf(hash)]; }
  Stripe& at(size_t index) { return *stripes_[index]; }
  const Stripe& at(size_t index) const { return *stripes_[index]; }
  // Items and their DynamoDB size summed over the stripes, each read under its shared lock.
  int64_t item_count() const { return Sum(&Stripe::item_count); }
  int64_t size_bytes() const { return Sum(&Stripe::size_bytes); }
  int64_t memory_bytes() const { return Sum(&Stripe::memory_bytes); }

  // The first hash stripe `index` covers.
  uint64_t FirstHash(size_t index) const {
    return shift_ >= 64 ? 0 : static_cast<uint64_t>(index) << shift_;
  }

 private:
  int64_t Sum(int64_t (Stripe::*counter)() const) const;

  int shift_ = 64;                          // 64 - log2(size)
  std::shared_ptr<MemoryAccount> account_;  // may be null
  std::vector<std::unique_ptr<Stripe>> stripes_;
};

}  // namespace partstore
