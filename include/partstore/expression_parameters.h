// The parameters of DynamoDB's requests that name attributes (ExpressionAttributeNames) and the
// legacy, pre-expression parameters (Expected, KeyConditions, QueryFilter, ScanFilter,
// AttributeUpdates), as typed structs. The engine translates the legacy ones into the same
// trees the expressions produce, with DynamoDB's validation and messages; new code uses the
// expressions or the typed builders (partstore/key_condition.h, condition_builder.h,
// update_builder.h).
//
// Thread safety: value types, not synchronized; const access from many threads is safe.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "partstore/value.h"

namespace partstore::expr {

// ExpressionAttributeNames: "#placeholder" -> attribute name.
using NameMap = std::map<std::string, std::string, std::less<>>;

// DynamoDB's ComparisonOperator enum.
enum class ComparisonOperator : uint8_t {
  kEq,
  kNe,
  kLe,
  kLt,
  kGe,
  kGt,
  kNotNull,
  kNull,
  kContains,
  kNotContains,
  kBeginsWith,
  kIn,
  kBetween,
};

// DynamoDB's ConditionalOperator: how several Expected / filter entries combine (default AND).
enum class ConditionalOperator : uint8_t { kAnd, kOr };

// One entry of Expected (ExpectedAttributeValue). Which members the request carried matters
// (e.g. an empty AttributeValueList is not an absent one), hence the optionals.
struct ExpectedAttribute {
  std::string name;  // the attribute: a literal top-level name, never a document path
  std::optional<Value> value;
  std::optional<bool> exists;
  std::optional<ComparisonOperator> comparison_operator;
  std::optional<std::vector<Value>> attribute_value_list;
};

// One entry of KeyConditions, QueryFilter or ScanFilter (DynamoDB's Condition structure; its
// ComparisonOperator is required by the wire model).
struct AttributeCondition {
  std::string name;
  ComparisonOperator comparison_operator = ComparisonOperator::kEq;
  std::vector<Value> attribute_value_list;  // an absent list is an empty one
};

// DynamoDB's AttributeAction.
enum class AttributeAction : uint8_t { kPut, kAdd, kDelete };

// One entry of AttributeUpdates (AttributeValueUpdate).
struct AttributeUpdate {
  std::string name;
  std::optional<AttributeAction> action;  // absent means PUT
  std::optional<Value> value;
};

}  // namespace partstore::expr
