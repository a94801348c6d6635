#include "shard/item_collection.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <optional>
#include <string>

#include "shard/memory_budget.h"

namespace partstore {
namespace {

template <typename It>
std::move_iterator<It> Moving(It it) {
  return std::make_move_iterator(it);
}

// The first element of `a` whose key is >= k (or > k when `upper`), by the keys' bytes
// (unsigned, a prefix first). A key's bytes are mostly not in the array (a table's are in the
// items, an index entry's in a heap block), so each comparison of a plain binary search would wait
// for a cache miss in turn. This one asks for them ahead: every key of a short array at once, and
// in a longer one, at each step, the two keys the next step may compare (bench/README.md, "Keys
// read from the items").
template <bool kUpper, typename Array>
auto ElementBound(Array& a, std::string_view k) {
  constexpr size_t kPrefetchAll = 16;
  auto first = a.begin();
  size_t n = a.size();
  if (n <= kPrefetchAll) {
    for (auto p = first; p != a.end(); ++p) p->key.Prefetch();
  }
  while (n > 0) {
    const size_t half = n / 2;
    if (n > kPrefetchAll) {
      (first + half / 2)->key.Prefetch();
      (first + half + 1 + (n - half - 1) / 2)->key.Prefetch();
    }
    const auto mid = first + half;
    const std::string_view key = mid->key.view();
    if (kUpper ? !(k < key) : key < k) {
      first = mid + 1;
      n -= half + 1;
    } else {
      n = half;
    }
  }
  return first;
}
template <typename Array>
auto ElementLowerBound(Array& a, std::string_view k) {
  return ElementBound<false>(a, k);
}
template <typename Array>
auto ElementUpperBound(Array& a, std::string_view k) {
  return ElementBound<true>(a, k);
}
// The element of key `k`, or a.end().
template <typename Array>
auto FindIn(Array& a, std::string_view k) {
  const auto it = ElementLowerBound(a, k);
  return it != a.end() && it->key.view() == k ? it : a.end();
}

// What an element's key holds on the heap.
int64_t KeyHeap(const CollectionKey& key) {
  return key.owned() ? static_cast<int64_t>(HeapBytes(CollectionKey::HeapLength(key.view().size())))
                     : 0;
}

}  // namespace

size_t ItemCollection::FittedCapacity(size_t n, size_t max_segment) {
  // HeapBytes: jemalloc's size classes (16-byte steps up to 128 bytes, then four classes in each
  // doubling), which the partstore program links. Under glibc's malloc, whose blocks are 16-byte
  // steps, the arrays are the same sizes and carry a little spare capacity no allocator rounded.
  return std::min(max_segment, HeapBytes(n * kElementBytes) / kElementBytes);
}

size_t ItemCollection::GrownCapacity(size_t size, size_t max_segment) {
  // The next size class up: the array holds what the allocator gives for it anyway, and from a
  // whole class it grows by 14-25% (four classes in each doubling), still geometrically.
  return FittedCapacity(size + 1, max_segment);
}

ItemCollection::ItemCollection(Options options)
    : head_(),
      max_segment_(static_cast<uint32_t>(
          std::clamp<size_t>(options.max_segment_size, kMinMaxSegmentSize, kMaxMaxSegmentSize))) {}

ItemCollection::ItemCollection(const ItemCollection& other)
    : total_size_(other.total_size_),
      max_segment_(other.max_segment_),
      mode_(other.mode_),
      last_used_(other.last_used()) {
  switch (mode_) {
    case kFlat:
      new (&head_) Segment(other.head_);
      break;
    case kSingle:
      new (&single_) Element(other.single_);
      break;
    default:
      large_ = new Large(*other.large_);
      break;
  }
}

ItemCollection& ItemCollection::operator=(const ItemCollection& other) {
  if (this != &other) *this = ItemCollection(other);
  return *this;
}

ItemCollection::ItemCollection(ItemCollection&& other) noexcept
    : total_size_(std::exchange(other.total_size_, 0)),
      max_segment_(other.max_segment_),
      mode_(other.mode_),
      last_used_(other.last_used_) {
  switch (mode_) {
    case kFlat:
      new (&head_) Segment(std::move(other.head_));  // leaves the source's empty
      return;
    case kSingle:
      new (&single_) Element(std::move(other.single_));
      break;
    default:
      large_ = std::exchange(other.large_, nullptr);
      other.mode_ = kFlat;  // nothing of the source's is left to destroy
      new (&other.head_) Segment();
      return;
  }
  other.BecomeEmpty();  // the source is left empty, as a moved-from vector is
}

ItemCollection& ItemCollection::operator=(ItemCollection&& other) noexcept {
  if (this != &other) {
    this->~ItemCollection();
    new (this) ItemCollection(std::move(other));
  }
  return *this;
}

ItemCollection::~ItemCollection() { Destroy(); }

void ItemCollection::Destroy() {
  switch (mode_) {
    case kFlat:
      head_.~Segment();
      break;
    case kSingle:
      single_.~Element();
      break;
    default:
      delete large_;
      break;
  }
}

void ItemCollection::BecomeEmpty() {
  Destroy();
  new (&head_) Segment();
  mode_ = kFlat;
}

void ItemCollection::LeaveSingle() {
  // The array first: if it cannot be allocated, the collection is still its inline item.
  Segment flat;
  flat.reserve(2);
  flat.push_back(std::move(single_));
  Destroy();
  new (&head_) Segment(std::move(flat));
  mode_ = kFlat;
}

size_t ItemCollection::Route(std::string_view sk) const {
  const std::vector<std::string>& separators = large_->separators;
  return std::upper_bound(separators.begin(), separators.end(), sk, std::less<>()) -
         separators.begin();
}

ItemCollection::Position ItemCollection::Bound(std::string_view sk, bool upper) const {
  if (mode_ == kSingle) {
    const std::string_view key = single_.key.view();
    return upper ? (key > sk ? Position{0, 0} : Position{1, 0})
                 : (key >= sk ? Position{0, 0} : Position{1, 0});
  }
  const size_t s = mode_ == kLarge ? Route(sk) : 0;
  const Segment& segment = segments()[s];
  const auto it = upper ? ElementUpperBound(segment, sk) : ElementLowerBound(segment, sk);
  const size_t index = it - segment.begin();
  // Past segment s's last key the answer is the first key of segment s + 1 (it is >= the
  // separator, which is > sk), or the end.
  if (index == segment.size()) return {s + 1, 0};
  return {s, index};
}

const StoredItem* ItemCollection::Find(std::string_view sk) const {
  if (mode_ == kSingle) return single_.key.view() == sk ? &single_.item : nullptr;
  const Segment& segment = mode_ == kLarge ? large_->segments[Route(sk)] : head_;
  const auto it = FindIn(segment, sk);
  return it == segment.end() ? nullptr : &it->item;
}

std::pair<const StoredItem*, bool> ItemCollection::InsertOrAssign(std::string_view sk,
                                                                  StoredItem item, StoredItem* old,
                                                                  int64_t* key_heap) {
  assert(!item.empty());
  const size_t item_size = item.item_size();
  // Replaces the element's item and its key (which may borrow the old item's bytes, and then
  // borrows the new one's, or is a copy).
  auto replace = [&](Element& element) {
    CollectionKey key(sk, item);
    if (key_heap != nullptr) *key_heap += KeyHeap(key) - KeyHeap(element.key);
    total_size_ += item_size - element.item.item_size();
    element.key.swap(key);
    element.item.swap(item);
    if (old != nullptr) *old = std::move(item);
    return std::pair<const StoredItem*, bool>(&element.item, false);
  };
  if (mode_ == kSingle) {
    if (single_.key.view() == sk) return replace(single_);
    LeaveSingle();
  } else if (mode_ == kFlat && head_.empty()) {
    // The first item: inline (what the array held is given back). The key first: a long one is
    // allocated, and if that fails the collection is still its empty array.
    CollectionKey key(sk, item);
    if (key_heap != nullptr) *key_heap += KeyHeap(key);
    head_.~Segment();
    new (&single_) Element{std::move(key), std::move(item)};
    mode_ = kSingle;
    total_size_ += item_size;
    return {&single_.item, true};
  }
  size_t s = mode_ == kLarge ? Route(sk) : 0;
  Segment* segment = &segments()[s];
  auto it = ElementLowerBound(*segment, sk);
  if (it != segment->end() && it->key.view() == sk) return replace(*it);
  size_t index = it - segment->begin();
  if (segment->size() >= max_segment_) {
    const size_t half = segment->size() / 2;  // as Split divides it
    Split(s);
    // The left half keeps [0, half): a key that sorts before the new separator (the element at
    // `half`) goes to its end.
    if (index > half) {
      ++s;
      index -= half;
    }
    segment = &large_->segments[s];
  }
  // Grow into the next whole size class (14-25% from a whole class) rather than by boost's 60%,
  // never past a segment.
  if (segment->size() == segment->capacity()) {
    segment->reserve(GrownCapacity(segment->size(), max_segment_));
  }
  CollectionKey key(sk, item);
  if (key_heap != nullptr) *key_heap += KeyHeap(key);
  it = segment->insert(segment->begin() + index, Element{std::move(key), std::move(item)});
  if (mode_ == kLarge) ++large_->size;
  total_size_ += item_size;
  return {&it->item, true};
}

bool ItemCollection::Erase(std::string_view sk, StoredItem* old, int64_t* key_heap) {
  if (mode_ == kSingle) {
    if (single_.key.view() != sk) return false;
    total_size_ -= single_.item.item_size();
    if (key_heap != nullptr) *key_heap -= KeyHeap(single_.key);
    if (old != nullptr) *old = std::move(single_.item);
    BecomeEmpty();
    return true;
  }
  const size_t s = mode_ == kLarge ? Route(sk) : 0;
  Segment& segment = segments()[s];
  const auto it = FindIn(segment, sk);
  if (it == segment.end()) return false;
  total_size_ -= it->item.item_size();
  if (key_heap != nullptr) *key_heap -= KeyHeap(it->key);
  if (old != nullptr) *old = std::move(it->item);
  segment.erase(it);
  if (mode_ == kLarge) {
    --large_->size;
    if (segment.size() < min_segment_size()) Rebalance(s);
  }
  return true;
}

void ItemCollection::clear() {
  BecomeEmpty();
  total_size_ = 0;
}

void ItemCollection::Split(size_t s) {
  if (mode_ == kFlat) {
    auto large = std::make_unique<Large>();
    large->size = head_.size();
    large->segments.reserve(4);
    large->segments.push_back(std::move(head_));
    head_.~Segment();
    large_ = large.release();
    mode_ = kLarge;
  }
  std::vector<Segment>& segments = large_->segments;
  // Both halves get fresh arrays with a quarter to spare, rounded up to a whole size class: the
  // old one was full, and one of the halves takes the insert that caused the split.
  Segment whole = std::move(segments[s]);
  const size_t half = whole.size() / 2;
  const size_t capacity = FittedCapacity(whole.size() - half + half / 4 + 1, max_segment_);
  Segment lower;
  Segment upper;
  lower.reserve(capacity);
  upper.reserve(capacity);
  lower.insert(lower.end(), Moving(whole.begin()), Moving(whole.begin() + half));
  upper.insert(upper.end(), Moving(whole.begin() + half), Moving(whole.end()));
  segments[s] = std::move(lower);
  large_->separators.insert(large_->separators.begin() + s, std::string(upper.begin()->key.view()));
  segments.insert(segments.begin() + s + 1, std::move(upper));
}

void ItemCollection::Rebalance(size_t s) {
  std::vector<Segment>& segments = large_->segments;
  std::vector<std::string>& separators = large_->separators;
  size_t neighbour;
  if (s == 0) {
    neighbour = 1;
  } else if (s + 1 == segments.size()) {
    neighbour = s - 1;
  } else {
    neighbour = segments[s - 1].size() <= segments[s + 1].size() ? s - 1 : s + 1;
  }
  const size_t l = std::min(s, neighbour);
  const size_t r = std::max(s, neighbour);
  Segment& left = segments[l];
  Segment& right = segments[r];
  const size_t total = left.size() + right.size();
  auto reserve = [this](Segment& seq, size_t n) {
    if (seq.capacity() < n) seq.reserve(FittedCapacity(n + n / 4, max_segment_));
  };

  if (total <= max_segment_ / 4 * 3) {
    // Merge: the result has room for a quarter of a segment before it splits again.
    reserve(left, total);
    left.insert(left.end(), Moving(right.begin()), Moving(right.end()));
    segments.erase(segments.begin() + r);
    separators.erase(separators.begin() + (r - 1));
    if (segments.size() == 1) {
      Segment only = std::move(segments[0]);
      delete large_;
      new (&head_) Segment(std::move(only));
      mode_ = kFlat;
    }
    return;
  }

  // Even out: each ends with more than 3/8 of a segment, far from both thresholds.
  const size_t left_target = total / 2;
  if (left.size() < left_target) {
    const size_t k = left_target - left.size();
    reserve(left, left_target);
    left.insert(left.end(), Moving(right.begin()), Moving(right.begin() + k));
    right.erase(right.begin(), right.begin() + k);
  } else {
    const size_t k = left.size() - left_target;
    reserve(right, right.size() + k);
    right.insert(right.begin(), Moving(left.begin() + left_target), Moving(left.end()));
    left.erase(left.begin() + left_target, left.end());
  }
  separators[r - 1] = std::string(right.begin()->key.view());
}

size_t ItemCollection::ContainerBytes() const {
  constexpr size_t kElement = sizeof(Element);
  // Heap bytes of a std::string (libstdc++ keeps up to 15 bytes inline).
  auto string_heap = [](const std::string& s) { return s.capacity() > 15 ? s.capacity() + 1 : 0; };
  if (mode_ == kSingle) return sizeof(*this);
  if (mode_ == kFlat) return sizeof(*this) + head_.capacity() * kElement;
  size_t bytes = sizeof(*this);
  {
    bytes += sizeof(Large) + large_->segments.capacity() * sizeof(Segment) +
             large_->separators.capacity() * sizeof(std::string);
    for (const Segment& segment : large_->segments) bytes += segment.capacity() * kElement;
    for (const std::string& separator : large_->separators) bytes += string_heap(separator);
  }
  return bytes;
}

bool ItemCollection::CheckInvariants() const {
  if (mode_ == kSingle) {
    return !single_.item.empty() && single_.item.item_size() == total_size_ &&
           (!single_.key.borrowed() || CollectionKey::Borrowable(single_.key, single_.item));
  }
  uint64_t total = 0;
  size_t count = 0;
  std::optional<std::string_view> previous;
  for (size_t s = 0; s < segment_count(); ++s) {
    const Segment& segment = segments()[s];
    if (segment.size() > max_segment_ || segment.capacity() > max_segment_) return false;
    if (mode_ == kLarge) {
      if (segment.empty() || segment.size() < min_segment_size()) return false;
      if (s > 0 && segment.begin()->key.view() < large_->separators[s - 1]) return false;
      if (s + 1 < segment_count() && !(segment.rbegin()->key.view() < large_->separators[s])) {
        return false;
      }
    }
    for (const auto& [key, item] : segment) {
      if (previous && !(*previous < key.view())) return false;
      previous = key.view();
      if (item.empty()) return false;
      // A borrowed key lies inside its own item's encoding.
      if (key.borrowed() && !CollectionKey::Borrowable(key, item)) return false;
      total += item.item_size();
      ++count;
    }
  }
  if (mode_ == kLarge) {
    if (large_->segments.size() < 2) return false;
    if (large_->separators.size() + 1 != large_->segments.size()) return false;
  }
  return count == size() && total == total_size_;
}

}  // namespace partstore
