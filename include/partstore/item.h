// Item: a whole DynamoDB item (attribute name -> Value), its size, and its validation.
//
// Thread safety: free functions over values; thread-safe for distinct or const arguments.
#pragma once

#include <cstddef>
#include <string_view>

#include "partstore/status.h"
#include "partstore/value.h"

namespace partstore {

using Item = AttributeMap;

// 400 KB, in DynamoDB's binary units.
inline constexpr size_t kMaxItemSize = 400 * 1024;
// The item itself is level 1, so a top-level map attribute may hold 30 further nested maps.
inline constexpr int kMaxNestingDepth = 32;
// Non-key attribute names: 1..65535 bytes.
inline constexpr size_t kMaxAttributeNameSize = 65535;

// Bytes `value` counts toward an item's size (DynamoDB's rules): S and B their bytes, N
// Number::StorageSize(), BOOL and NULL 1; M 3 + (1 + name bytes + value size) per entry; L 3 +
// (1 + value size) per element; SS, NS, BS the sum of their elements' sizes.
size_t ValueSize(const Value& value);
// Bytes one top-level attribute counts: UTF-8 bytes of its name + ValueSize.
inline size_t AttributeSize(std::string_view name, const Value& value) {
  return name.size() + ValueSize(value);
}
// Sum of AttributeSize over the item. Not including DynamoDB's 100-byte storage overhead, which
// counts for billing and table size only.
size_t ItemSize(const Item& item);

// Levels of M/L nesting inside `value`: 0 for a scalar or set, 1 + the deepest element for M/L.
int NestingDepth(const Value& value);

// Checks DynamoDB's rules for one attribute value anywhere in an item: no empty set at any level
// and the nesting limit. `depth` is the level `value` stands at: the item is level 1, so its
// attributes stand at level 2, and a map or list standing at level 33 is too deep.
Status ValidateValue(const Value& value, int depth = 2);
// DynamoDB's message for an empty set of `set_type` (SS, NS or BS).
std::string_view EmptySetMessage(Type set_type);

// An attribute name anywhere (an item's, a map key, a legacy parameter's, an expression's name):
// kEmptyAttributeName when empty, kAttributeNameTooLarge over kMaxAttributeNameSize bytes.
[[gnu::cold]] Status AttributeNameError(std::string_view name);
inline Status CheckAttributeName(std::string_view name) {
  if (name.empty() || name.size() > kMaxAttributeNameSize) [[unlikely]] {
    return AttributeNameError(name);
  }
  return Status::Ok();
}

// Checks every attribute value and name (top-level and map keys: 1..65535 bytes), then the 400 KB
// limit. Key rules are checked against
// the table's key schema elsewhere (key.h).
Status ValidateItem(const Item& item);

// DynamoDB's messages, shared by every place that applies the same rule.
namespace messages {
inline constexpr std::string_view kNestingTooDeep =
    "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels "
    "beyond supported limit";
inline constexpr std::string_view kItemTooLarge = "Item size has exceeded the maximum allowed size";
// Empty sets: one message per set type, DynamoDB's grammar and double space included; what
// ValidateValue reports. Regions on DynamoDB's 2026 rewording prefix them with "1 validation
// error detected: "; partstore uses the long-standing wording, which most regions still give.
inline constexpr std::string_view kEmptyStringSet =
    "One or more parameter values were invalid: An string set  may not be empty";
inline constexpr std::string_view kEmptyNumberSet =
    "One or more parameter values were invalid: An number set  may not be empty";
inline constexpr std::string_view kEmptyBinarySet =
    "One or more parameter values were invalid: Binary sets should not be empty";
// DynamoDB's generic empty-set message: what an UpdateExpression reports when it would write an
// empty set (a SET value, or an ADD operand for an absent attribute). Items and values checked by
// ValidateValue get the per-type messages above.
inline constexpr std::string_view kEmptySet =
    "One or more parameter values were invalid: An AttributeValue may not contain an empty set.";
// An attribute name (top-level or a map key) that is empty / longer than kMaxAttributeNameSize.
// DynamoDB Local's texts. DynamoDB's own is a ValidationException starting "Attribute name" for
// the long name, in an item, AttributesToGet, AttributeUpdates and a name of
// ExpressionAttributeNames (scylladb test_limits.py test_limit_attribute_length_nonkey_bad, run
// against DynamoDB).
inline constexpr std::string_view kEmptyAttributeName = "Empty attribute name";
inline constexpr std::string_view kAttributeNameTooLarge =
    "Attribute name is too large, must be less than 65536 bytes";
}  // namespace messages

}  // namespace partstore
