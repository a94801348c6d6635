#include "partstore/key.h"

#include <string>

#include "partstore/stored_item.h"

namespace partstore {

Type ValueTypeOf(KeyType type) {
  switch (type) {
    case KeyType::kString:
      return Type::kS;
    case KeyType::kNumber:
      return Type::kN;
    case KeyType::kBinary:
      return Type::kB;
  }
  return Type::kS;
}

std::string_view KeyTypeName(KeyType type) { return TypeName(ValueTypeOf(type)); }

std::optional<KeyType> KeyTypeFromName(std::string_view name) {
  if (name == "S") return KeyType::kString;
  if (name == "N") return KeyType::kNumber;
  if (name == "B") return KeyType::kBinary;
  return std::nullopt;
}

namespace {

// One body for both forms of a value (a tree Value, an encoded ValueView).
template <typename V>
Status CheckKeyValueImpl(const KeyAttribute& attribute, KeyRole role, const V& value) {
  const Type expected = ValueTypeOf(attribute.type);
  if (value.type() != expected) {
    return Status::Validation("One or more parameter values were invalid: Type mismatch for key " +
                              attribute.name + " expected: " + std::string(TypeName(expected)) +
                              " actual: " + std::string(TypeName(value.type())));
  }
  size_t size = 0;
  if (expected == Type::kS) {
    size = value.as_string().size();
    if (size == 0) {
      return Status::Validation(
          "One or more parameter values are not valid. The AttributeValue for a key attribute "
          "cannot contain an empty string value. Key: " +
          attribute.name);
    }
  } else if (expected == Type::kB) {
    size = value.as_binary().size();
    if (size == 0) {
      return Status::Validation(
          "One or more parameter values are not valid. The AttributeValue for a key attribute "
          "cannot contain an empty binary value. Key: " +
          attribute.name);
    }
  }
  // DynamoDB's texts, including the missing space in "of2048".
  if (role == KeyRole::kPartition && size > kMaxPartitionKeySize) {
    return Status::Validation(
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size "
        "limit of2048 bytes");
  }
  if (role == KeyRole::kSort && size > kMaxSortKeySize) {
    return Status::Validation(
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded "
        "the size limit of 1024 bytes");
  }
  return Status::Ok();
}

}  // namespace

Status CheckKeyValue(const KeyAttribute& attribute, KeyRole role, const Value& value) {
  return CheckKeyValueImpl(attribute, role, value);
}

Status CheckKeyValue(const KeyAttribute& attribute, KeyRole role, const ValueView& value) {
  return CheckKeyValueImpl(attribute, role, value);
}

}  // namespace partstore
