// StoredItem::Decode: the checking decoder, for encodings read from outside (snapshot files, the
// write-ahead log, backups, fuzzers). It trusts nothing: every length, offset, tag, name, set,
// number and limit is checked against the layout (core/stored_item_format.h) before the bytes
// are adopted.
#include <cstring>
#include <optional>
#include <string_view>

#include "core/stored_item_codec.h"
#include "core/stored_item_format.h"
#include "partstore/item.h"
#include "partstore/number.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"

namespace partstore {
namespace {

using PortableSizes = StoredItemCodec::PortableSizes;

using stored_item_format::GetFixed;
using stored_item_format::IsRun;
using stored_item_format::kMaxRun;
using stored_item_format::kMinRun;
using stored_item_format::kRunTag;
using stored_item_format::kShortS;
using stored_item_format::ShortTag;
using stored_item_format::WidthFor;
using stored_item_format::WidthOf;

struct Reader {
  const char* p;
  const char* end;
  // Set when a value is in a form an older version wrote: a run written out as bytes, or a
  // value short enough for a short tag written with its length (Decode encodes again).
  bool* older_form;
  // The translation to the process's encoding, sized as the check goes (one pass less than
  // sizing it after; core/stored_item_portable.cc writes it).
  PortableSizes* sizes;

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

Status CheckIndexed(Reader& r, bool is_map, int depth, size_t* size, size_t* translated);
Status CheckSet(Reader& r, Type type, size_t* size);
Status CheckScalar(Reader& r, size_t* size);
Status CheckNumber(std::string_view text, size_t* size);
Status CheckShortScalar(Reader& r, uint8_t tag, size_t* size);

// Checks one value at r.p (moving past it) standing at nesting level `depth`; adds its DynamoDB
// size to *size and sets *translated to its length in the process's encoding.
Status CheckValue(Reader& r, int depth, size_t* size, size_t* translated) {
  if (r.p == r.end) return Status::Internal("stored item: truncated value");
  const char* start = r.p;
  if (*r.p == static_cast<char>(Type::kM) || *r.p == static_cast<char>(Type::kL)) {
    const bool is_map = *r.p++ == static_cast<char>(Type::kM);
    if (depth > kMaxNestingDepth) return Status::Internal("stored item: nested too deep");
    *size += 3;
    size_t body = 0;
    if (Status s = CheckIndexed(r, is_map, depth, size, &body); !s.ok()) return s;
    *translated = 1 + body;
    return Status::Ok();
  }
  Status s = CheckScalar(r, size);
  *translated = static_cast<size_t>(r.p - start);
  return s;
}

// A value of any type but M and L (CheckValue).
Status CheckScalar(Reader& r, size_t* size) {
  const auto tag = static_cast<uint8_t>(*r.p++);
  if (tag >= kShortS) return CheckShortScalar(r, tag, size);
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
      if ((type == Type::kS && IsRun(bytes)) || ShortTag(type, bytes.size()) != 0) {
        *r.older_form = true;
      }
      *size += bytes.size();
      return Status::Ok();
    }
    case Type::kN: {
      std::string_view text;
      if (Status s = r.Bytes(&text); !s.ok()) return s;
      if (ShortTag(type, text.size()) != 0) *r.older_form = true;
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
      break;  // CheckValue's
    case Type::kSS:
    case Type::kNS:
    case Type::kBS:
      return CheckSet(r, type, size);
  }
  return Status::Internal("stored item: bad type tag");
}

// A short scalar (`tag` read): its bytes follow.
Status CheckShortScalar(Reader& r, uint8_t tag, size_t* size) {
  const Type type = stored_item_internal::kShortTagType[tag >> 5];
  const size_t n = tag - stored_item_internal::kShortTagBase[tag >> 5];
  if (n > r.left()) return Status::Internal("stored item: length past the end");
  const std::string_view bytes(r.p, n);
  r.p += n;
  if (type == Type::kN) {
    size_t number_size = 0;
    if (Status s = CheckNumber(bytes, &number_size); !s.ok()) return s;
    *size += number_size;
    return Status::Ok();
  }
  if (type == Type::kS && IsRun(bytes)) *r.older_form = true;  // a run is written as a run
  *size += n;
  return Status::Ok();
}

Status CheckNumber(std::string_view text, size_t* size) {
  Result<Number> number = Number::Parse(text);
  if (!number.ok() || number->ToString() != text) {
    return Status::Internal("stored item: a number not in canonical form");
  }
  *size = number->StorageSize();
  return Status::Ok();
}

Status CheckSet(Reader& r, Type type, size_t* size) {
  uint32_t count = 0;
  std::string_view body;
  if (Status s = r.Varint(&count); !s.ok()) return s;
  if (Status s = r.Bytes(&body); !s.ok()) return s;
  if (count == 0) return Status::Internal("stored item: empty set");
  if (count > body.size()) return Status::Internal("stored item: set count past its bytes");
  Reader elements{body.data(), body.data() + body.size(), r.older_form, r.sizes};
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
      if (i > 0 && !(previous < element)) return Status::Internal("stored item: set out of order");
      previous = element;
      *size += element.size();
    }
  }
  if (elements.p != elements.end) return Status::Internal("stored item: bytes after a set");
  return Status::Ok();
}

