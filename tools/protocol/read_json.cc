// Query and Scan JSON (see operations_json.h).
//
// Order of the model-constraint violations: the live listings in architect/dynalite
// test/query.js and test/scan.js ("should return ValidationException for incorrect attributes",
// run against DynamoDB; 10 violations reported at most):
//   Query  select, indexName, returnConsumedCapacity, queryFilter.*, tableName,
//          conditionalOperator, attributesToGet, limit, keyConditions.*
//   Scan   select, indexName, totalSegments, returnConsumedCapacity, tableName,
//          conditionalOperator, scanFilter.*, segment, attributesToGet, limit
// Bounds: Limit >= 1, Segment 0..999999, TotalSegments 1..1000000 (reference §4.3, §4.4).
// Values are validated after the mixing rule, in dynalite's order (validations/query.js,
// scan.js): the filter's AttributeValueLists, ExclusiveStartKey, KeyConditions, then
// ExpressionAttributeValues.
#include <rapidjson/stringbuffer.h>

#include <array>
#include <limits>
#include <type_traits>

#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

enum ReadMember {
  kReadTableName,
  kReadIndexName,
  kReadKeyConditionExpression,
  kReadFilterExpression,
  kReadProjectionExpression,
  kReadNames,
  kReadValues,
  kReadKeyConditions,
  kReadFilter,  // QueryFilter or ScanFilter
  kReadConditionalOperator,
  kReadAttributesToGet,
  kReadSelect,
  kReadLimit,
  kReadScanIndexForward,
  kReadConsistentRead,
  kReadExclusiveStartKey,
  kReadReturnConsumedCapacity,
  kReadSegment,
  kReadTotalSegments,
  kReadMemberCount,
};

