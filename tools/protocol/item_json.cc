// PutItem, GetItem, UpdateItem, DeleteItem JSON (see operations_json.h).
//
// Order of the model-constraint violations: DynamoDB lists them in an order that is stable for a
// given request but not documented; these follow the live listings recorded in architect/dynalite
// test/updateItem.js, deleteItem.js and getItem.js ("should return ValidationException for
// incorrect attributes", run against DynamoDB). PutItem's is taken to be UpdateItem's (no
// listing); the placement of returnValuesOnConditionCheckFailure, conditionalOperator, expected
// and attributeUpdates among them is partstore's guess.
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

// ---- Shared pieces ----

// The members of a single-item response, into the object the caller has started.
template <typename ItemT>
void WriteResultMembers(const std::optional<ItemT>& attributes,
                        const std::optional<ConsumedCapacity>& capacity, std::string_view item_key,
                        const std::optional<ItemCollectionMetrics>& metrics, JsonWriter& writer) {
  if (attributes) {
    writer.Key(item_key.data(), static_cast<rapidjson::SizeType>(item_key.size()));
    WriteItem(*attributes, writer);
  }
  if (capacity) {
    writer.Key("ConsumedCapacity");
    WriteConsumedCapacity(*capacity, writer);
  }
  if (metrics) {
    writer.Key("ItemCollectionMetrics");
    WriteItemCollectionMetrics(*metrics, writer);
  }
}

// One whole response object from a member writer.
template <typename Result_>
std::string EncodeResult(const Result_& result,
                         void (*write_members)(const Result_&, JsonWriter&)) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  write_members(result, writer);
  writer.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

// The legacy / expression parameters present, for expr::CheckParameterMixing.
struct Present {
  const JsonValue* attribute_updates = nullptr;
  const JsonValue* attributes_to_get = nullptr;
  const JsonValue* expected = nullptr;
  const JsonValue* conditional_operator = nullptr;
  const JsonValue* update_expression = nullptr;
  const JsonValue* projection_expression = nullptr;
  const JsonValue* condition_expression = nullptr;
};

Status CheckMixing(const Present& p) {
  expr::RequestParameters parameters;
  parameters.attribute_updates = p.attribute_updates != nullptr;
  parameters.attributes_to_get = p.attributes_to_get != nullptr;
  parameters.expected = p.expected != nullptr;
  parameters.conditional_operator = p.conditional_operator != nullptr;
  parameters.update_expression = p.update_expression != nullptr;
  parameters.projection_expression = p.projection_expression != nullptr;
  parameters.condition_expression = p.condition_expression != nullptr;
  return expr::CheckParameterMixing(parameters);
}

// ---- PutItem ----

enum PutMember {
  kPutTableName,
  kPutItem,
  kPutConditionExpression,
  kPutNames,
  kPutValues,
  kPutExpected,
  kPutConditionalOperator,
  kPutReturnValues,
  kPutReturnValuesOnConditionCheckFailure,
  kPutReturnConsumedCapacity,
  kPutReturnItemCollectionMetrics,
  kPutMemberCount,
};
constexpr MemberSpec kPutMembers[kPutMemberCount] = {
    {"TableName", Shape::kString},
    {"Item", Shape::kItem},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"Expected", Shape::kExpected},
    {"ConditionalOperator", Shape::kString},
    {"ReturnValues", Shape::kString},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
    {"ReturnConsumedCapacity", Shape::kString},
    {"ReturnItemCollectionMetrics", Shape::kString},
};

// ---- GetItem ----

enum GetMember {
  kGetTableName,
  kGetKey,
  kGetProjectionExpression,
  kGetNames,
  kGetAttributesToGet,
  kGetConsistentRead,
  kGetReturnConsumedCapacity,
  kGetMemberCount,
};
constexpr MemberSpec kGetMembers[kGetMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"ProjectionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"AttributesToGet", Shape::kStringList},
    {"ConsistentRead", Shape::kBoolean},
    {"ReturnConsumedCapacity", Shape::kString},
};

