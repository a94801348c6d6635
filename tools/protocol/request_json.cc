// Request JSON, the shared steps: see request_json.h for the contract.
//
// SerializationException texts and their evidence
// -----------------------------------------------
// architect/dynalite test/helpers.js @ 6caa634, assertType tables: these tests run against live
// DynamoDB (REMOTE=1), so the texts are DynamoDB's. A value of the wrong JSON type where the model
// has
//   String     true/false "TRUE_VALUE cannot be converted to String" (FALSE_VALUE), integer
//              "NUMBER_VALUE ...", fraction "DECIMAL_VALUE ...", array "Unrecognized collection
//              type class java.lang.String", object "Start of structure or map found where not
//              expected"
//   Boolean    unconvertible string "Unexpected token received from parser", numbers
//              "NUMBER_VALUE cannot be converted to Boolean" (DECIMAL_VALUE), array
//              "Unrecognized collection type class java.lang.Boolean", object as for String
//   Integer    string "STRING_VALUE cannot be converted to Integer", true/false "TRUE_VALUE ..."
//              ("FALSE_VALUE ..."), array "Unrecognized collection type class java.lang.Integer",
//              object as for String; the same with "Long"
//   List       scalar "Unexpected field type", object "Start of structure or map found where not
//              expected"; a list that is itself a map value or list element (ParameterizedList):
//              scalar kParameterizedCast
//   Map<X>     scalar "Unexpected field type", array "Unrecognized collection type
//              java.util.Map<java.lang.String, X>" (X = java.lang.String or
//              com.amazonaws.dynamodb.v20120810.<Structure>); a map that is a list element
//              (ParameterizedMap): scalar kParameterizedCast
//   Structure  as a member (FieldStruct): scalar "Unexpected field type"; as a map value or list
//              element (ValueStruct): scalar "Unexpected value type in payload"; both: array
//              "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.<Structure>"
// The index structures follow the same rules: test/createTable.js asserts these types for every
// member of LocalSecondaryIndexes / GlobalSecondaryIndexes elements (ValueStruct<...Index>, their
// KeySchema, FieldStruct<Projection> with its ProjectionType and NonKeyAttributes, and a GSI's
// FieldStruct<ProvisionedThroughput>); GlobalSecondaryIndexUpdates elements are
// ValueStruct<GlobalSecondaryIndexUpdate> whose Update / Create / Delete are FieldStructs of
// UpdateGlobalSecondaryIndexAction / CreateGlobalSecondaryIndexAction /
// DeleteGlobalSecondaryIndexAction (validations/updateTable.js's model).
// Not covered by that evidence (partstore's choices, unverified):
//   - an Integer given a fraction is truncated (dynalite floors it); one beyond the type's range
//     is "NUMBER_VALUE cannot be converted to Integer";
//   - a request body that is valid JSON but not an object: array "Unrecognized collection type
//     class com.amazonaws.dynamodb.v20120810.<Operation>Input", scalar "Unexpected value type in
//     payload" (the ValueStruct texts);
//   - Map<String, List<WriteRequest>> given an array names java.util.List<...WriteRequest> as its
//     value class.
#include "tools/protocol/request_json.h"

#include <cmath>
#include <limits>

#include "tools/protocol/attribute_value_json.h"
#include "tools/protocol/client_data_json.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kParameterizedCast =
    "class sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl cannot be cast to class "
    "java.lang.Class (sun.reflect.generics.reflectiveObjects.ParameterizedTypeImpl and "
    "java.lang.Class are in module java.base of loader 'bootstrap')";

[[gnu::cold]] Status SerializationError(std::string message) {
  return Status::Serialization(std::move(message));
}

Status CheckString(const JsonValue& v) {
  if (v.IsString() || v.IsNull()) return Status::Ok();
  if (v.IsTrue()) return SerializationError("TRUE_VALUE cannot be converted to String");
  if (v.IsFalse()) return SerializationError("FALSE_VALUE cannot be converted to String");
  if (v.IsNumber())
    return SerializationError(std::string(NumberToken(v)) + " cannot be converted to String");
  if (v.IsArray()) return SerializationError("Unrecognized collection type class java.lang.String");
  return SerializationError(std::string(kStructureNotExpected));
}

Status CheckBoolean(const JsonValue& v) {
  if (v.IsBool() || v.IsNull()) return Status::Ok();
  if (v.IsString()) {
    if (BooleanFromString(StringOf(v))) return Status::Ok();
    return SerializationError("Unexpected token received from parser");
  }
  if (v.IsNumber()) {
    return SerializationError(std::string(NumberToken(v)) + " cannot be converted to Boolean");
  }
  if (v.IsArray())
    return SerializationError("Unrecognized collection type class java.lang.Boolean");
  return SerializationError(std::string(kStructureNotExpected));
}

