// StoredItem: an item as the engine keeps it — one contiguous, immutable, reference-counted
// buffer in a compact binary encoding — and the views that read it without building a tree.
//
// The request type `Item` (partstore/item.h) is a tree of heap blocks: every attribute a map node,
// every string over 15 bytes its own allocation. A StoredItem holds the same attributes in one
// allocation, encoded once when the item is written; copying a StoredItem copies a pointer (one
// atomic increment), so a reader can take the item under a stripe's lock and read it after
// releasing the lock, and a GSI with an ALL projection can share the base item's buffer.
//
// The byte layout is an implementation detail and may change; readers use the views.
//
// Views (ValueView, MapView, ListView, SetView) point into a buffer and are valid, unchanging,
// while the caller holds a StoredItem of that buffer (the engine's own handle does not count: see
// Thread safety); they never allocate except to build a Value or Number.
//
// Thread safety: a StoredItem is immutable to whoever holds it; copies may be made, read and
// destroyed from any thread concurrently (the reference count is atomic). The one exception is the
// engine's own: a writer that holds a buffer's only reference, under its stripe's exclusive lock,
// may write a change that keeps the layout into it (UpdateItem, core/stored_item_patch.h). No one
// else can be reading it then, and a reader that takes a reference makes the next write a copy.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/item.h"
#include "partstore/number.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore {

class MapView;
class ListView;
class SetView;
class ValueView;

namespace stored_item_internal {
inline void ReadValueInto(const char*& p, ValueView& out);
}  // namespace stored_item_internal

// One encoded value. Default-constructed: NULL.
class ValueView {
 public:
  ValueView() = default;

  Type type() const { return type_; }
  bool is(Type t) const { return type_ == t; }

  // REQUIRES: the value has that type.
  std::string_view as_string() const { return payload_; }    // S
  std::string_view as_binary() const { return payload_; }    // B
  std::string_view number_text() const { return payload_; }  // N: canonical decimal text
  Number as_number() const;                                  // N
  bool as_bool() const { return !payload_.empty() && payload_[0] != 0; }  // BOOL
  MapView as_map() const;                                                 // M
  ListView as_list() const;                                               // L
  SetView as_set() const;                                                 // SS, NS, BS

  // The tree form of this value.
  Value ToValue() const;
  // DynamoDB's size of this value (partstore/item.h ValueSize), computed from the encoding.
  size_t Size() const;

 private:
  friend struct StoredItemCodec;  // the library's own encoder/decoder, not for users
  friend void stored_item_internal::ReadValueInto(const char*& p, ValueView& out);
  ValueView(Type type, std::string_view payload) : type_(type), payload_(payload) {}

  // Deep equality of two encoded values. The encoding is canonical (numbers as their canonical
  // text; set elements, map names and offset widths determined by the value), so two values are
  // equal exactly when their types and bytes are.
  friend bool operator==(const ValueView& a, const ValueView& b) {
    return a.type_ == b.type_ && a.payload_ == b.payload_;
  }

  Type type_ = Type::kNull;
  // S/B/N: the bytes or text. BOOL: one byte. M/L/sets: the whole body from its count varint.
  std::string_view payload_;
};

// Deep equality with a tree value (numbers by value, as Value's ==).
bool operator==(const ValueView& view, const Value& value);

// One entry of a map: its name and value.
struct MapEntry {
  std::string_view name;
  ValueView value;
};

