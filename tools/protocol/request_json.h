// Request JSON: what every operation's decoder shares. A request body is read in DynamoDB's three
// steps, each finishing before the next starts:
//
//   1. Shape (ReadMembers): the body's members are visited in document order and each known
//      member's JSON type is checked against DynamoDB's model, recursively (AttributeValues
//      included, via CheckItemJson). The first mismatch is a SerializationException with the
//      text DynamoDB's deserializer gives (see request_json.cc). Unknown members are ignored; a
//      member whose value is null is absent; a repeated member keeps its last occurrence.
//   2. Model constraints (Constraints): required members, enum spellings, name patterns and
//      lengths, numeric ranges, list lengths, all gathered into one "N validation errors
//      detected: ..." message (shard/constraints.h builds the texts), at most 10 of them.
//   3. Values: AttributeValues are validated and built (DecodeItem, ...) and the typed request is
//      filled in. The engine then applies its own (semantic) validation.
//
// Thread safety: free functions over values; thread-safe for distinct arguments. Constraints is a
// value type, not thread-safe.
#pragma once

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expr/legacy.h"
#include "core/expr/resolve.h"
#include "partstore/consumed_capacity.h"
#include "partstore/item.h"
#include "partstore/item_requests.h"
#include "partstore/status.h"
#include "shard/constraints.h"