Status CheckInteger(const JsonValue& v, std::string_view type, int64_t min, int64_t max) {
  if (v.IsNull()) return Status::Ok();
  if (v.IsNumber()) {
    double d = v.GetDouble();
    bool in_range = v.IsInt64() ? (v.GetInt64() >= min && v.GetInt64() <= max)
                                : (std::isfinite(d) && std::trunc(d) >= static_cast<double>(min) &&
                                   std::trunc(d) <= static_cast<double>(max));
    if (in_range) return Status::Ok();
    return SerializationError(std::string(NumberToken(v)) + " cannot be converted to " +
                              std::string(type));
  }
  std::string suffix = " cannot be converted to " + std::string(type);
  if (v.IsString()) return SerializationError("STRING_VALUE" + suffix);
  if (v.IsTrue()) return SerializationError("TRUE_VALUE" + suffix);
  if (v.IsFalse()) return SerializationError("FALSE_VALUE" + suffix);
  if (v.IsArray()) {
    return SerializationError("Unrecognized collection type class java.lang." + std::string(type));
  }
  return SerializationError(std::string(kStructureNotExpected));
}

// A Double (partstore's extensions only: DynamoDB's model has none). Any JSON number converts;
// the other texts follow Integer's.
Status CheckDouble(const JsonValue& v) {
  if (v.IsNull() || v.IsNumber()) return Status::Ok();
  constexpr std::string_view kSuffix = " cannot be converted to Double";
  if (v.IsString()) return SerializationError("STRING_VALUE" + std::string(kSuffix));
  if (v.IsTrue()) return SerializationError("TRUE_VALUE" + std::string(kSuffix));
  if (v.IsFalse()) return SerializationError("FALSE_VALUE" + std::string(kSuffix));
  if (v.IsArray()) return SerializationError("Unrecognized collection type class java.lang.Double");
  return SerializationError(std::string(kStructureNotExpected));
}

}  // namespace

// A list; `parameterized` when it stands as a map value or list element.
Status CheckListOuter(const JsonValue& v, bool parameterized) {
  if (v.IsArray() || v.IsNull()) return Status::Ok();
  if (v.IsObject()) return SerializationError(std::string(kStructureNotExpected));
  return SerializationError(std::string(parameterized ? kParameterizedCast : kUnexpectedFieldType));
}

// A structure named `name`; `in_collection` when it is a map value or list element.
Status CheckStructOuter(const JsonValue& v, std::string_view name, bool in_collection) {
  if (v.IsObject() || v.IsNull()) return Status::Ok();
  if (v.IsArray()) {
    return SerializationError("Unrecognized collection type class " + std::string(kModelPackage) +
                              std::string(name));
  }
  return SerializationError(
      std::string(in_collection ? kUnexpectedValueType : kUnexpectedFieldType));
}

