// A new version of a StoredItem with some top-level attributes set or removed, written without a
// tree of the whole item: the untouched attributes' bytes are copied as they are, only the
// changed ones are encoded. How UpdateItem writes an existing item (core/expr/update_stored.h).
// An engine helper, not part of the public API (partstore/stored_item.h).
//
// Thread safety: a pure function of immutable values; thread-safe.
#pragma once

#include <span>
#include <string_view>

#include "partstore/stored_item.h"
#include "partstore/value.h"

namespace partstore {

// One top-level attribute's new value; a null value removes the attribute.
struct AttributeChange {
  std::string_view name;
  const Value* value = nullptr;
};

// `source` with `changes` applied. Removing an attribute `source` lacks changes nothing. The
// result is byte for byte what StoredItem::Encode makes of the changed item, its item_size()
// included. REQUIRES: !source.empty(); `changes` sorted by name (unsigned bytes) with no name
// twice; each name and value valid (ValidateItem: names of 1..65535 bytes, no empty sets); the
// result's encoding under 4 GiB.
StoredItem PatchStoredItem(const StoredItem& source, std::span<const AttributeChange> changes);

}  // namespace partstore