// ---- UpdateItem ----

enum UpdateMember {
  kUpdateTableName,
  kUpdateKey,
  kUpdateUpdateExpression,
  kUpdateConditionExpression,
  kUpdateNames,
  kUpdateValues,
  kUpdateAttributeUpdates,
  kUpdateExpected,
  kUpdateConditionalOperator,
  kUpdateReturnValues,
  kUpdateReturnValuesOnConditionCheckFailure,
  kUpdateReturnConsumedCapacity,
  kUpdateReturnItemCollectionMetrics,
  kUpdateMemberCount,
};
constexpr MemberSpec kUpdateMembers[kUpdateMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"UpdateExpression", Shape::kString},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"AttributeUpdates", Shape::kAttributeUpdates},
    {"Expected", Shape::kExpected},
    {"ConditionalOperator", Shape::kString},
    {"ReturnValues", Shape::kString},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
    {"ReturnConsumedCapacity", Shape::kString},
    {"ReturnItemCollectionMetrics", Shape::kString},
};

// ---- DeleteItem ----

enum DeleteMember {
  kDeleteTableName,
  kDeleteKey,
  kDeleteConditionExpression,
  kDeleteNames,
  kDeleteValues,
  kDeleteExpected,
  kDeleteConditionalOperator,
  kDeleteReturnValues,
  kDeleteReturnValuesOnConditionCheckFailure,
  kDeleteReturnConsumedCapacity,
  kDeleteReturnItemCollectionMetrics,
  kDeleteMemberCount,
};
constexpr MemberSpec kDeleteMembers[kDeleteMemberCount] = {
    {"TableName", Shape::kString},
    {"Key", Shape::kItem},
    {"ConditionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"Expected", Shape::kExpected},
    {"ConditionalOperator", Shape::kString},
    {"ReturnValues", Shape::kString},
    {"ReturnValuesOnConditionCheckFailure", Shape::kString},
    {"ReturnConsumedCapacity", Shape::kString},
    {"ReturnItemCollectionMetrics", Shape::kString},
};

}  // namespace

Result<PutItemRequest> DecodePutItemRequest(const JsonValue& body) {
  return DecodePutItemRequestStored(body, nullptr);
}