namespace {

// A map whose values are `value_class` (fully qualified).
Status CheckMapOuter(const JsonValue& v, std::string_view value_class, bool parameterized) {
  if (v.IsObject() || v.IsNull()) return Status::Ok();
  if (v.IsArray()) {
    return SerializationError("Unrecognized collection type java.util.Map<java.lang.String, " +
                              std::string(value_class) + ">");
  }
  return SerializationError(std::string(parameterized ? kParameterizedCast : kUnexpectedFieldType));
}

std::string ModelClass(std::string_view name) {
  return std::string(kModelPackage) + std::string(name);
}

// An AttributeValue standing as a structure member (Expected.Value, AttributeUpdates.Value).
Status CheckAttributeValueField(const JsonValue& v) {
  if (v.IsNull()) return Status::Ok();
  if (!v.IsObject() && !v.IsArray()) return SerializationError(std::string(kUnexpectedFieldType));
  return CheckAttributeValueJson(v);
}

// A list of AttributeValues (AttributeValueList).
Status CheckAttributeValueList(const JsonValue& v) {
  PARTSTORE_RETURN_IF_ERROR(CheckListOuter(v, false));
  if (v.IsNull()) return Status::Ok();
  for (const JsonValue& element : v.GetArray()) {
    PARTSTORE_RETURN_IF_ERROR(CheckAttributeValueJson(element));
  }
  return Status::Ok();
}

// The members of a structure, checked in document order with `check(name, value)`.
template <typename Check>
Status CheckStruct(const JsonValue& v, std::string_view name, bool in_collection, Check check) {
  PARTSTORE_RETURN_IF_ERROR(CheckStructOuter(v, name, in_collection));
  if (v.IsNull()) return Status::Ok();
  for (const auto& member : v.GetObject()) {
    PARTSTORE_RETURN_IF_ERROR(check(StringOf(member.name), member.value));
  }
  return Status::Ok();
}

// A Map<String, Structure> whose entries are checked with `check_entry(value)`.
template <typename CheckEntry>
Status CheckMapOf(const JsonValue& v, std::string_view value_class, CheckEntry check_entry) {
  PARTSTORE_RETURN_IF_ERROR(CheckMapOuter(v, value_class, false));
  if (v.IsNull()) return Status::Ok();
  for (const auto& member : v.GetObject()) {
    PARTSTORE_RETURN_IF_ERROR(check_entry(member.value));
  }
  return Status::Ok();
}

// A List<Structure> whose elements are checked with `check_element(value)`.
template <typename CheckElement>
Status CheckListOf(const JsonValue& v, bool parameterized, CheckElement check_element) {
  PARTSTORE_RETURN_IF_ERROR(CheckListOuter(v, parameterized));
  if (v.IsNull()) return Status::Ok();
  for (const JsonValue& element : v.GetArray()) {
    PARTSTORE_RETURN_IF_ERROR(check_element(element));
  }
  return Status::Ok();
}

Status CheckCondition(const JsonValue& v) {
  return CheckStruct(v, "Condition", true, [](std::string_view name, const JsonValue& value) {
    if (name == "ComparisonOperator") return CheckString(value);
    if (name == "AttributeValueList") return CheckAttributeValueList(value);
    return Status::Ok();
  });
}

Status CheckExpectedEntry(const JsonValue& v) {
  return CheckStruct(v, "ExpectedAttributeValue", true,
                     [](std::string_view name, const JsonValue& value) {
                       if (name == "Value") return CheckAttributeValueField(value);
                       if (name == "Exists") return CheckBoolean(value);
                       if (name == "ComparisonOperator") return CheckString(value);
                       if (name == "AttributeValueList") return CheckAttributeValueList(value);
                       return Status::Ok();
                     });
}

Status CheckAttributeUpdate(const JsonValue& v) {
  return CheckStruct(v, "AttributeValueUpdate", true,
                     [](std::string_view name, const JsonValue& value) {
                       if (name == "Value") return CheckAttributeValueField(value);
                       if (name == "Action") return CheckString(value);
                       return Status::Ok();
                     });
}

Status CheckNameMap(const JsonValue& v) {
  PARTSTORE_RETURN_IF_ERROR(CheckMapOuter(v, "java.lang.String", false));
  if (v.IsNull()) return Status::Ok();
  for (const auto& member : v.GetObject()) PARTSTORE_RETURN_IF_ERROR(CheckString(member.value));
  return Status::Ok();
}

Status CheckStringList(const JsonValue& v) {
  PARTSTORE_RETURN_IF_ERROR(CheckListOuter(v, false));
  if (v.IsNull()) return Status::Ok();
  for (const JsonValue& element : v.GetArray()) PARTSTORE_RETURN_IF_ERROR(CheckString(element));
  return Status::Ok();
}

// A key in BatchGetItem's Keys list: a Map<String, AttributeValue> standing as a list element.
Status CheckKeyInList(const JsonValue& v) {
  if (!v.IsObject() && !v.IsArray() && !v.IsNull()) {
    return SerializationError(std::string(kParameterizedCast));
  }
  return CheckItemJson(v);
}

Status CheckKeysAndAttributes(const JsonValue& v) {
  return CheckStruct(v, "KeysAndAttributes", true,
                     [](std::string_view name, const JsonValue& value) {
                       if (name == "Keys") return CheckListOf(value, false, CheckKeyInList);
                       if (name == "AttributesToGet") return CheckStringList(value);
                       if (name == "ConsistentRead") return CheckBoolean(value);
                       if (name == "ProjectionExpression") return CheckString(value);
                       if (name == "ExpressionAttributeNames") return CheckNameMap(value);
                       return Status::Ok();
                     });
}

Status CheckWriteRequest(const JsonValue& v) {
  return CheckStruct(v, "WriteRequest", true, [](std::string_view name, const JsonValue& value) {
    if (name == "PutRequest") {
      return CheckStruct(value, "PutRequest", false,
                         [](std::string_view field, const JsonValue& item) {
                           return field == "Item" ? CheckItemJson(item) : Status::Ok();
                         });
    }
    if (name == "DeleteRequest") {
      return CheckStruct(value, "DeleteRequest", false,
                         [](std::string_view field, const JsonValue& key) {
                           return field == "Key" ? CheckItemJson(key) : Status::Ok();
                         });
    }
    return Status::Ok();
  });
}

constexpr int64_t kLongMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kLongMax = std::numeric_limits<int64_t>::max();

// A GSI's (or an index action's) OnDemandThroughput and WarmThroughput, of Long members.
Status CheckIndexThroughputMember(std::string_view name, const JsonValue& field) {
  auto longs = [](std::string_view read, std::string_view write) {
    return [read, write](std::string_view member, const JsonValue& v) {
      return member == read || member == write ? CheckInteger(v, "Long", kLongMin, kLongMax)
                                               : Status::Ok();
    };
  };
  if (name == "OnDemandThroughput") {
    return CheckStruct(field, "OnDemandThroughput", false,
                       longs("MaxReadRequestUnits", "MaxWriteRequestUnits"));
  }
  if (name == "WarmThroughput") {
    return CheckStruct(field, "WarmThroughput", false,
                       longs("ReadUnitsPerSecond", "WriteUnitsPerSecond"));
  }
  return Status::Ok();
}

// The members of GlobalSecondaryIndex and CreateGlobalSecondaryIndexAction.
Status CheckIndexMember(std::string_view name, const JsonValue& field) {
  if (name == "IndexName") return CheckString(field);
  if (name == "KeySchema") return CheckShape(field, Shape::kKeySchema);
  if (name == "Projection") {
    return CheckStruct(field, "Projection", false, [](std::string_view member, const JsonValue& v) {
      if (member == "ProjectionType") return CheckString(v);
      if (member == "NonKeyAttributes") return CheckStringList(v);
      return Status::Ok();
    });
  }
  if (name == "ProvisionedThroughput") return CheckShape(field, Shape::kProvisionedThroughput);
  return CheckIndexThroughputMember(name, field);
}

// LocalSecondaryIndex: the same less the throughputs (unknown members there, ignored).
Status CheckLocalIndexMember(std::string_view name, const JsonValue& field) {
  return name == "ProvisionedThroughput" || name == "OnDemandThroughput" || name == "WarmThroughput"
             ? Status::Ok()
             : CheckIndexMember(name, field);
}

Status CheckGlobalSecondaryIndexUpdate(const JsonValue& v) {
  return CheckStruct(
      v, "GlobalSecondaryIndexUpdate", true, [](std::string_view name, const JsonValue& action) {
        if (name == "Create") {
          return CheckStruct(action, "CreateGlobalSecondaryIndexAction", false, CheckIndexMember);
        }
        if (name == "Update") {
          return CheckStruct(action, "UpdateGlobalSecondaryIndexAction", false,
                             [](std::string_view member, const JsonValue& field) {
                               if (member == "IndexName") return CheckString(field);
                               if (member == "ProvisionedThroughput") {
                                 return CheckShape(field, Shape::kProvisionedThroughput);
                               }
                               return CheckIndexThroughputMember(member, field);
                             });
        }
        if (name == "Delete") {
          return CheckStruct(action, "DeleteGlobalSecondaryIndexAction", false,
                             [](std::string_view member, const JsonValue& field) {
                               return member == "IndexName" ? CheckString(field) : Status::Ok();
                             });
        }
        return Status::Ok();
      });
}

constexpr int64_t kIntMin = std::numeric_limits<int32_t>::min();

// Java's List.toString() of a list of strings: "[a, b]".
std::string RenderStringList(const JsonValue& array) {
  std::string out = "[";
  bool first = true;
  for (const JsonValue& element : array.GetArray()) {
    if (!first) out += ", ";
    first = false;
    out += element.IsString() ? std::string(StringOf(element)) : std::string("null");
  }
  out += ']';
  return out;
}

}  // namespace

