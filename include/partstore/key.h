// Key schema: a table's (or index's) partition key and optional sort key, and the rules DynamoDB
// applies to key values.
//
// Thread safety: value types and pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore {

class ValueView;

// DynamoDB's ScalarAttributeType: the types a key attribute may have.
enum class KeyType : uint8_t { kString, kNumber, kBinary };

// The Value type of a key type (S, N or B).
Type ValueTypeOf(KeyType type);
// "S", "N" or "B".
std::string_view KeyTypeName(KeyType type);
// The key type of "S", "N" or "B", else nullopt.
std::optional<KeyType> KeyTypeFromName(std::string_view name);

// Which part of the primary key an attribute is.
enum class KeyRole : uint8_t { kPartition, kSort };

struct KeyAttribute {
  std::string name;
  KeyType type = KeyType::kString;
  friend bool operator==(const KeyAttribute&, const KeyAttribute&) = default;
};

struct KeySchema {
  KeyAttribute partition;            // HASH
  std::optional<KeyAttribute> sort;  // RANGE; absent for hash-only tables
  friend bool operator==(const KeySchema&, const KeySchema&) = default;
};

// 2048 bytes for partition keys, 1024 for sort keys (S as UTF-8 bytes, B as raw bytes; N keys
// are limited only by the 38-digit rule).
inline constexpr size_t kMaxPartitionKeySize = 2048;
inline constexpr size_t kMaxSortKeySize = 1024;

// Checks one key value against its attribute definition: type, non-empty S/B, size limit.
// Returns DynamoDB's ValidationException messages.
Status CheckKeyValue(const KeyAttribute& attribute, KeyRole role, const Value& value);
// The same for an encoded value (partstore/stored_item.h: a stored item's attribute).
Status CheckKeyValue(const KeyAttribute& attribute, KeyRole role, const ValueView& value);

}  // namespace partstore
