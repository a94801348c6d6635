#include "shard/item_collection.h"

#include <algorithm>
#include <cassert>
#include <iterator>
#include <optional>
#include <string>

#include "shard/memory_budget.h"

namespace partstore {
namespace {

using boost::container::ordered_unique_range;

template <typename It>
std::move_iterator<It> Moving(It it) {
  return std::make_move_iterator(it);
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
  other.BecomeEmpty();  // the source is left empty, as a moved-from flat_map is
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
  flat.emplace_hint(flat.end(), std::move(single_.first), std::move(single_.second));
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
    const std::string_view key = single_.first.view();
    return upper ? (key > sk ? Position{0, 0} : Position{1, 0})
                 : (key >= sk ? Position{0, 0} : Position{1, 0});
  }
  const size_t s = mode_ == kLarge ? Route(sk) : 0;
  const Segment& segment = segments()[s];
  const auto it = upper ? segment.upper_bound(sk) : segment.lower_bound(sk);
  const size_t index = it - segment.begin();
  // Past segment s's last key the answer is the first key of segment s + 1 (it is >= the
  // separator, which is > sk), or the end.
  if (index == segment.size()) return {s + 1, 0};
  return {s, index};
}

const StoredItem* ItemCollection::Find(std::string_view sk) const {
  if (mode_ == kSingle) return single_.first.view() == sk ? &single_.second : nullptr;
  const Segment& segment = mode_ == kLarge ? large_->segments[Route(sk)] : head_;
  const auto it = segment.find(sk);
  return it == segment.end() ? nullptr : &it->second;
}

std::pair<const StoredItem*, bool> ItemCollection::InsertOrAssign(std::string_view sk,
                                                                  StoredItem item,
                                                                  StoredItem* old) {
  assert(!item.empty());
  const size_t item_size = item.item_size();
  if (mode_ == kSingle) {
    if (single_.first.view() == sk) {
      total_size_ += item_size - single_.second.item_size();
      single_.second.swap(item);
      if (old != nullptr) *old = std::move(item);
      return {&single_.second, false};
    }
    LeaveSingle();
  } else if (mode_ == kFlat && head_.empty()) {
    // The first item: inline (what a flat_map's array held is given back). The key first: a long
    // one is allocated, and if that fails the collection is still its empty flat_map.
    SortKey key(sk);
    head_.~Segment();
    new (&single_) Element(std::move(key), std::move(item));
    mode_ = kSingle;
    total_size_ += item_size;
    return {&single_.second, true};
  }
  size_t s = mode_ == kLarge ? Route(sk) : 0;
  Segment* segment = &segments()[s];
  auto it = segment->lower_bound(sk);
  if (it != segment->end() && it->first.view() == sk) {
    total_size_ += item_size - it->second.item_size();
    it->second.swap(item);
    if (old != nullptr) *old = std::move(item);
    return {&it->second, false};
  }
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
  it = segment->emplace_hint(segment->begin() + index, SortKey(sk), std::move(item));
  if (mode_ == kLarge) ++large_->size;
  total_size_ += item_size;
  return {&it->second, true};
}

bool ItemCollection::Erase(std::string_view sk, StoredItem* old) {
  if (mode_ == kSingle) {
    if (single_.first.view() != sk) return false;
    total_size_ -= single_.second.item_size();
    if (old != nullptr) *old = std::move(single_.second);
    BecomeEmpty();
    return true;
  }
  const size_t s = mode_ == kLarge ? Route(sk) : 0;
  Segment& segment = segments()[s];
  const auto it = segment.find(sk);
  if (it == segment.end()) return false;
  total_size_ -= it->second.item_size();
  if (old != nullptr) *old = std::move(it->second);
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
  Segment::sequence_type whole = segments[s].extract_sequence();
  const size_t half = whole.size() / 2;
  const size_t capacity = FittedCapacity(whole.size() - half + half / 4 + 1, max_segment_);
  Segment::sequence_type lower;
  Segment::sequence_type upper;
  lower.reserve(capacity);
  upper.reserve(capacity);
  lower.insert(lower.end(), Moving(whole.begin()), Moving(whole.begin() + half));
  upper.insert(upper.end(), Moving(whole.begin() + half), Moving(whole.end()));
  segments[s].adopt_sequence(ordered_unique_range, std::move(lower));
  Segment right;
  right.adopt_sequence(ordered_unique_range, std::move(upper));
  large_->separators.insert(large_->separators.begin() + s, std::string(right.begin()->first));
  segments.insert(segments.begin() + s + 1, std::move(right));
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
  auto reserve = [this](Segment::sequence_type& seq, size_t n) {
    if (seq.capacity() < n) seq.reserve(FittedCapacity(n + n / 4, max_segment_));
  };

  if (total <= max_segment_ / 4 * 3) {
    // Merge: the result has room for a quarter of a segment before it splits again.
    Segment::sequence_type merged = left.extract_sequence();
    reserve(merged, total);
    merged.insert(merged.end(), Moving(right.begin()), Moving(right.end()));
    left.adopt_sequence(ordered_unique_range, std::move(merged));
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
    Segment::sequence_type seq = left.extract_sequence();
    reserve(seq, left_target);
    seq.insert(seq.end(), Moving(right.begin()), Moving(right.begin() + k));
    left.adopt_sequence(ordered_unique_range, std::move(seq));
    right.erase(right.begin(), right.begin() + k);
  } else {
    const size_t k = left.size() - left_target;
    Segment::sequence_type seq = right.extract_sequence();
    reserve(seq, seq.size() + k);
    seq.insert(seq.begin(), Moving(left.begin() + left_target), Moving(left.end()));
    right.adopt_sequence(ordered_unique_range, std::move(seq));
    left.erase(left.begin() + left_target, left.end());
  }
  separators[r - 1] = std::string(right.begin()->first);
}

size_t ItemCollection::ContainerBytes() const {
  constexpr size_t kElement = sizeof(Segment::value_type);
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
    return !single_.second.empty() && single_.second.item_size() == total_size_;
  }
  uint64_t total = 0;
  size_t count = 0;
  std::optional<std::string_view> previous;
  for (size_t s = 0; s < segment_count(); ++s) {
    const Segment& segment = segments()[s];
    if (segment.size() > max_segment_ || segment.capacity() > max_segment_) return false;
    if (mode_ == kLarge) {
      if (segment.empty() || segment.size() < min_segment_size()) return false;
      if (s > 0 && segment.begin()->first.view() < large_->separators[s - 1]) return false;
      if (s + 1 < segment_count() && !(segment.rbegin()->first.view() < large_->separators[s])) {
        return false;
      }
    }
    for (const auto& [key, item] : segment) {
      if (previous && !(*previous < key.view())) return false;
      previous = key.view();
      if (item.empty()) return false;
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
