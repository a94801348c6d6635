// ItemCollection: the items of one partition key, sorted by encoded sort key.
//
// Keys are encoded sort keys (core/key_encoding.h): byte strings ordered as std::string orders
// them (unsigned bytes, a prefix before its extensions). A hash-only table stores each item in a
// collection of its own, under the empty key.
//
// Layout, and why (figures: shared/reference/machine-limits.md; BM_Collection_* and
// BM_SegmentSizeSweep_* in bench/item_collection_benchmark.cc, CPU time, same run):
//   - One item is held inline, in this object (so in the stripe's hash-map slot): a lookup in a
//     hash-only table, where every collection holds one item, reads the slot and then the item,
//     with no array between them (one dependent cache miss fewer), and no heap block is allocated
//     for it. A second key turns it into a sorted array; the collection becomes inline again only
//     when it has emptied.
//   - Up to `max_segment_size` items (default 512) the collection is one sorted array (a
//     boost::container::vector of elements): contiguous and binary-searched, so small collections
//     keep a flat map's lookups and scans, with no segment index.
//   - Past that it is an ordered sequence of sorted-array *segments* of at most `max_segment_size`
//     items, routed by a sorted vector of separator keys. An insert moves at most one segment's
//     elements, so its cost stops growing with the collection: one insert + one erase at 100k
//     items costs ~200 us in a single sorted array (each moves half the array) and ~1.5-3 us here.
//     A full segment splits in two; one that falls below a quarter full merges with its smaller
//     neighbour, or takes items from it when the two would not fit in three quarters of a
//     segment, so neither threshold can be crossed back and forth by one insert and one erase.
//     A collection whose last two segments merge is one sorted array again.
//   - Segment size: insert + erase grows with it (at 100k items: 1.9 / 2.3 / 2.9 / 4.4 us for
//     256 / 512 / 1024 / 2048), while lookups and 10-item scans do not measurably change from 256
//     to 4096 (at 100k both stay within run-to-run noise of a single sorted array; at 128 the
//     separator search began to show). 512 takes most of the insert gain and keeps the
//     separator index small (about 300 keys at 100k items).
//   - Alternatives: a node-based tree (std::map) pays a cache miss per level on lookups (1.6 us
//     vs 1.25 us at 1M keys) and per item on scans; storing items by pointer in one sorted array
//     only cuts the move cost by about a third, not the O(n) growth.
//
// Items. The collection holds StoredItems (partstore/stored_item.h): reference-counted buffers, 8
// bytes per element beside the key (a CollectionKey, shard/collection_key.h: 8 bytes, the key's
// bytes borrowed from the item when they are its own sort key attribute's, else up to 6 inline or
// a heap block). A write replaces an item's handle, or (UpdateItem, when the collection's handle is
// the only one) writes a change of the same layout into its bytes; so a reader that copied a handle
// (one atomic increment) under the lock may read the item after releasing the lock, and keeps
// reading the version it took.
//
// Invalidation. StoredItem* (from Find, InsertOrAssign or a cursor) and cursors stay valid until
// the next InsertOrAssign that inserts a new key, Erase, clear() or assignment to the collection:
// those may move elements between and within segments. InsertOrAssign of a key that is already
// present replaces the handle in place and invalidates no position. Moving an ItemCollection
// invalidates cursors into it and StoredItem* into it (a one-item collection's item moves with
// the object; so a stripe's pointers last only until it adds a partition key, shard/stripe.h);
// copying one leaves the source's pointers and cursors valid (the copy shares the buffers). A
// cursor's Seek* methods re-read the collection, so a cursor may be repositioned with a Seek*
// after a mutation; its other methods require that nothing was mutated since the last Seek*.
//
// Total size. total_size() is the sum of DynamoDB's ItemSize (partstore/item.h, no 100-byte
// overhead) of the items, kept on every mutation from the size each StoredItem carries in its
// header.
//
// Thread safety: not thread-safe. The owning stripe's reader/writer lock protects it: const
// methods and cursors under the shared lock, mutations under the exclusive lock. Pointers and
// cursors must not outlive the lock they were obtained under; StoredItem copies may.
#pragma once

