// KeyCondition: a Query's key condition built from typed values instead of an expression string.
//
//   QueryRequest query{.table_name = "Social"};
//   Status s = KeyCondition::Eq("PK", EntityKey("USER", "alice"))
//                  .BeginsWith("SK", KeyPrefix("FOLLOWER"))
//                  .ApplyTo(&query);
//
// ApplyTo writes what a caller would have written by hand, "#kc0 = :kc0 AND begins_with(#kc1,
// :kc1)" with its ExpressionAttributeNames and ExpressionAttributeValues,
// into the request, so a typed query and a string query are the same request and go through the
// same parser, validation and evaluator (an invalid condition, such as a sort-key comparison on a
// number with a string, gets DynamoDB's error from Query, not from the builder). The placeholders
// all begin with "kc" (Condition's begin with "c" / "f", Update's with "u"); the request's own
// names and values (for a filter or projection) are kept.
//
// One partition-key equality (required: the factory) and at most one sort-key condition, as
// DynamoDB allows. Names are written as placeholders, so reserved words and names with dots need
// no escaping. A value type; not synchronized.
#pragma once

#include <optional>
#include <string>

#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore {

namespace builder_internal {
class Placeholders;
}  // namespace builder_internal

class KeyCondition {
 public:
  // The partition key attribute `name` equal to `value`.
  static KeyCondition Eq(std::string name, Value value);

  // The sort-key condition on attribute `name` (one per condition: a second one makes ApplyTo
  // fail with a ValidationException).
  KeyCondition& SortEq(std::string name, Value value) &;
  KeyCondition& Lt(std::string name, Value value) &;
  KeyCondition& Le(std::string name, Value value) &;
  KeyCondition& Gt(std::string name, Value value) &;
  KeyCondition& Ge(std::string name, Value value) &;
  // low <= sort key <= high.
  KeyCondition& Between(std::string name, Value low, Value high) &;
  // The sort key (a string or binary) starts with `prefix`.
  KeyCondition& BeginsWith(std::string name, Value prefix) &;
  // The same on a temporary, so a condition can be built in one expression.
  KeyCondition&& SortEq(std::string name, Value value) && {
    return std::move(SortEq(std::move(name), std::move(value)));
  }
  KeyCondition&& Lt(std::string name, Value value) && {
    return std::move(Lt(std::move(name), std::move(value)));
  }
  KeyCondition&& Le(std::string name, Value value) && {
    return std::move(Le(std::move(name), std::move(value)));
  }
  KeyCondition&& Gt(std::string name, Value value) && {
    return std::move(Gt(std::move(name), std::move(value)));
  }
  KeyCondition&& Ge(std::string name, Value value) && {
    return std::move(Ge(std::move(name), std::move(value)));
  }
  KeyCondition&& Between(std::string name, Value low, Value high) && {
    return std::move(Between(std::move(name), std::move(low), std::move(high)));
  }
  KeyCondition&& BeginsWith(std::string name, Value prefix) && {
    return std::move(BeginsWith(std::move(name), std::move(prefix)));
  }

  // The expression ApplyTo writes.
  std::string Expression() const;

  // Sets `request`'s key_condition_expression and adds this condition's names and values to its
  // expression_attribute_names / _values. ValidationException, request unchanged, when the request
  // already has a key condition (expression or legacy KeyConditions), when two sort-key conditions
  // were given, or when the request already uses one of the "kc<n>" placeholders.
  Status ApplyTo(QueryRequest* request) const;

 private:
  static constexpr const char* kPrefix = "kc";
  KeyCondition() = default;
  enum class SortOp { kNone, kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };
  std::string Render(builder_internal::Placeholders& p) const;
  KeyCondition& SetSort(SortOp op, std::string name, Value value, std::optional<Value> high = {});

  std::string partition_name_;
  Value partition_value_;
  SortOp sort_op_ = SortOp::kNone;
  std::string sort_name_;
  Value sort_value_;
  std::optional<Value> sort_high_;  // kBetween
  int sort_conditions_ = 0;
};

}  // namespace partstore
