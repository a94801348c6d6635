// Stage 3 for conditions: evaluate a resolved ConditionExpression / FilterExpression on an item.
//
// Semantics (§5.2, live-verified): comparing values of different types is false, not an error;
// with a missing attribute =, <, <=, >, >=, BETWEEN, IN, begins_with, contains are false and <>
// is true (even when both sides are missing); sets compare equal regardless of order; size() of
// S counts UTF-16 code units (as DynamoDB's Java strings do: "é𝄞" has size 3), of B bytes, of
// sets / L / M elements, and of anything else is missing. evaluate.cc has each rule.
//
// On a tree item Evaluate allocates nothing; on a stored item it reads the encoding in place
// (partstore/stored_item.h) and allocates only to compare numbers (parsing their text).
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include <cstddef>
#include <optional>

#include "core/expr/ast.h"
#include "partstore/item.h"
#include "partstore/stored_item.h"

namespace partstore::expr {

// REQUIRES: `condition` is resolved. `item` null means no item exists (every path is missing).
bool Evaluate(const Condition& condition, const Item* item);
bool Evaluate(const Condition& condition, const StoredItem* item);
inline bool Evaluate(const Condition& condition, std::nullptr_t) {
  return Evaluate(condition, static_cast<const Item*>(nullptr));
}

// The value a path names inside `item`, or null when any step is missing or of the wrong type
// (a name step on a non-map, an index step on a non-list or beyond its end).
const Value* FindPath(const Item& item, const Path& path);
std::optional<ValueView> FindPath(const StoredItem& item, const Path& path);

}  // namespace partstore::expr
