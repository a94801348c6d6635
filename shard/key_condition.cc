#include "partstore/key_condition.h"

#include <utility>

#include "shard/expression_placeholders.h"

namespace partstore {

KeyCondition KeyCondition::Eq(std::string name, Value value) {
  KeyCondition c;
  c.partition_name_ = std::move(name);
  c.partition_value_ = std::move(value);
  return c;
}

KeyCondition& KeyCondition::SetSort(SortOp op, std::string name, Value value,
                                    std::optional<Value> high) {
  ++sort_conditions_;
  sort_op_ = op;
  sort_name_ = std::move(name);
  sort_value_ = std::move(value);
  sort_high_ = std::move(high);
  return *this;
}

KeyCondition& KeyCondition::SortEq(std::string name, Value value) & {
  return SetSort(SortOp::kEq, std::move(name), std::move(value));
}
KeyCondition& KeyCondition::Lt(std::string name, Value value) & {
  return SetSort(SortOp::kLt, std::move(name), std::move(value));
}
KeyCondition& KeyCondition::Le(std::string name, Value value) & {
  return SetSort(SortOp::kLe, std::move(name), std::move(value));
}
KeyCondition& KeyCondition::Gt(std::string name, Value value) & {
  return SetSort(SortOp::kGt, std::move(name), std::move(value));
}
KeyCondition& KeyCondition::Ge(std::string name, Value value) & {
  return SetSort(SortOp::kGe, std::move(name), std::move(value));
}
KeyCondition& KeyCondition::Between(std::string name, Value low, Value high) & {
  return SetSort(SortOp::kBetween, std::move(name), std::move(low), std::move(high));
}
KeyCondition& KeyCondition::BeginsWith(std::string name, Value prefix) & {
  return SetSort(SortOp::kBeginsWith, std::move(name), std::move(prefix));
}

std::string KeyCondition::Render(builder_internal::Placeholders& p) const {
  const std::string pk = p.Name(partition_name_);
  std::string e = pk + " = " + p.Value(partition_value_);
  if (sort_op_ == SortOp::kNone) return e;
  const std::string n = p.Name(sort_name_);
  const std::string v = p.Value(sort_value_);
  switch (sort_op_) {
    case SortOp::kNone:
      break;
    case SortOp::kEq:
      return e + " AND " + n + " = " + v;
    case SortOp::kLt:
      return e + " AND " + n + " < " + v;
    case SortOp::kLe:
      return e + " AND " + n + " <= " + v;
    case SortOp::kGt:
      return e + " AND " + n + " > " + v;
    case SortOp::kGe:
      return e + " AND " + n + " >= " + v;
    case SortOp::kBetween:
      return e + " AND " + n + " BETWEEN " + v + " AND " + p.Value(*sort_high_);
    case SortOp::kBeginsWith:
      return e + " AND begins_with(" + n + ", " + v + ")";
  }
  return e;
}

std::string KeyCondition::Expression() const {
  builder_internal::Placeholders p(kPrefix);
  return Render(p);
}

Status KeyCondition::ApplyTo(QueryRequest* request) const {
  if (request->key_conditions) {
    return Status::Validation("KeyCondition: the request already has KeyConditions");
  }
  if (sort_conditions_ > 1) {
    return Status::Validation(
        "KeyCondition: more than one sort key condition (DynamoDB allows one)");
  }
  builder_internal::Placeholders p(kPrefix);
  std::string expression = Render(p);
  return p.WriteInto(std::move(expression), "key condition", &request->key_condition_expression,
                     &request->expression_attribute_names, &request->expression_attribute_values);
}

}  // namespace partstore
