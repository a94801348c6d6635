// StoredItemCodec: StoredItem's encoder and the trusted readers its views use, shared by the files
// that write or read the encoding (core/stored_item.cc: StoredItem and the views;
// core/stored_item_patch.cc: new versions and writes in place; core/stored_item_projection.cc:
// projections and items built from scalars). The byte layout is in core/stored_item_format.h. An
// internal header: not part of the public API.
//
// Thread safety: stateless; the writers write only the buffers they are given.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/attribute_name_table.h"
#include "core/stored_item_format.h"
#include "core/stored_item_patch.h"
#include "core/stored_item_projection.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace partstore {

using stored_item_format::GetFixed;
using stored_item_format::IsRun;
using stored_item_format::kMaxRun;
using stored_item_format::kRunTag;
using stored_item_format::ShortTag;
using stored_item_format::WidthFor;
using stored_item_format::WidthOf;

namespace stored_item_internal {
// kMaxRun copies of `byte`, made once per byte value on first use and kept for the process (the
// views of runs point into it). Thread-safe.
const char* FillOf(uint8_t byte);
}  // namespace stored_item_internal

// The sizing passes' lengths, name heads and names: kept inline up to N, on the heap past that.
// Its push_back is inline (boost's small_vector calls out of line for every one: a call per name
// and composite of every item encoded or decoded). T is trivially copyable.
template <typename T, size_t N>
class InlineList {
 public:
  InlineList() = default;
  InlineList(const InlineList&) = delete;
  InlineList& operator=(const InlineList&) = delete;

  void push_back(T v) {
    if (size_ == capacity_) [[unlikely]]
      Grow();
    data_[size_++] = v;
  }
  T& operator[](size_t i) { return data_[i]; }
  size_t size() const { return size_; }
  const T* data() const { return data_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  void Grow() {
    auto bigger = std::make_unique<T[]>(2 * capacity_);
    std::memcpy(static_cast<void*>(bigger.get()), data_, size_ * sizeof(T));
    heap_ = std::move(bigger);
    data_ = heap_.get();
    capacity_ *= 2;
  }
  T inline_[N];
  T* data_ = inline_;
  size_t size_ = 0;
  size_t capacity_ = N;
  std::unique_ptr<T[]> heap_;
};

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
  // The varint that heads a top-level attribute's name: 2 * its number + 1 when the
  // attribute-name table has (or now takes) it, else 2 * its length (the bytes follow).
  static uint32_t NameHead(std::string_view name) {
    const uint32_t id = attribute_name_table::Intern(name);
    return id != attribute_name_table::kNone ? 2 * id + 1 : 2 * static_cast<uint32_t>(name.size());
  }
  // Encoded bytes of a map entry's name whose head is `head`.
  static size_t NameLength(std::string_view name, uint32_t head) {
    return VarintLength(head) + ((head & 1) != 0 ? 0 : name.size());
  }
  static size_t NameLength(std::string_view name) { return NameLength(name, NameHead(name)); }
  // The head of a nested map's entry name: always written out (the table holds top-level names
  // only, so that maps keyed by data, `{"scores": {"user123": ...}}`, do not fill it).
  static uint32_t WrittenOutHead(std::string_view name) {
    return 2 * static_cast<uint32_t>(name.size());
  }
  // A map's (is_map) or list's header and body: count, n, width, offsets, n bytes.
  static size_t IndexedLength(bool is_map, size_t count, size_t n) {
    return VarintLength(count) + VarintLength(n) + 1 + count * WidthOf(is_map, count, n) + n;
  }
  // Encoded bytes of an S, N or B value, its tag included (Writer::Scalar).
  static size_t ScalarLength(Type type, std::string_view payload) {
    if (type == Type::kS && IsRun(payload)) return 1 + VarintLength(payload.size()) + 1;
    return NotRunLength(type, payload.size());
  }
  // The same for a value of n bytes that is not a run (any N or B).
  static size_t NotRunLength(Type type, size_t n) {
    return ShortTag(type, n) != 0 ? 1 + n : 1 + BytesLength(n);
  }