const JsonValue* Field(const JsonValue& object, std::string_view name) {
  if (!object.IsObject()) return nullptr;
  const JsonValue* found = nullptr;
  for (const auto& member : object.GetObject()) {
    if (StringOf(member.name) == name) found = member.value.IsNull() ? nullptr : &member.value;
  }
  return found;
}

const JsonValue* Field(const JsonValue* object, std::string_view name) {
  return object == nullptr ? nullptr : Field(*object, name);
}

Status CheckShape(const JsonValue& value, Shape shape) {
  switch (shape) {
    case Shape::kString:
      return CheckString(value);
    case Shape::kBoolean:
      return CheckBoolean(value);
    case Shape::kInteger:
      return CheckInteger(value, "Integer", kIntMin, kIntMax);
    case Shape::kLong:
      return CheckInteger(value, "Long", kLongMin, kLongMax);
    case Shape::kDouble:
      return CheckDouble(value);
    case Shape::kItem:
      return CheckItemJson(value);
    case Shape::kNameMap:
      return CheckNameMap(value);
    case Shape::kStringList:
      return CheckStringList(value);
    case Shape::kExpected:
      return CheckMapOf(value, ModelClass("ExpectedAttributeValue"), CheckExpectedEntry);
    case Shape::kConditions:
      return CheckMapOf(value, ModelClass("Condition"), CheckCondition);
    case Shape::kAttributeUpdates:
      return CheckMapOf(value, ModelClass("AttributeValueUpdate"), CheckAttributeUpdate);
    case Shape::kKeySchema:
      return CheckListOf(value, false, [](const JsonValue& element) {
        return CheckStruct(
            element, "KeySchemaElement", true, [](std::string_view name, const JsonValue& field) {
              return name == "AttributeName" || name == "KeyType" ? CheckString(field)
                                                                  : Status::Ok();
            });
      });
    case Shape::kAttributeDefinitions:
      return CheckListOf(value, false, [](const JsonValue& element) {
        return CheckStruct(element, "AttributeDefinition", true,
                           [](std::string_view name, const JsonValue& field) {
                             return name == "AttributeName" || name == "AttributeType"
                                        ? CheckString(field)
                                        : Status::Ok();
                           });
      });
    case Shape::kProvisionedThroughput:
      return CheckStruct(value, "ProvisionedThroughput", false,
                         [](std::string_view name, const JsonValue& field) {
                           return name == "ReadCapacityUnits" || name == "WriteCapacityUnits"
                                      ? CheckInteger(field, "Long", kLongMin, kLongMax)
                                      : Status::Ok();
                         });
    case Shape::kBatchGetItems:
      return CheckMapOf(value, ModelClass("KeysAndAttributes"), CheckKeysAndAttributes);
    case Shape::kBatchWriteItems:
      return CheckMapOf(
          value, "java.util.List<" + ModelClass("WriteRequest") + ">",
          [](const JsonValue& list) { return CheckListOf(list, true, CheckWriteRequest); });
    case Shape::kLocalSecondaryIndexes:
      return CheckListOf(value, false, [](const JsonValue& element) {
        return CheckStruct(element, "LocalSecondaryIndex", true, CheckLocalIndexMember);
      });
    case Shape::kGlobalSecondaryIndexes:
      return CheckListOf(value, false, [](const JsonValue& element) {
        return CheckStruct(element, "GlobalSecondaryIndex", true, CheckIndexMember);
      });
    case Shape::kGlobalSecondaryIndexUpdates:
      return CheckListOf(value, false, CheckGlobalSecondaryIndexUpdate);
    case Shape::kTimeToLiveSpecification:
      return CheckStruct(value, "TimeToLiveSpecification", false,
                         [](std::string_view name, const JsonValue& field) {
                           if (name == "AttributeName") return CheckString(field);
                           if (name == "Enabled") return CheckBoolean(field);
                           return Status::Ok();
                         });
    case Shape::kStreamSpecification:
      return CheckStruct(value, "StreamSpecification", false,
                         [](std::string_view name, const JsonValue& field) {
                           if (name == "StreamViewType") return CheckString(field);
                           if (name == "StreamEnabled") return CheckBoolean(field);
                           return Status::Ok();
                         });
    case Shape::kTags:
      return CheckListOf(value, false, [](const JsonValue& element) {
        return CheckStruct(element, "Tag", true, [](std::string_view name, const JsonValue& field) {
          if (name == "Key" || name == "Value") return CheckString(field);
          return Status::Ok();
        });
      });
    case Shape::kStructure:
      return CheckStructOuter(value, "", false);
  }
  return Status::Ok();
}

