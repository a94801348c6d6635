// ProjectStoredItem and EncodeScalarAttributes
// (core/stored_item_projection.h): items written from another item's entries or from scalars.
#include "core/stored_item_projection.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <span>
#include <vector>

#include "core/stored_item_codec.h"

namespace partstore {

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

  const size_t length = Codec::IndexedLength(/*is_map=*/true, kept.size(), n);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Codec::Writer writer{rep->bytes(), nullptr};
  const uint8_t width = WidthOf(/*is_map=*/true, kept.size(), n);
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

StoredItem StoredItemCodec::Scalars(std::span<const ScalarAttribute> attributes) {
  size_t n = 0;
  size_t item_size = 0;
  for (const ScalarAttribute& a : attributes) {
    n += NameLength(a.name) + ScalarLength(a.type, a.payload);
    item_size += a.name.size() + ValueView(a.type, a.payload).Size();
  }
  const size_t length = IndexedLength(/*is_map=*/true, attributes.size(), n);
  StoredItem::Rep* rep = StoredItem::Allocate(length, item_size);
  Writer writer{rep->bytes(), nullptr};
  const uint8_t width = WidthOf(/*is_map=*/true, attributes.size(), n);
  char* offsets;
  char* const start = MapHeader(writer, attributes.size(), n, &offsets);
  for (const ScalarAttribute& a : attributes) {
    Writer::Offset(offsets, static_cast<size_t>(writer.d - start), width);
    writer.Name(a.name);
    writer.Scalar(a.type, a.payload);
  }
  assert(writer.d == rep->bytes() + length);
  return StoredItem(rep);
}

StoredItem EncodeScalarAttributes(std::span<const ScalarAttribute> attributes) {
  return StoredItemCodec::Scalars(attributes);
}

}  // namespace partstore
