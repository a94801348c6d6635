#include "shard/key_condition.h"

#include <utility>

namespace partstore {

namespace {

constexpr const char* kPartitionName = "#kc_pk";
constexpr const char* kPartitionValue = ":kc_pk";
constexpr const char* kSortName = "#kc_sk";
constexpr const char* kSortValue = ":kc_sk";
constexpr const char* kSortHigh = ":kc_sk2";

}  // namespace

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

std::string KeyCondition::Expression() const {
  std::string e = std::string(kPartitionName) + " = " + kPartitionValue;
  const std::string n = kSortName;
  const std::string v = kSortValue;
  switch (sort_op_) {
    case SortOp::kNone:
      break;
    case SortOp::kEq:
      e += " AND " + n + " = " + v;
      break;
    case SortOp::kLt:
      e += " AND " + n + " < " + v;
      break;
    case SortOp::kLe:
      e += " AND " + n + " <= " + v;
      break;
    case SortOp::kGt:
      e += " AND " + n + " > " + v;
      break;
    case SortOp::kGe:
      e += " AND " + n + " >= " + v;
      break;
    case SortOp::kBetween:
      e += " AND " + n + " BETWEEN " + v + " AND " + kSortHigh;
      break;
    case SortOp::kBeginsWith:
      e += " AND begins_with(" + n + ", " + v + ")";
      break;
  }
  return e;
}

Status KeyCondition::ApplyTo(QueryRequest* request) const {
  if (request->key_condition_expression || request->key_conditions) {
    return Status::Validation("KeyCondition: the request already has a key condition");
  }
  if (sort_conditions_ > 1) {
    return Status::Validation(
        "KeyCondition: more than one sort key condition (DynamoDB allows one)");
  }
  auto taken = [](const auto& map, const char* placeholder) {
    return map && map->find(std::string_view(placeholder)) != map->end();
  };
  for (const char* name : {kPartitionName, kSortName}) {
    if (taken(request->expression_attribute_names, name)) {
      return Status::Validation(std::string("KeyCondition: the request already defines ") + name);
    }
  }
  for (const char* value : {kPartitionValue, kSortValue, kSortHigh}) {
    if (taken(request->expression_attribute_values, value)) {
      return Status::Validation(std::string("KeyCondition: the request already defines ") + value);
    }
  }
  if (!request->expression_attribute_names) request->expression_attribute_names.emplace();
  if (!request->expression_attribute_values) request->expression_attribute_values.emplace();
  expr::NameMap& names = *request->expression_attribute_names;
  AttributeMap& values = *request->expression_attribute_values;
  names.emplace(kPartitionName, partition_name_);
  values.emplace(kPartitionValue, partition_value_);
  if (sort_op_ != SortOp::kNone) {
    names.emplace(kSortName, sort_name_);
    values.emplace(kSortValue, sort_value_);
    if (sort_high_) values.emplace(kSortHigh, *sort_high_);
  }
  request->key_condition_expression = Expression();
  return Status::Ok();
}

}  // namespace partstore