namespace stored_item_internal {

// Each reads the element at p (REQUIRES: a well-formed buffer) and moves p past it. Inline, as
// every view's iteration steps with them; the layout is core/stored_item_format.h's.

// A varint: LEB128, 7 bits a byte.
inline uint32_t ReadVarint(const char*& p) {
  uint32_t v = 0;
  for (int shift = 0;; shift += 7) {
    const auto byte = static_cast<uint8_t>(*p++);
    v |= static_cast<uint32_t>(byte & 0x7F) << shift;
    if (byte < 0x80) return v;
  }
}

// A value of any other type than S, N and B (out of line: core/stored_item.cc).
void ReadOtherValueInto(const char*& p, ValueView& out);

// The *Into forms write the element's fields into `out` one by one: an iterator's current element
// is read back field by field, and a whole struct returned and copied would be built by narrow
// stores and loaded by wide ones: a store-forwarding stall on every element, two thirds of a
// walk's time (bench/README.md, "Queries and writes that read less").
//
// Short scalars (core/stored_item_format.h): one tag byte of kShortScalarTag or more holds the
// type and the length; tag >> 5 picks the range (2-5: S, 6: N, 7: B), whose first tag is at
// length 0.
inline constexpr uint8_t kShortScalarTag = 0x40;
inline constexpr uint8_t kShortTagBase[8] = {0, 0, 0x40, 0x40, 0x40, 0x40, 0xC0, 0xE0};
inline constexpr Type kShortTagType[8] = {Type::kS, Type::kS, Type::kS, Type::kS,
                                          Type::kS, Type::kS, Type::kN, Type::kB};
inline void ReadValueInto(const char*& p, ValueView& out) {
  const auto tag = static_cast<uint8_t>(*p);
  if (tag >= kShortScalarTag) {
    ++p;
    uint32_t n;
    if (tag < 0xC0) [[likely]] {  // S, by far the most common
      out.type_ = Type::kS;
      n = tag - 0x40u;
    } else {
      out.type_ = kShortTagType[tag >> 5];
      n = tag - kShortTagBase[tag >> 5];
    }
    out.payload_ = std::string_view(p, n);
    p += n;
    return;
  }
  // S, N and B past the short lengths: the tag (their Type), varint(n), n bytes.
  if (tag > static_cast<uint8_t>(Type::kB)) {
    ReadOtherValueInto(p, out);
    return;
  }
  ++p;
  const uint32_t n = ReadVarint(p);
  out.type_ = static_cast<Type>(tag);
  out.payload_ = std::string_view(p, n);
  p += n;
}

inline void ReadBytesInto(const char*& p, std::string_view& out) {
  const uint32_t n = ReadVarint(p);
  out = std::string_view(p, n);
  p += n;
}

// The names of the process's attribute-name table, by number (core/attribute_name_table.cc).
extern std::string_view attribute_names[];

// A map entry's name: varint(2 * number + 1), a name of the attribute-name table, or
// varint(2 * length) and the bytes.
inline void ReadNameInto(const char*& p, std::string_view& out) {
  const uint32_t head = ReadVarint(p);
  if (head & 1) {
    out = attribute_names[head >> 1];
    return;
  }
  out = std::string_view(p, head >> 1);
  p += head >> 1;
}

inline void ReadEntryInto(const char*& p, MapEntry& out) {
  ReadNameInto(p, out.name);
  ReadValueInto(p, out.value);
}

inline ValueView ReadValue(const char*& p) {
  ValueView out;
  ReadValueInto(p, out);
  return out;
}

inline std::string_view ReadBytes(const char*& p) {
  std::string_view out;
  ReadBytesInto(p, out);
  return out;
}

inline MapEntry ReadEntry(const char*& p) {
  MapEntry out;
  ReadEntryInto(p, out);
  return out;
}

// The iterator of every view: the elements of a composite are consecutive in the buffer, and
// `Read` decodes one and steps over it. Multi-pass (the buffer does not change while held); equal
// iterators stand at the same byte.
template <typename T, void (*Read)(const char*&, T&)>
class ElementIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using reference = const T&;
  using pointer = const T*;

  ElementIterator() = default;
  ElementIterator(const char* at, const char* end) : at_(at), end_(end) { Load(); }

  const T& operator*() const { return current_; }
  const T* operator->() const { return &current_; }
  ElementIterator& operator++() {
    at_ = next_;
    Load();
    return *this;
  }
  ElementIterator operator++(int) {
    ElementIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const ElementIterator& a, const ElementIterator& b) {
    return a.at_ == b.at_;
  }

 private:
  void Load() {
    if (at_ == end_) return;
    next_ = at_;
    Read(next_, current_);
  }
  const char* at_ = nullptr;  // the current element, or end_
  const char* end_ = nullptr;
  const char* next_ = nullptr;
  T current_{};
};