  struct Sizer {
    // Inline capacity: an item of a few maps and lists, and its names, allocate nothing here.
    InlineList<uint32_t, 8> bodies;
    // Every top-level name's head (NameHead), in the order the writer writes them: the writer
    // takes them from here rather than looking each name up again.
    InlineList<uint32_t, 16> heads;

    // `top`: the item's own attributes (their names may be numbered), not a nested map.
    size_t Map(const AttributeMap& map, bool top = false) {
      const size_t slot = Open();
      size_t n = 0;
      for (const auto& [name, value] : map) {
        uint32_t head = WrittenOutHead(name);
        if (top) {
          head = NameHead(name);
          heads.push_back(head);
        }
        n += NameLength(name, head) + Value(value);
      }
      return Close(slot, /*is_map=*/true, map.size(), n);
    }
    size_t List(const ValueList& list) {
      const size_t slot = Open();
      size_t n = 0;
      for (const partstore::Value& element : list) n += Value(element);
      return Close(slot, /*is_map=*/false, list.size(), n);
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
          return ScalarLength(Type::kN, value.as_number().ToString());
        case Type::kB:
          return ScalarLength(Type::kB, value.as_binary());
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
    size_t Close(size_t slot, bool is_map, size_t count, size_t n) {
      bodies[slot] = static_cast<uint32_t>(n);
      return IndexedLength(is_map, count, n);
    }
  };

