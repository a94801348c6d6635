// Stage 3 for KeyConditionExpression: turn a resolved condition into the partition key value and
// a sort-key range, checked against the key schema of the table or index being queried.
//
// Rejections (§5.1, DynamoDB's texts): a condition on a non-key attribute, a missing partition
// key condition ("Query condition missed key schema element: pk"), more than one condition per
// key, an operator other than = on the partition key, begins_with on a number sort key, OR / NOT
// / IN / <> / other functions, nested paths, and values whose type does not match the key schema.
//
// Thread safety: pure functions; thread-safe for const arguments.
#pragma once

#include "core/expr/ast.h"
#include "partstore/key.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore::expr {

enum class SortKeyOp : uint8_t { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };

struct KeyCondition {
  const Value* partition = nullptr;  // the partition key's value (points into the request)
  SortKeyOp sort_op = SortKeyOp::kNone;
  const Value* sort_low = nullptr;   // the operand of =, <, ..., begins_with; BETWEEN's lower
  const Value* sort_high = nullptr;  // BETWEEN's upper bound

  // Whether a sort key value satisfies the sort-key condition (true for kNone).
  bool MatchesSortKey(const Value& sort_key) const;
};

// Runs CheckKeyConditionShape (declared in parser.h, defined in key_condition.cc: the operators,
// operands and one condition per key, then "Conditions can be of length 1 or 2 only", all of
// which DynamoDB checks before looking the table up), then the checks against `schema`.
// REQUIRES: `condition` is resolved.
Result<KeyCondition> AnalyzeKeyCondition(const Condition& condition, const KeySchema& schema);

}  // namespace partstore::expr
