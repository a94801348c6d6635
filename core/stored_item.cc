// StoredItem: the encoder, the trusted readers the views use, the views, and projections. The
// byte layout is in core/stored_item_format.h; the checking decoder in core/stored_item_decode.cc.

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

#include "core/stored_item_format.h"
#include "core/stored_item_patch.h"
#include "core/stored_item_projection.h"

namespace partstore {

namespace {

using stored_item_format::GetFixed;
using stored_item_format::IsRun;
using stored_item_format::kMaxRun;
using stored_item_format::kRunTag;
using stored_item_format::WidthFor;

// kMaxRun copies of `byte`, made once per byte value on first use and kept for the process (the
// views of runs point into it). Thread-safe.
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

}  // namespace

// The encoder and the trusted readers the views use. One struct so that the views' private
// constructors are reachable from one place.
struct StoredItemCodec {
  // ---- Writing ------------------------------------------------------------------------------
  // Two passes and one allocation. The sizing pass computes every composite's body length (the
  // n of the layout) in pre-order into `bodies`; the writing pass then writes straight into the
  // item's buffer, taking the lengths in the same order (a composite's header, which holds n and
  // the offset width, comes before its body).

  static size_t VarintLength(size_t v) {
    size_t length = 1;
    while (v >= 0x80) {
      v >>= 7;
      ++length;
    }
    return length;
  }
  static size_t BytesLength(size_t n) { return VarintLength(n) + n; }
  static size_t IndexedLength(size_t count, size_t n) {
    return VarintLength(count) + VarintLength(n) + 1 + count * WidthFor(n) + n;
  }
  // Encoded bytes of an S, N or B value, its tag included (Writer::Scalar).
  static size_t ScalarLength(Type type, std::string_view payload) {
    return 1 + (type == Type::kS && IsRun(payload) ? VarintLength(payload.size()) + 1
                                                   : BytesLength(payload.size()));
  }

  struct Sizer {
    std::vector<uint32_t> bodies;

    size_t Map(const AttributeMap& map) {
      const size_t slot = Open();
      size_t n = 0;
      for (const auto& [name, value] : map) n += BytesLength(name.size()) + Value(value);
      return Close(slot, map.size(), n);
    }
    size_t List(const ValueList& list) {
      const size_t slot = Open();
      size_t n = 0;
      for (const partstore::Value& element : list) n += Value(element);
      return Close(slot, list.size(), n);
    }
    template <typename Set, typename Length>
    size_t SetOf(const Set& set, Length length) {
      size_t n = 0;
      for (const auto& element : set) n += BytesLength(length(element));
      bodies.push_back(static_cast<uint32_t>(n));
      return VarintLength(set.size()) + BytesLength(n);
    }
    // Encoded bytes of a value, its tag included.
    size_t Value(const partstore::Value& value) {
      switch (value.type()) {
        case Type::kS:
          return ScalarLength(Type::kS, value.as_string());
        case Type::kN:
          return 1 + BytesLength(value.as_number().ToString().size());
        case Type::kB:
          return 1 + BytesLength(value.as_binary().size());
        case Type::kBool:
          return 2;
        case Type::kNull:
          return 1;
        case Type::kM:
          return 1 + Map(value.as_map());
        case Type::kL:
          return 1 + List(value.as_list());
        case Type::kSS:
          return 1 + SetOf(value.as_string_set(), [](const std::string& e) { return e.size(); });
        case Type::kNS:
          return 1 +
                 SetOf(value.as_number_set(), [](const Number& e) { return e.ToString().size(); });
        case Type::kBS:
          return 1 + SetOf(value.as_binary_set(), [](const Bytes& e) { return e.data.size(); });
      }
      return 0;
    }

   private:
    size_t Open() {
      bodies.push_back(0);
      return bodies.size() - 1;
    }
    size_t Close(size_t slot, size_t count, size_t n) {
      bodies[slot] = static_cast<uint32_t>(n);
      return IndexedLength(count, n);
    }
  };

