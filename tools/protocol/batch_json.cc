// BatchGetItem and BatchWriteItem JSON (see operations_json.h).
//
// Checks, in order:
//   1. shape (request_json.h);
//   2. an absent or empty RequestItems: "The requestItems parameter is required for
//      BatchGetItem" (BatchWriteItem), before any model constraint (architect/dynalite
//      test/batchGetItem.js against DynamoDB, where it wins over a bad ReturnConsumedCapacity;
//      nubo-db/dynamodb-conformance tests/tier3/error-messages/batchWriteItem.test.ts);
//   3. model constraints: returnConsumedCapacity (and returnItemCollectionMetrics), then per
//      table in request order its name ("Map keys must satisfy constraint: [...]", dynalite
//      validations/batchWriteItem.js), its list length ("Map value must satisfy constraint:
//      [Member must have length less than or equal to 25, Member must have length greater than
//      or equal to 1]", live capture in dynamodb-conformance captures/2026-06-09; for
//      BatchGetItem the Keys list's 1..100 at 'requestItems.<T>.member.keys'), then the members
//      of each request ('requestItems.<T>.member.keys' not null: dynalite test/batchGetItem.js);
//   4. a WriteRequest with neither PutRequest nor DeleteRequest: "Supplied AttributeValue has
//      more than one datatypes set, must contain exactly one of the supported datatypes" (sic;
//      dynalite validations/batchWriteItem.js, reproducing DynamoDB); partstore gives the same
//      for one with both (unverified);
//   5. values, table by table in request order.
// The echoed value of a map or list constraint is Java's toString of the request objects, whose
// format DynamoDB keeps changing (captures show the AWS SDK v2 builder format with a
// workloadProfileName member); partstore echoes "{<table>=[<n> requests]}" style text
// (unverified: clients should match on the constraint text, as the conformance suite does).
#include <rapidjson/stringbuffer.h>

#include <array>

#include "tools/protocol/client_data_json.h"
#include "tools/protocol/operations_json.h"
#include "tools/protocol/request_json.h"

