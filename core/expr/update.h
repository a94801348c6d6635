// Stage 3 for UpdateExpression: apply a resolved update to an item (or to no item: UpdateItem
// upserts) and report the attributes ReturnValues UPDATED_OLD / UPDATED_NEW return.
//
// Semantics (§5.3): SET with +, -, if_not_exists, list_append, and list indexes beyond the end
// appending (several in index order); REMOVE shifts list elements, with every index referring to
// the item before the update; ADD for numbers (absent = 0) and sets; DELETE for sets (removing
// the last element removes the attribute); exact decimal arithmetic with DynamoDB's errors;
// no key attribute may be updated; no empty set may result. Runtime errors carry DynamoDB's
// texts (e.g. "The provided expression refers to an attribute that does not exist in the item",
// "The document path provided in the update expression is invalid for update",
// "An operand in the update expression has an incorrect data type").
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include "core/expr/ast.h"
#include "core/item.h"
#include "core/key.h"
#include "core/status.h"

namespace partstore::expr {

// What the caller will return, so that only what is needed is computed.
enum class UpdatedAttributes : uint8_t { kNone, kUpdatedOld, kUpdatedNew };

struct UpdateOutcome {
  Item item;        // the item after the update
  Item attributes;  // UPDATED_OLD or UPDATED_NEW, when asked for
};

// REQUIRES: `update` is resolved. `old_item` null means the item does not exist.
Result<UpdateOutcome> ApplyUpdate(const UpdateExpression& update, const Item* old_item,
                                  const KeySchema& key_schema, UpdatedAttributes wanted);

}  // namespace partstore::expr