  struct Writer {
    char* d;
    const uint32_t* body;  // the next composite's length, in the sizing pass's order

    void Varint(uint32_t v) {
      while (v >= 0x80) {
        *d++ = static_cast<char>(v | 0x80);
        v >>= 7;
      }
      *d++ = static_cast<char>(v);
    }
    void Bytes(std::string_view bytes) {
      Varint(static_cast<uint32_t>(bytes.size()));
      std::memcpy(d, bytes.data(), bytes.size());
      d += bytes.size();
    }
    // A composite's header; returns where its offsets go (and sets *body_start after them).
    char* Indexed(size_t count, char** body_start) {
      const uint32_t n = *body++;
      const uint8_t width = WidthFor(n);
      Varint(static_cast<uint32_t>(count));
      Varint(n);
      *d++ = static_cast<char>(width);
      char* offsets = d;
      d += count * width;
      *body_start = d;
      return offsets;
    }
    static void Offset(char*& at, size_t offset, uint8_t width) {
      for (uint8_t i = 0; i < width; ++i) *at++ = static_cast<char>((offset >> (8 * i)) & 0xFF);
    }
    void Map(const AttributeMap& map) {
      const uint8_t width = WidthFor(*body);
      char* start;
      char* offsets = Indexed(map.size(), &start);
      for (const auto& [name, value] : map) {
        Offset(offsets, static_cast<size_t>(d - start), width);
        Bytes(name);
        Value(value);
      }
    }
    void List(const ValueList& list) {
      const uint8_t width = WidthFor(*body);
      char* start;
      char* offsets = Indexed(list.size(), &start);
      for (const partstore::Value& element : list) {
        Offset(offsets, static_cast<size_t>(d - start), width);
        Value(element);
      }
    }
    template <typename Set, typename ToBytes>
    void SetOf(const Set& set, ToBytes to_bytes) {
      Varint(static_cast<uint32_t>(set.size()));
      Varint(*body++);
      for (const auto& element : set) Bytes(to_bytes(element));
    }
    // An S, N (its canonical text) or B value.
    void Scalar(Type type, std::string_view payload) {
      if (type == Type::kS && IsRun(payload)) {
        *d++ = static_cast<char>(kRunTag);
        Varint(static_cast<uint32_t>(payload.size()));
        *d++ = payload[0];
        return;
      }
      *d++ = static_cast<char>(type);
      Bytes(payload);
    }
    void Value(const partstore::Value& value) {
      switch (value.type()) {
        case Type::kS:
          Scalar(Type::kS, value.as_string());
          return;
        case Type::kN:
          Scalar(Type::kN, value.as_number().ToString());
          return;
        case Type::kB:
          Scalar(Type::kB, value.as_binary());
          return;
        default:
          break;
      }
      *d++ = static_cast<char>(value.type());
      switch (value.type()) {
        case Type::kS:
        case Type::kN:
        case Type::kB:
          return;
        case Type::kBool:
          *d++ = value.as_bool() ? 1 : 0;
          return;
        case Type::kNull:
          return;
        case Type::kM:
          Map(value.as_map());
          return;
        case Type::kL:
          List(value.as_list());
          return;
        case Type::kSS:
          SetOf(value.as_string_set(), [](const std::string& e) { return std::string_view(e); });
          return;
        case Type::kNS:
          SetOf(value.as_number_set(), [](const Number& e) { return e.ToString(); });
          return;
        case Type::kBS:
          SetOf(value.as_binary_set(),
                [](const partstore::Bytes& e) { return std::string_view(e.data); });
          return;
      }
    }
  };

  // ---- Trusted reading (buffers made by Encode or accepted by Decode) -----------------------

  static uint32_t GetVarint(const char*& p) { return stored_item_internal::ReadVarint(p); }