  struct Writer {
    char* d;
    const uint32_t* body;            // the next composite's length, in the sizing pass's order
    const uint32_t* head = nullptr;  // the next map entry's name head, in the same order

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
    // A map entry's name, its head given (the sizer's), or a top-level name looked up.
    void Name(std::string_view name, uint32_t name_head) {
      Varint(name_head);
      if ((name_head & 1) != 0) return;
      std::memcpy(d, name.data(), name.size());
      d += name.size();
    }
    void Name(std::string_view name) { Name(name, NameHead(name)); }
    // A map's (is_map) or list's header; returns where its offsets go (and sets *body_start
    // after them) and sets *width_out to their width (0: none).
    char* Indexed(bool is_map, size_t count, char** body_start, uint8_t* width_out) {
      const uint32_t n = *body++;
      const uint8_t width = WidthOf(is_map, count, n);
      *width_out = width;
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
    void Map(const AttributeMap& map, bool top = false) {
      uint8_t width;
      char* start;
      char* offsets = Indexed(/*is_map=*/true, map.size(), &start, &width);
      for (const auto& [name, value] : map) {
        Offset(offsets, static_cast<size_t>(d - start), width);
        Name(name, top ? *head++ : WrittenOutHead(name));
        Value(value);
      }
    }
    void List(const ValueList& list) {
      uint8_t width;
      char* start;
      char* offsets = Indexed(/*is_map=*/false, list.size(), &start, &width);
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
    // An S, N (its canonical text) or B value: a run, a short scalar, or tag, length, bytes.
    void Scalar(Type type, std::string_view payload) {
      if (type == Type::kS && IsRun(payload)) {
        *d++ = static_cast<char>(kRunTag);
        Varint(static_cast<uint32_t>(payload.size()));
        *d++ = payload[0];
        return;
      }
      if (const uint8_t tag = ShortTag(type, payload.size()); tag != 0) {
        *d++ = static_cast<char>(tag);
        if (!payload.empty()) std::memcpy(d, payload.data(), payload.size());
        d += payload.size();
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

  // A new item of `length` encoded bytes and DynamoDB size `item_size`, its bytes written by
  // write(char* bytes): exactly `length` of them, the encoding Encode writes for the item. For
  // encoders from other sources than a tree (the protocol's EncodeItemJson, straight from a
  // request's JSON).
  template <typename Write>
  static StoredItem Build(size_t length, size_t item_size, Write&& write) {
    StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
    write(rep->bytes());
    return StoredItem(rep);
  }

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
      return ValueView(Type::kS, {stored_item_internal::FillOf(static_cast<uint8_t>(*p++)), n});
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

  // The sizes of a translation between the portable and the process's encoding: each map's and
  // list's new body length in pre-order, and each top-level name's head in order. The checking
  // decoder fills them as it checks (core/stored_item_decode.cc); the translation to the portable
  // form fills its own (core/stored_item_portable.cc).
  struct PortableSizes {
    InlineList<uint32_t, 8> bodies;
    InlineList<uint32_t, 16> heads;
    // The item's own names, numbered by CloseTop once the whole item has passed the checks (a
    // malformed item adds no name to the table).
    InlineList<std::string_view, 16> top_names;

    // A composite's body begins: returns its slot (the item's own is slot 0).
    size_t Open() {
      bodies.push_back(0);
      return bodies.size() - 1;
    }
    // A top-level name: its head looked up (or taken) now; its new encoded length.
    size_t TopName(std::string_view name) {
      const uint32_t head = NameHead(name);
      heads.push_back(head);
      return NameLength(name, head);
    }
    // A nested map's entry name (written out): its new encoded length.
    static size_t NestedName(std::string_view name) {
      return NameLength(name, WrittenOutHead(name));
    }
    // The composite's body ends, `count` elements of n new bytes: returns its new length.
    size_t Close(size_t slot, bool is_map, size_t count, size_t n) {
      bodies[slot] = static_cast<uint32_t>(n);
      return IndexedLength(is_map, count, n);
    }
    // The item's body ends: numbers top_names, whose values took `values` new bytes; returns the
    // item's new length.
    size_t CloseTop(size_t values) {
      size_t n = values;
      for (std::string_view name : top_names) n += TopName(name);
      return Close(0, /*is_map=*/true, top_names.size(), n);
    }
  };
  // The process's encoding of a portable one (StoredItem::PortableEncoding) that Decode has
  // checked and sized (`sizes`, `length` bytes), its names numbered
  // (core/stored_item_portable.cc).
  static StoredItem Numbered(std::string_view portable, size_t item_size,
                             const PortableSizes& sizes, size_t length);
  // ProjectStoredItem (core/stored_item_projection.h).
  static StoredItem Project(const StoredItem& source, std::vector<std::string_view> names);
  // EncodeScalarAttributes (core/stored_item_projection.h).
  static StoredItem Scalars(std::span<const ScalarAttribute> attributes);
  // PatchStoredItem (core/stored_item_patch.h).
  static StoredItem Patch(const StoredItem& source, std::span<const AttributeChange> changes);
  // PlanInPlacePatch and PatchStoredItemInPlace (core/stored_item_patch.h).
  static std::optional<InPlacePatch> PlanInPlace(const StoredItem& item,
                                                 std::span<const AttributeChange> changes);
  static void PatchInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                           const InPlacePatch& plan);
  // A top-level map-body's entries by index: their offsets (a map without offsets is walked
  // once, here) and names.
  struct Entries {
    // REQUIRES: a trusted buffer (Encode's, or one Decode accepted: width 0 only up to
    // kMaxUnindexedMap entries).
    explicit Entries(const Indexed& indexed) : m(indexed) {
      if (m.width != 0) return;
      assert(m.count <= stored_item_format::kMaxUnindexedMap);
      const char* p = m.body.data();
      for (uint32_t i = 0; i < m.count; ++i) {
        walked[i] = static_cast<uint32_t>(p - m.body.data());
        stored_item_internal::ReadEntry(p);
      }
    }
    Indexed m;
    uint32_t walked[stored_item_format::kMaxUnindexedMap];  // when m.width is 0
    size_t offset(size_t i) const {
      if (i == m.count) return m.body.size();
      return m.width == 0 ? walked[i] : GetFixed(m.offsets + i * m.width, m.width);
    }
    std::string_view name_at(size_t i) const {
      const char* p = m.body.data() + offset(i);
      std::string_view name;
      stored_item_internal::ReadNameInto(p, name);
      return name;
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
    const uint8_t width = WidthOf(/*is_map=*/true, count, n);
    *writer.d++ = static_cast<char>(width);
    *offsets = writer.d;
    writer.d += count * width;
    return writer.d;
  }
};

using Codec = StoredItemCodec;

}  // namespace partstore
