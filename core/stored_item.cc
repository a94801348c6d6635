// StoredItem's encoding (partstore/stored_item.h has the views that read it).
//
// Byte layout (all integers little-endian; varint = LEB128, 7 bits per byte, at most 5 bytes):
//
//   buffer  := header item
//   header  := refs:u32 (atomic) | item_size:u32 (DynamoDB's ItemSize, partstore/item.h)
//              (8 bytes: the item's length is its map-body's own, read from its first bytes)
//   item    := map-body            (the top-level attributes; a map without its tag)
//   value   := tag:u8 payload      (tag = the Type enumerator, partstore/value.h: S=0 .. BS=9,
//                                   or kRunTag)
//     S, B      varint(n) n bytes
//     run       (tag kRunTag = 10) varint(n) byte: an S value of kMinRun..kMaxRun copies of one
//               byte. Every such S value is written so, and no other: the encoding stays
//               canonical. Its view reads the bytes from a shared buffer of that byte (FillOf),
//               so a simulator's padding ("data": 400 x 'x') costs 4 bytes, not 400. Decode
//               also takes such a value written out (as versions before runs wrote it: older
//               snapshots and logs) and encodes the item again.
//     N         varint(n) n bytes: the canonical decimal text (Number::ToString(), exact)
//     BOOL      u8 (0 or 1)
//     NULL      (nothing)
//     SS, NS, BS  varint(count) varint(n) n bytes of elements, each varint(len) bytes, in the
//               set's order (S and B by unsigned bytes, N numerically; N as canonical text)
//     L         list-body
//     M         map-body
//   list-body := varint(count) varint(n) width:u8 offsets (count x width bytes) n bytes of
//                elements, each a value
//   map-body  := varint(count) varint(n) width:u8 offsets (count x width bytes) n bytes of
//                entries, each varint(len) name value, sorted by name (unsigned bytes), unique
//   offsets:     where each element or entry starts, from the start of the n bytes; width is
//                1, 2 or 4, the smallest that holds n. They give O(1) list indexing and binary
//                search of names; a reader that walks in order does not need them.
//
// Every composite carries its byte length, so any value can be skipped without reading it. An
// item of 6 short attributes costs 8 header bytes plus about 4 per attribute (name length, tag,
// value length, offset) over its DynamoDB size.

#include "partstore/stored_item.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <functional>
#include <new>
#include <vector>

#include "core/stored_item_projection.h"

namespace partstore {

// The encoder, the trusted readers the views use, and the checking decoder. One struct so that
// the views' private constructors are reachable from one place.
namespace {

// A run: an S value of kMinRun..kMaxRun copies of one byte, encoded as its length and the byte.
// The upper bound bounds the fill buffers: 64 KiB for each byte value a process uses (16 MiB if
// it used all 256).
constexpr uint8_t kRunTag = 10;
constexpr size_t kMinRun = 32;
constexpr size_t kMaxRun = 64 * 1024;

// Whether `text` is a run (see above).
bool IsRun(std::string_view text) {
  return text.size() >= kMinRun && text.size() <= kMaxRun &&
         std::memcmp(text.data(), text.data() + 1, text.size() - 1) == 0;
}

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

struct StoredItemCodec {
  // ---- Writing ------------------------------------------------------------------------------
  // Two passes and one allocation. The sizing pass computes every composite's body length (the
  // n of the layout) in pre-order into `bodies`; the writing pass then writes straight into the
  // item's buffer, taking the lengths in the same order (a composite's header, which holds n and
  // the offset width, comes before its body).