#include <atomic>
#include <boost/container/vector.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "partstore/stored_item.h"
#include "shard/collection_key.h"

namespace partstore {

struct ItemCollectionOptions {
  static constexpr size_t kDefaultMaxSegmentSize = 512;
  // Items per segment, and the size up to which the collection is a single sorted array. The
  // default is measured (see above); tests use small values to cross the thresholds often.
  size_t max_segment_size = kDefaultMaxSegmentSize;
};

class ItemCollection {
 public:
  using Options = ItemCollectionOptions;
  static constexpr size_t kDefaultMaxSegmentSize = ItemCollectionOptions::kDefaultMaxSegmentSize;
  // Smaller segments are rounded up to this (a quarter of a segment must be at least one item).
  static constexpr size_t kMinMaxSegmentSize = 4;
  // Larger ones are rounded down to this (30 bits).
  static constexpr size_t kMaxMaxSegmentSize = (size_t{1} << 30) - 1;

  // A position in the collection, moving in either direction.
  class Cursor;

  ItemCollection() : ItemCollection(Options{}) {}
  explicit ItemCollection(Options options);
  ItemCollection(const ItemCollection& other);
  ItemCollection& operator=(const ItemCollection& other);
  ItemCollection(ItemCollection&& other) noexcept;
  ItemCollection& operator=(ItemCollection&& other) noexcept;
  ~ItemCollection();

  size_t size() const {
    return mode_ == kSingle ? 1 : mode_ == kLarge ? large_->size : head_.size();
  }
  bool empty() const { return size() == 0; }
  // Sum of ItemSize over the items.
  uint64_t total_size() const { return total_size_; }

  // The item stored under `sk`, or null. Allocates nothing.
  const StoredItem* Find(std::string_view sk) const;

  // Stores `item` (REQUIRES: not empty) under `sk`, replacing the item there if any. Returns the
  // stored item and whether `sk` was new. When an item was replaced and `old` is not null, the
  // previous item is moved into *old (PutItem's ALL_OLD needs no second lookup); *old is untouched
  // when `sk` was new. When `sk` lies inside `item`'s encoding, the key borrows those bytes
  // (shard/collection_key.h): they must be the item's own sort key attribute's, which no write
  // changes in place. When `key_heap` is not null, the change in what keys hold on the heap
  // (HeapBytes of each owned key) is added to it.
  std::pair<const StoredItem*, bool> InsertOrAssign(std::string_view sk, StoredItem item,
                                                    StoredItem* old = nullptr,
                                                    int64_t* key_heap = nullptr);

  // Removes the item under `sk`; returns whether there was one. When `old` is not null the removed
  // item is moved into it; when `key_heap` is not null, what its key held on the heap is
  // subtracted from it.
  bool Erase(std::string_view sk, StoredItem* old = nullptr, int64_t* key_heap = nullptr);

  void clear();

  // A cursor, unpositioned (not valid()) until a Seek*.
  Cursor NewCursor() const;
  // Cursors at the first item with key >= sk / > sk (not valid() when there is none).
  Cursor LowerBound(std::string_view sk) const;
  Cursor UpperBound(std::string_view sk) const;

  // Bytes held by the container's own structure: this object, element arrays (by capacity),
  // separator keys and the segment index; not what keys and item buffers allocate themselves.
  // For memory accounting and benchmarks.
  size_t ContainerBytes() const;
  // When the collection was last used, on the memory budget's access clock (eviction's LRU;
  // shard/memory_budget.h), 0 when never stamped. Touch may be called under the stripe's shared
  // lock by concurrent readers (an atomic store; the last one wins). A tick of 0 is ignored.
  void Touch(uint32_t tick) const {
    if (tick != 0) std::atomic_ref<uint32_t>(last_used_).store(tick, std::memory_order_relaxed);
  }
  uint32_t last_used() const {
    return std::atomic_ref<uint32_t>(last_used_).load(std::memory_order_relaxed);
  }

