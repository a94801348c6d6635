// Projecting a StoredItem onto some of its top-level attributes, without building a tree: how
// the engine makes an INCLUDE index entry, a stream record's keys and a key for the write-ahead
// log. An engine helper, not part of the public API (partstore/stored_item.h).
//
// Thread safety: a pure function of immutable values; thread-safe.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "partstore/stored_item.h"
#include "partstore/value.h"

namespace partstore {

// A StoredItem holding only the top-level attributes of `source` named in `names` (any order;
// names `source` lacks are skipped), in a new buffer: the chosen attributes' bytes are copied as
// they are. When every attribute of `source` is named, it returns `source` itself (one more
// reference to its buffer, no copy). REQUIRES: !source.empty().
StoredItem ProjectStoredItem(const StoredItem& source, std::vector<std::string_view> names);

// A top-level attribute of type S, N or B, given by its bytes (an N by its canonical text).
struct ScalarAttribute {
  std::string_view name;
  Type type = Type::kS;
  std::string_view payload;
};

// A StoredItem of `attributes`, written straight from their bytes: byte for byte what
// StoredItem::Encode makes of the same item. How a KEYS_ONLY index entry's item is rebuilt from
// its keys. REQUIRES: sorted by name (unsigned bytes), no name twice, valid names and values.
StoredItem EncodeScalarAttributes(std::span<const ScalarAttribute> attributes);


}  // namespace partstore