Result<PutItemRequest> DecodePutItemRequestStored(const JsonValue& body, StoredItem* stored) {
  std::array<const JsonValue*, kPutMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "PutItem", kPutMembers, m));

  Constraints c;
  c.Enum(m[kPutReturnConsumedCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  TableName(c, m[kPutTableName]);
  c.Enum(m[kPutReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
         kReturnItemCollectionMetricsSet, "returnItemCollectionMetrics");
  c.Enum(m[kPutReturnValues], kReturnValueNames, kReturnValuesSet, "returnValues");
  c.Enum(m[kPutReturnValuesOnConditionCheckFailure], kReturnValuesOnConditionCheckFailureNames,
         kReturnValuesOnConditionCheckFailureSet, "returnValuesOnConditionCheckFailure");
  c.Required(m[kPutItem], "item");
  c.Enum(m[kPutConditionalOperator], kConditionalOperatorNames, kConditionalOperatorSet,
         "conditionalOperator");
  c.Expected(m[kPutExpected]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  PARTSTORE_RETURN_IF_ERROR(CheckMixing({.expected = m[kPutExpected],
                                         .conditional_operator = m[kPutConditionalOperator],
                                         .condition_expression = m[kPutConditionExpression]}));

  PutItemRequest request;
  request.table_name = std::string(StringOf(*m[kPutTableName]));
  // The item first, then Expected, then the expression's names and values (dynalite's order of
  // checks, which this decoder has always kept: a request with two errors gets the item's). So a
  // request refused after this, here or by the engine, may have numbered its item's names
  // (stored_item_from_json.cc).
  std::optional<StoredItem> encoded;
  if (stored != nullptr) encoded = EncodeItemJson(*m[kPutItem]);
  if (!encoded) {
    PARTSTORE_ASSIGN_OR_RETURN(request.item, DecodeItem(*m[kPutItem]));
  }
  PARTSTORE_ASSIGN_OR_RETURN(request.expected, DecodeExpected(m[kPutExpected]));
  request.conditional_operator =
      m[kPutConditionalOperator]
          ? std::optional(EnumOf(m[kPutConditionalOperator], kConditionalOperatorNames,
                                 expr::ConditionalOperator::kAnd))
          : std::nullopt;
  request.condition_expression = OptionalString(m[kPutConditionExpression]);
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_names, DecodeNameMap(m[kPutNames]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_values, DecodeValueMap(m[kPutValues]));
  request.return_values = EnumOf(m[kPutReturnValues], kReturnValueNames, ReturnValue::kNone);
  request.return_values_on_condition_check_failure =
      EnumOf(m[kPutReturnValuesOnConditionCheckFailure], kReturnValuesOnConditionCheckFailureNames,
             ReturnValuesOnConditionCheckFailure::kNone);
  request.return_consumed_capacity = CapacityOf(m[kPutReturnConsumedCapacity]);
  request.return_item_collection_metrics =
      EnumOf(m[kPutReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
             ReturnItemCollectionMetrics::kNone);
  if (encoded) *stored = std::move(*encoded);
  return request;
}

std::string EncodePutItemRequest(const PutItemRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  const auto name = [](PutMember member) { return kPutMembers[member].name; };
  w.String(name(kPutTableName), request.table_name);
  w.Item(name(kPutItem), request.item);
  w.OptionalString(name(kPutConditionExpression), request.condition_expression);
  w.NameMap(name(kPutNames), request.expression_attribute_names);
  w.ValueMap(name(kPutValues), request.expression_attribute_values);
  w.Expected(name(kPutExpected), request.expected);
  w.OptionalConditionalOperator(name(kPutConditionalOperator), request.conditional_operator);
  w.Enum(name(kPutReturnValues), request.return_values, kReturnValueNames, ReturnValue::kNone);
  w.Enum(name(kPutReturnValuesOnConditionCheckFailure),
         request.return_values_on_condition_check_failure,
         kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
  w.Enum(name(kPutReturnConsumedCapacity), request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  w.Enum(name(kPutReturnItemCollectionMetrics), request.return_item_collection_metrics,
         kReturnItemCollectionMetricsNames, ReturnItemCollectionMetrics::kNone);
  body.writer().EndObject();
  return body.Text();
}

Result<GetItemRequest> DecodeGetItemRequest(const JsonValue& body) {
  std::array<const JsonValue*, kGetMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "GetItem", kGetMembers, m));

  Constraints c;
  c.ListLength(m[kGetAttributesToGet], 1, 255, "attributesToGet");
  c.Enum(m[kGetReturnConsumedCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  c.Required(m[kGetKey], "key");
  TableName(c, m[kGetTableName]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  PARTSTORE_RETURN_IF_ERROR(CheckMixing({.attributes_to_get = m[kGetAttributesToGet],
                                         .projection_expression = m[kGetProjectionExpression]}));

  GetItemRequest request;
  request.table_name = std::string(StringOf(*m[kGetTableName]));
  PARTSTORE_ASSIGN_OR_RETURN(request.key, DecodeItem(*m[kGetKey]));
  request.projection_expression = OptionalString(m[kGetProjectionExpression]);
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_names, DecodeNameMap(m[kGetNames]));
  request.attributes_to_get = DecodeStringList(m[kGetAttributesToGet]);
  request.consistent_read = m[kGetConsistentRead] && BooleanOf(*m[kGetConsistentRead]);
  request.return_consumed_capacity = CapacityOf(m[kGetReturnConsumedCapacity]);
  return request;
}

std::string EncodeGetItemRequest(const GetItemRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  const auto name = [](GetMember member) { return kGetMembers[member].name; };
  w.String(name(kGetTableName), request.table_name);
  w.Item(name(kGetKey), request.key);
  w.OptionalString(name(kGetProjectionExpression), request.projection_expression);
  w.NameMap(name(kGetNames), request.expression_attribute_names);
  w.StringList(name(kGetAttributesToGet), request.attributes_to_get);
  w.TrueBool(name(kGetConsistentRead), request.consistent_read);
  w.Enum(name(kGetReturnConsumedCapacity), request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  body.writer().EndObject();
  return body.Text();
}

Result<UpdateItemRequest> DecodeUpdateItemRequest(const JsonValue& body) {
  std::array<const JsonValue*, kUpdateMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "UpdateItem", kUpdateMembers, m));

  Constraints c;
  c.Enum(m[kUpdateReturnConsumedCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  TableName(c, m[kUpdateTableName]);
  c.Enum(m[kUpdateReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
         kReturnItemCollectionMetricsSet, "returnItemCollectionMetrics");
  c.Enum(m[kUpdateReturnValues], kReturnValueNames, kReturnValuesSet, "returnValues");
  c.Enum(m[kUpdateReturnValuesOnConditionCheckFailure], kReturnValuesOnConditionCheckFailureNames,
         kReturnValuesOnConditionCheckFailureSet, "returnValuesOnConditionCheckFailure");
  c.Required(m[kUpdateKey], "key");
  c.Enum(m[kUpdateConditionalOperator], kConditionalOperatorNames, kConditionalOperatorSet,
         "conditionalOperator");
  c.Expected(m[kUpdateExpected]);
  c.AttributeUpdates(m[kUpdateAttributeUpdates]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  PARTSTORE_RETURN_IF_ERROR(CheckMixing({.attribute_updates = m[kUpdateAttributeUpdates],
                                         .expected = m[kUpdateExpected],
                                         .conditional_operator = m[kUpdateConditionalOperator],
                                         .update_expression = m[kUpdateUpdateExpression],
                                         .condition_expression = m[kUpdateConditionExpression]}));

  UpdateItemRequest request;
  request.table_name = std::string(StringOf(*m[kUpdateTableName]));
  // dynalite validations/updateItem.js: Key, then AttributeUpdates, then Expected.
  PARTSTORE_ASSIGN_OR_RETURN(request.key, DecodeItem(*m[kUpdateKey]));
  PARTSTORE_ASSIGN_OR_RETURN(request.attribute_updates,
                             DecodeAttributeUpdates(m[kUpdateAttributeUpdates]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expected, DecodeExpected(m[kUpdateExpected]));
  request.conditional_operator =
      m[kUpdateConditionalOperator]
          ? std::optional(EnumOf(m[kUpdateConditionalOperator], kConditionalOperatorNames,
                                 expr::ConditionalOperator::kAnd))
          : std::nullopt;
  request.update_expression = OptionalString(m[kUpdateUpdateExpression]);
  request.condition_expression = OptionalString(m[kUpdateConditionExpression]);
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_names, DecodeNameMap(m[kUpdateNames]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_values, DecodeValueMap(m[kUpdateValues]));
  request.return_values = EnumOf(m[kUpdateReturnValues], kReturnValueNames, ReturnValue::kNone);
  request.return_values_on_condition_check_failure =
      EnumOf(m[kUpdateReturnValuesOnConditionCheckFailure],
             kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
  request.return_consumed_capacity = CapacityOf(m[kUpdateReturnConsumedCapacity]);
  request.return_item_collection_metrics =
      EnumOf(m[kUpdateReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
             ReturnItemCollectionMetrics::kNone);
  return request;
}

std::string EncodeUpdateItemRequest(const UpdateItemRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  const auto name = [](UpdateMember member) { return kUpdateMembers[member].name; };
  w.String(name(kUpdateTableName), request.table_name);
  w.Item(name(kUpdateKey), request.key);
  w.OptionalString(name(kUpdateUpdateExpression), request.update_expression);
  w.OptionalString(name(kUpdateConditionExpression), request.condition_expression);
  w.NameMap(name(kUpdateNames), request.expression_attribute_names);
  w.ValueMap(name(kUpdateValues), request.expression_attribute_values);
  w.AttributeUpdates(name(kUpdateAttributeUpdates), request.attribute_updates);
  w.Expected(name(kUpdateExpected), request.expected);
  w.OptionalConditionalOperator(name(kUpdateConditionalOperator), request.conditional_operator);
  w.Enum(name(kUpdateReturnValues), request.return_values, kReturnValueNames, ReturnValue::kNone);
  w.Enum(name(kUpdateReturnValuesOnConditionCheckFailure),
         request.return_values_on_condition_check_failure,
         kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
  w.Enum(name(kUpdateReturnConsumedCapacity), request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  w.Enum(name(kUpdateReturnItemCollectionMetrics), request.return_item_collection_metrics,
         kReturnItemCollectionMetricsNames, ReturnItemCollectionMetrics::kNone);
  body.writer().EndObject();
  return body.Text();
}

Result<DeleteItemRequest> DecodeDeleteItemRequest(const JsonValue& body) {
  std::array<const JsonValue*, kDeleteMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "DeleteItem", kDeleteMembers, m));

  Constraints c;
  c.Enum(m[kDeleteReturnConsumedCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
  TableName(c, m[kDeleteTableName]);
  c.Enum(m[kDeleteReturnValues], kReturnValueNames, kReturnValuesSet, "returnValues");
  c.Enum(m[kDeleteReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
         kReturnItemCollectionMetricsSet, "returnItemCollectionMetrics");
  c.Enum(m[kDeleteReturnValuesOnConditionCheckFailure], kReturnValuesOnConditionCheckFailureNames,
         kReturnValuesOnConditionCheckFailureSet, "returnValuesOnConditionCheckFailure");
  c.Required(m[kDeleteKey], "key");
  c.Enum(m[kDeleteConditionalOperator], kConditionalOperatorNames, kConditionalOperatorSet,
         "conditionalOperator");
  c.Expected(m[kDeleteExpected]);
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  PARTSTORE_RETURN_IF_ERROR(CheckMixing({.expected = m[kDeleteExpected],
                                         .conditional_operator = m[kDeleteConditionalOperator],
                                         .condition_expression = m[kDeleteConditionExpression]}));

  DeleteItemRequest request;
  request.table_name = std::string(StringOf(*m[kDeleteTableName]));
  PARTSTORE_ASSIGN_OR_RETURN(request.key, DecodeItem(*m[kDeleteKey]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expected, DecodeExpected(m[kDeleteExpected]));
  request.conditional_operator =
      m[kDeleteConditionalOperator]
          ? std::optional(EnumOf(m[kDeleteConditionalOperator], kConditionalOperatorNames,
                                 expr::ConditionalOperator::kAnd))
          : std::nullopt;
  request.condition_expression = OptionalString(m[kDeleteConditionExpression]);
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_names, DecodeNameMap(m[kDeleteNames]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_values, DecodeValueMap(m[kDeleteValues]));
  request.return_values = EnumOf(m[kDeleteReturnValues], kReturnValueNames, ReturnValue::kNone);
  request.return_values_on_condition_check_failure =
      EnumOf(m[kDeleteReturnValuesOnConditionCheckFailure],
             kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
  request.return_consumed_capacity = CapacityOf(m[kDeleteReturnConsumedCapacity]);
  request.return_item_collection_metrics =
      EnumOf(m[kDeleteReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
             ReturnItemCollectionMetrics::kNone);
  return request;
}

std::string EncodeDeleteItemRequest(const DeleteItemRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  const auto name = [](DeleteMember member) { return kDeleteMembers[member].name; };
  w.String(name(kDeleteTableName), request.table_name);
  w.Item(name(kDeleteKey), request.key);
  w.OptionalString(name(kDeleteConditionExpression), request.condition_expression);
  w.NameMap(name(kDeleteNames), request.expression_attribute_names);
  w.ValueMap(name(kDeleteValues), request.expression_attribute_values);
  w.Expected(name(kDeleteExpected), request.expected);
  w.OptionalConditionalOperator(name(kDeleteConditionalOperator), request.conditional_operator);
  w.Enum(name(kDeleteReturnValues), request.return_values, kReturnValueNames, ReturnValue::kNone);
  w.Enum(name(kDeleteReturnValuesOnConditionCheckFailure),
         request.return_values_on_condition_check_failure,
         kReturnValuesOnConditionCheckFailureNames, ReturnValuesOnConditionCheckFailure::kNone);
  w.Enum(name(kDeleteReturnConsumedCapacity), request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  w.Enum(name(kDeleteReturnItemCollectionMetrics), request.return_item_collection_metrics,
         kReturnItemCollectionMetricsNames, ReturnItemCollectionMetrics::kNone);
  body.writer().EndObject();
  return body.Text();
}

void WritePutItemResultMembers(const PutItemResult& result, JsonWriter& writer) {
  WriteResultMembers(result.attributes, result.consumed_capacity, "Attributes",
                     result.item_collection_metrics, writer);
}
void WriteGetItemResultMembers(const GetItemResult& result, JsonWriter& writer) {
  WriteResultMembers(result.item, result.consumed_capacity, "Item", std::nullopt, writer);
}
void WriteGetItemResultMembers(const GetItemViewResult& result, JsonWriter& writer) {
  WriteResultMembers(result.item, result.consumed_capacity, "Item", std::nullopt, writer);
}
void WriteUpdateItemResultMembers(const UpdateItemResult& result, JsonWriter& writer) {
  WriteResultMembers(result.attributes, result.consumed_capacity, "Attributes",
                     result.item_collection_metrics, writer);
}
void WriteDeleteItemResultMembers(const DeleteItemResult& result, JsonWriter& writer) {
  WriteResultMembers(result.attributes, result.consumed_capacity, "Attributes",
                     result.item_collection_metrics, writer);
}

std::string EncodePutItemResult(const PutItemResult& result) {
  return EncodeResult(result, WritePutItemResultMembers);
}
std::string EncodeGetItemResult(const GetItemResult& result) {
  return EncodeResult<GetItemResult>(result, WriteGetItemResultMembers);
}
std::string EncodeGetItemResult(const GetItemViewResult& result) {
  return EncodeResult<GetItemViewResult>(result, WriteGetItemResultMembers);
}
std::string EncodeUpdateItemResult(const UpdateItemResult& result) {
  return EncodeResult(result, WriteUpdateItemResultMembers);
}
std::string EncodeDeleteItemResult(const DeleteItemResult& result) {
  return EncodeResult(result, WriteDeleteItemResultMembers);
}

// ---- Results, read back (client_data_json.h) ----

namespace {

// The members of a single-item response, as WriteResultMembers writes them.
template <typename Result_>
Result<Result_> ReadWriteResult(const JsonValue& body, std::string_view operation) {
  return ReadBody<Result_>(body, operation, [](const ResponseObject& o, Result_& out) {
    o.Item("Attributes", &out.attributes);
    ReadConsumedCapacity(o, "ConsumedCapacity", &out.consumed_capacity);
    ReadItemCollectionMetrics(o, &out.item_collection_metrics);
  });
}

}  // namespace

Result<PutItemResult> DecodePutItemResult(const JsonValue& body) {
  return ReadWriteResult<PutItemResult>(body, "PutItem");
}

Result<GetItemResult> DecodeGetItemResult(const JsonValue& body) {
  return ReadBody<GetItemResult>(body, "GetItem", [](const ResponseObject& o, GetItemResult& out) {
    o.Item("Item", &out.item);
    ReadConsumedCapacity(o, "ConsumedCapacity", &out.consumed_capacity);
  });
}

Result<UpdateItemResult> DecodeUpdateItemResult(const JsonValue& body) {
  return ReadWriteResult<UpdateItemResult>(body, "UpdateItem");
}

Result<DeleteItemResult> DecodeDeleteItemResult(const JsonValue& body) {
  return ReadWriteResult<DeleteItemResult>(body, "DeleteItem");
}

}  // namespace partstore::protocol