  // What the collection's arrays hold on the heap, for the memory count (shard/memory_budget.h),
  // in O(1): exact (by capacity) while the collection is one sorted array; past that, its items'
  // elements with a third more for the segments' unused capacity, and each segment's share of
  // the index. The count is kept as differences of this figure before and after each change, so
  // it always equals the sum over the current collections (ContainerBytes is exact but walks the
  // segments: a third more per insert at 100k items).
  size_t MemoryBytes() const {
    constexpr size_t kElement = sizeof(Element);
    if (mode_ == kSingle) return 0;
    if (mode_ == kFlat) return head_.capacity() * kElement;
    return large_->size * kElement * 4 / 3 +
           large_->segments.size() * (sizeof(Segment) + sizeof(std::string) + 32) + sizeof(Large);
  }

  // Moves every item handle out into `out` (the keys stay, each with an empty handle): what a
  // collection being destroyed does, so that the buffers can be released in address order.
  void TakeItems(std::vector<StoredItem>& out) {
    if (mode_ == kSingle) {
      out.push_back(std::move(single_.item));
      return;
    }
    for (size_t s = 0; s < segment_count(); ++s) {
      for (Element& element : segments()[s]) out.push_back(std::move(element.item));
    }
  }

  // Number of sorted-array segments (1 while the collection is a single sorted array). For tests
  // and statistics.
  size_t segment_count() const { return mode_ == kLarge ? large_->segments.size() : 1; }
  // Elements segment `s` has room for (0 while the one item is inline). For tests.
  size_t segment_capacity(size_t s) const {
    return mode_ == kSingle ? 0 : segments()[s].capacity();
  }
  // Whether the one item is held inline (see Layout). For tests and statistics.
  bool inline_item() const { return mode_ == kSingle; }
  size_t max_segment_size() const { return max_segment_; }

  // Checks the structure's invariants (order, segment bounds, separators, counts, total size);
  // returns false on the first violation. O(n): for tests.
  bool CheckInvariants() const;

  // The capacity a full array of `size` elements grows to on an insert: as many as fill the
  // allocator's next size class up, at most `max_segment`. A 31-item collection holds 32
  // elements in 1,024 bytes, where growth by half held 42 in a 1,536-byte block (bench/README.md,
  // "Arrays that fill their size class"). Splits and merges size their arrays the same way
  // (FittedCapacity).
  static size_t GrownCapacity(size_t size, size_t max_segment);
  // The capacity of the smallest size class that holds `n` elements, at most `max_segment`.
  static size_t FittedCapacity(size_t n, size_t max_segment);

  // An element: the key and the item's handle, 16 bytes.
  struct Element {
    CollectionKey key;
    StoredItem item;
  };
  static constexpr size_t kElementBytes = sizeof(Element);
  static_assert(kElementBytes == 16);

 private:
  // A sorted array of elements, unique keys (a flat map whose keys may live in its items).
  using Segment = boost::container::vector<Element>;

  // A collection past max_segment_size items.
  struct Large {
    // Ordered, each non-empty, at most max_segment_size items, and (when there are two or more)
    // at least a quarter of that.
    std::vector<Segment> segments;
    // separators[i] is the smallest key segment i + 1 may hold; every key of segment i is below it.
    // Strictly increasing; one fewer than segments.
    std::vector<std::string> separators;
    size_t size = 0;
  };

  // Index of an element: segment, then position within it. {segment_count, 0} is the end.
  struct Position {
    size_t segment;
    size_t index;
  };

  // REQUIRES: mode_ != kSingle.
  Segment* segments() { return mode_ == kLarge ? large_->segments.data() : &head_; }
  const Segment* segments() const { return mode_ == kLarge ? large_->segments.data() : &head_; }
  // Ends the current form's member (its items go with it).
  void Destroy();
  // Destroy(), then an empty sorted array (the moved-from and cleared state).
  void BecomeEmpty();
  // From the inline item to a sorted array holding it (before a second key is inserted).
  void LeaveSingle();
  // The segment that holds, or would hold, `sk`.
  size_t Route(std::string_view sk) const;
  // Position of the first element >= sk (or > sk when `upper`), normalized (never one past a
  // segment's last element unless it is the end).
  Position Bound(std::string_view sk, bool upper) const;
  // Splits full segment `s` into two halves (entering segmented mode when needed).
  void Split(size_t s);
  // Restores the lower bound of segment `s` after an erase left it under a quarter full.
  void Rebalance(size_t s);
  size_t min_segment_size() const { return max_segment_ / 4; }