// What a map and a list share: the element count, the offset table and the elements' bytes.
class IndexedBody {
 public:
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

 protected:
  IndexedBody() = default;
  IndexedBody(size_t count, uint8_t width, const char* offsets, std::string_view body)
      : count_(count), width_(width), offsets_(offsets), body_(body) {}
  // Where element i starts. REQUIRES: i < size().
  const char* Element(size_t i) const;
  const char* body_begin() const { return body_.data(); }
  const char* body_end() const { return body_.data() + body_.size(); }

  size_t count_ = 0;
  uint8_t width_ = 1;
  const char* offsets_ = nullptr;
  std::string_view body_;
};

}  // namespace stored_item_internal

// A set's elements (SS, NS, BS): byte strings (for NS, canonical decimal text) in the set's order.
class SetView {
 public:
  using iterator =
      stored_item_internal::ElementIterator<std::string_view, stored_item_internal::ReadBytesInto>;

  Type type() const { return type_; }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  iterator begin() const { return iterator(body_.data(), body_.data() + body_.size()); }
  iterator end() const {
    return iterator(body_.data() + body_.size(), body_.data() + body_.size());
  }
  // Whether the set holds `element` (for NS, compared by numeric value; `element` is any N text).
  bool contains(std::string_view element) const;

 private:
  friend class ValueView;
  SetView(Type type, size_t count, std::string_view body)
      : type_(type), count_(count), body_(body) {}
  Type type_;
  size_t count_;
  std::string_view body_;
};

// A map's entries (an M value, or a whole item), sorted by name.
class MapView : public stored_item_internal::IndexedBody {
 public:
  using Entry = MapEntry;
  using iterator =
      stored_item_internal::ElementIterator<MapEntry, stored_item_internal::ReadEntryInto>;

  MapView() = default;
  iterator begin() const { return iterator(body_begin(), body_end()); }
  iterator end() const { return iterator(body_end(), body_end()); }
  // The value of attribute `name`: a binary search over the offsets.
  std::optional<ValueView> Find(std::string_view name) const;
  // The i-th entry in name order. REQUIRES: i < size().
  Entry at(size_t i) const;

  // The tree form.
  AttributeMap ToMap() const;

 private:
  friend class ValueView;
  friend class StoredItem;
  friend struct StoredItemCodec;  // the library's own encoder/decoder, not for users
  using IndexedBody::IndexedBody;
};

// A list's elements, in order.
class ListView : public stored_item_internal::IndexedBody {
 public:
  using iterator =
      stored_item_internal::ElementIterator<ValueView, stored_item_internal::ReadValueInto>;

  ListView() = default;
  iterator begin() const { return iterator(body_begin(), body_end()); }
  iterator end() const { return iterator(body_end(), body_end()); }
  // The i-th element, or nullopt past the end.
  std::optional<ValueView> at(size_t i) const;

  ValueList ToList() const;

 private:
  friend class ValueView;
  using IndexedBody::IndexedBody;
};