  static uint8_t WidthFor(size_t n) { return n <= 0xFF ? 1 : n <= 0xFFFF ? 2 : 4; }
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
        case Type::kS: {
          const std::string_view text = value.as_string();
          return 1 + (IsRun(text) ? VarintLength(text.size()) + 1 : BytesLength(text.size()));
        }
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
    void Value(const partstore::Value& value) {
      *d++ = static_cast<char>(value.type());
      switch (value.type()) {
        case Type::kS: {
          const std::string_view text = value.as_string();
          if (IsRun(text)) {
            d[-1] = static_cast<char>(kRunTag);
            Varint(static_cast<uint32_t>(text.size()));
            *d++ = text[0];
            return;
          }
          Bytes(text);
          return;
        }
        case Type::kN:
          Bytes(value.as_number().ToString());
          return;
        case Type::kB:
          Bytes(value.as_binary());
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

  static uint32_t GetVarint(const char*& p) {
    uint32_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<uint8_t>(*p++);
      v |= static_cast<uint32_t>(byte & 0x7F) << shift;
      if (byte < 0x80) return v;
    }
  }

  static uint32_t GetFixed(const char* p, uint8_t width) {
    uint32_t v = 0;
    for (uint8_t i = 0; i < width; ++i)
      v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
    return v;
  }

  // Reads one value at p and moves p past it.
  static ValueView ReadValue(const char*& p) {
    const auto tag = static_cast<uint8_t>(*p++);
    if (tag == kRunTag) {
      const uint32_t n = GetVarint(p);
      return ValueView(Type::kS, {FillOf(static_cast<uint8_t>(*p++)), n});
    }
    const auto type = static_cast<Type>(tag);
    switch (type) {
      case Type::kS:
      case Type::kN:
      case Type::kB: {
        const uint32_t n = GetVarint(p);
        ValueView view(type, {p, n});
        p += n;
        return view;
      }
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

  // ---- Checked reading (Decode) -------------------------------------------------------------

  struct Reader {
    const char* p;
    const char* end;
    bool* runs_written_out;  // set when a run is written out as bytes (Decode encodes again)

    size_t left() const { return static_cast<size_t>(end - p); }
    Status Varint(uint32_t* v) {
      *v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        if (p == end) return Status::Internal("stored item: truncated varint");
        const auto byte = static_cast<uint8_t>(*p++);
        if (shift == 28 && byte > 0x0F) return Status::Internal("stored item: varint overflows");
        *v |= static_cast<uint32_t>(byte & 0x7F) << shift;
        if (byte < 0x80) {
          if (byte == 0 && shift > 0) return Status::Internal("stored item: overlong varint");
          return Status::Ok();
        }
      }
      return Status::Internal("stored item: varint too long");
    }
    Status Bytes(std::string_view* out) {
      uint32_t n = 0;
      if (Status s = Varint(&n); !s.ok()) return s;
      if (n > left()) return Status::Internal("stored item: length past the end");
      *out = {p, n};
      p += n;
      return Status::Ok();
    }
  };

  // Checks one value at r.p (moving past it) standing at nesting level `depth`; adds its DynamoDB
  // size to *size.
  static Status CheckValue(Reader& r, int depth, size_t* size) {
    if (r.p == r.end) return Status::Internal("stored item: truncated value");
    const auto tag = static_cast<uint8_t>(*r.p++);
    if (tag == kRunTag) {
      uint32_t n = 0;
      if (Status s = r.Varint(&n); !s.ok()) return s;
      if (n < kMinRun || n > kMaxRun) return Status::Internal("stored item: bad run length");
      if (r.p == r.end) return Status::Internal("stored item: truncated run");
      ++r.p;
      *size += n;
      return Status::Ok();
    }
    if (tag > static_cast<uint8_t>(Type::kBS)) return Status::Internal("stored item: bad type tag");
    const auto type = static_cast<Type>(tag);
    switch (type) {
      case Type::kS:
      case Type::kB: {
        std::string_view bytes;
        if (Status s = r.Bytes(&bytes); !s.ok()) return s;
        if (type == Type::kS && IsRun(bytes)) *r.runs_written_out = true;
        *size += bytes.size();
        return Status::Ok();
      }
      case Type::kN: {
        std::string_view text;
        if (Status s = r.Bytes(&text); !s.ok()) return s;
        size_t number_size = 0;
        if (Status s = CheckNumber(text, &number_size); !s.ok()) return s;
        *size += number_size;
        return Status::Ok();
      }
      case Type::kBool:
        if (r.p == r.end || static_cast<uint8_t>(*r.p) > 1) {
          return Status::Internal("stored item: bad BOOL");
        }
        ++r.p;
        *size += 1;
        return Status::Ok();
      case Type::kNull:
        *size += 1;
        return Status::Ok();
      case Type::kM:
      case Type::kL:
        if (depth > kMaxNestingDepth) return Status::Internal("stored item: nested too deep");
        *size += 3;
        return CheckIndexed(r, type == Type::kM, depth, size);
      case Type::kSS:
      case Type::kNS:
      case Type::kBS:
        return CheckSet(r, type, size);
    }
    return Status::Internal("stored item: bad type tag");
  }

  static Status CheckNumber(std::string_view text, size_t* size) {
    Result<Number> number = Number::Parse(text);
    if (!number.ok() || number->ToString() != text) {
      return Status::Internal("stored item: a number not in canonical form");
    }
    *size = number->StorageSize();
    return Status::Ok();
  }

  static Status CheckSet(Reader& r, Type type, size_t* size) {
    uint32_t count = 0;
    std::string_view body;
    if (Status s = r.Varint(&count); !s.ok()) return s;
    if (Status s = r.Bytes(&body); !s.ok()) return s;
    if (count == 0) return Status::Internal("stored item: empty set");
    if (count > body.size()) return Status::Internal("stored item: set count past its bytes");
    Reader elements{body.data(), body.data() + body.size(), r.runs_written_out};
    std::string_view previous;
    std::optional<Number> previous_number;
    for (uint32_t i = 0; i < count; ++i) {
      std::string_view element;
      if (Status s = elements.Bytes(&element); !s.ok()) return s;
      if (type == Type::kNS) {
        size_t number_size = 0;
        if (Status s = CheckNumber(element, &number_size); !s.ok()) return s;
        Number number = Number::Parse(element).value();
        if (previous_number && !(*previous_number < number)) {
          return Status::Internal("stored item: number set out of order");
        }
        previous_number = std::move(number);
        *size += number_size;
      } else {
        if (i > 0 && !(previous < element))
          return Status::Internal("stored item: set out of order");
        previous = element;
        *size += element.size();
      }
    }
    if (elements.p != elements.end) return Status::Internal("stored item: bytes after a set");
    return Status::Ok();
  }

  // A map-body (names and values) or list-body at r.p; `depth` is the level of the map or list
  // itself (its elements stand at depth + 1). Adds the elements' sizes (not the 3 bytes of the
  // container, which the caller counts for M and L but not for the item).
  static Status CheckIndexed(Reader& r, bool is_map, int depth, size_t* size) {
    uint32_t count = 0;
    uint32_t n = 0;
    if (Status s = r.Varint(&count); !s.ok()) return s;
    if (Status s = r.Varint(&n); !s.ok()) return s;
    if (r.p == r.end) return Status::Internal("stored item: truncated container");
    const auto width = static_cast<uint8_t>(*r.p++);
    if (width != WidthFor(n)) return Status::Internal("stored item: bad offset width");
    if (count > n) return Status::Internal("stored item: container count past its bytes");
    if (static_cast<size_t>(count) * width > r.left() ||
        r.left() - static_cast<size_t>(count) * width < n) {
      return Status::Internal("stored item: container past the end");
    }
    const char* offsets = r.p;
    const char* body = offsets + static_cast<size_t>(count) * width;
    Reader elements{body, body + n, r.runs_written_out};
    std::string_view previous_name;
    for (uint32_t i = 0; i < count; ++i) {
      if (GetFixed(offsets + static_cast<size_t>(i) * width, width) !=
          static_cast<size_t>(elements.p - body)) {
        return Status::Internal("stored item: offset does not match its element");
      }
      if (is_map) {
        std::string_view name;
        if (Status s = elements.Bytes(&name); !s.ok()) return s;
        if (name.empty() || name.size() > kMaxAttributeNameSize) {
          return Status::Internal("stored item: bad attribute name length");
        }
        if (i > 0 && !(previous_name < name)) {
          return Status::Internal("stored item: names out of order or repeated");
        }
        previous_name = name;
        // Entries of M count 1 + name; the item's attributes count the name (see ItemSize).
        *size += name.size() + (depth > 1 ? 1 : 0);
      } else {
        *size += 1;
      }
      if (Status s = CheckValue(elements, depth + 1, size); !s.ok()) return s;
    }
    if (elements.p != elements.end) return Status::Internal("stored item: bytes after a container");
    r.p = elements.end;
    return Status::Ok();
  }

  // ProjectStoredItem (core/stored_item_projection.h).
  static StoredItem Project(const StoredItem& source, std::vector<std::string_view> names);
};

namespace {
using Codec = StoredItemCodec;
}  // namespace

namespace stored_item_internal {

ValueView ReadValue(const char*& p) { return Codec::ReadValue(p); }

MapEntry ReadEntry(const char*& p) {
  const std::string_view name = ReadBytes(p);
  return {name, Codec::ReadValue(p)};
}

std::string_view ReadBytes(const char*& p) {
  const uint32_t n = Codec::GetVarint(p);
  const std::string_view bytes(p, n);
  p += n;
  return bytes;
}

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

Result<StoredItem> StoredItem::Decode(std::string_view bytes) {
  bool runs_written_out = false;
  Codec::Reader reader{bytes.data(), bytes.data() + bytes.size(), &runs_written_out};
  size_t size = 0;
  if (Status s = Codec::CheckIndexed(reader, /*is_map=*/true, /*depth=*/1, &size); !s.ok()) {
    return s;
  }
  if (reader.p != reader.end) return Status::Internal("stored item: bytes after the item");
  if (size > kMaxItemSize) return Status::Internal("stored item: larger than 400 KB");
  Rep* rep = Allocate(bytes.size(), size);
  std::memcpy(rep->bytes(), bytes.data(), bytes.size());
  StoredItem decoded(rep);
  if (runs_written_out) return Encode(decoded.ToItem());  // an older version's encoding
  return decoded;
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
  const uint8_t width = Codec::WidthFor(n);
  writer.Varint(static_cast<uint32_t>(kept.size()));
  writer.Varint(static_cast<uint32_t>(n));
  *writer.d++ = static_cast<char>(width);
  char* offsets = writer.d;
  char* const start = writer.d + kept.size() * width;
  writer.d = start;
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
  return body_.data() + StoredItemCodec::GetFixed(offsets_ + i * width_, width_);
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
