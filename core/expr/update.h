// Stage 3 for UpdateExpression: apply a resolved update to an item (or to no item: UpdateItem
// upserts) and report the attributes ReturnValues UPDATED_OLD / UPDATED_NEW return.
//
// Semantics (§5.3, each rule checked against Scylla's test_update_expression.py and
// test_returnvalues.py, which pass against DynamoDB):
//   - Every operand and every list index refers to the item *before* the update: "SET x = :v,
//     y = x" fails when x did not exist, "REMOVE a[1] SET a[3] = :v" sets the element that was
//     at index 3.
//   - SET: plain, `+` / `-` on numbers (exact decimal; Number's overflow / 38-digit errors),
//     if_not_exists(path, v), list_append(l1, l2) in either order. A list index beyond the end
//     appends; several such SETs append in index order. A nested path whose parent is missing or
//     of the wrong type: "The document path provided in the update expression is invalid for
//     update".
//   - An operand path that does not exist: "The provided expression refers to an attribute that
//     does not exist in the item"; an operand of the wrong runtime type (a string in `+`, a
//     number in list_append, ADD of a number to a set, DELETE from a string): "An operand in the
//     update expression has an incorrect data type".
//   - REMOVE: an absent attribute, map member or list index is a no-op; removing list elements
//     shifts the later ones. On an item that does not exist every REMOVE is a no-op, even of a
//     nested path (DynamoDB quirk; on an existing item a missing parent is the error above).
//   - ADD: numbers (absent = 0) and sets (union; element types must match). DELETE: sets only;
//     removing the last element removes the attribute; absent attribute = no-op.
//   - No key attribute may be updated: "One or more parameter values were invalid: Cannot update
//     attribute pk. This attribute is part of the key". No empty set may result.
//   - Constant operands of the wrong type (`ADD a :s` with a string) are the Resolver's errors;
//     ApplyUpdate repeats those checks with the same texts so that hand-built trees fail alike.
//
// Not checked here: the 400 KB size and 32-level nesting limits of the result. The caller runs
// ValidateItem(outcome.item) (item.h) before storing it.
//
// ReturnValues UPDATED_OLD / UPDATED_NEW are the projections of the old / new item onto the
// paths the actions name, keeping the hierarchy (like a ProjectionExpression). That single rule
// reproduces DynamoDB's observed behaviour, quirks included: a nested update returns only the
// touched sub-path; `SET a.c[100] = :v` (an append) is absent from UPDATED_NEW; `REMOVE a.c[1]`
// shows the element that shifted into a.c[1] in UPDATED_NEW; a REMOVE of an absent path is
// absent from UPDATED_OLD; a new attribute is absent from UPDATED_OLD.
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include "core/expr/ast.h"
#include "partstore/item.h"
#include "partstore/key.h"
#include "partstore/status.h"

namespace partstore::expr {

// What the caller will return, so that only what is needed is computed.
enum class UpdatedAttributes : uint8_t { kNone, kUpdatedOld, kUpdatedNew };

struct UpdateOutcome {
  // The item after the update. When there was no item it starts empty: the caller adds the key
  // attributes (ApplyUpdate never sees the key values).
  Item item;
  // UPDATED_OLD or UPDATED_NEW when asked for, else empty. Empty also means "no Attributes in the
  // response".
  Item attributes;
  // Whether an item exists after the update. False only when there was no item and every action
  // is a REMOVE or DELETE: DynamoDB then creates nothing (an empty update, e.g. AttributeUpdates
  // {}, does create the key-only item).
  bool exists = true;
};

// REQUIRES: `update` is resolved (operands point at live values). `old_item` null means the item
// does not exist.
Result<UpdateOutcome> ApplyUpdate(const UpdateExpression& update, const Item* old_item,
                                  const KeySchema& key_schema, UpdatedAttributes wanted);

}  // namespace partstore::expr