Status ReadMembers(const JsonValue& body, std::string_view operation,
                   std::span<const MemberSpec> specs, std::span<const JsonValue*> out) {
  for (const JsonValue*& slot : out) slot = nullptr;
  if (body.IsArray()) {
    return SerializationError("Unrecognized collection type class " + std::string(kModelPackage) +
                              std::string(operation) + "Input");
  }
  if (!body.IsObject()) return SerializationError(std::string(kUnexpectedValueType));
  for (const auto& member : body.GetObject()) {
    const std::string_view name = StringOf(member.name);
    for (size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].name.empty() || specs[i].name != name) continue;
      PARTSTORE_RETURN_IF_ERROR(CheckShape(member.value, specs[i].shape));
      out[i] = member.value.IsNull() ? nullptr : &member.value;
      break;
    }
  }
  return Status::Ok();
}

// ---- Constraints ----------------------------------------------------------------------------

void Constraints::Required(const JsonValue* value, std::string_view member) {
  if (value == nullptr && !full()) violations_.NotNull(member);
}

void Constraints::Name(const JsonValue* value, std::string_view member) {
  if (value != nullptr && !full()) violations_.Name(StringOf(*value), member);
}

void Constraints::TableName(const JsonValue* value, std::string_view member, size_t min_empty) {
  if (value != nullptr && !full()) violations_.TableName(StringOf(*value), member, min_empty);
}

