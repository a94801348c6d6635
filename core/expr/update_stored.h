// UpdateItem on an existing item without a tree of the whole item: ApplyUpdate (update.h) runs on
// the top-level attributes the update names, decoded from the stored item, and the new version
// is written by copying the other attributes' bytes (PatchStoredItem, core/stored_item_patch.h).
//
// Why that is exact: an update reads and writes only the attributes its actions name (targets
// and operand paths), and everything ApplyUpdate checks or returns (its errors, UPDATED_OLD /
// UPDATED_NEW) is about those. ValidateItem's checks of names and values concern only what
// changed (the rest was valid when stored); the 400 KB limit is checked on the whole new item.
// The result is byte for byte StoredItem::Encode of the item ApplyUpdate makes of the whole tree
// (tests/expr/update_stored_test.cc checks that on random items and updates, and the fuzz target
// update_stored_fuzz on any update text). The common update, whole attributes SET to constants
// or REMOVEd with no UPDATED_* asked for, does not build even that small tree: its changes are
// the request's values.
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include <boost/container/small_vector.hpp>
#include <optional>
#include <span>
#include <string_view>

#include "core/expr/ast.h"
#include "core/expr/update.h"
#include "core/stored_item_patch.h"
#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/stored_item.h"

namespace partstore::expr {

struct StoredUpdateOutcome {
  StoredItem item;  // the new version
  // The new values of the `also` attributes the new item has: what a check of the new item's
  // index keys reads (Table::CheckIndexKeys).
  Item touched;
  // UPDATED_OLD or UPDATED_NEW when asked for, else empty (as UpdateOutcome::attributes).
  Item attributes;
};

// REQUIRES: `update` is resolved; !old.empty(). `also`: the top-level attributes to read into
// `touched` (the indexes' key attributes). Errors: ApplyUpdate's, ValidateItem's (its
// kItemTooLarge text when the new item is over 400 KB).
Result<StoredUpdateOutcome> ApplyUpdateToStored(const UpdateExpression& update,
                                                const StoredItem& old, const KeySchema& key_schema,
                                                UpdatedAttributes wanted,
                                                std::span<const std::string_view> also = {});

// An update written into its item's own buffer (PlanInPlacePatch, core/stored_item_patch.h): its
// changes (views of the update's paths and values) and where they go.
struct InPlaceUpdate {
  boost::container::small_vector<AttributeChange, 8> changes;
  InPlacePatch plan;
};

// `update` on `item` as an in-place write, or nullopt when it cannot be one: the update is not
// the common kind (every action SETs a whole non-key attribute to a constant; no UPDATED_* asked
// for), a new value is not valid (ApplyUpdateToStored then gives the error), or a change does not
// keep the item's layout and size, or `item` is shared (PlanInPlacePatch). The result, applied,
// is ApplyUpdateToStored's new version, byte for byte. REQUIRES: `update` is resolved.
std::optional<InPlaceUpdate> PlanUpdateInPlace(const UpdateExpression& update,
                                               const StoredItem& item, const KeySchema& key_schema,
                                               UpdatedAttributes wanted);

// Writes `update` into `item`. REQUIRES: `update` is PlanUpdateInPlace(..., item, ...), and what
// PatchStoredItemInPlace requires.
void ApplyUpdateInPlace(StoredItem& item, const InPlaceUpdate& update);

}  // namespace partstore::expr