namespace partstore::protocol {

using JsonValue = rapidjson::Value;

// ---- Step 1: shapes ---------------------------------------------------------------------------

// The model type of a request member, as far as its JSON shape goes.
enum class Shape : uint8_t {
  kString,
  kBoolean,
  kInteger,                 // java.lang.Integer (Limit, Segment, ...)
  kLong,                    // java.lang.Long (capacity units)
  kDouble,                  // java.lang.Double (partstore's extensions: AdvanceClock's Seconds)
  kItem,                    // Map<String, AttributeValue>: Item, Key, ExclusiveStartKey, values
  kNameMap,                 // Map<String, String>: ExpressionAttributeNames
  kStringList,              // List<String>: AttributesToGet
  kExpected,                // Map<String, ExpectedAttributeValue>
  kConditions,              // Map<String, Condition>: KeyConditions, QueryFilter, ScanFilter
  kAttributeUpdates,        // Map<String, AttributeValueUpdate>
  kKeySchema,               // List<KeySchemaElement>
  kAttributeDefinitions,    // List<AttributeDefinition>
  kProvisionedThroughput,   // ProvisionedThroughput structure
  kBatchGetItems,           // Map<String, KeysAndAttributes>
  kBatchWriteItems,         // Map<String, List<WriteRequest>>
  kLocalSecondaryIndexes,   // List<LocalSecondaryIndex>
  kGlobalSecondaryIndexes,  // List<GlobalSecondaryIndex>
  kGlobalSecondaryIndexUpdates,  // List<GlobalSecondaryIndexUpdate>
  kTimeToLiveSpecification,      // TimeToLiveSpecification structure
  kStreamSpecification,          // StreamSpecification structure
  kTags,                         // List<Tag>: Tags
  kStructure,  // any other structure: its decoder checks its members (ReadMembers on it)
};

struct MemberSpec {
  std::string_view name;  // the wire name, e.g. "TableName"
  Shape shape;
};

// Step 1 for a whole request body. `operation` names the input structure in messages (a body
// that is an array: "Unrecognized collection type class
// com.amazonaws.dynamodb.v20120810.<operation>Input"). On success out[i] points at the value of
// specs[i], or is null when the member is absent. REQUIRES: out.size() == specs.size().
Status ReadMembers(const JsonValue& body, std::string_view operation,
                   std::span<const MemberSpec> specs, std::span<const JsonValue*> out);

// The shape check of one value standing where the model has `shape` as a structure member.
Status CheckShape(const JsonValue& value, Shape shape);

// The outer shape alone of a List member and of a structure named `name` (null passes), for a
// decoder that checks their insides itself (transaction_json.cc). `parameterized` /
// `in_collection`: the value stands as a map value or list element.
Status CheckListOuter(const JsonValue& v, bool parameterized);
Status CheckStructOuter(const JsonValue& v, std::string_view name, bool in_collection);

// The package of DynamoDB's model classes, as SerializationException texts name them.
inline constexpr std::string_view kModelPackage = "com.amazonaws.dynamodb.v20120810.";

// ---- Step 2: model constraints ---------------------------------------------------------------

// DynamoDB's enum value sets, spelled as its messages list them.
inline constexpr std::string_view kReturnConsumedCapacitySet = "[INDEXES, TOTAL, NONE]";
inline constexpr std::string_view kReturnItemCollectionMetricsSet = "[SIZE, NONE]";
inline constexpr std::string_view kReturnValuesSet =
    "[ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]";
inline constexpr std::string_view kReturnValuesOnConditionCheckFailureSet = "[ALL_OLD, NONE]";
inline constexpr std::string_view kSelectSet =
    "[SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES]";
inline constexpr std::string_view kConditionalOperatorSet = "[OR, AND]";
inline constexpr std::string_view kComparisonOperatorSet =
    "[IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS]";
inline constexpr std::string_view kAttributeActionSet = "[ADD, PUT, DELETE]";
inline constexpr std::string_view kKeyTypeSet = "[HASH, RANGE]";
inline constexpr std::string_view kScalarAttributeTypeSet = "[B, N, S]";
inline constexpr std::string_view kBillingModeSet = "[PROVISIONED, PAY_PER_REQUEST]";
// The SDK model's order (unverified against DynamoDB's own message).
inline constexpr std::string_view kStreamViewTypeSet =
    "[NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES, KEYS_ONLY]";
// architect/dynalite test/createTable.js (run against DynamoDB): "Member must satisfy enum value
// set: [ALL, INCLUDE, KEYS_ONLY]" at 'localSecondaryIndexes.1.member.projection.projectionType'.
inline constexpr std::string_view kProjectionTypeSet = "[ALL, INCLUDE, KEYS_ONLY]";

// The table enums' spellings, index = the enum's value (KeyRoleName, KeyType, BillingMode,
// ProjectionType, StreamViewType), for both directions (Constraints::Enum / EnumOf and writers).
inline constexpr std::string_view kKeyTypeNames[] = {"HASH", "RANGE"};
inline constexpr std::string_view kScalarTypeNames[] = {"B", "N", "S"};
inline constexpr std::string_view kBillingModeNames[] = {"PROVISIONED", "PAY_PER_REQUEST"};
inline constexpr std::string_view kProjectionTypeNames[] = {"KEYS_ONLY", "INCLUDE", "ALL"};
inline constexpr std::string_view kStreamViewTypeNames[] = {"KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE",
                                                            "NEW_AND_OLD_IMAGES"};

// DynamoDB reports at most this many violations per request.
inline constexpr size_t kMaxViolations = 10;

// Step 2's collector: ConstraintViolations (one place per rule's text) with DynamoDB's cap of
// kMaxViolations (a rule that adds two texts may pass it by one).
class Constraints {
 public:
  bool full() const { return violations_.size() >= kMaxViolations; }
  ConstraintViolations& violations() { return violations_; }
  Status ToStatus() const { return violations_.ToStatus(); }

  // Each checks `value` (null: absent) and adds DynamoDB's texts for `member`.
  void Required(const JsonValue* value, std::string_view member);
  void Name(const JsonValue* value, std::string_view member);  // index names
  // Table names (ConstraintViolations::TableName).
  void TableName(const JsonValue* value, std::string_view member = "tableName",
                 size_t min_empty = 1);
  void Enum(const JsonValue* value, std::span<const std::string_view> names, std::string_view set,
            std::string_view member);
  void Range(const JsonValue* value, int64_t min, int64_t max, std::string_view member);
  void ListLength(const JsonValue* value, size_t min, size_t max, std::string_view member);
  // KeyConditions / QueryFilter / ScanFilter: each entry's required, enum ComparisonOperator.
  void Conditions(const JsonValue* value, std::string_view member);
  // Expected: each entry's ComparisonOperator (optional) enum.
  void Expected(const JsonValue* value);
  // AttributeUpdates: each entry's Action enum.
  void AttributeUpdates(const JsonValue* value);

