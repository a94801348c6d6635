// The data plane's client side: each item, read, batch, transaction and PartiQL operation's
// request encoder and result decoder, the reverse of operations_json.h / transaction_json.h /
// partiql_json.h. Each encoder sits beside its operation's request decoder and each decoder
// beside its result encoder (item_json.cc, read_json.cc, batch_json.cc, transaction_json.cc,
// partiql_json.cc), so that both directions of one shape are read and changed together.
//
// Encoders write the request body an AWS SDK sends, as DynamoDB JSON 1.0: DynamoDB's member names,
// in the order of the decoder's member table; an absent std::optional member is omitted; an enum
// member holding the value DynamoDB assumes when it is absent (ReturnValues NONE,
// ReturnValuesOnConditionCheckFailure NONE, ReturnConsumedCapacity NONE,
// ReturnItemCollectionMetrics NONE) and ConsistentRead false are omitted; items, keys and
// AttributeValues go through WriteItem / WriteAttributeValue. Encoding never fails and validates
// nothing: the server does. A struct member the operation's wire shape has no place for is not
// written: in a transaction action, the legacy members (Expected, ConditionalOperator,
// AttributeUpdates) and ReturnValues / ReturnConsumedCapacity / ReturnItemCollectionMetrics of the
// reused single-item structs; in a TransactGetItem, ConsistentRead, AttributesToGet and
// ReturnConsumedCapacity. The engine refuses a transaction with legacy members; a client must
// refuse them before encoding, or the condition is silently lost.
//
// Decoders read the body of a 200 response, parsed with ParseJson. The body comes from a remote
// server and is not trusted: no input makes a decoder crash, assert, throw, recurse deeper than a
// fixed number of levels (AttributeValues: DecodeItem's nesting limit) or allocate more than a
// constant times the body's size. Rules:
//   - a member of the wrong JSON type, a number the struct cannot hold, an enum-like value the
//     struct has no way to hold, an item DecodeItem refuses: Status kInternal
//     "malformed <Op> response: <path> is not <what>", <path> naming the member as
//     Items[3].name or ConsumedCapacity.Table.CapacityUnits ("the body" for the body itself); an
//     item's or an AttributeValue's error appends DecodeItem's message after a colon;
//   - unknown members are ignored (DynamoDB adds members over time), a null member is absent, a
//     repeated member keeps its last occurrence (as the request decoders);
//   - an absent member leaves the struct's default: an absent Count is 0, a Query / Scan page
//     without Items has items_omitted (Select=COUNT), an ExecuteTransaction without Responses
//     has responses == nullopt;
//   - CapacityUnits must be a non-negative number; it is kept as half units, a value between two
//     halves rounded up (DynamoDB reports multiples of 0.5).
//
// Thread safety: free functions; thread-safe for distinct arguments. MemberWriter, JsonBody and
// ResponseObject are not thread-safe.
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partstore/batch_requests.h"
#include "partstore/consumed_capacity.h"
#include "partstore/expression_parameters.h"
#include "partstore/item.h"
#include "partstore/item_requests.h"
#include "partstore/partiql_requests.h"
#include "partstore/read_requests.h"
#include "partstore/status.h"
#include "partstore/transaction_requests.h"
#include "tools/protocol/attribute_value_json.h"

