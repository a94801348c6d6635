#include "partstore/item.h"

#include <algorithm>
#include <string>

namespace partstore {

// DynamoDB's item-size rule (reference §1.1, as reproduced by dynalite against live DynamoDB):
//   S: UTF-8 bytes.  B: raw bytes.  N: Number::StorageSize().  BOOL, NULL: 1.
//   M: 3 + sum over entries of (1 + name bytes + value size).
//   L: 3 + sum over elements of (1 + value size).
//   SS / BS / NS: sum of element sizes, no per-element overhead.
size_t ValueSize(const Value& value) {
  switch (value.type()) {
    case Type::kS:
      return value.as_string().size();
    case Type::kN:
      return value.as_number().StorageSize();
    case Type::kB:
      return value.as_binary().size();
    case Type::kBool:
    case Type::kNull:
      return 1;
    case Type::kM: {
      size_t size = 3;
      for (const auto& [name, element] : value.as_map())
        size += 1 + name.size() + ValueSize(element);
      return size;
    }
    case Type::kL: {
      size_t size = 3;
      for (const Value& element : value.as_list()) size += 1 + ValueSize(element);
      return size;
    }
    case Type::kSS: {
      size_t size = 0;
      for (const std::string& s : value.as_string_set()) size += s.size();
      return size;
    }
    case Type::kNS: {
      size_t size = 0;
      for (const Number& n : value.as_number_set()) size += n.StorageSize();
      return size;
    }
    case Type::kBS: {
      size_t size = 0;
      for (const Bytes& b : value.as_binary_set()) size += b.data.size();
      return size;
    }
  }
  return 0;
}

size_t ItemSize(const Item& item) {
  size_t size = 0;
  for (const auto& [name, value] : item) size += AttributeSize(name, value);
  return size;
}

int NestingDepth(const Value& value) {
  int deepest = 0;
  if (const AttributeMap* map = value.if_map()) {
    for (const auto& [name, element] : *map) deepest = std::max(deepest, NestingDepth(element));
    return 1 + deepest;
  }
  if (const ValueList* list = value.if_list()) {
    for (const Value& element : *list) deepest = std::max(deepest, NestingDepth(element));
    return 1 + deepest;
  }
  return 0;
}

Status AttributeNameError(std::string_view name) {
  return Status::Validation(std::string(name.empty() ? messages::kEmptyAttributeName
                                                     : messages::kAttributeNameTooLarge));
}

std::string_view EmptySetMessage(Type set_type) {
  switch (set_type) {
    case Type::kNS:
      return messages::kEmptyNumberSet;
    case Type::kBS:
      return messages::kEmptyBinarySet;
    default:
      return messages::kEmptyStringSet;
  }
}

Status ValidateValue(const Value& value, int depth) {
  switch (value.type()) {
    case Type::kSS:
    case Type::kNS:
    case Type::kBS: {
      bool empty = value.type() == Type::kSS   ? value.as_string_set().empty()
                   : value.type() == Type::kNS ? value.as_number_set().empty()
                                               : value.as_binary_set().empty();
      if (empty) return Status::Validation(std::string(EmptySetMessage(value.type())));
      return Status::Ok();
    }
    case Type::kM:
    case Type::kL:
      // Only maps and lists make levels; one standing at level 33 is too deep.
      if (depth > kMaxNestingDepth) {
        return Status::Validation(std::string(messages::kNestingTooDeep));
      }
      if (const AttributeMap* map = value.if_map()) {
        for (const auto& [name, element] : *map) {
          PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(name));
          PARTSTORE_RETURN_IF_ERROR(ValidateValue(element, depth + 1));
        }
      } else {
        for (const Value& element : value.as_list()) {
          PARTSTORE_RETURN_IF_ERROR(ValidateValue(element, depth + 1));
        }
      }
      return Status::Ok();
    default:
      return Status::Ok();
  }
}

Status ValidateItem(const Item& item) {
  for (const auto& [name, value] : item) {
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeName(name));
    PARTSTORE_RETURN_IF_ERROR(ValidateValue(value, 2));
  }
  if (ItemSize(item) > kMaxItemSize)
    return Status::Validation(std::string(messages::kItemTooLarge));
  return Status::Ok();
}

}  // namespace partstore
