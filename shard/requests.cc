// The small shared pieces of the request structs: enum names and SimpleTable.
#include "partstore/batch_requests.h"
#include "partstore/item_requests.h"
#include "partstore/read_requests.h"
#include "partstore/table_requests.h"

namespace partstore {

std::string_view BillingModeName(BillingMode mode) {
  return mode == BillingMode::kPayPerRequest ? "PAY_PER_REQUEST" : "PROVISIONED";
}

std::string_view TableStatusName(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return "CREATING";
    case TableStatus::kUpdating:
      return "UPDATING";
    case TableStatus::kDeleting:
      return "DELETING";
    case TableStatus::kActive:
      return "ACTIVE";
  }
  return "ACTIVE";
}

std::string_view ProjectionTypeName(ProjectionType type) {
  switch (type) {
    case ProjectionType::kKeysOnly:
      return "KEYS_ONLY";
    case ProjectionType::kInclude:
      return "INCLUDE";
    case ProjectionType::kAll:
      return "ALL";
  }
  return "ALL";
}

std::string_view IndexStatusName(IndexStatus status) {
  switch (status) {
    case IndexStatus::kCreating:
      return "CREATING";
    case IndexStatus::kUpdating:
      return "UPDATING";
    case IndexStatus::kDeleting:
      return "DELETING";
    case IndexStatus::kActive:
      return "ACTIVE";
  }
  return "ACTIVE";
}

std::string_view ReturnValueName(ReturnValue value) {
  switch (value) {
    case ReturnValue::kNone:
      return "NONE";
    case ReturnValue::kAllOld:
      return "ALL_OLD";
    case ReturnValue::kUpdatedOld:
      return "UPDATED_OLD";
    case ReturnValue::kAllNew:
      return "ALL_NEW";
    case ReturnValue::kUpdatedNew:
      return "UPDATED_NEW";
  }
  return "NONE";
}

std::string_view SelectName(Select select) {
  switch (select) {
    case Select::kAllAttributes:
      return "ALL_ATTRIBUTES";
    case Select::kAllProjectedAttributes:
      return "ALL_PROJECTED_ATTRIBUTES";
    case Select::kSpecificAttributes:
      return "SPECIFIC_ATTRIBUTES";
    case Select::kCount:
      return "COUNT";
  }
  return "ALL_ATTRIBUTES";
}

CreateTableRequest SimpleTable(std::string name, const KeySchema& key) {
  CreateTableRequest request;
  request.table_name = std::move(name);
  request.attribute_definitions.push_back({key.partition.name, key.partition.type});
  request.key_schema.push_back({key.partition.name, KeyRoleName::kHash});
  if (key.sort) {
    request.attribute_definitions.push_back({key.sort->name, key.sort->type});
    request.key_schema.push_back({key.sort->name, KeyRoleName::kRange});
  }
  request.billing_mode = BillingMode::kPayPerRequest;
  return request;
}

}  // namespace partstore
