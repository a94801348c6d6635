// StoredItem and its views, over the encoder and readers of core/stored_item_codec.h. The byte
// layout is in core/stored_item_format.h; the checking decoder in core/stored_item_decode.cc; new
// versions in core/stored_item_patch.cc; projections in core/stored_item_projection.cc.

#include "partstore/stored_item.h"

#include <algorithm>
#include <atomic>
#include <boost/container/small_vector.hpp>
#include <cassert>
#include <cstring>
#include <functional>
#include <new>
#include <optional>
#include <span>
#include <vector>

#include "core/stored_item_codec.h"

namespace partstore {

namespace stored_item_internal {

const char* FillOf(uint8_t byte) {
  static std::atomic<const char*> fills[256];
  const char* fill = fills[byte].load(std::memory_order_acquire);
  if (fill != nullptr) return fill;
  char* made = new char[kMaxRun];
  std::memset(made, byte, kMaxRun);
  if (fills[byte].compare_exchange_strong(fill, made, std::memory_order_acq_rel)) return made;
  delete[] made;  // another thread made it first; `fill` holds theirs
  return fill;
}

// The header's inline readers take S, N and B themselves: their tags are their Types, below the
// other tags.
static_assert(static_cast<uint8_t>(Type::kS) == 0 && static_cast<uint8_t>(Type::kN) == 1 &&
              static_cast<uint8_t>(Type::kB) == 2 && kRunTag > 2);

void ReadOtherValueInto(const char*& p, ValueView& out) { Codec::ReadOtherInto(p, out); }

}  // namespace stored_item_internal

// ---- StoredItem ---------------------------------------------------------------------------------

StoredItem::Rep* StoredItem::Allocate(size_t length, size_t item_size) {
  void* memory = ::operator new(sizeof(Rep) + length);
  Rep* rep = new (memory) Rep;
  rep->refs.store(1, std::memory_order_relaxed);
  rep->item_size = static_cast<uint32_t>(item_size);
  return rep;
}

const char* StoredItem::bytes() const {
  static constexpr char kEmptyMap[] = {0, 0, 0};  // count 0, n 0, width 0 (no offsets)
  return sized() ? kEmptyMap : rep_->bytes();
}

std::string_view StoredItem::encoding() const {
  // The top-level map-body: count, n, width, offsets, then n bytes; it ends the buffer.
  const char* start = bytes();
  const Codec::Indexed m = Codec::ReadIndexed(start);
  return {start, static_cast<size_t>(m.body.data() + m.body.size() - start)};
}

void StoredItem::Unref() {
  if (rep_ && !sized() && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    rep_->~Rep();
    ::operator delete(rep_);
  }
  rep_ = nullptr;
}

void StoredItem::ReleaseInAddressOrder(std::vector<StoredItem>& items) {
  std::sort(items.begin(), items.end(), [](const StoredItem& a, const StoredItem& b) {
    return std::less<const Rep*>()(a.rep_, b.rep_);
  });
  items.clear();
  items.shrink_to_fit();
}

StoredItem StoredItem::Encode(const Item& item) {
  Codec::Sizer sizer;
  const size_t length = sizer.Map(item, /*top=*/true);
  Rep* rep = Allocate(length, ItemSize(item));
  Codec::Writer writer{rep->bytes(), sizer.bodies.data(), sizer.heads.data()};
  writer.Map(item, /*top=*/true);
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

MapView StoredItem::attributes() const {
  const Codec::Indexed m = Codec::ReadIndexed(bytes());
  return MapView(m.count, m.width, m.offsets, m.body);
}

Item StoredItem::ToItem() const { return attributes().ToMap(); }

bool operator==(const StoredItem& a, const Item& b) {
  if (a.empty()) return false;
  const MapView map = a.attributes();
  if (map.size() != b.size()) return false;
  auto it = b.begin();
  for (const MapView::Entry& entry : map) {
    if (entry.name != it->first || !(entry.value == it->second)) return false;
    ++it;
  }
  return true;
}

// ---- Views --------------------------------------------------------------------------------------

Number ValueView::as_number() const { return Number::Parse(payload_).value(); }

MapView ValueView::as_map() const {
  const Codec::Indexed m = Codec::ReadIndexed(payload_.data());
  return MapView(m.count, m.width, m.offsets, m.body);
}

ListView ValueView::as_list() const {
  const Codec::Indexed l = Codec::ReadIndexed(payload_.data());
  return ListView(l.count, l.width, l.offsets, l.body);
}

SetView ValueView::as_set() const {
  const char* p = payload_.data();
  const uint32_t count = Codec::GetVarint(p);
  const uint32_t n = Codec::GetVarint(p);
  return SetView(type_, count, {p, n});
}

Value ValueView::ToValue() const {
  switch (type_) {
    case Type::kS:
      return Value(std::string(payload_));
    case Type::kN:
      return Value(as_number());
    case Type::kB:
      return Value::Binary(std::string(payload_));
    case Type::kBool:
      return Value(as_bool());
    case Type::kNull:
      return Value();
    case Type::kM:
      return Value(as_map().ToMap());
    case Type::kL:
      return Value(as_list().ToList());
    case Type::kSS: {
      std::vector<std::string> elements;
      for (std::string_view e : as_set()) elements.emplace_back(e);
      return Value(StringSet(std::move(elements)));
    }
    case Type::kNS: {
      std::vector<Number> elements;
      for (std::string_view e : as_set()) elements.push_back(Number::Parse(e).value());
      return Value(NumberSet(std::move(elements)));
    }
    case Type::kBS: {
      std::vector<Bytes> elements;
      for (std::string_view e : as_set()) elements.push_back(Bytes{std::string(e)});
      return Value(BinarySet(std::move(elements)));
    }
  }
  return Value();
}

size_t ValueView::Size() const {
  switch (type_) {
    case Type::kS:
    case Type::kB:
      return payload_.size();
    case Type::kN:
      return as_number().StorageSize();
    case Type::kBool:
    case Type::kNull:
      return 1;
    case Type::kM: {
      size_t size = 3;
      for (const MapView::Entry& e : as_map()) size += 1 + e.name.size() + e.value.Size();
      return size;
    }
    case Type::kL: {
      size_t size = 3;
      for (const ValueView& e : as_list()) size += 1 + e.Size();
      return size;
    }
    case Type::kSS:
    case Type::kBS: {
      size_t size = 0;
      for (std::string_view e : as_set()) size += e.size();
      return size;
    }
    case Type::kNS: {
      size_t size = 0;
      for (std::string_view e : as_set()) size += Number::Parse(e).value().StorageSize();
      return size;
    }
  }
  return 0;
}

bool operator==(const ValueView& view, const Value& value) {
  if (view.type() != value.type()) return false;
  switch (view.type()) {
    case Type::kS:
      return view.as_string() == value.as_string();
    case Type::kB:
      return view.as_binary() == value.as_binary();
    case Type::kN:
      return view.as_number() == value.as_number();
    case Type::kBool:
      return view.as_bool() == value.as_bool();
    case Type::kNull:
      return true;
    case Type::kM: {
      const MapView map = view.as_map();
      const AttributeMap& other = value.as_map();
      if (map.size() != other.size()) return false;
      auto it = other.begin();
      for (const MapView::Entry& entry : map) {
        if (entry.name != it->first || !(entry.value == it->second)) return false;
        ++it;
      }
      return true;
    }
    case Type::kL: {
      const ListView list = view.as_list();
      const ValueList& other = value.as_list();
      if (list.size() != other.size()) return false;
      auto it = other.begin();
      for (const ValueView& element : list) {
        if (!(element == *it++)) return false;
      }
      return true;
    }
    case Type::kSS:
    case Type::kBS: {
      const SetView set = view.as_set();
      std::vector<std::string_view> other;
      if (view.type() == Type::kSS) {
        for (const std::string& s : value.as_string_set()) other.push_back(s);
      } else {
        for (const Bytes& b : value.as_binary_set()) other.push_back(b.data);
      }
      if (set.size() != other.size()) return false;
      size_t i = 0;
      for (std::string_view element : set) {
        if (element != other[i++]) return false;
      }
      return true;
    }
    case Type::kNS: {
      const SetView set = view.as_set();
      const NumberSet& other = value.as_number_set();
      if (set.size() != other.size()) return false;
      auto it = other.begin();
      for (std::string_view element : set) {
        if (!(Number::Parse(element).value() == *it++)) return false;
      }
      return true;
    }
  }
  return false;
}

bool SetView::contains(std::string_view element) const {
  if (type_ == Type::kNS) {
    Result<Number> wanted = Number::Parse(element);
    if (!wanted.ok()) return false;
    for (std::string_view e : *this) {
      if (Number::Parse(e).value() == *wanted) return true;
    }
    return false;
  }
  for (std::string_view e : *this) {
    if (e == element) return true;
  }
  return false;
}

namespace stored_item_internal {
const char* IndexedBody::Element(size_t i) const {
  if (width_ != 0) return body_.data() + GetFixed(offsets_ + i * width_, width_);
  // A small map without offsets (lists always have them): its entries walked.
  const char* p = body_.data();
  for (; i > 0; --i) stored_item_internal::ReadEntry(p);
  return p;
}
}  // namespace stored_item_internal

MapView::Entry MapView::at(size_t i) const {
  const char* p = Element(i);
  return stored_item_internal::ReadEntry(p);
}

std::optional<ValueView> MapView::Find(std::string_view name) const {
  if (width_ == 0) {  // a small map without offsets: its entries walked, in name order
    const char* p = body_begin();
    for (size_t i = 0; i < count_; ++i) {
      std::string_view candidate;
      stored_item_internal::ReadNameInto(p, candidate);
      const int c = candidate.compare(name);
      if (c == 0) return Codec::ReadValue(p);
      if (c > 0) return std::nullopt;
      Codec::ReadValue(p);
    }
    return std::nullopt;
  }
  size_t lo = 0;
  size_t hi = count_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const char* p = Element(mid);
    std::string_view candidate;
    stored_item_internal::ReadNameInto(p, candidate);
    const int c = candidate.compare(name);
    if (c == 0) return Codec::ReadValue(p);
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return std::nullopt;
}

AttributeMap MapView::ToMap() const {
  // Entries are sorted and unique: the map adopts them as they are, with no search or compare.
  AttributeMap::sequence_type entries;
  entries.reserve(count_);
  for (const Entry& entry : *this)
    entries.emplace_back(std::string(entry.name), entry.value.ToValue());
  AttributeMap map;
  map.adopt_sequence(boost::container::ordered_unique_range, std::move(entries));
  return map;
}

std::optional<ValueView> ListView::at(size_t i) const {
  if (i >= count_) return std::nullopt;
  const char* p = Element(i);
  return Codec::ReadValue(p);
}

ValueList ListView::ToList() const {
  ValueList list;
  list.reserve(count_);
  for (const ValueView& element : *this) list.push_back(element.ToValue());
  return list;
}

}  // namespace partstore