namespace partstore::protocol {
namespace {

constexpr std::string_view kEmptyWriteRequest =
    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the "
    "supported datatypes";

// The member names of a KeysAndAttributes and of a WriteRequest, as the decoders read them and
// the encoders write them.
constexpr std::string_view kKeys = "Keys";
constexpr std::string_view kProjectionExpression = "ProjectionExpression";
constexpr std::string_view kExpressionAttributeNames = "ExpressionAttributeNames";
constexpr std::string_view kAttributesToGet = "AttributesToGet";
constexpr std::string_view kConsistentRead = "ConsistentRead";
constexpr std::string_view kPutRequest = "PutRequest";
constexpr std::string_view kDeleteRequest = "DeleteRequest";
constexpr std::string_view kPutRequestItem = "Item";
constexpr std::string_view kDeleteRequestKey = "Key";
// The results' members.
constexpr std::string_view kResponses = "Responses";
constexpr std::string_view kUnprocessedKeys = "UnprocessedKeys";
constexpr std::string_view kUnprocessedItems = "UnprocessedItems";

// RequestItems' tables and the size of each (its Keys, or its list of write requests).
std::vector<ConstraintViolations::RequestItemsEntry> RequestItemsOf(const JsonValue& items) {
  std::vector<ConstraintViolations::RequestItemsEntry> tables;
  for (const auto& entry : items.GetObject()) {
    // BatchWriteItem's value is the list of requests, BatchGetItem's a KeysAndAttributes.
    const JsonValue* list = entry.value.IsArray() ? &entry.value : Field(entry.value, kKeys);
    tables.push_back({StringOf(entry.name), list != nullptr && list->IsArray() ? list->Size() : 0});
  }
  return tables;
}

void TableNames(Constraints& c, const JsonValue& request_items, std::string_view element) {
  if (!c.full()) c.violations().RequestItemsNames(RequestItemsOf(request_items), element);
}

enum BatchGetMember {
  kBatchGetRequestItems,
  kBatchGetReturnConsumedCapacity,
  kBatchGetMemberCount
};
constexpr MemberSpec kBatchGetMembers[kBatchGetMemberCount] = {
    {"RequestItems", Shape::kBatchGetItems},
    {"ReturnConsumedCapacity", Shape::kString},
};

enum BatchWriteMember {
  kBatchWriteRequestItems,
  kBatchWriteReturnConsumedCapacity,
  kBatchWriteReturnItemCollectionMetrics,
  kBatchWriteMemberCount,
};
constexpr MemberSpec kBatchWriteMembers[kBatchWriteMemberCount] = {
    {"RequestItems", Shape::kBatchWriteItems},
    {"ReturnConsumedCapacity", Shape::kString},
    {"ReturnItemCollectionMetrics", Shape::kString},
};

// One table's KeysAndAttributes object (RequestItems of a request, UnprocessedKeys of a result).
void WriteKeysAndAttributes(const KeysAndAttributes& keys, JsonWriter& writer) {
  MemberWriter w(writer);
  writer.StartObject();
  w.Key(kKeys);
  writer.StartArray();
  for (const Item& key : keys.keys) WriteItem(key, writer);
  writer.EndArray();
  w.OptionalString(kProjectionExpression, keys.projection_expression);
  w.NameMap(kExpressionAttributeNames, keys.expression_attribute_names);
  w.StringList(kAttributesToGet, keys.attributes_to_get);
  w.TrueBool(kConsistentRead, keys.consistent_read);
  writer.EndObject();
}

// "<key>": {"<table>": <KeysAndAttributes>, ...}.
void WriteKeysByTable(std::string_view key,
                      const std::vector<std::pair<std::string, KeysAndAttributes>>& tables,
                      JsonWriter& w) {
  Key(w, key);
  w.StartObject();
  for (const auto& [table, keys] : tables) {
    Key(w, table);
    WriteKeysAndAttributes(keys, w);
  }
  w.EndObject();
}

// "<key>": {"<table>": [{"PutRequest": {"Item": ...}} | {"DeleteRequest": {"Key": ...}}, ...]}.
void WriteWritesByTable(
    std::string_view key,
    const std::vector<std::pair<std::string, std::vector<WriteRequest>>>& tables, JsonWriter& w) {
  Key(w, key);
  w.StartObject();
  for (const auto& [table, writes] : tables) {
    Key(w, table);
    w.StartArray();
    for (const WriteRequest& write : writes) {
      w.StartObject();
      const bool put = write.kind == WriteRequest::Kind::kPut;
      Key(w, put ? kPutRequest : kDeleteRequest);
      w.StartObject();
      Key(w, put ? kPutRequestItem : kDeleteRequestKey);
      WriteItem(write.item, w);
      w.EndObject();
      w.EndObject();
    }
    w.EndArray();
  }
  w.EndObject();
}

}  // namespace

Result<BatchGetItemRequest> DecodeBatchGetItemRequest(const JsonValue& body) {
  std::array<const JsonValue*, kBatchGetMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "BatchGetItem", kBatchGetMembers, m));
  const JsonValue* items = m[kBatchGetRequestItems];
  if (items == nullptr || items->MemberCount() == 0) {
    return Status::Validation("The requestItems parameter is required for BatchGetItem");
  }

  Constraints c;
  c.Enum(m[kBatchGetReturnConsumedCapacity], kReturnConsumedCapacityNames,
         kReturnConsumedCapacitySet, "returnConsumedCapacity");
  TableNames(c, *items, "key");
  for (const auto& entry : items->GetObject()) {
    if (entry.value.IsNull()) continue;
    const std::string prefix = "requestItems." + std::string(StringOf(entry.name)) + ".member.";
    const JsonValue* keys = Field(entry.value, kKeys);
    c.Required(keys, prefix + "keys");
    if (keys != nullptr && !c.full()) {
      // No upper bound here: more than 100 keys answers DynamoDB's documented "Too many items
      // requested for the BatchGetItem call" (BatchGetItem's API reference), from the engine.
      c.violations().CollectionLength("[" + std::to_string(keys->Size()) + " keys]", keys->Size(),
                                      1, SIZE_MAX, prefix + "keys");
    }
    c.ListLength(Field(entry.value, kAttributesToGet), 1, 255, prefix + "attributesToGet");
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  BatchGetItemRequest request;
  request.return_consumed_capacity =
      EnumOf(m[kBatchGetReturnConsumedCapacity], kReturnConsumedCapacityNames,
             ReturnConsumedCapacity::kNone);
  for (const auto& entry : items->GetObject()) {
    const std::string table(StringOf(entry.name));
    std::erase_if(request.request_items, [&](const auto& t) { return t.first == table; });
    if (entry.value.IsNull()) continue;
    const JsonValue* projection = Field(entry.value, kProjectionExpression);
    const JsonValue* attributes_to_get = Field(entry.value, kAttributesToGet);
    expr::RequestParameters parameters;
    parameters.attributes_to_get = attributes_to_get != nullptr;
    parameters.projection_expression = projection != nullptr;
    PARTSTORE_RETURN_IF_ERROR(expr::CheckParameterMixing(parameters));

    KeysAndAttributes keys_and_attributes;
    for (const JsonValue& key : Field(entry.value, kKeys)->GetArray()) {
      PARTSTORE_ASSIGN_OR_RETURN(Item decoded, DecodeItem(key));
      keys_and_attributes.keys.push_back(std::move(decoded));
    }
    keys_and_attributes.projection_expression = OptionalString(projection);
    PARTSTORE_ASSIGN_OR_RETURN(keys_and_attributes.expression_attribute_names,
                               DecodeNameMap(Field(entry.value, kExpressionAttributeNames)));
    keys_and_attributes.attributes_to_get = DecodeStringList(attributes_to_get);
    const JsonValue* consistent = Field(entry.value, kConsistentRead);
    keys_and_attributes.consistent_read = consistent && BooleanOf(*consistent);
    request.request_items.emplace_back(table, std::move(keys_and_attributes));
  }
  return request;
}

