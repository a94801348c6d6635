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

#include <span>
#include <string_view>

#include "core/expr/ast.h"
#include "core/expr/update.h"
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

}  // namespace partstore::expr