namespace partstore::protocol {

// ---- Items (item_json.cc) ----
std::string EncodePutItemRequest(const PutItemRequest& request);
std::string EncodeGetItemRequest(const GetItemRequest& request);
std::string EncodeUpdateItemRequest(const UpdateItemRequest& request);
std::string EncodeDeleteItemRequest(const DeleteItemRequest& request);
Result<PutItemResult> DecodePutItemResult(const rapidjson::Value& body);
Result<GetItemResult> DecodeGetItemResult(const rapidjson::Value& body);
Result<UpdateItemResult> DecodeUpdateItemResult(const rapidjson::Value& body);
Result<DeleteItemResult> DecodeDeleteItemResult(const rapidjson::Value& body);

// ---- Query and Scan (read_json.cc) ----
std::string EncodeQueryRequest(const QueryRequest& request);
std::string EncodeScanRequest(const ScanRequest& request);
// Query's and Scan's answer alike (messages name the operation "Query/Scan").
Result<ReadPageResult> DecodeReadPageResult(const rapidjson::Value& body);

// ---- Batches (batch_json.cc) ----
std::string EncodeBatchGetItemRequest(const BatchGetItemRequest& request);
std::string EncodeBatchWriteItemRequest(const BatchWriteItemRequest& request);
// Tables in the body's member order.
Result<BatchGetItemResult> DecodeBatchGetItemResult(const rapidjson::Value& body);
Result<BatchWriteItemResult> DecodeBatchWriteItemResult(const rapidjson::Value& body);

// ---- Transactions (transaction_json.cc) ----
std::string EncodeTransactWriteItemsRequest(const TransactWriteItemsRequest& request);
std::string EncodeTransactGetItemsRequest(const TransactGetItemsRequest& request);
Result<TransactWriteItemsResult> DecodeTransactWriteItemsResult(const rapidjson::Value& body);
Result<TransactGetItemsResult> DecodeTransactGetItemsResult(const rapidjson::Value& body);

// ---- PartiQL (partiql_json.cc) ----
std::string EncodeExecuteStatementRequest(const ExecuteStatementRequest& request);
std::string EncodeBatchExecuteStatementRequest(const BatchExecuteStatementRequest& request);
std::string EncodeExecuteTransactionRequest(const ExecuteTransactionRequest& request);
Result<ExecuteStatementResult> DecodeExecuteStatementResult(const rapidjson::Value& body);
// A statement's Error is kept as sent: its Code is any string (BatchStatementError.code).
Result<BatchExecuteStatementResult> DecodeBatchExecuteStatementResult(const rapidjson::Value& body);
Result<ExecuteTransactionResult> DecodeExecuteTransactionResult(const rapidjson::Value& body);

// ---- Shared pieces of the encoders (request_json.cc) ----

// A whole JSON text being written: the buffer and its writer.
class JsonBody {
 public:
  JsonBody() : writer_(buffer_) {}
  JsonBody(const JsonBody&) = delete;
  JsonBody& operator=(const JsonBody&) = delete;

  JsonWriter& writer() { return writer_; }
  // The text written so far. REQUIRES: one complete JSON value has been written.
  std::string Text() const { return {buffer_.GetString(), buffer_.GetSize()}; }

 private:
  rapidjson::StringBuffer buffer_;
  JsonWriter writer_;
};

// Writes request members ("key": value) into the object the caller has started. The Optional*
// and enum forms write nothing for an absent value or for the enum's `omitted` value.
class MemberWriter {
 public:
  explicit MemberWriter(JsonWriter& writer) : w_(writer) {}

  void Key(std::string_view key);
  void String(std::string_view key, std::string_view value);
  void OptionalString(std::string_view key, const std::optional<std::string>& value);
  void Item(std::string_view key, const partstore::Item& item);
  void OptionalItem(std::string_view key, const std::optional<partstore::Item>& item);
  // Written only when true.
  void TrueBool(std::string_view key, bool value);
  void OptionalBool(std::string_view key, std::optional<bool> value);
  void OptionalInt(std::string_view key, std::optional<int32_t> value);
  void NameMap(std::string_view key, const std::optional<expr::NameMap>& names);
  void ValueMap(std::string_view key, const std::optional<AttributeMap>& values);
  void StringList(std::string_view key, const std::optional<std::vector<std::string>>& list);
  void ValueList(std::string_view key, const std::optional<std::vector<Value>>& list);
  // Legacy members: {"name": {"Value"?, "Exists"?, "ComparisonOperator"?,
  // "AttributeValueList"?}}, {"name": {"AttributeValueList"? (omitted when empty),
  // "ComparisonOperator"}}, {"name": {"Value"?, "Action"?}}.
  void Expected(std::string_view key,
                const std::optional<std::vector<expr::ExpectedAttribute>>& expected);
  void Conditions(std::string_view key,
                  const std::optional<std::vector<expr::AttributeCondition>>& conditions);
  void AttributeUpdates(std::string_view key,
                        const std::optional<std::vector<expr::AttributeUpdate>>& updates);
  void OptionalConditionalOperator(std::string_view key,
                                   std::optional<expr::ConditionalOperator> op);
  // `names` holds the enum's spellings, index = value (request_json.h's k*Names tables).
  template <typename E>
  void Enum(std::string_view key, E value, std::span<const std::string_view> names, E omitted) {
    if (value != omitted) EnumName(key, static_cast<size_t>(value), names);
  }
  template <typename E>
  void OptionalEnum(std::string_view key, std::optional<E> value,
                    std::span<const std::string_view> names) {
    if (value) EnumName(key, static_cast<size_t>(*value), names);
  }