std::string EncodeBatchGetItemRequest(const BatchGetItemRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  WriteKeysByTable(kBatchGetMembers[kBatchGetRequestItems].name, request.request_items,
                   body.writer());
  w.Enum(kBatchGetMembers[kBatchGetReturnConsumedCapacity].name, request.return_consumed_capacity,
         kReturnConsumedCapacityNames, ReturnConsumedCapacity::kNone);
  body.writer().EndObject();
  return body.Text();
}

Result<BatchWriteItemRequest> DecodeBatchWriteItemRequest(const JsonValue& body) {
  std::array<const JsonValue*, kBatchWriteMemberCount> m;
  PARTSTORE_RETURN_IF_ERROR(ReadMembers(body, "BatchWriteItem", kBatchWriteMembers, m));
  const JsonValue* items = m[kBatchWriteRequestItems];
  if (items == nullptr || items->MemberCount() == 0) {
    return Status::Validation("The requestItems parameter is required for BatchWriteItem");
  }

  Constraints c;
  c.Enum(m[kBatchWriteReturnConsumedCapacity], kReturnConsumedCapacityNames,
         kReturnConsumedCapacitySet, "returnConsumedCapacity");
  c.Enum(m[kBatchWriteReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
         kReturnItemCollectionMetricsSet, "returnItemCollectionMetrics");
  TableNames(c, *items, "request");
  if (!c.full())
    c.violations().RequestItemsWriteLists(RequestItemsOf(*items), kMaxBatchWriteRequests);
  for (const auto& entry : items->GetObject()) {
    if (entry.value.IsNull()) continue;
    const std::string prefix = "requestItems." + std::string(StringOf(entry.name)) + ".member.";
    for (size_t i = 0; i < entry.value.Size(); ++i) {
      const JsonValue& write = entry.value[static_cast<rapidjson::SizeType>(i)];
      const std::string path = prefix + std::to_string(i + 1) + ".member.";
      if (const JsonValue* put = Field(write, kPutRequest)) {
        c.Required(Field(*put, kPutRequestItem), path + "putRequest.item");
      }
      if (const JsonValue* del = Field(write, kDeleteRequest)) {
        c.Required(Field(*del, kDeleteRequestKey), path + "deleteRequest.key");
      }
    }
  }
  PARTSTORE_RETURN_IF_ERROR(c.ToStatus());

  for (const auto& entry : items->GetObject()) {
    if (!entry.value.IsArray()) continue;
    for (const JsonValue& write : entry.value.GetArray()) {
      const bool put = Field(write, kPutRequest) != nullptr;
      const bool del = Field(write, kDeleteRequest) != nullptr;
      if (put == del) return Status::Validation(std::string(kEmptyWriteRequest));
    }
  }

  BatchWriteItemRequest request;
  request.return_consumed_capacity =
      EnumOf(m[kBatchWriteReturnConsumedCapacity], kReturnConsumedCapacityNames,
             ReturnConsumedCapacity::kNone);
  request.return_item_collection_metrics =
      EnumOf(m[kBatchWriteReturnItemCollectionMetrics], kReturnItemCollectionMetricsNames,
             ReturnItemCollectionMetrics::kNone);
  for (const auto& entry : items->GetObject()) {
    const std::string table(StringOf(entry.name));
    std::erase_if(request.request_items, [&](const auto& t) { return t.first == table; });
    if (!entry.value.IsArray()) continue;
    std::vector<WriteRequest> writes;
    writes.reserve(entry.value.Size());
    for (const JsonValue& write : entry.value.GetArray()) {
      WriteRequest decoded;
      if (const JsonValue* put = Field(write, kPutRequest)) {
        decoded.kind = WriteRequest::Kind::kPut;
        PARTSTORE_ASSIGN_OR_RETURN(decoded.item, DecodeItem(*Field(*put, kPutRequestItem)));
      } else {
        decoded.kind = WriteRequest::Kind::kDelete;
        PARTSTORE_ASSIGN_OR_RETURN(
            decoded.item, DecodeItem(*Field(*Field(write, kDeleteRequest), kDeleteRequestKey)));
      }
      writes.push_back(std::move(decoded));
    }
    request.request_items.emplace_back(table, std::move(writes));
  }
  return request;
}

std::string EncodeBatchWriteItemRequest(const BatchWriteItemRequest& request) {
  JsonBody body;
  body.writer().StartObject();
  MemberWriter w(body.writer());
  WriteWritesByTable(kBatchWriteMembers[kBatchWriteRequestItems].name, request.request_items,
                     body.writer());
  w.Enum(kBatchWriteMembers[kBatchWriteReturnConsumedCapacity].name,
         request.return_consumed_capacity, kReturnConsumedCapacityNames,
         ReturnConsumedCapacity::kNone);
  w.Enum(kBatchWriteMembers[kBatchWriteReturnItemCollectionMetrics].name,
         request.return_item_collection_metrics, kReturnItemCollectionMetricsNames,
         ReturnItemCollectionMetrics::kNone);
  body.writer().EndObject();
  return body.Text();
}

std::string EncodeBatchGetItemResult(const BatchGetItemResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  Key(w, kResponses);
  w.StartObject();
  for (const auto& [table, items] : result.responses) {
    Key(w, table);
    w.StartArray();
    for (const Item& item : items) WriteItem(item, w);
    w.EndArray();
  }
  w.EndObject();
  WriteKeysByTable(kUnprocessedKeys, result.unprocessed_keys, w);
  WriteConsumedCapacityList(result.consumed_capacity, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

void WriteBatchWriteItemResultMembers(const BatchWriteItemResult& result, JsonWriter& w) {
  WriteWritesByTable(kUnprocessedItems, result.unprocessed_items, w);
  WriteConsumedCapacityList(result.consumed_capacity, w);
  WriteItemCollectionMetricsByTable(result.item_collection_metrics, w);
}

std::string EncodeBatchWriteItemResult(const BatchWriteItemResult& result) {
  rapidjson::StringBuffer buffer;
  JsonWriter w(buffer);
  w.StartObject();
  WriteBatchWriteItemResultMembers(result, w);
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

// ---- Results, read back (client_data_json.h) ----

namespace {

void ReadKeysAndAttributes(const ResponseObject& o, KeysAndAttributes* out) {
  o.Items(kKeys, &out->keys);
  o.String(kProjectionExpression, &out->projection_expression);
  if (o.Find(kExpressionAttributeNames) != nullptr) {
    expr::NameMap& names = out->expression_attribute_names.emplace();
    o.Map(kExpressionAttributeNames, [&](std::string_view placeholder, const ResponseObject& map) {
      std::string name;
      map.String(placeholder, &name);
      names.insert_or_assign(std::string(placeholder), std::move(name));
    });
  }
  o.StringList(kAttributesToGet, &out->attributes_to_get);
  o.Bool(kConsistentRead, &out->consistent_read);
}

void ReadWriteRequest(const ResponseObject& write, std::vector<WriteRequest>* out) {
  const bool put = write.Find(kPutRequest) != nullptr;
  if (put == (write.Find(kDeleteRequest) != nullptr)) {
    return write.Fail("", "one PutRequest or one DeleteRequest");
  }
  WriteRequest decoded;
  decoded.kind = put ? WriteRequest::Kind::kPut : WriteRequest::Kind::kDelete;
  const std::string_view member = put ? kPutRequestItem : kDeleteRequestKey;
  write.Object(put ? kPutRequest : kDeleteRequest, [&](const ResponseObject& request) {
    if (request.Find(member) == nullptr) return request.Fail(member, "present");
    request.Item(member, &decoded.item);
  });
  out->push_back(std::move(decoded));
}

}  // namespace

Result<BatchGetItemResult> DecodeBatchGetItemResult(const JsonValue& body) {
  return ReadBody<BatchGetItemResult>(
      body, "BatchGetItem", [](const ResponseObject& o, BatchGetItemResult& out) {
        o.Map(kResponses, [&](std::string_view table, const ResponseObject& map) {
          std::vector<Item> items;
          map.Items(table, &items);
          out.responses.emplace_back(std::string(table), std::move(items));
        });
        o.Map(kUnprocessedKeys, [&](std::string_view table, const ResponseObject& map) {
          KeysAndAttributes keys;
          map.Object(table, [&](const ResponseObject& k) { ReadKeysAndAttributes(k, &keys); });
          out.unprocessed_keys.emplace_back(std::string(table), std::move(keys));
        });
        ReadConsumedCapacityList(o, &out.consumed_capacity);
      });
}

Result<BatchWriteItemResult> DecodeBatchWriteItemResult(const JsonValue& body) {
  return ReadBody<BatchWriteItemResult>(
      body, "BatchWriteItem", [](const ResponseObject& o, BatchWriteItemResult& out) {
        o.Map(kUnprocessedItems, [&](std::string_view table, const ResponseObject& map) {
          std::vector<WriteRequest> writes;
          map.Objects(table, [&](const ResponseObject& w) { ReadWriteRequest(w, &writes); });
          out.unprocessed_items.emplace_back(std::string(table), std::move(writes));
        });
        ReadConsumedCapacityList(o, &out.consumed_capacity);
        ReadItemCollectionMetricsByTable(o, &out.item_collection_metrics);
      });
}

}  // namespace partstore::protocol
