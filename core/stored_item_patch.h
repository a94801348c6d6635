// A new version of a StoredItem with some top-level attributes set or removed, written without a
// tree of the whole item: the untouched attributes' bytes are copied as they are, only the
// changed ones are encoded. How UpdateItem writes an existing item (core/expr/update_stored.h).
// An engine helper, not part of the public API (partstore/stored_item.h).
//
// Thread safety: PatchStoredItem and PlanInPlacePatch are pure functions of immutable values;
// PatchStoredItemInPlace writes into its item's buffer (its REQUIRES says who may run it).
#pragma once

#include <boost/container/small_vector.hpp>
#include <optional>
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

// ---- Changing an item where it is ------------------------------------------------------------
// A writer that holds the only reference to an item's buffer may write a change into it when the
// change keeps the item's layout: the value replaces one of the same encoded length (so no entry
// moves and no offset changes) and the same size (so the header's item size stands). An update
// then writes only its new values, with no new buffer and no copy of the rest (Table::UpdateItem).
// Two steps, so that a writer can decide (and charge capacity) between them.

// Where each change goes in the item's buffer, in the changes' order.
struct InPlacePatch {
  boost::container::small_vector<uint32_t, 4> at;
};

// The plan for writing `changes` into `item`, or nullopt when they cannot be: `item` is shared
// (another handle to its buffer exists), or a change removes an attribute, adds one, or gives one
// a value of another encoded length or size. REQUIRES: `changes` as PatchStoredItem's.
std::optional<InPlacePatch> PlanInPlacePatch(const StoredItem& item,
                                             std::span<const AttributeChange> changes);

// Writes `changes` into `item`'s buffer as `plan` says; `item` then equals
// PatchStoredItem(item as it was, changes), byte for byte. REQUIRES: `plan` is
// PlanInPlacePatch(item, changes), and nothing has copied, changed or released `item` since;
// whoever could read the buffer concurrently is excluded (the item's stripe held exclusively).
void PatchStoredItemInPlace(StoredItem& item, std::span<const AttributeChange> changes,
                            const InPlacePatch& plan);

}  // namespace partstore