  JsonWriter& writer() { return w_; }

 private:
  void EnumName(std::string_view key, size_t index, std::span<const std::string_view> names);

  JsonWriter& w_;
};

// ---- Shared pieces of the decoders (consumed_capacity_json.cc) ----

// Where a member of a response stands, for the messages of malformed responses: a chain of
// frames, each referring to its parent. REQUIRES: a frame never outlives its parent (make them
// as locals or temporaries while descending).
class ResponsePath {
 public:
  // The body of `operation`'s response.
  explicit ResponsePath(std::string_view operation) : operation_(operation) {}
  ResponsePath Member(std::string_view name) const { return ResponsePath(this, name, kNoIndex); }
  ResponsePath Index(size_t index) const { return ResponsePath(this, {}, index); }

  // "Items[3].name", or "the body".
  std::string ToString() const;
  // kInternal "malformed <operation> response: <path> is not <what>".
  Status Malformed(std::string_view what) const;
  // The same, with ": <cause's message>" appended.
  Status Malformed(std::string_view what, const Status& cause) const;

 private:
  static constexpr size_t kNoIndex = static_cast<size_t>(-1);
  ResponsePath(const ResponsePath* parent, std::string_view name, size_t index)
      : parent_(parent), operation_(parent->operation_), name_(name), index_(index) {}

  const ResponsePath* parent_ = nullptr;
  std::string_view operation_;
  std::string_view name_;  // a member's name, or empty with index_ for a list element
  size_t index_ = kNoIndex;
};

// One object of a response, read member by member. Each reader leaves `*out` unchanged when the
// member is absent (or null) and fails with the member's path when it has the wrong type.
// REQUIRES: the ResponseObject does not outlive `path`.
class ResponseObject {
 public:
  // Fails with "is not an object" unless `json` is an object.
  static Result<ResponseObject> Open(const rapidjson::Value& json, const ResponsePath& path);

  // The member's value (its last occurrence), or null when absent or null.
  const rapidjson::Value* Find(std::string_view name) const;
  const ResponsePath& path() const { return *path_; }

  Status String(std::string_view name, std::string* out) const;
  Status String(std::string_view name, std::optional<std::string>* out) const;
  Status Int32(std::string_view name, int32_t* out) const;
  Status Item(std::string_view name, std::optional<partstore::Item>* out) const;
  // A list of items; `*present` (if given) tells whether the member was there.
  Status Items(std::string_view name, std::vector<partstore::Item>* out,
               bool* present = nullptr) const;
  Status ConsumedCapacity(std::string_view name,
                          std::optional<partstore::ConsumedCapacity>* out) const;
  // The multi-table forms (as WriteConsumedCapacityList / WriteItemCollectionMetricsByTable
  // write them): "ConsumedCapacity": [...], "ItemCollectionMetrics": {table: [...]}.
  Status ConsumedCapacityList(std::vector<partstore::ConsumedCapacity>* out) const;
  Status ItemCollectionMetrics(std::optional<partstore::ItemCollectionMetrics>* out) const;
  Status ItemCollectionMetricsByTable(
      std::vector<std::pair<std::string, std::vector<partstore::ItemCollectionMetrics>>>* out)
      const;

 private:
  ResponseObject(const rapidjson::Value& json, const ResponsePath& path)
      : json_(&json), path_(&path) {}

  const rapidjson::Value* json_;
  const ResponsePath* path_;
};

// One item (an object DecodeItem accepts) at `path`: "is not an item" / "is not a valid item: ...".
Result<Item> ReadResponseItem(const rapidjson::Value& json, const ResponsePath& path);
// A list of {"Item"?} objects (TransactGetItems' and ExecuteTransaction's Responses): per
// element the item, or nullopt for one without an item (or a null element).
Status ReadItemResponses(const rapidjson::Value& json, const ResponsePath& path,
                         std::vector<std::optional<Item>>* out);
// One ConsumedCapacity object, as WriteConsumedCapacity writes it.
Result<ConsumedCapacity> ReadConsumedCapacity(const rapidjson::Value& json,
                                              const ResponsePath& path);
// One ItemCollectionMetrics object, as WriteItemCollectionMetrics writes it.
Result<ItemCollectionMetrics> ReadItemCollectionMetrics(const rapidjson::Value& json,
                                                        const ResponsePath& path);

}  // namespace partstore::protocol