  // Reads one value at p and moves p past it: S, N and B inline (partstore/stored_item.h), the
  // others by ReadOther.
  static ValueView ReadValue(const char*& p) { return stored_item_internal::ReadValue(p); }

  // ReadOther into `out`, field by field (partstore/stored_item.h says why).
  static void ReadOtherInto(const char*& p, ValueView& out) {
    const ValueView value = ReadOther(p);
    out.type_ = value.type_;
    out.payload_ = value.payload_;
  }

  // A value whose tag is not S, N or B.
  static ValueView ReadOther(const char*& p) {
    const auto tag = static_cast<uint8_t>(*p++);
    if (tag == kRunTag) {
      const uint32_t n = GetVarint(p);
      return ValueView(Type::kS, {FillOf(static_cast<uint8_t>(*p++)), n});
    }
    const auto type = static_cast<Type>(tag);
    switch (type) {
      case Type::kBool:
        return ValueView(type, {p++, 1});
      case Type::kNull:
        return ValueView(type, {});
      case Type::kM:
      case Type::kL: {
        const char* start = p;
        const uint32_t count = GetVarint(p);
        const uint32_t n = GetVarint(p);
        const auto width = static_cast<uint8_t>(*p++);
        p += static_cast<size_t>(count) * width + n;
        return ValueView(type, {start, static_cast<size_t>(p - start)});
      }
      case Type::kSS:
      case Type::kNS:
      case Type::kBS: {
        const char* start = p;
        GetVarint(p);
        const uint32_t n = GetVarint(p);
        p += n;
        return ValueView(type, {start, static_cast<size_t>(p - start)});
      }
      case Type::kS:
      case Type::kN:
      case Type::kB:
        break;  // read inline
    }
    return ValueView();
  }

  struct Indexed {
    uint32_t count;
    uint8_t width;
    const char* offsets;
    std::string_view body;
  };
  static Indexed ReadIndexed(const char* p) {
    Indexed out;
    out.count = GetVarint(p);
    const uint32_t n = GetVarint(p);
    out.width = static_cast<uint8_t>(*p++);
    out.offsets = p;
    out.body = {p + static_cast<size_t>(out.count) * out.width, n};
    return out;
  }