// The handle: a counted reference to one encoded item. Default-constructed: empty (no item).
class StoredItem {
 public:
  StoredItem() = default;
  StoredItem(const StoredItem& other) noexcept : rep_(other.rep_) { Ref(); }
  StoredItem(StoredItem&& other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  StoredItem& operator=(const StoredItem& other) noexcept {
    StoredItem(other).swap(*this);
    return *this;
  }
  StoredItem& operator=(StoredItem&& other) noexcept {
    StoredItem(std::move(other)).swap(*this);
    return *this;
  }
  ~StoredItem() { Unref(); }
  void swap(StoredItem& other) noexcept { std::swap(rep_, other.rep_); }

  // Encodes `item`. REQUIRES: ValidateItem(item)'s rules other than the size hold (names
  // 1..65535 bytes, no empty sets, nesting within DynamoDB's limit), and the item is under 4 GiB.
  // An item over 400 KB encodes; a table refuses it when it is put (PutStoredItem as PutItem).
  static StoredItem Encode(const Item& item);
  // Checks and adopts a portable encoding read from outside (a snapshot file, a fuzzer): every
  // length, offset, tag, name (1..65535 bytes, sorted, unique), set (non-empty, sorted, unique),
  // number (canonical text) and the nesting and 400 KB limits; the size is computed from the
  // attributes. It accepts what PortableEncoding produces, and an older version's written-out
  // runs (encoded again). Errors are Code::kInternal, naming what is wrong.
  static Result<StoredItem> Decode(std::string_view bytes);
  // An item with no attributes and the given ItemSize, with no buffer: the handle holds the size
  // (a KEYS_ONLY index entry, whose attributes are its keys, shard/secondary_index.h). Its
  // encoding is an empty map's; its footprint is 0.
  static StoredItem OfSize(size_t item_size) {
    return StoredItem(reinterpret_cast<Rep*>((static_cast<uintptr_t>(item_size) << 1) | 1));
  }
  bool empty() const { return rep_ == nullptr; }
  explicit operator bool() const { return rep_ != nullptr; }

  // REQUIRES: !empty() for all below.
  MapView attributes() const;
  std::optional<ValueView> Find(std::string_view name) const { return attributes().Find(name); }
  size_t attribute_count() const { return attributes().size(); }
  // DynamoDB's ItemSize of the item, recorded when it was encoded.
  size_t item_size() const {
    return sized() ? static_cast<size_t>(reinterpret_cast<uintptr_t>(rep_) >> 1) : rep_->item_size;
  }
  // The encoded attributes (the `item` part of the layout). Names may be numbers of this
  // process's attribute-name table: equal items have equal encodings within the process, but the
  // bytes mean nothing outside it.
  std::string_view encoding() const;
  // The encoding with every name written out: what files hold and Decode reads (the same layout
  // as snapshots and logs have always had).
  std::string PortableEncoding() const;
  // Bytes this item occupies: header and encoding (not the allocator's rounding).
  size_t footprint() const { return sized() ? 0 : sizeof(Rep) + encoding().size(); }
  // The tree form, for callers that want to modify it.
  Item ToItem() const;

  // Releases every handle of `items` (which ends empty), in the order of their buffers' addresses:
  // what freeing many items at once should do, since buffers allocated over a long run lie all
  // over the heap and releasing them in any other order misses the cache and the TLB on each.
  static void ReleaseInAddressOrder(std::vector<StoredItem>& items);

  // Whether two handles share one buffer (a GSI ALL projection and its base item do).
  bool SharesBufferWith(const StoredItem& other) const { return rep_ == other.rep_ && !sized(); }
  // How many StoredItems share this buffer (this one included; 0 when empty). A snapshot: other
  // threads may copy or drop handles meanwhile.
  // A sized handle (OfSize) counts as 1: no one shares a buffer with it.
  uint32_t use_count() const {
    if (sized()) return 1;
    return rep_ ? rep_->refs.load(std::memory_order_relaxed) : 0;
  }

  // Same attributes and values (numbers by value), whatever the buffers.
  friend bool operator==(const StoredItem& a, const Item& b);

 private:
  friend struct StoredItemCodec;  // the library's own encoder/decoder, not for users
  struct Rep {
    std::atomic<uint32_t> refs;
    uint32_t item_size;
    char* bytes() { return reinterpret_cast<char*>(this + 1); }
    const char* bytes() const { return reinterpret_cast<const char*>(this + 1); }
  };
  // 8 bytes: a 200-byte item's buffer (about 245 bytes of encoding) then fits the allocator's
  // 256-byte class, where a 16-byte header put it in the 320-byte one.
  static_assert(sizeof(Rep) == 8);
  explicit StoredItem(Rep* rep) : rep_(rep) {}
  static Rep* Allocate(size_t length, size_t item_size);
  // Whether the handle holds a size, not a buffer (OfSize): rep_'s low bit, which no buffer's
  // address has.
  bool sized() const { return (reinterpret_cast<uintptr_t>(rep_) & 1) != 0; }
  // The encoding's first byte: the buffer's, or an empty map-body's for a sized handle.
  // REQUIRES: !empty().
  const char* bytes() const;
  void Ref() const {
    if (rep_ && !sized()) rep_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  void Unref();

  Rep* rep_ = nullptr;
};

}  // namespace partstore