void Constraints::Enum(const JsonValue* value, std::span<const std::string_view> names,
                       std::string_view set, std::string_view member) {
  if (value == nullptr || full()) return;
  const std::string_view text = StringOf(*value);
  for (std::string_view name : names) {
    if (name == text) return;
  }
  violations_.Enum(text, set, member);
}

void Constraints::Range(const JsonValue* value, int64_t min, int64_t max, std::string_view member) {
  if (value != nullptr && !full()) violations_.Range(IntegerOf(*value), min, max, member);
}

void Constraints::ListLength(const JsonValue* value, size_t min, size_t max,
                             std::string_view member) {
  if (value == nullptr || full()) return;
  violations_.CollectionLength(RenderStringList(*value), value->Size(), min, max, member);
}

namespace {
constexpr std::string_view kComparisonOperatorNames[] = {
    "EQ",   "NE",       "LE",           "LT",          "GE", "GT",     "NOT_NULL",
    "NULL", "CONTAINS", "NOT_CONTAINS", "BEGINS_WITH", "IN", "BETWEEN"};
constexpr std::string_view kAttributeActionNames[] = {"PUT", "ADD", "DELETE"};

const JsonValue* MemberOf(const JsonValue& object, std::string_view name) {
  if (!object.IsObject()) return nullptr;
  const JsonValue* found = nullptr;
  for (const auto& member : object.GetObject()) {
    if (StringOf(member.name) == name) found = member.value.IsNull() ? nullptr : &member.value;
  }
  return found;
}
}  // namespace

void Constraints::Conditions(const JsonValue* value, std::string_view member) {
  if (value == nullptr) return;
  for (const auto& entry : value->GetObject()) {
    if (entry.value.IsNull()) continue;
    std::string path = std::string(member) + "." + std::string(StringOf(entry.name)) +
                       ".member.comparisonOperator";
    const JsonValue* op = MemberOf(entry.value, "ComparisonOperator");
    Required(op, path);
    Enum(op, kComparisonOperatorNames, kComparisonOperatorSet, path);
  }
}

void Constraints::Expected(const JsonValue* value) {
  if (value == nullptr) return;
  for (const auto& entry : value->GetObject()) {
    if (entry.value.IsNull()) continue;
    std::string path =
        "expected." + std::string(StringOf(entry.name)) + ".member.comparisonOperator";
    Enum(MemberOf(entry.value, "ComparisonOperator"), kComparisonOperatorNames,
         kComparisonOperatorSet, path);
  }
}

void Constraints::AttributeUpdates(const JsonValue* value) {
  if (value == nullptr) return;
  for (const auto& entry : value->GetObject()) {
    if (entry.value.IsNull()) continue;
    std::string path = "attributeUpdates." + std::string(StringOf(entry.name)) + ".member.action";
    Enum(MemberOf(entry.value, "Action"), kAttributeActionNames, kAttributeActionSet, path);
  }
}

// ---- Values ---------------------------------------------------------------------------------

size_t EnumIndex(const JsonValue& value, std::span<const std::string_view> names) {
  const std::string_view text = StringOf(value);
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return i;
  }
  return 0;  // Unreachable after Constraints::Enum.
}

int64_t IntegerOf(const JsonValue& value) {
  if (value.IsInt64()) return value.GetInt64();
  if (value.IsUint64()) return kLongMax;  // Beyond int64: rejected by the shape check.
  if (value.IsNumber()) {
    double d = std::trunc(value.GetDouble());
    if (!(d >= -9.2e18 && d <= 9.2e18)) return d < 0 ? kLongMin : kLongMax;
    return static_cast<int64_t>(d);
  }
  return 0;
}

double DoubleOf(const JsonValue& value) { return value.IsNumber() ? value.GetDouble() : 0; }

std::optional<std::string> OptionalString(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  return std::string(StringOf(*value));
}

Result<std::optional<expr::NameMap>> DecodeNameMap(const JsonValue* value) {
  if (value == nullptr) return std::optional<expr::NameMap>();
  expr::NameMap names;
  for (const auto& member : value->GetObject()) {
    if (member.value.IsNull()) continue;
    names.insert_or_assign(std::string(StringOf(member.name)), std::string(StringOf(member.value)));
  }
  return std::optional<expr::NameMap>(std::move(names));
}

Result<std::optional<AttributeMap>> DecodeValueMap(const JsonValue* value) {
  if (value == nullptr) return std::optional<AttributeMap>();
  PARTSTORE_ASSIGN_OR_RETURN(AttributeMap map, DecodeItem(*value));
  return std::optional<AttributeMap>(std::move(map));
}