  // ProjectStoredItem (core/stored_item_projection.h).
  static StoredItem Project(const StoredItem& source, std::vector<std::string_view> names);
  // EmptyStoredItemOfSize and EncodeScalarAttributes (core/stored_item_projection.h).
  static StoredItem EmptyOfSize(size_t item_size);
  static StoredItem Scalars(std::span<const ScalarAttribute> attributes);
  // PatchStoredItem (core/stored_item_patch.h).
  static StoredItem Patch(const StoredItem& source, std::span<const AttributeChange> changes);
  // PlanInPlacePatch and PatchStoredItemInPlace (core/stored_item_patch.h).
  static std::optional<InPlacePatch> PlanInPlace(const StoredItem& item,
                                                 std::span<const AttributeChange> changes);
  static void PatchInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                           const InPlacePatch& plan);
  // A top-level map-body's entries by index: their offsets and names.
  struct Entries {
    Indexed m;
    size_t offset(size_t i) const {
      return i == m.count ? m.body.size() : GetFixed(m.offsets + i * m.width, m.width);
    }
    std::string_view name_at(size_t i) const {
      const char* p = m.body.data() + offset(i);
      const uint32_t length = GetVarint(p);
      return std::string_view(p, length);
    }
    // The first entry at or after `from` whose name is not below `name` (binary search).
    size_t LowerBound(size_t from, std::string_view name) const {
      size_t lo = from;
      size_t hi = m.count;
      while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (name_at(mid) < name) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  };
  // The header of a map-body of `count` entries and n bytes; returns where its entries start
  // and sets *offsets to where its offsets go.
  static char* MapHeader(Writer& writer, size_t count, size_t n, char** offsets) {
    writer.Varint(static_cast<uint32_t>(count));
    writer.Varint(static_cast<uint32_t>(n));
    *writer.d++ = static_cast<char>(WidthFor(n));
    *offsets = writer.d;
    writer.d += count * WidthFor(n);
    return writer.d;
  }
};

namespace {
using Codec = StoredItemCodec;
}  // namespace

namespace stored_item_internal {

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

std::string_view StoredItem::encoding() const {
  // The top-level map-body: count, n, width, offsets, then n bytes; it ends the buffer.
  const Codec::Indexed m = Codec::ReadIndexed(rep_->bytes());
  return {rep_->bytes(), static_cast<size_t>(m.body.data() + m.body.size() - rep_->bytes())};
}

void StoredItem::Unref() {
  if (rep_ && rep_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
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
  const size_t length = sizer.Map(item);
  Rep* rep = Allocate(length, ItemSize(item));
  Codec::Writer writer{rep->bytes(), sizer.bodies.data()};
  writer.Map(item);
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem StoredItemCodec::Project(const StoredItem& source, std::vector<std::string_view> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  // The chosen entries' byte ranges in the source's body (entries and names are both sorted).
  struct Range {
    const char* begin;
    const char* end;
  };
  std::vector<Range> kept;
  size_t n = 0;
  size_t item_size = 0;
  const MapView map = source.attributes();
  const char* p = map.body_begin();
  const char* const end = map.body_end();
  auto wanted = names.begin();
  while (p != end && wanted != names.end()) {
    const char* begin = p;
    const MapEntry entry = stored_item_internal::ReadEntry(p);
    while (wanted != names.end() && *wanted < entry.name) ++wanted;
    if (wanted != names.end() && *wanted == entry.name) {
      kept.push_back({begin, p});
      n += static_cast<size_t>(p - begin);
      item_size += entry.name.size() + entry.value.Size();
    }
  }
  if (kept.size() == map.size()) return source;

  const size_t length = Codec::IndexedLength(kept.size(), n);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Codec::Writer writer{rep->bytes(), nullptr};
  const uint8_t width = WidthFor(n);
  char* offsets;
  char* const start = MapHeader(writer, kept.size(), n, &offsets);
  for (const Range& range : kept) {
    Codec::Writer::Offset(offsets, static_cast<size_t>(writer.d - start), width);
    const auto size = static_cast<size_t>(range.end - range.begin);
    std::memcpy(writer.d, range.begin, size);
    writer.d += size;
  }
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem ProjectStoredItem(const StoredItem& source, std::vector<std::string_view> names) {
  return StoredItemCodec::Project(source, std::move(names));
}

StoredItem StoredItemCodec::EmptyOfSize(size_t item_size) {
  const size_t length = IndexedLength(0, 0);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Writer writer{rep->bytes(), nullptr};
  char* offsets;
  MapHeader(writer, 0, 0, &offsets);
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem StoredItemCodec::Scalars(std::span<const ScalarAttribute> attributes) {
  size_t n = 0;
  size_t item_size = 0;
  for (const ScalarAttribute& a : attributes) {
    n += BytesLength(a.name.size()) + ScalarLength(a.type, a.payload);
    item_size += a.name.size() + ValueView(a.type, a.payload).Size();
  }
  const size_t length = IndexedLength(attributes.size(), n);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Writer writer{rep->bytes(), nullptr};
  const uint8_t width = WidthFor(n);
  char* offsets;
  char* const start = MapHeader(writer, attributes.size(), n, &offsets);
  for (const ScalarAttribute& a : attributes) {
    Writer::Offset(offsets, static_cast<size_t>(writer.d - start), width);
    writer.Bytes(a.name);
    writer.Scalar(a.type, a.payload);
  }
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem EncodeScalarAttributes(std::span<const ScalarAttribute> attributes) {
  return StoredItemCodec::Scalars(attributes);
}

StoredItem EmptyStoredItemOfSize(size_t item_size) {
  return StoredItemCodec::EmptyOfSize(item_size);
}

StoredItem StoredItemCodec::Patch(const StoredItem& source,
                                  std::span<const AttributeChange> changes) {
  // The source's entries are found through its offsets (a binary search per change), and the
  // runs of entries between changes are copied whole: only the changed entries are read.
  const Entries entries{ReadIndexed(source.rep_->bytes())};
  const Indexed& m = entries.m;
  auto offset = [&](size_t i) { return entries.offset(i); };
  auto name_at = [&](size_t i) { return entries.name_at(i); };
  // What the new item holds, in order: runs of source entries [first, last), or a change's new
  // entry. The sizer takes the new values' composite lengths in the order the writer writes them.
  struct Piece {
    uint32_t first;
    uint32_t last;
    const AttributeChange* change;  // null: a run of source entries
  };
  boost::container::small_vector<Piece, 8> pieces;
  // While every change replaces an entry with one of the same encoded length, the new item is
  // the source's bytes with those entries overwritten: no offset moves. `replaced` holds where
  // each such entry starts in the body, in the changes' order.
  bool same_layout = true;
  boost::container::small_vector<uint32_t, 4> replaced;
  Sizer sizer;
  size_t count = 0;
  size_t n = 0;
  size_t item_size = source.item_size();
  size_t next = 0;  // the first source entry not yet placed
  auto keep = [&](size_t last) {
    if (last == next) return;
    pieces.push_back({static_cast<uint32_t>(next), static_cast<uint32_t>(last), nullptr});
    count += last - next;
    n += offset(last) - offset(next);
    next = last;
  };
  for (const AttributeChange& change : changes) {
    const size_t lo = entries.LowerBound(next, change.name);
    keep(lo);
    size_t old_length = 0;  // the replaced entry's encoded bytes (0: none)
    if (lo < m.count && name_at(lo) == change.name) {  // replaced or removed
      const char* p = m.body.data() + offset(lo);
      const MapEntry entry = stored_item_internal::ReadEntry(p);
      item_size -= entry.name.size() + entry.value.Size();
      old_length = offset(lo + 1) - offset(lo);
      next = lo + 1;
    }
    if (change.value != nullptr) {
      pieces.push_back({0, 0, &change});
      ++count;
      const size_t new_length = BytesLength(change.name.size()) + sizer.Value(*change.value);
      n += new_length;
      item_size += AttributeSize(change.name, *change.value);
      same_layout = same_layout && new_length == old_length;
      if (same_layout) replaced.push_back(static_cast<uint32_t>(offset(lo)));
    } else {
      same_layout = false;
    }
  }
  keep(m.count);

  if (same_layout) {
    // Same count and body length, so the same header and offsets: copy the whole encoding and
    // write each change over the entry it replaces (its name included, which is unchanged).
    const std::string_view bytes = source.encoding();
    StoredItem::Rep* rep = StoredItem::Allocate(bytes.size(), item_size);
    std::memcpy(rep->bytes(), bytes.data(), bytes.size());
    const auto body_start = static_cast<size_t>(m.body.data() - bytes.data());
    Writer writer{rep->bytes(), sizer.bodies.data()};
    size_t i = 0;
    for (const AttributeChange& change : changes) {
      writer.d = rep->bytes() + body_start + replaced[i++];
      writer.Bytes(change.name);
      writer.Value(*change.value);
      assert(i == replaced.size() || writer.d <= rep->bytes() + body_start + replaced[i]);
    }
    return StoredItem(rep);
  }

  const size_t length = IndexedLength(count, n);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Writer writer{rep->bytes(), sizer.bodies.data()};
  const uint8_t width = WidthFor(n);
  char* offsets;
  char* const start = MapHeader(writer, count, n, &offsets);
  for (const Piece& piece : pieces) {
    const auto at = static_cast<size_t>(writer.d - start);
    if (piece.change != nullptr) {
      Writer::Offset(offsets, at, width);
      writer.Bytes(piece.change->name);
      writer.Value(*piece.change->value);
      continue;
    }
    const size_t from = offset(piece.first);
    for (size_t i = piece.first; i < piece.last; ++i) {
      Writer::Offset(offsets, offset(i) - from + at, width);
    }
    const size_t size = offset(piece.last) - from;
    std::memcpy(writer.d, m.body.data() + from, size);
    writer.d += size;
  }
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem PatchStoredItem(const StoredItem& source, std::span<const AttributeChange> changes) {
  return StoredItemCodec::Patch(source, changes);
}

std::optional<InPlacePatch> StoredItemCodec::PlanInPlace(const StoredItem& item,
                                                         std::span<const AttributeChange> changes) {
  // Acquire: a reader that dropped its reference (a release, in Unref) has finished reading.
  if (item.rep_ == nullptr || item.rep_->refs.load(std::memory_order_acquire) != 1) {
    return std::nullopt;
  }
  const Entries entries{ReadIndexed(item.rep_->bytes())};
  const auto body_start = static_cast<size_t>(entries.m.body.data() - item.rep_->bytes());
  InPlacePatch plan;
  size_t next = 0;
  for (const AttributeChange& change : changes) {
    if (change.value == nullptr) return std::nullopt;  // a removal moves the entries after it
    const size_t i = entries.LowerBound(next, change.name);
    if (i == entries.m.count || entries.name_at(i) != change.name) return std::nullopt;
    Sizer sizer;
    const size_t new_length = BytesLength(change.name.size()) + sizer.Value(*change.value);
    if (new_length != entries.offset(i + 1) - entries.offset(i)) return std::nullopt;
    const char* p = entries.m.body.data() + entries.offset(i);
    const MapEntry entry = stored_item_internal::ReadEntry(p);
    if (entry.value.Size() != ValueSize(*change.value)) return std::nullopt;  // the item's size
    plan.at.push_back(static_cast<uint32_t>(body_start + entries.offset(i)));
    next = i + 1;
  }
  return plan;
}

void StoredItemCodec::PatchInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                                   const InPlacePatch& plan) {
  assert(item.rep_ != nullptr && item.rep_->refs.load(std::memory_order_relaxed) == 1);
  assert(plan.at.size() == changes.size());
  for (size_t i = 0; i < changes.size(); ++i) {
    Sizer sizer;  // the new value's composite lengths, which the writer takes in the same order
    sizer.Value(*changes[i].value);
    Writer writer{item.rep_->bytes() + plan.at[i], sizer.bodies.data()};
    writer.Bytes(changes[i].name);
    writer.Value(*changes[i].value);
  }
}

std::optional<InPlacePatch> PlanInPlacePatch(const StoredItem& item,
                                             std::span<const AttributeChange> changes) {
  return StoredItemCodec::PlanInPlace(item, changes);
}

void PatchStoredItemInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                            const InPlacePatch& plan) {
  StoredItemCodec::PatchInPlace(item, changes, plan);
}

MapView StoredItem::attributes() const {
  const Codec::Indexed m = Codec::ReadIndexed(rep_->bytes());
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
  return body_.data() + GetFixed(offsets_ + i * width_, width_);
}
}  // namespace stored_item_internal

MapView::Entry MapView::at(size_t i) const {
  const char* p = Element(i);
  return stored_item_internal::ReadEntry(p);
}

std::optional<ValueView> MapView::Find(std::string_view name) const {
  size_t lo = 0;
  size_t hi = count_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const char* p = Element(mid);
    const uint32_t n = Codec::GetVarint(p);
    const std::string_view candidate(p, n);
    const int c = candidate.compare(name);
    if (c == 0) {
      p += n;
      return Codec::ReadValue(p);
    }
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