// A map-body (names and values) or list-body at r.p; `depth` is the level of the map or list
// itself (its elements stand at depth + 1). Adds the elements' sizes (not the 3 bytes of the
// container, which the caller counts for M and L but not for the item), and sets *translated to
// the body's length in the process's encoding.
Status CheckIndexed(Reader& r, bool is_map, int depth, size_t* size, size_t* translated) {
  uint32_t count = 0;
  uint32_t n = 0;
  if (Status s = r.Varint(&count); !s.ok()) return s;
  if (Status s = r.Varint(&n); !s.ok()) return s;
  if (r.p == r.end) return Status::Internal("stored item: truncated container");
  const auto width = static_cast<uint8_t>(*r.p++);
  if (width != WidthOf(is_map, count, n)) {
    // A small map with offsets: as versions before unindexed maps wrote it (encoded again).
    if (width != WidthFor(n)) return Status::Internal("stored item: bad offset width");
    *r.older_form = true;
  }
  if (count > n) return Status::Internal("stored item: container count past its bytes");
  if (static_cast<size_t>(count) * width > r.left() ||
      r.left() - static_cast<size_t>(count) * width < n) {
    return Status::Internal("stored item: container past the end");
  }
  const char* offsets = r.p;
  const char* body = offsets + static_cast<size_t>(count) * width;
  Reader elements{body, body + n, r.older_form, r.sizes};
  const size_t slot = r.sizes->Open();
  size_t translated_n = 0;
  std::string_view previous_name;
  for (uint32_t i = 0; i < count; ++i) {
    if (width != 0 && GetFixed(offsets + static_cast<size_t>(i) * width, width) !=
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
      if (depth == 1) {
        r.sizes->top_names.push_back(name);  // numbered once the whole item is checked
      } else {
        translated_n += PortableSizes::NestedName(name);
      }
    } else {
      *size += 1;
    }
    size_t value = 0;
    if (Status s = CheckValue(elements, depth + 1, size, &value); !s.ok()) return s;
    translated_n += value;
  }
  if (elements.p != elements.end) return Status::Internal("stored item: bytes after a container");
  r.p = elements.end;
  // The item's own body (depth 1) is closed by Decode, after its last checks.
  *translated = depth == 1 ? translated_n : r.sizes->Close(slot, is_map, count, translated_n);
  return Status::Ok();
}

}  // namespace

Result<StoredItem> StoredItem::Decode(std::string_view bytes) {
  bool older_form = false;
  PortableSizes sizes;
  Reader reader{bytes.data(), bytes.data() + bytes.size(), &older_form, &sizes};
  size_t size = 0;
  size_t values = 0;  // the new bytes of the item's values
  if (Status s = CheckIndexed(reader, /*is_map=*/true, /*depth=*/1, &size, &values); !s.ok()) {
    return s;
  }
  if (reader.p != reader.end) return Status::Internal("stored item: bytes after the item");
  if (size > kMaxItemSize) return Status::Internal("stored item: larger than 400 KB");
  const size_t length = sizes.CloseTop(values);
  StoredItem decoded = StoredItemCodec::Numbered(bytes, size, sizes, length);
  if (older_form) return Encode(decoded.ToItem());  // an older version's encoding
  return decoded;
}

}  // namespace partstore