std::optional<std::vector<std::string>> DecodeStringList(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  std::vector<std::string> out;
  out.reserve(value->Size());
  for (const JsonValue& element : value->GetArray()) {
    if (element.IsString()) out.emplace_back(StringOf(element));
  }
  return out;
}

namespace {

Result<std::vector<Value>> DecodeValueList(const JsonValue& list) {
  std::vector<Value> out;
  out.reserve(list.Size());
  for (const JsonValue& element : list.GetArray()) {
    PARTSTORE_ASSIGN_OR_RETURN(Value value, DecodeAttributeValue(element));
    out.push_back(std::move(value));
  }
  return out;
}

}  // namespace

Result<std::optional<std::vector<expr::ExpectedAttribute>>> DecodeExpected(const JsonValue* value) {
  using Out = std::optional<std::vector<expr::ExpectedAttribute>>;
  if (value == nullptr) return Out();
  std::vector<expr::ExpectedAttribute> out;
  for (const auto& entry : value->GetObject()) {
    expr::ExpectedAttribute expected;
    expected.name = std::string(StringOf(entry.name));
    if (const JsonValue* v = MemberOf(entry.value, "Value")) {
      PARTSTORE_ASSIGN_OR_RETURN(Value decoded, DecodeAttributeValue(*v));
      expected.value = std::move(decoded);
    }
    if (const JsonValue* exists = MemberOf(entry.value, "Exists")) {
      expected.exists = BooleanOf(*exists);
    }
    if (const JsonValue* op = MemberOf(entry.value, "ComparisonOperator")) {
      expected.comparison_operator = expr::ComparisonOperatorFromName(StringOf(*op));
    }
    if (const JsonValue* list = MemberOf(entry.value, "AttributeValueList")) {
      PARTSTORE_ASSIGN_OR_RETURN(std::vector<Value> values, DecodeValueList(*list));
      expected.attribute_value_list = std::move(values);
    }
    // A repeated attribute keeps its last occurrence.
    std::erase_if(out, [&](const auto& e) { return e.name == expected.name; });
    out.push_back(std::move(expected));
  }
  return Out(std::move(out));
}

Result<std::optional<std::vector<expr::AttributeCondition>>> DecodeConditions(
    const JsonValue* value) {
  using Out = std::optional<std::vector<expr::AttributeCondition>>;
  if (value == nullptr) return Out();
  std::vector<expr::AttributeCondition> out;
  for (const auto& entry : value->GetObject()) {
    if (entry.value.IsNull()) continue;
    expr::AttributeCondition condition;
    condition.name = std::string(StringOf(entry.name));
    if (const JsonValue* op = MemberOf(entry.value, "ComparisonOperator")) {
      condition.comparison_operator =
          expr::ComparisonOperatorFromName(StringOf(*op)).value_or(expr::ComparisonOperator::kEq);
    }
    if (const JsonValue* list = MemberOf(entry.value, "AttributeValueList")) {
      PARTSTORE_ASSIGN_OR_RETURN(condition.attribute_value_list, DecodeValueList(*list));
    }
    std::erase_if(out, [&](const auto& c) { return c.name == condition.name; });
    out.push_back(std::move(condition));
  }
  return Out(std::move(out));
}

Result<std::optional<std::vector<expr::AttributeUpdate>>> DecodeAttributeUpdates(
    const JsonValue* value) {
  using Out = std::optional<std::vector<expr::AttributeUpdate>>;
  if (value == nullptr) return Out();
  std::vector<expr::AttributeUpdate> out;
  for (const auto& entry : value->GetObject()) {
    expr::AttributeUpdate update;
    update.name = std::string(StringOf(entry.name));
    if (const JsonValue* v = MemberOf(entry.value, "Value")) {
      PARTSTORE_ASSIGN_OR_RETURN(Value decoded, DecodeAttributeValue(*v));
      update.value = std::move(decoded);
    }
    if (const JsonValue* action = MemberOf(entry.value, "Action")) {
      update.action = expr::AttributeActionFromName(StringOf(*action));
    }
    std::erase_if(out, [&](const auto& u) { return u.name == update.name; });
    out.push_back(std::move(update));
  }
  return Out(std::move(out));
}

Result<std::optional<Item>> DecodeStartKey(const JsonValue* value) {
  if (value == nullptr) return std::optional<Item>();
  Result<Item> key = DecodeItem(*value);
  if (!key.ok()) {
    // [live] dynalite test/scan.js, query.js: "The provided starting key is invalid: Supplied
    // AttributeValue is empty, ...".
    if (key.error().code() != Code::kValidation) return key.error();
    return Status::Validation("The provided starting key is invalid: " +
                              std::string(key.error().message()));
  }
  return std::optional<Item>(std::move(*key));
}