 private:
  ConstraintViolations violations_;
};

// A required table name at 'tableName': Required, then TableName.
inline void TableName(Constraints& c, const JsonValue* name) {
  c.Required(name, "tableName");
  c.TableName(name);
}

// The names of ReturnConsumedCapacity, ReturnValues, ... in enum order (index = enum value).
inline constexpr std::string_view kReturnConsumedCapacityNames[] = {"NONE", "TOTAL", "INDEXES"};
inline constexpr std::string_view kReturnValueNames[] = {"NONE", "ALL_OLD", "UPDATED_OLD",
                                                         "ALL_NEW", "UPDATED_NEW"};
inline constexpr std::string_view kReturnValuesOnConditionCheckFailureNames[] = {"NONE", "ALL_OLD"};
inline constexpr std::string_view kReturnItemCollectionMetricsNames[] = {"NONE", "SIZE"};
inline constexpr std::string_view kSelectNames[] = {"ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES",
                                                    "SPECIFIC_ATTRIBUTES", "COUNT"};
inline constexpr std::string_view kConditionalOperatorNames[] = {"AND", "OR"};

// ---- Step 3: values ---------------------------------------------------------------------------
// (StringOf and BooleanOf: attribute_value_json.h.)

// The last occurrence of member `name` of `object`, or null (absent, null, or `object` null or
// not an object).
const JsonValue* Field(const JsonValue& object, std::string_view name);
const JsonValue* Field(const JsonValue* object, std::string_view name);

// The largest Integer (int32) member, the bound of every Limit.
inline constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

// The index of `value` (a string that passed Constraints::Enum) in `names`.
size_t EnumIndex(const JsonValue& value, std::span<const std::string_view> names);
template <typename E>
E EnumOf(const JsonValue* value, std::span<const std::string_view> names, E absent) {
  return value == nullptr ? absent : static_cast<E>(EnumIndex(*value, names));
}
// A ReturnConsumedCapacity member (NONE when absent).
inline ReturnConsumedCapacity CapacityOf(const JsonValue* value) {
  return EnumOf(value, kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
}

// An Integer / Long member, truncated toward zero if it has a fraction.
int64_t IntegerOf(const JsonValue& value);
// The same for an optional member: nullopt when absent (null).
inline std::optional<int64_t> OptionalInteger(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  return IntegerOf(*value);
}
// An Integer member's value for the engine's range check: values beyond int32 stay out of range
// (4294967297 must not become 1).
inline int32_t NarrowForValidation(int64_t value) {
  return static_cast<int32_t>(std::clamp<int64_t>(value, INT32_MIN, INT32_MAX));
}
// A Double member (any JSON number).
double DoubleOf(const JsonValue& value);

std::optional<std::string> OptionalString(const JsonValue* value);
Result<std::optional<expr::NameMap>> DecodeNameMap(const JsonValue* value);
Result<std::optional<AttributeMap>> DecodeValueMap(const JsonValue* value);
std::optional<std::vector<std::string>> DecodeStringList(const JsonValue* value);
Result<std::optional<std::vector<expr::ExpectedAttribute>>> DecodeExpected(const JsonValue* value);
Result<std::optional<std::vector<expr::AttributeCondition>>> DecodeConditions(
    const JsonValue* value);
Result<std::optional<std::vector<expr::AttributeUpdate>>> DecodeAttributeUpdates(
    const JsonValue* value);

// The ExclusiveStartKey: value errors get DynamoDB's "The provided starting key is invalid: "
// prefix.
Result<std::optional<Item>> DecodeStartKey(const JsonValue* value);

}  // namespace partstore::protocol