constexpr MemberSpec kQueryMembers[kReadMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
    {"KeyConditionExpression", Shape::kString},
    {"FilterExpression", Shape::kString},
    {"ProjectionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"KeyConditions", Shape::kConditions},
    {"QueryFilter", Shape::kConditions},
    {"ConditionalOperator", Shape::kString},
    {"AttributesToGet", Shape::kStringList},
    {"Select", Shape::kString},
    {"Limit", Shape::kInteger},
    {"ScanIndexForward", Shape::kBoolean},
    {"ConsistentRead", Shape::kBoolean},
    {"ExclusiveStartKey", Shape::kItem},
    {"ReturnConsumedCapacity", Shape::kString},
    // Not Query members: never matched.
    {"", Shape::kInteger},
    {"", Shape::kInteger},
};

constexpr MemberSpec kScanMembers[kReadMemberCount] = {
    {"TableName", Shape::kString},
    {"IndexName", Shape::kString},
    {"", Shape::kString},  // No KeyConditionExpression.
    {"FilterExpression", Shape::kString},
    {"ProjectionExpression", Shape::kString},
    {"ExpressionAttributeNames", Shape::kNameMap},
    {"ExpressionAttributeValues", Shape::kItem},
    {"", Shape::kConditions},  // No KeyConditions.
    {"ScanFilter", Shape::kConditions},
    {"ConditionalOperator", Shape::kString},
    {"AttributesToGet", Shape::kStringList},
    {"Select", Shape::kString},
    {"Limit", Shape::kInteger},
    {"", Shape::kBoolean},  // No ScanIndexForward.
    {"ConsistentRead", Shape::kBoolean},
    {"ExclusiveStartKey", Shape::kItem},
    {"ReturnConsumedCapacity", Shape::kString},
    {"Segment", Shape::kInteger},
    {"TotalSegments", Shape::kInteger},
};

using Members = std::array<const JsonValue*, kReadMemberCount>;

void SelectAndIndex(Constraints& c, const Members& m) {
  c.Enum(m[kReadSelect], kSelectNames, kSelectSet, "select");
  c.Name(m[kReadIndexName], "indexName");
}

void Capacity(Constraints& c, const Members& m) {
  c.Enum(m[kReadReturnConsumedCapacity], kReturnConsumedCapacityNames, kReturnConsumedCapacitySet,
         "returnConsumedCapacity");
}

void ConditionalOperator(Constraints& c, const Members& m) {
  c.Enum(m[kReadConditionalOperator], kConditionalOperatorNames, kConditionalOperatorSet,
         "conditionalOperator");
}

std::optional<expr::ConditionalOperator> ConditionalOperatorOf(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  return EnumOf(value, kConditionalOperatorNames, expr::ConditionalOperator::kAnd);
}

std::optional<int32_t> Int32Of(const JsonValue* value) {
  if (value == nullptr) return std::nullopt;
  return static_cast<int32_t>(IntegerOf(*value));
}

// Query's or Scan's request, its members in the member table's order.
template <typename Request>
std::string EncodeReadRequest(const Request& r, const MemberSpec (&specs)[kReadMemberCount]) {
  constexpr bool kQuery = std::is_same_v<Request, QueryRequest>;
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  const auto name = [&specs](ReadMember member) { return specs[member].name; };
  w.String(name(kReadTableName), r.table_name);
  w.OptionalString(name(kReadIndexName), r.index_name);
  if constexpr (kQuery) {
    w.OptionalString(name(kReadKeyConditionExpression), r.key_condition_expression);
  }
  w.OptionalString(name(kReadFilterExpression), r.filter_expression);
  w.OptionalString(name(kReadProjectionExpression), r.projection_expression);
  w.NameMap(name(kReadNames), r.expression_attribute_names);
  w.ValueMap(name(kReadValues), r.expression_attribute_values);
  if constexpr (kQuery) {
    w.Conditions(name(kReadKeyConditions), r.key_conditions);
    w.Conditions(name(kReadFilter), r.query_filter);
  } else {
    w.Conditions(name(kReadFilter), r.scan_filter);
  }
  w.OptionalConditionalOperator(name(kReadConditionalOperator), r.conditional_operator);
  w.StringList(name(kReadAttributesToGet), r.attributes_to_get);
  w.OptionalEnum(name(kReadSelect), r.select, kSelectNames);
  w.OptionalInt(name(kReadLimit), r.limit);
  if constexpr (kQuery) w.OptionalBool(name(kReadScanIndexForward), r.scan_index_forward);
  w.TrueBool(name(kReadConsistentRead), r.consistent_read);
  w.OptionalItem(name(kReadExclusiveStartKey), r.exclusive_start_key);
  w.Enum(name(kReadReturnConsumedCapacity), r.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  if constexpr (!kQuery) {
    w.OptionalInt(name(kReadSegment), r.segment);
    w.OptionalInt(name(kReadTotalSegments), r.total_segments);
  }
  body.writer().EndObject();
  return body.Text();
}

}  // namespace

Result<QueryRequest> DecodeQueryRequest(const JsonValue& body) {
  Members m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "Query", kQueryMembers, m));

  Constraints c;
  SelectAndIndex(c, m);
  Capacity(c, m);
  c.Conditions(m[kReadFilter], "queryFilter");
  TableName(c, m[kReadTableName]);
  ConditionalOperator(c, m);
  c.ListLength(m[kReadAttributesToGet], 1, 255, "attributesToGet");
  // Query's Limit text names the member `Limit` and echoes no value (live captures, e.g.
  // faiface/fakecloud's Query handler and its conformance suite); Scan keeps "Value '0' at
  // 'limit'" in most regions (DynamoDB's new validation texts reached Scan in four regions only,
  // September 2026).
  if (m[kReadLimit] != nullptr && IntegerOf(*m[kReadLimit]) < 1 && !c.full()) {
    c.violations().Add(
        "Value at 'Limit' failed to satisfy constraint: Member must have value greater than or "
        "equal to 1");
  }
  c.Conditions(m[kReadKeyConditions], "keyConditions");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  expr::RequestParameters parameters;
  parameters.attributes_to_get = m[kReadAttributesToGet] != nullptr;
  parameters.query_filter = m[kReadFilter] != nullptr;
  parameters.conditional_operator = m[kReadConditionalOperator] != nullptr;
  parameters.key_conditions = m[kReadKeyConditions] != nullptr;
  parameters.projection_expression = m[kReadProjectionExpression] != nullptr;
  parameters.filter_expression = m[kReadFilterExpression] != nullptr;
  parameters.key_condition_expression = m[kReadKeyConditionExpression] != nullptr;
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  QueryRequest request;
  request.table_name = std::string(StringOf(*m[kReadTableName]));
  PARTSTORE_ASSIGN_OR_RETURN(request.query_filter, DecodeConditions(m[kReadFilter]));
  PARTSTORE_ASSIGN_OR_RETURN(request.exclusive_start_key,
                             DecodeStartKey(m[kReadExclusiveStartKey]));
  PARTSTORE_ASSIGN_OR_RETURN(request.key_conditions, DecodeConditions(m[kReadKeyConditions]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_values, DecodeValueMap(m[kReadValues]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_names, DecodeNameMap(m[kReadNames]));
  request.index_name = OptionalString(m[kReadIndexName]);
  request.key_condition_expression = OptionalString(m[kReadKeyConditionExpression]);
  request.filter_expression = OptionalString(m[kReadFilterExpression]);
  request.projection_expression = OptionalString(m[kReadProjectionExpression]);
  request.conditional_operator = ConditionalOperatorOf(m[kReadConditionalOperator]);
  request.attributes_to_get = DecodeStringList(m[kReadAttributesToGet]);
  if (m[kReadSelect]) request.select = EnumOf(m[kReadSelect], kSelectNames, Select::kAllAttributes);
  request.limit = Int32Of(m[kReadLimit]);
  if (m[kReadScanIndexForward]) request.scan_index_forward = BooleanOf(*m[kReadScanIndexForward]);
  request.consistent_read = m[kReadConsistentRead] && BooleanOf(*m[kReadConsistentRead]);
  request.return_consumed_capacity = EnumOf(
      m[kReadReturnConsumedCapacity], kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  return request;
}

std::string EncodeQueryRequest(const QueryRequest& request) {
  return EncodeReadRequest(request, kQueryMembers);
}

Result<ScanRequest> DecodeScanRequest(const JsonValue& body) {
  Members m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "Scan", kScanMembers, m));

  Constraints c;
  SelectAndIndex(c, m);
  c.Range(m[kReadTotalSegments], 1, 1000000, "totalSegments");
  Capacity(c, m);
  TableName(c, m[kReadTableName]);
  ConditionalOperator(c, m);
  c.Conditions(m[kReadFilter], "scanFilter");
  c.Range(m[kReadSegment], 0, 999999, "segment");
  c.ListLength(m[kReadAttributesToGet], 1, 255, "attributesToGet");
  c.Range(m[kReadLimit], 1, kIntMax, "limit");
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  expr::RequestParameters parameters;
  parameters.attributes_to_get = m[kReadAttributesToGet] != nullptr;
  parameters.scan_filter = m[kReadFilter] != nullptr;
  parameters.conditional_operator = m[kReadConditionalOperator] != nullptr;
  parameters.projection_expression = m[kReadProjectionExpression] != nullptr;
  parameters.filter_expression = m[kReadFilterExpression] != nullptr;
  PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

  ScanRequest request;
  request.table_name = std::string(StringOf(*m[kReadTableName]));
  PARTSTORE_ASSIGN_OR_RETURN(request.scan_filter, DecodeConditions(m[kReadFilter]));
  PARTSTORE_ASSIGN_OR_RETURN(request.exclusive_start_key,
                             DecodeStartKey(m[kReadExclusiveStartKey]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_values, DecodeValueMap(m[kReadValues]));
  PARTSTORE_ASSIGN_OR_RETURN(request.expression_attribute_names, DecodeNameMap(m[kReadNames]));
  request.index_name = OptionalString(m[kReadIndexName]);
  request.filter_expression = OptionalString(m[kReadFilterExpression]);
  request.projection_expression = OptionalString(m[kReadProjectionExpression]);
  request.conditional_operator = ConditionalOperatorOf(m[kReadConditionalOperator]);
  request.attributes_to_get = DecodeStringList(m[kReadAttributesToGet]);
  if (m[kReadSelect]) request.select = EnumOf(m[kReadSelect], kSelectNames, Select::kAllAttributes);
  request.limit = Int32Of(m[kReadLimit]);
  request.segment = Int32Of(m[kReadSegment]);
  request.total_segments = Int32Of(m[kReadTotalSegments]);
  request.consistent_read = m[kReadConsistentRead] && BooleanOf(*m[kReadConsistentRead]);
  request.return_consumed_capacity = EnumOf(
      m[kReadReturnConsumedCapacity], kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  return request;
}

std::string EncodeScanRequest(const ScanRequest& request) {
  return EncodeReadRequest(request, kScanMembers);
}

namespace {

template <typename ItemT>
void WritePageMembers(const BasicReadPageResult<ItemT>& result, JsonWriter& writer) {
  if (!result.items_omitted) {
    writer.Key("Items");
    writer.StartArray();
    for (const ItemT& item : result.items) WriteItem(item, writer);
    writer.EndArray();
  }
  writer.Key("Count");
  writer.Int(result.count);
  writer.Key("ScannedCount");
  writer.Int(result.scanned_count);
  if (result.last_evaluated_key) {
    writer.Key("LastEvaluatedKey");
    WriteItem(*result.last_evaluated_key, writer);
  }
  if (result.consumed_capacity) {
    writer.Key("ConsumedCapacity");
    WriteConsumedCapacity(*result.consumed_capacity, writer);
  }
}

template <typename ItemT>
std::string EncodePage(const BasicReadPageResult<ItemT>& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter writer(buffer);
  writer.StartObject();
  WritePageMembers(result, writer);
  writer.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace

void WriteReadPageResultMembers(const ReadPageResult& result, JsonWriter& writer) {
  WritePageMembers(result, writer);
}
void WriteReadPageResultMembers(const ReadPageViewResult& result, JsonWriter& writer) {
  WritePageMembers(result, writer);
}
std::string EncodeReadPageResult(const ReadPageResult& result) { return EncodePage(result); }
std::string EncodeReadPageResult(const ReadPageViewResult& result) { return EncodePage(result); }

Result<ReadPageResult> DecodeReadPageResult(const JsonValue& body) {
  return ReadBody<ReadPageResult>(
      body, "Query or Scan", [](const ResponseObject& o, ReadPageResult& out) {
        bool items = false;
        o.Items("Items", &out.items, &items);
        out.items_omitted = !items;
        o.Int32("Count", &out.count);
        o.Int32("ScannedCount", &out.scanned_count);
        o.Item("LastEvaluatedKey", &out.last_evaluated_key);
        ReadConsumedCapacity(o, "ConsumedCapacity", &out.consumed_capacity);
      });
}

}  // namespace partstore::protocol