// ---- Encoding (client_data_json.h): the members the decoders above read ------------------

void MemberWriter::Key(std::string_view key) {
  w_.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
}

void MemberWriter::String(std::string_view key, std::string_view value) {
  Key(key);
  w_.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void MemberWriter::OptionalString(std::string_view key, const std::optional<std::string>& value) {
  if (value) String(key, *value);
}

void MemberWriter::Item(std::string_view key, const partstore::Item& item) {
  Key(key);
  WriteItem(item, w_);
}

void MemberWriter::OptionalItem(std::string_view key, const std::optional<partstore::Item>& item) {
  if (item) Item(key, *item);
}

void MemberWriter::TrueBool(std::string_view key, bool value) {
  if (!value) return;
  Key(key);
  w_.Bool(true);
}

void MemberWriter::OptionalBool(std::string_view key, std::optional<bool> value) {
  if (!value) return;
  Key(key);
  w_.Bool(*value);
}

void MemberWriter::OptionalInt(std::string_view key, std::optional<int32_t> value) {
  if (!value) return;
  Key(key);
  w_.Int(*value);
}

void MemberWriter::NameMap(std::string_view key, const std::optional<expr::NameMap>& names) {
  if (!names) return;
  Key(key);
  w_.StartObject();
  for (const auto& [placeholder, name] : *names) String(placeholder, name);
  w_.EndObject();
}

void MemberWriter::ValueMap(std::string_view key, const std::optional<AttributeMap>& values) {
  if (values) Item(key, *values);
}

void MemberWriter::StringList(std::string_view key,
                              const std::optional<std::vector<std::string>>& list) {
  if (!list) return;
  Key(key);
  w_.StartArray();
  for (const std::string& s : *list)
    w_.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  w_.EndArray();
}

void MemberWriter::ValueList(std::string_view key, const std::optional<std::vector<Value>>& list) {
  if (!list) return;
  Key(key);
  w_.StartArray();
  for (const Value& value : *list) WriteAttributeValue(value, w_);
  w_.EndArray();
}

// The member names below are the ones CheckExpectedEntry, CheckCondition, CheckAttributeUpdate
// and the Decode* functions above read.
void MemberWriter::Expected(std::string_view key,
                            const std::optional<std::vector<expr::ExpectedAttribute>>& expected) {
  if (!expected) return;
  Key(key);
  w_.StartObject();
  for (const expr::ExpectedAttribute& entry : *expected) {
    Key(entry.name);
    w_.StartObject();
    if (entry.value) {
      Key("Value");
      WriteAttributeValue(*entry.value, w_);
    }
    OptionalBool("Exists", entry.exists);
    if (entry.comparison_operator) {
      String("ComparisonOperator", expr::ComparisonOperatorName(*entry.comparison_operator));
    }
    ValueList("AttributeValueList", entry.attribute_value_list);
    w_.EndObject();
  }
  w_.EndObject();
}

void MemberWriter::Conditions(
    std::string_view key, const std::optional<std::vector<expr::AttributeCondition>>& conditions) {
  if (!conditions) return;
  Key(key);
  w_.StartObject();
  for (const expr::AttributeCondition& condition : *conditions) {
    Key(condition.name);
    w_.StartObject();
    // DecodeConditions reads an absent list as an empty one; NULL and NOT_NULL take none.
    if (!condition.attribute_value_list.empty()) {
      ValueList("AttributeValueList", condition.attribute_value_list);
    }
    String("ComparisonOperator", expr::ComparisonOperatorName(condition.comparison_operator));
    w_.EndObject();
  }
  w_.EndObject();
}

void MemberWriter::AttributeUpdates(
    std::string_view key, const std::optional<std::vector<expr::AttributeUpdate>>& updates) {
  if (!updates) return;
  Key(key);
  w_.StartObject();
  for (const expr::AttributeUpdate& update : *updates) {
    Key(update.name);
    w_.StartObject();
    if (update.value) {
      Key("Value");
      WriteAttributeValue(*update.value, w_);
    }
    if (update.action) String("Action", expr::AttributeActionName(*update.action));
    w_.EndObject();
  }
  w_.EndObject();
}

void MemberWriter::OptionalConditionalOperator(std::string_view key,
                                               std::optional<expr::ConditionalOperator> op) {
  OptionalEnum(key, op, kConditionalOperatorNames);
}

void MemberWriter::EnumName(std::string_view key, size_t index,
                            std::span<const std::string_view> names) {
  if (index < names.size()) String(key, names[index]);
}

}  // namespace partstore::protocol