  // Which member of the union holds the items. 40 bytes in all: the union is a Segment's 24.
  enum Mode : uint32_t { kFlat, kSingle, kLarge };
  union {
    Segment head_;    // kFlat: every item (none, or more than one, or one left after erases)
    Element single_;  // kSingle: the one item, inline
    Large* large_;    // kLarge: the segments (owned)
  };
  uint64_t total_size_ = 0;
  uint32_t max_segment_ : 30;
  uint32_t mode_ : 2 = kFlat;
  // The LRU stamp (see last_used()); in what was max_segment_'s padding.
  mutable uint32_t last_used_ = 0;
};

class ItemCollection::Cursor {
 public:
  explicit Cursor(const ItemCollection* collection) : collection_(collection) { Reset(); }

  bool valid() const { return segment_ < segment_count_; }

  // Positioning; each re-reads the collection (see "Invalidation" above).
  void SeekToFirst() { SeekTo({0, 0}); }
  void SeekToLast() {
    Reset();
    Prev();
  }
  // To the first item with key >= sk.
  void Seek(std::string_view sk) { SeekTo(collection_->Bound(sk, /*upper=*/false)); }
  // To the first item with key > sk (forward paging after an exclusive start key).
  void SeekAfter(std::string_view sk) { SeekTo(collection_->Bound(sk, /*upper=*/true)); }
  // To the last item with key <= sk.
  void SeekForPrev(std::string_view sk) {
    SeekAfter(sk);
    Prev();
  }
  // To the last item with key < sk (backward paging after an exclusive start key).
  void SeekBefore(std::string_view sk) {
    Seek(sk);
    Prev();
  }

  // REQUIRES: valid(). Past the last item the cursor becomes not valid().
  void Next() {
    if (++index_ == SegmentSize(segment_)) {
      ++segment_;
      index_ = 0;
    }
  }
  // Before the first item the cursor becomes not valid(); from not valid() it moves to the last
  // item (as --end() does), if there is one.
  void Prev() {
    if (index_ > 0) {
      --index_;
      return;
    }
    segment_ = segment_ == 0 ? segment_count_ : segment_ - 1;
    if (segment_ < segment_count_ && SegmentSize(segment_) != 0) {
      index_ = SegmentSize(segment_) - 1;
    } else {
      segment_ = segment_count_;  // only an empty collection has an empty segment
    }
  }

  // REQUIRES: valid().
  std::string_view key() const { return element().key.view(); }
  const StoredItem& item() const { return element().item; }

 private:
  friend class ItemCollection;

  const Element& element() const {
    return single_ != nullptr ? *single_ : *(segments_[segment_].begin() + index_);
  }
  size_t SegmentSize(size_t s) const { return single_ != nullptr ? 1 : segments_[s].size(); }
  void Reset() {
    if (collection_->mode_ == kSingle) {
      single_ = &collection_->single_;
      segments_ = nullptr;
    } else {
      single_ = nullptr;
      segments_ = collection_->segments();
    }
    segment_count_ = collection_->segment_count();
    segment_ = segment_count_;
    index_ = 0;
  }
  void SeekTo(Position p) {
    Reset();
    if (p.segment < segment_count_ && p.index < SegmentSize(p.segment)) {
      segment_ = p.segment;
      index_ = p.index;
    }
  }

  const ItemCollection* collection_;
  const Element* single_ = nullptr;  // an inline item's collection: its item
  const Segment* segments_ = nullptr;
  size_t segment_count_ = 0;
  size_t segment_ = 0;  // == segment_count_ when not valid()
  size_t index_ = 0;
};

inline ItemCollection::Cursor ItemCollection::NewCursor() const { return Cursor(this); }
inline ItemCollection::Cursor ItemCollection::LowerBound(std::string_view sk) const {
  Cursor c(this);
  c.Seek(sk);
  return c;
}
inline ItemCollection::Cursor ItemCollection::UpperBound(std::string_view sk) const {
  Cursor c(this);
  c.SeekAfter(sk);
  return c;
}

}  // namespace partstore
